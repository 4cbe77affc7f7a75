"""`webferret fetch URL...`: read pages as clean Markdown with their metadata."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Coroutine
from typing import Any

from webferret.cli.common import (
    EXIT_FAILED,
    EXIT_OK,
    EXIT_PIPE_CLOSED,
    add_agent_view,
    add_common,
    add_fetch_limits,
    add_links,
    add_network,
    add_scope,
    agent_fence,
    check_agent_view,
    request_header,
    scope_options,
    settings_from_args,
    signals_raise,
    start_early,
)
from webferret.cli.numbers import whole_number
from webferret.limits import MAX_BYTES

POSITIVE = whole_number()
LISTED_PAGES = 8  # pages to fork extraction workers for before a URL list is read (`max_urls`' default)


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser("fetch", help="read URLs as Markdown with metadata", description=__doc__)
    parser.add_argument("urls", nargs="*", metavar="URL", help="URLs to read; `-` reads a list from stdin")
    parser.add_argument(
        "--urls-from", action="append", metavar="FILE", help="read URLs from FILE, one a line (repeatable)"
    )
    parser.add_argument(
        "--format", choices=("markdown", "text", "html"), help="body format (default markdown)"
    )
    parser.add_argument("--max-chars", type=POSITIVE, metavar="N", help="clip each body at N characters")
    add_fetch_limits(parser)
    parser.add_argument(
        "--max-bytes", type=whole_number(1, MAX_BYTES), metavar="N", help="cap on decompressed bytes"
    )
    parser.add_argument("--screenshot", metavar="PATH", help="save a PNG of the rendered page (browser tier)")
    parser.add_argument(
        "--mobile", action="store_true", default=None, help="render as a phone (picks the browser tier)"
    )
    parser.add_argument("--wait-for", metavar="CSS", help="browser: wait until this CSS selector is present")
    parser.add_argument(
        "--action",
        dest="actions",
        action="append",
        metavar="STEP",
        help="browser: do this before reading, in order (repeatable): click:CSS, type:CSS=TEXT, "
        "press:KEY, scroll[:N], wait:S, wait-for:CSS",
    )
    parser.add_argument(
        "--header",
        action="append",
        type=request_header,
        metavar="'NAME: VALUE'",
        help="send this header to the asked URL's origin only, e.g. a cookie (repeatable; skips the store)",
    )
    add_links(parser)
    add_scope(parser)
    parser.add_argument("--quiet", "-q", action="store_true", help="body only, for pipes")
    parser.add_argument("--fresh", action="store_true", help="skip the page store: always fetch anew")
    add_network(parser)
    add_common(parser)
    add_agent_view(parser, "pages")
    parser.add_argument(
        "--jsonl", action="store_true", help="one JSON page a line, each as soon as it is finished"
    )
    parser.set_defaults(run=run, early=_prefork, parser=parser)


def _prefork(args: argparse.Namespace) -> None:
    from webferret.cli.url_list import reads_lists

    if not args.urls and not args.urls_from:  # a usage error like any other missing argument
        args.parser.error("the following arguments are required: URL (or - or --urls-from FILE)")
    clash = [flag for flag in ("json", "agent", "quiet") if args.jsonl and getattr(args, flag)]
    if clash:  # one view per call: say so rather than pick one silently
        args.parser.error(f"--jsonl cannot be combined with --{clash[0]}")
    check_agent_view(args, ("json", "quiet"))
    listed = reads_lists(args.urls, args.urls_from or ())
    start_early(LISTED_PAGES if listed else len(args.urls), stoplists=False)


def _browser_tier(args: argparse.Namespace) -> str | None:
    """`--screenshot`, `--wait-for`, `--action` and `--mobile` need the browser: they pick it, and
    refuse a tier without one."""
    from webferret.fetch.types import browser_only_asked

    needs = browser_only_asked(vars(args))
    if needs is None:
        return args.tier
    from webferret.models import ErrorCode, FerretError

    flag = "--action" if needs == "actions" else "--" + needs.replace("_", "-")
    if args.screenshot and len(args.urls) > 1:
        raise FerretError(ErrorCode.INVALID_ARGUMENT, "--screenshot takes one URL (one PNG per call)")
    if args.tier in ("http", "impersonate"):
        message = f"{flag} needs the browser, not --tier {args.tier}"
        raise FerretError(ErrorCode.INVALID_ARGUMENT, message)
    return "browser"


def run(args: argparse.Namespace) -> Coroutine[Any, Any, int]:
    """The URLs gathered before the event loop runs, then the fetch: a Ctrl-C while standard input
    is read (`fetch -`) ends the call at once, where asyncio's own handler only cancels the call's
    task, which a read holding the loop's thread never lets run (the second Ctrl-C ended it)."""
    from webferret.cli.url_list import gather_urls

    with signals_raise():  # SIGTERM too: the loop's handler is not in place yet
        args.urls = gather_urls(args.urls, args.urls_from or ())
    return _fetch(args)


