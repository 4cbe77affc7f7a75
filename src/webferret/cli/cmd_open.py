"""`webferret open HANDLE --page K`: read page K of a stored document by its handle."""

from __future__ import annotations

import argparse
import sys

from webferret.cli.common import EXIT_OK, add_common, settings_from_args


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser("open", help="read a stored page by handle, page by page", description=__doc__)
    parser.add_argument("handle", metavar="HANDLE", help="a handle `site~hash12` (or the page's URL)")
    parser.add_argument("--page", type=_at_least_one, default=1, metavar="K", help="page number (1)")
    parser.add_argument(
        "--page-tokens", type=_page_tokens, metavar="N", help="tokens per page (setting page_tokens)"
    )
    add_common(parser)
    parser.set_defaults(run=run)


def _at_least_one(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number from 1 up, got {text!r}")
    return value


def _page_tokens(text: str) -> int:
    value = _at_least_one(text)
    if value < 100:
        raise argparse.ArgumentTypeError(f"expected at least 100 tokens per page, got {text!r}")
    return value


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
