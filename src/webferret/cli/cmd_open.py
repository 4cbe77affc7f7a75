"""`webferret open HANDLE --page K`: read page K of a stored document by its handle."""

from __future__ import annotations

import argparse
import sys

from webferret.cli.common import (
    EXIT_OK,
    add_agent_view,
    add_common,
    add_links,
    agent_fence,
    check_agent_view,
    settings_from_args,
)
from webferret.cli.numbers import whole_number
from webferret.limits import MIN_PAGE_TOKENS

NOT_STORED = "(the store holds no links for this page: `webferret fetch URL --links` reads them)"


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser("open", help="read a stored page by handle, page by page", description=__doc__)
    parser.add_argument("handle", metavar="HANDLE", help="a handle `site~hash12` (or the page's URL)")
    parser.add_argument("--page", type=whole_number(), default=1, metavar="K", help="page number (1)")
    parser.add_argument(
        "--page-tokens",
        type=whole_number(MIN_PAGE_TOKENS, unit=" of tokens per page"),
        metavar="N",
        help="tokens per page (setting page_tokens)",
    )
    add_links(parser, "the document's")
    add_agent_view(parser, "the page")
    add_common(parser)
    parser.set_defaults(run=run)


async def run(args: argparse.Namespace) -> int:
    from webferret.ferret import Ferret

    check_agent_view(args)
    settings = settings_from_args(args)
    async with Ferret(settings) as ferret:
        opened = await ferret.open(
            args.handle, args.page, args.page_tokens, links=args.links, link_limit=args.link_limit
        )
        stored = await ferret.stored(args.handle) if args.agent else None
    if args.agent:
        from webferret.present.agent import opened_entry, render_pages

        entry = opened_entry(opened.model_dump(mode="json"), stored.page.tokens if stored else None)
        text = render_pages([entry], agent_fence(args, settings), args.page_tokens, style="cli")
        if args.links and opened.links is None:
            text += f"\n{NOT_STORED}"
        sys.stdout.write(text + "\n")
        return EXIT_OK
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
    if args.links:
        from webferret.present.pages import link_lines

        listed = link_lines(opened.links) if opened.links is not None else [f"## Links\n{NOT_STORED}"]
        lines.extend(["", *listed])
    sys.stdout.write("\n".join(lines) + "\n")
    return EXIT_OK
