"""`webferret open HANDLE --page K`: read page K of a stored document by its handle (`--outline`:
its headings, each with its page; `--diff`: what changed since its reading before)."""

from __future__ import annotations

import argparse
import shlex
import sys
from typing import Any

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


def not_stored() -> str:
    from webferret.present.commands import command

    return f"(the store holds no links for this page: `{command('fetch URL --links')}` reads them)"


def exemption(url: str) -> str:
    """` --allow-host HOST` for the fetch that reads anew a page read under an SSRF exemption (an
    address the guard refuses, on a private network): without it that fetch is `blocked_address`."""
    from urllib.parse import urlsplit

    host = urlsplit(url).hostname
    return f" --allow-host {shlex.quote(host)}" if host else ""


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser("open", help="read a stored page by handle, page by page", description=__doc__)
    parser.add_argument("handle", metavar="HANDLE", help="a handle `site~hash12` (or the page's URL)")
    parser.add_argument("--page", type=whole_number(), metavar="K", help="page number (1)")
    parser.add_argument(
        "--page-tokens",
        type=whole_number(MIN_PAGE_TOKENS, unit=" of tokens per page"),
        metavar="N",
        help="tokens per page (setting page_tokens)",
    )
    parser.add_argument(
        "--outline",
        action="store_true",
        help="list the document's headings, each with its page and size, instead of a page",
    )
    parser.add_argument(
        "--diff",
        action="store_true",
        help="show what changed between the document's newest reading and the one before it",
    )
    add_links(parser, "the document's")
    add_agent_view(parser, "the page")
    add_common(parser)
    parser.set_defaults(run=run)


async def run(args: argparse.Namespace) -> int:
    from webferret.ferret import Ferret

    check_agent_view(args)
    _check_one_view(args)
    settings = settings_from_args(args)
    if args.outline or args.diff:
        return await _about(args, settings)
    async with Ferret(settings) as ferret:
        opened = await ferret.open(
            args.handle, args.page or 1, args.page_tokens, links=args.links, link_limit=args.link_limit
        )
        stored = await ferret.stored(args.handle) if args.agent or args.links else None
    if args.agent:
        from webferret.present.agent import opened_entry, render_pages

        entry = opened_entry(opened.model_dump(mode="json"), stored.page.tokens if stored else None)
        text = render_pages([entry], agent_fence(args, settings), args.page_tokens, style="cli")
        if args.links and opened.links is None:
            text += f"\n{not_stored()}"
        sys.stdout.write(text + "\n")
        return EXIT_OK
    if args.json:
        from webferret.cli.common import write_envelope
        from webferret.present.envelopes import data_envelope

        write_envelope(data_envelope(opened))
        return EXIT_OK
    from webferret.present.pages import opened_lines

    lines = opened_lines(opened)
    if args.links:
        from webferret.present.pages import link_lines

        listed = link_lines(opened.links) if opened.links is not None else [f"## Links\n{not_stored()}"]
        lines.extend(["", *listed])
        if opened.links is not None and opened.links_total:
            shown, total = len(opened.links), opened.links_total
            if shown < (args.link_limit or settings.link_limit):  # all the store kept of a page of more
                from webferret.present.commands import command

                fetch = f"fetch {shlex.quote(opened.url)} --link-limit {total}"  # `&`, `(`: a shell's
                fetch += exemption(opened.url) if stored is not None and stored.exempt else ""
                more = f"{command(fetch)} reads them all"
                lines.append(f"({shown} of {total} links kept in the store: {more})")
            else:
                from webferret.present.pages import links_shown_line

                lines.append(links_shown_line(shown, total, "--link-limit"))
    sys.stdout.write("\n".join(lines) + "\n")
    return EXIT_OK


def _check_one_view(args: argparse.Namespace) -> None:
    """`--outline` and `--diff` each answer something else than a page: neither takes another view's
    flag (`--diff` counts no pages, so no `--page-tokens` either)."""
    given = [
        flag
        for flag, on in (
            ("--outline", args.outline),
            ("--diff", args.diff),
            ("--page", args.page is not None),
            ("--links" if args.link_limit is None else "--link-limit", args.links),
            ("--page-tokens", args.diff and args.page_tokens is not None),
        )
        if on
    ]
    if (args.outline or args.diff) and len(given) > 1:
        args.parser.error(f"{given[0]} cannot be combined with {given[1]}")


async def _about(args: argparse.Namespace, settings: Any) -> int:
    """`--outline` or `--diff`: the document's headings, or what changed in it."""
    from webferret.ferret import Ferret
    from webferret.present import agent, pages

    async with Ferret(settings) as ferret:
        answer = await (
            ferret.outline(args.handle, args.page_tokens) if args.outline else ferret.diff(args.handle)
        )
    data = answer.model_dump(mode="json")
    if args.agent:
        fence = agent_fence(args, settings)
        if args.outline:
            text = agent.render_outline(data, fence, args.page_tokens, style="cli")
        else:
            text = agent.render_diff(data, fence)
        sys.stdout.write(text + "\n")
    elif args.json:
        from webferret.cli.common import write_envelope
        from webferret.present.envelopes import data_envelope

        write_envelope(data_envelope(answer))
    else:
        lines = pages.outline_lines(data, settings.page_tokens) if args.outline else pages.diff_lines(data)
        sys.stdout.write("\n".join(lines) + "\n")
    return EXIT_OK
