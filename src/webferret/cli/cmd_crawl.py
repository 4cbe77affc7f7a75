"""`webferret crawl URL`: read a site by following its links from URL, each page kept in the store.

Lists every page read with its handle and size in tokens (`webferret open HANDLE` reads one, `webferret
find QUERY` searches them all), never their text.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from webferret.cli.common import (
    EXIT_FAILED,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_PIPE_CLOSED,
    add_agent_view,
    add_common,
    add_fetch_limits,
    add_network,
    add_site_rules,
    agent_fence,
    check_agent_view,
    fetch_limits,
    settings_from_args,
    site_rules,
)
from webferret.cli.numbers import whole_number
from webferret.limits import MAX_CRAWL_DEPTH, MAX_CRAWL_PAGES

REASONS = {
    "excluded": "excluded by --include/--exclude",
    "not_a_page": "not documents (images, media, archives)",
    "past_depth": "past --depth",
    "past_limit": "past --limit",
    "budget": "left when --budget ran out",
}
"""How the human view names why links were not followed, where it differs from the agent view's."""


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser(
        "crawl", help="read a site by following its links (pages kept in the store)", description=__doc__
    )
    parser.add_argument("url", metavar="URL", help="the page to start from")
    parser.add_argument(
        "--depth",
        type=whole_number(0, MAX_CRAWL_DEPTH),
        default=2,
        metavar="N",
        help="link hops from URL (2; 0: URL alone)",
    )
    parser.add_argument(
        "--limit",
        type=whole_number(1, MAX_CRAWL_PAGES),
        default=20,
        metavar="N",
        help=f"most pages read (20, at most {MAX_CRAWL_PAGES})",
    )
    add_site_rules(parser, "follow", "URL's folder")
    parser.add_argument(
        "--sitemap",
        action="store_true",
        help="also read the pages the site's sitemaps list (robots.txt's Sitemap lines, else /sitemap.xml)",
    )
    parser.add_argument("--fresh", action="store_true", help="skip the page store: always fetch anew")
    add_fetch_limits(parser, "the whole crawl's time budget (setting budget)")
    add_network(parser)
    add_common(parser)
    add_agent_view(parser, "page titles")
    parser.add_argument(
        "--jsonl",
        action="store_true",
        help="each page read as one JSON line with its content, as it is finished (the summary on stderr)",
    )
    parser.add_argument(
        "--max-chars", type=whole_number(), metavar="N", help="with --jsonl: clip each body at N characters"
    )
    parser.set_defaults(run=run, parser=parser)


async def run(args: argparse.Namespace) -> int:
    import asyncio

    from webferret.cli.pages_out import page_lines
    from webferret.crawler import CrawlOptions
    from webferret.ferret import Ferret

    clash = [flag for flag in ("json", "agent") if args.jsonl and getattr(args, flag)]
    if clash:
        args.parser.error(f"--jsonl cannot be combined with --{clash[0]}")
    if args.max_chars is not None and not args.jsonl:  # the other views hold no page text to clip
        args.parser.error("--max-chars clips the pages --jsonl writes: give --jsonl")
    check_agent_view(args)
    settings = settings_from_args(args)
    options = CrawlOptions(
        depth=args.depth,
        limit=args.limit,
        sitemap=args.sitemap,
        **site_rules(args, settings),
    )
    async with Ferret(settings) as ferret:
        fetch = fetch_limits(ferret, args)
        lines = page_lines(args, settings) if args.jsonl else None
        on_read = lines.write_page if lines else None if args.json or args.agent else _write_page
        try:
            result = await ferret.crawl(args.url, options, fetch=fetch, fresh=args.fresh, on_read=on_read)
        except asyncio.CancelledError as stop:
            if lines is not None and lines.gone:  # its reader closed the pipe (`| head`): done
                return EXIT_PIPE_CLOSED
            crawled = getattr(stop, "crawled", None)
            if crawled is None:
                raise
            from webferret.present.pages import counted

            unfinished: int = getattr(stop, "unfinished", 0)
            said = f"interrupted: {counted(unfinished, 'page')} being read not finished"
            _answer(
                args, settings, crawled, lines is not None, {"interrupted": True, "unfinished": unfinished}
            )
            sys.stdout.flush()
            sys.stderr.write(f"webferret: {said}\n")
            return EXIT_INTERRUPTED
    read = _answer(args, settings, result, lines is not None)
    return EXIT_OK if read else EXIT_FAILED


def _answer(
    args: argparse.Namespace, settings: Any, result: Any, to_stderr: bool, meta: dict[str, Any] | None = None
) -> int:
    """Write the crawl's answer in the view asked for (`meta`: after Ctrl-C); the pages read."""
    read = sum(page.ok for page in result.pages)
    if args.agent:
        from webferret.present.agent import render_crawl

        data = result.model_dump(mode="json")
        said = render_crawl(data, agent_fence(args, settings), style="cli")
        sys.stdout.write(
            said + ("\n\nThe crawl was interrupted: these pages were read before." if meta else "") + "\n"
        )
    elif args.json:
        from webferret.cli.common import write_envelope
        from webferret.present.envelopes import crawl_envelope

        write_envelope(crawl_envelope(result, meta))
    else:
        _write_summary(result, read, sys.stderr if to_stderr else sys.stdout)
    return read


def _write_page(page: Any) -> None:
    """A page of the crawl, as soon as it is read: its depth, handle, size and title, its URL."""
    from webferret.remote_text import one_line

    if page.ok:
        tokens = f"{page.tokens:,} tokens" if page.tokens is not None else "? tokens"
        handle = page.handle or ("not stored" if page.meta.get("store_error") else "-")
        head = f"{handle}  {tokens}  {one_line(page.title or '', 100)}"
    else:
        said = one_line(page.error.message, 600) if page.error else ""  # whole: `led there from URL` ends it
        head = f"ERROR {page.error.code}: {said}" if page.error else "ERROR"
    depth = page.meta.get("crawl", {}).get("depth", "?")
    sys.stdout.write(f"{depth}  {head}\n   {page.final_url or page.url}\n")
    sys.stdout.flush()


def _write_summary(result: Any, read: int, out: Any) -> None:
    failed = len(result.pages) - read
    seconds_taken = result.elapsed_ms / 1000
    lines = [
        "",
        f"{read} page{'s' * (read != 1)} read"
        + (f", {failed} failed" if failed else "")
        + f" in {seconds_taken:.1f} s (scope {result.scope}, depth {result.depth}, limit {result.limit})",
    ]
    from webferret.present.pages import CRAWL_REASONS, not_followed_text, not_stored_text

    if result.crawl_delay:
        lines.append(
            f"robots.txt asks {result.crawl_delay:g} s between requests: pages were read one at a time"
        )
    if result.sitemap_urls is not None:
        lines.append(f"the site's sitemaps listed {result.sitemap_urls} URLs")
    if result.sitemap_unread:
        lines.append("sitemaps not read: " + result.sitemap_unread)
    skipped = not_followed_text(result.not_followed, CRAWL_REASONS | REASONS)
    if skipped:
        lines.append("links not followed: " + skipped)
    if result.robots_unread:
        lines.append("robots.txt could not be read: " + result.robots_unread)
    not_stored = not_stored_text([page.store_error for page in result.pages if page.store_error])
    if not_stored:
        lines.append(not_stored)
    first = next((page.handle for page in result.pages if page.ok and page.handle), None)
    if first:
        from webferret.present.commands import command

        lines.append(f"read one: {command(f'open {first}')}    search them: {command('find QUERY')}")
    out.write("\n".join(lines) + "\n")