async def _fetch(args: argparse.Namespace) -> int:
    import asyncio

    from webferret.cli.pages_out import PageStream
    from webferret.ferret import Ferret

    settings = settings_from_args(args)
    done: dict[str, Any] = {}  # pages finished so far, by URL
    lines = _lines(args, settings)
    stream = None if args.json or args.jsonl or args.agent else PageStream(args, args.urls)
    try:
        async with Ferret(settings) as ferret:
            options = ferret.fetch_options(
                timeout=args.timeout,
                budget=args.budget,
                max_bytes=args.max_bytes,
                tier=_browser_tier(args),
                allow_hosts=tuple(args.allow_host or ()),
                screenshot=args.screenshot,
                mobile=args.mobile,
                wait_for=args.wait_for,
                actions=tuple(args.actions or ()) or None,
                headers=tuple(args.header or ()) or None,
            )
            xopts = ferret.extract_options(
                format=args.format, links=args.links, link_limit=args.link_limit, **scope_options(args)
            )
            on_page = (
                lines.write if lines else _clipped(stream.add, args, settings) if stream else done.__setitem__
            )
            pages = await ferret.fetch_all(
                args.urls, options=options, extract=xopts, fresh=args.fresh, on_page=on_page
            )
    except asyncio.CancelledError:  # Ctrl-C: asyncio.run cancels this task; what is finished is kept
        if lines:
            return _lines_stopped(args, lines)
        if stream:
            stream.finish()
            return _say_interrupted(sum(url not in stream.done for url in dict.fromkeys(args.urls)), args)
        return await _interrupted(settings, args, done)
    if lines:
        return EXIT_OK if lines.failed == 0 else EXIT_FAILED
    if stream:
        return stream.finish()
    return await _output(settings, args, pages)


def _clipped(add: Any, args: argparse.Namespace, settings: Any) -> Any:
    """`add(url, page)` given each page clipped at `--max-chars`; a stored page's clip names the
    page of the stored document it stopped on (`meta.clipped.next`: the command that reads on)."""
    from webferret.present.pages import clip_page

    def clipped(url: str, page: Any) -> None:
        shown = clip_page(page, args.max_chars)
        clip = shown.meta.get("clipped")
        if clip and page.handle and not args.quiet:
            from webferret.present.disclosure import continue_command, page_holding

            size = settings.page_tokens
            at = page_holding(page.content, clip["at"], size)
            clip = {**clip, "next": continue_command(page.handle, at, size, size)}
            shown = shown.model_copy(update={"meta": {**shown.meta, "clipped": clip}})
        add(url, shown)

    return clipped


def _lines(args: argparse.Namespace, settings: Any) -> Any:
    """The `--jsonl` writer, or None."""
    if not args.jsonl:
        return None
    from webferret.cli.pages_out import page_lines

    return page_lines(args, settings)


def _lines_stopped(args: argparse.Namespace, lines: Any) -> int:
    """`--jsonl` after Ctrl-C (the finished pages are written already), or after its reader left."""
    from webferret.cli.pages_out import say_interrupted

    if lines.gone:
        return EXIT_PIPE_CLOSED
    distinct = len(dict.fromkeys(args.urls))
    return say_interrupted(distinct - lines.written, distinct)


async def _output(
    settings: Any, args: argparse.Namespace, pages: list[Any], meta: dict[str, Any] | None = None
) -> int:
    """Write the pages (`--json`, `--agent`, `--quiet` or the human view); the exit status."""
    from webferret.cli.pages_out import write_pages
    from webferret.present.pages import clip_page

    if args.agent and not args.json:  # (clips the first page it shows: the store pages the rest)
        if pages:
            sys.stdout.write(await _agent_view(settings, pages, args) + "\n")
        return EXIT_OK if all(page.ok for page in pages) else EXIT_FAILED
    pages = [clip_page(page, args.max_chars) for page in pages]
    if not pages and not args.json:
        return EXIT_FAILED
    return write_pages(args, pages, meta)


async def _interrupted(settings: Any, args: argparse.Namespace, done: dict[str, Any]) -> int:
    """After Ctrl-C: the pages finished before it (they are in the store too), in the order asked,
    then a line on stderr saying how many were not finished; exit status 130."""
    finished = [done[url] for url in args.urls if url in done]
    unfinished = sum(url not in done for url in dict.fromkeys(args.urls))  # a URL given twice: one page
    await _output(settings, args, finished, {"interrupted": True, "unfinished": unfinished})
    return _say_interrupted(unfinished, args)


def _say_interrupted(unfinished: int, args: argparse.Namespace) -> int:
    from webferret.cli.pages_out import say_interrupted

    return say_interrupted(unfinished, len(dict.fromkeys(args.urls)))  # as --jsonl counts them


async def _agent_view(settings: Any, pages: list[Any], args: argparse.Namespace) -> str:
    """Pages fenced as untrusted data; a long page shows its first page and how to read on."""
    from webferret.ferret import Ferret
    from webferret.mcp_tools import first_page_entries
    from webferret.present.agent import render_pages
    from webferret.present.pages import clip_text

    budget = settings.max_tokens  # (fetch takes no page size of its own: the settings say it)
    async with Ferret(settings) as ferret:  # the store, for the first page of a long page
        entries = await first_page_entries(ferret, pages, budget, settings.answer_tokens)
    for entry in entries:  # `--max-chars` clips the text shown, a long page's first page too
        content = str(entry.get("content") or "")
        clipped = clip_text(content, args.max_chars, str(entry.get("format")))
        if clipped:  # (the hint then reads this page whole before the next)
            entry.update(content=clipped[0], clipped={"at": clipped[1], "of": len(content)})
    fence = agent_fence(args, settings)
    return render_pages(entries, fence, budget if budget != settings.page_tokens else None, style="cli")
