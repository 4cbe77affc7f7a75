"""`webferret fetch URL...`: read pages as clean Markdown with their metadata."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from webferret.cli.common import (
    EXIT_FAILED,
    EXIT_OK,
    add_common,
    add_network,
    add_scope,
    scope_options,
    settings_from_args,
    start_early,
)
from webferret.cli.numbers import seconds, whole_number

POSITIVE, SECONDS = whole_number(), seconds()


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser("fetch", help="read URLs as Markdown with metadata", description=__doc__)
    parser.add_argument("urls", nargs="+", metavar="URL")
    parser.add_argument("--format", choices=("markdown", "text"), help="body format (default markdown)")
    parser.add_argument("--max-chars", type=POSITIVE, metavar="N", help="clip each body at N characters")
    parser.add_argument("--timeout", type=SECONDS, metavar="S", help="per-page timeout in seconds")
    parser.add_argument("--budget", type=SECONDS, metavar="S", help="per-call budget in seconds")
    parser.add_argument("--max-bytes", type=POSITIVE, metavar="N", help="cap on decompressed bytes")
    parser.add_argument("--tier", choices=("auto", "http", "impersonate", "browser"), help="fetch tier")
    parser.add_argument("--screenshot", metavar="PATH", help="save a PNG of the rendered page (browser tier)")
    parser.add_argument("--mobile", action="store_true", default=None, help="render as a phone (browser)")
    parser.add_argument("--links", action="store_true", help="list the page's outgoing links")
    parser.add_argument("--link-limit", type=POSITIVE, metavar="N", help="most links listed (20)")
    add_scope(parser)
    parser.add_argument("--quiet", "-q", action="store_true", help="body only, for pipes")
    parser.add_argument("--fresh", action="store_true", help="skip the page store: always fetch anew")
    add_network(parser)
    add_common(parser)
    parser.add_argument("--agent", action="store_true", help="agent view: pages fenced as untrusted data")
    parser.add_argument("--datamark", action="store_true", help="with --agent: datamark page text")
    parser.set_defaults(run=run, early=_prefork)


def _prefork(args: argparse.Namespace) -> None:
    start_early(len(args.urls))


def _browser_tier(args: argparse.Namespace) -> str | None:
    """`--screenshot` needs the browser: it picks that tier, and refuses a tier without one."""
    if not args.screenshot:
        return args.tier
    from webferret.models import ErrorCode, FerretError

    if len(args.urls) > 1:
        raise FerretError(ErrorCode.INVALID_ARGUMENT, "--screenshot takes one URL (one PNG per call)")
    if args.tier in ("http", "impersonate"):
        message = f"--screenshot needs the browser, not --tier {args.tier}"
        raise FerretError(ErrorCode.INVALID_ARGUMENT, message)
    return "browser"


async def run(args: argparse.Namespace) -> int:
    from webferret.cli.pages_out import write_pages
    from webferret.ferret import Ferret
    from webferret.present.pages import clip_page

    settings = settings_from_args(args)
    async with Ferret(settings) as ferret:
        options = ferret.fetch_options(
            timeout=args.timeout,
            budget=args.budget,
            max_bytes=args.max_bytes,
            tier=_browser_tier(args),
            allow_hosts=tuple(args.allow_host or ()),
            screenshot=args.screenshot,
            mobile=args.mobile,
        )
        xopts = ferret.extract_options(
            format=args.format, links=args.links, link_limit=args.link_limit, **scope_options(args)
        )
        pages = await ferret.fetch_many(args.urls, options=options, extract=xopts, fresh=args.fresh)
    pages = [clip_page(page, args.max_chars) for page in pages]
    if args.agent and not args.json:
        sys.stdout.write(await _agent_view(settings, pages, args) + "\n")
        return EXIT_OK if all(page.ok for page in pages) else EXIT_FAILED
    return write_pages(args, pages)


async def _agent_view(settings: Any, pages: list[Any], args: argparse.Namespace) -> str:
    """Pages fenced as untrusted data; a long page shows its first page and how to read on."""
    from webferret.ferret import Ferret
    from webferret.mcp_tools import first_page_entry
    from webferret.present.agent import render_pages
    from webferret.present.fence import Fence

    budget = getattr(args, "max_tokens", None) or settings.max_tokens
    async with Ferret(settings) as ferret:  # the store, for the first page of a long page
        entries = [await first_page_entry(ferret, page, budget) for page in pages]
    fence = Fence.new(datamark=args.datamark or settings.datamark)
    return render_pages(entries, fence, budget if budget != settings.page_tokens else None, style="cli")
