"""`webferret open HANDLE --page K`: read page K of a stored document by its handle."""

from __future__ import annotations

import argparse
import sys

from webferret.cli.common import EXIT_OK, add_common, settings_from_args
from webferret.cli.numbers import whole_number


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser("open", help="read a stored page by handle, page by page", description=__doc__)
    parser.add_argument("handle", metavar="HANDLE", help="a handle `site~hash12` (or the page's URL)")
    parser.add_argument("--page", type=whole_number(), default=1, metavar="K", help="page number (1)")
    parser.add_argument(
        "--page-tokens",
        type=whole_number(100, unit=" of tokens per page"),
        metavar="N",
        help="tokens per page (setting page_tokens)",
    )
    add_common(parser)
    parser.set_defaults(run=run)


async def run(args: argparse.Namespace) -> int:
    from webferret.ferret import Ferret

    async with Ferret(settings_from_args(args)) as ferret:
        opened = await ferret.open(args.handle, page=args.page, page_tokens=args.page_tokens)
    if args.json:
        from webferret.cli.common import envelope_json

        envelope_json(True, data=opened.model_dump(mode="json"))
        return EXIT_OK
    lines = [
        f"# {opened.title or opened.url}",
        opened.url,
        f"page {opened.page} of {opened.pages} · {opened.handle} · {opened.tokens} tokens",
        "",
        opened.content.rstrip(),
    ]
    if opened.next:
        lines.extend(["", f"[continue with: {opened.next}]"])
    sys.stdout.write("\n".join(lines) + "\n")
    return EXIT_OK
