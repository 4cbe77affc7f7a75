"""`webferret search QUERY`: several engines at once, fused, verified by fetching each result."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from webferret.cli.common import (
    EXIT_FAILED,
    EXIT_OK,
    add_agent_view,
    add_common,
    add_network,
    agent_fence,
    check_agent_view,
    checked_by,
    fail,
    settings_from_args,
    start_early,
)
from webferret.cli.numbers import seconds, whole_number
from webferret.limits import MAX_READ, MIN_PAGE_TOKENS
from webferret.search.names import ENGINE_NAMES

TIME_RANGES = ("day", "week", "month", "year")
"""for --time (kept equal to `webferret.search.types.TIME_RANGES` by a test: importing it is too slow here)"""
DDGS_DISABLED = ("bing", "google", "yandex")
"""ddgs backends the locked ddgs (9.16) ships disabled: --help says so (importing ddgs there is too slow)"""


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser("search", help="search the web with several engines", description=__doc__)
    parser.add_argument(
        "query", nargs="+", help="query words; !gh, !w and !r limit to GitHub/Wikipedia/Reddit"
    )
    parser.add_argument(
        "-n", "--results", type=whole_number(1, 100), metavar="N", help="results to show (default 10)"
    )
    parser.add_argument(
        "--engines",
        metavar="A,B",
        help="comma-separated: auto (default), "
        + ", ".join(name for name in ENGINE_NAMES if name not in DDGS_DISABLED)
        + f"; {', '.join(DDGS_DISABLED)} only where the installed ddgs enables them",
    )
    parser.add_argument(
        "--site",
        metavar="HOST",
        help="only results from this site (wins over a site: in the query and a bang)",
    )
    parser.add_argument(
        "--time",
        choices=TIME_RANGES,
        help="only results of the past day, week, month or year (engines that cannot limit are left out)",
    )
    parser.add_argument(
        "--region",
        type=checked_by("webferret.config", "region"),
        metavar="CC-LL",
        help="country-language, e.g. de-de, fr-fr, us-en; wt-wt for none (env WEBFERRET_REGION)",
    )
    parser.add_argument("--searxng-url", metavar="URL", help="SearXNG instance (env WEBFERRET_SEARXNG_URL)")
    parser.add_argument("--engine-timeout", type=seconds(), metavar="S", help="per-engine timeout (8)")
    parser.add_argument(
        "--no-verify", dest="verify", action="store_false", default=None, help="skip fetching"
    )
    parser.add_argument("--verify-timeout", type=seconds(), metavar="S", help="per-page verify timeout (10)")
    parser.add_argument(
        "--fresh",
        action="store_true",
        help="verify every candidate over the network: no stored page, no failure remembered from "
        "an earlier search",
    )
    parser.add_argument(
        "--read",
        type=whole_number(1, MAX_READ),
        metavar="N",
        help=f"also show the first N results' text, each its first page (at most {MAX_READ})",
    )
    parser.add_argument(
        "--page-tokens",
        type=whole_number(MIN_PAGE_TOKENS, unit=" of tokens per page"),
        metavar="N",
        help="with --read: tokens per page (setting page_tokens)",
    )
    add_network(parser)
    add_common(parser)
    add_agent_view(parser, "titles and snippets")
    parser.set_defaults(run=run, early=_prefork, dash_words="a word to exclude")  # `-word` excludes it


def _prefork(args: argparse.Namespace) -> None:
    """Verifying extracts a few pages while this process mostly waits for them: every core extracts."""
    pages = 0 if args.verify is False else args.results or 10
    start_early(pages, engines=True, spare_core=False, stagger=True)


def _engine_names(text: str | None) -> tuple[str, ...] | None:
    from webferret.search.types import engine_names

    return None if text is None else tuple(engine_names(text))


async def run(args: argparse.Namespace) -> int:
    from webferret.ferret import Ferret

    check_agent_view(args)
    if args.verify is False and args.verify_timeout is not None:  # as --read without verifying is refused
        from webferret.models import ErrorCode, FerretError

        message = "--verify-timeout times the verification --no-verify skips: give one of them"
        raise FerretError(ErrorCode.INVALID_ARGUMENT, message)
    extra: dict[str, Any] = {}
    if args.searxng_url:
        extra["searxng_url"] = args.searxng_url
    settings = settings_from_args(args, **extra)
    if args.allow_host:  # added to the setting's hosts, as fetch, crawl, map and the servers add them
        settings = settings.model_copy(update={"allow_hosts": [*settings.allow_hosts, *args.allow_host]})
    query = " ".join(args.query)
    async with Ferret(settings) as ferret:
        options = ferret.search_options(
            engines=_engine_names(args.engines),
            results=args.results,
            site=args.site,
            time_range=args.time,
            region=args.region,
            engine_timeout=args.engine_timeout,
            verify=args.verify,
            verify_timeout=args.verify_timeout,
            fresh=args.fresh,
        )
        from webferret.present.shares import answer_budget
        from webferret.search.reading import search_and_read

        # an agent's pages share one answer, as MCP's: the setting, or more when --page-tokens asks it
        share = answer_budget(settings.answer_tokens, args.page_tokens) if args.agent else None
        result, read, sizes = await search_and_read(
            ferret, query, options, args.read, args.page_tokens, share
        )
    if args.json:
        from webferret.cli.common import write_envelope
        from webferret.present.envelopes import search_envelope

        write_envelope(search_envelope(result, read if args.read else None))
    elif args.agent:
        from webferret.present.agent import render_read, render_search

        if result.error is not None:  # no engine answered: one error, as MCP's web_search says it
            return fail(args, result.error.code, result.error.message)

        data = result.model_dump(mode="json")
        fence = agent_fence(args, settings)
        text = render_search(data, fence, style="cli")
        if read:
            from webferret.search.reading import mark_shares

            pages = [page.model_dump(mode="json") for page in read]
            mark_shares(pages, sizes, args.page_tokens or settings.page_tokens)
            text += "\n\n" + render_read(pages, data["results"], fence, args.page_tokens, style="cli")
        sys.stdout.write(text + "\n")
    else:
        from webferret.search.present import render_result

        stream = sys.stdout if result.answered else sys.stderr
        stream.write(render_result(result) + "\n")
        if read:
            from webferret.present.pages import opened_lines

            sys.stdout.write("".join("\n" + "\n".join(opened_lines(page)) + "\n" for page in read))
    return EXIT_OK if result.answered else EXIT_FAILED
