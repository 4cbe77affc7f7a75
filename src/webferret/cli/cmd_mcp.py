"""`webferret mcp`: serve web_search, web_fetch, web_open, web_crawl and web_map to an agent over MCP
(stdio by default)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from webferret.cli.common import EXIT_OK, EXIT_USAGE, add_network, fail, settings_from_args, start_early
from webferret.listening import loopback


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser(
        "mcp", help="serve the agent tools over MCP (stdio, or --http)", description=__doc__
    )
    parser.add_argument("--http", metavar="HOST:PORT", help="serve streamable HTTP at http://HOST:PORT/mcp")
    parser.add_argument("--home", metavar="DIR", help="store directory (env WEBFERRET_HOME)")
    parser.add_argument("--searxng-url", metavar="URL", help="SearXNG instance (env WEBFERRET_SEARXNG_URL)")
    parser.add_argument("--engines", metavar="A,B", help="engines searches use (default auto)")
    parser.add_argument("--ignore-robots", action="store_true", help="do not respect robots.txt")
    parser.add_argument("--datamark", action="store_true", default=None, help="datamark page text")
    parser.add_argument("--search-quota", type=int, metavar="N", help="searches per session (0 = unlimited)")
    parser.add_argument("--debug", action="store_true", help="log tool failures with tracebacks")
    add_network(parser)
    parser.set_defaults(run=run, json=False, early=_prefork, serves=True)


def _prefork(args: argparse.Namespace) -> None:
    """A resident server extracts on every core: its workers are forked now, while this process runs
    one thread (the server's own threads come later), and serve every call of the session."""
    import os

    start_early(os.cpu_count() or 1, engines=True, spare_core=False)


def parse_host_port(text: str) -> tuple[str, int] | None:
    """`HOST:PORT` as (host, port); port 0 is any free one (the line written once the server
    listens names it)."""
    host, sep, port = text.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 <= int(port) < 65536:
        return None
    return host.strip("[]"), int(port)


def exposure_warning(host: str) -> str | None:
    """A warning when `--http` listens where other machines can reach it: the server has no
    authentication, so anyone who reaches the port can fetch and search through it and read its store."""
    if loopback(host):
        return None
    return (
        f"webferret mcp: warning: {host} can be reached from other machines and the server has no "
        "authentication: anyone who reaches it can fetch and search through it and read its page store "
        "(bind 127.0.0.1 unless that is meant)"
    )


def mcp_settings(args: argparse.Namespace) -> object:
    return server_settings(
        args,
        datamark=args.datamark,
        search_quota=args.search_quota,
        respect_robots=False if args.ignore_robots else None,
    )


def server_settings(args: argparse.Namespace, **overrides: object) -> Any:
    """The settings of a resident server (`mcp`, `api`): the environment's and config file's, with
    `--searxng-url`, `--engines` and the `overrides` given (None: not given) on top, and the
    `--allow-host` hosts added to the setting's."""
    given = {"searxng_url": args.searxng_url, "engines": args.engines, **overrides}
    settings = settings_from_args(args, **{name: value for name, value in given.items() if value is not None})
    if args.allow_host:
        settings = settings.model_copy(update={"allow_hosts": [*settings.allow_hosts, *args.allow_host]})
    return settings


def home_refused(settings: Any) -> str | None:
    """Why a resident server (`api`, `mcp`) could keep no page in its home (a folder it cannot
    create, a file in its way), said at start rather than by every call as the caller's error; None
    when the store opens (made now when the home had none). A store that opens but is damaged or
    locked is left to the calls (a fetch goes on without it)."""
    from webferret.models import FerretError
    from webferret.store.pages import PageStore
    from webferret.store.schema import UnusableStore

    try:
        PageStore.in_home(settings.home, page_tokens=settings.page_tokens).close()
    except UnusableStore:
        return None
    except FerretError as exc:
        return exc.message
    return None


def run(args: argparse.Namespace) -> int:
    import asyncio
    import logging

    logging.basicConfig(level=logging.INFO if args.debug else logging.WARNING, format="%(name)s: %(message)s")
    settings = mcp_settings(args)
    where = None if args.http is None else parse_host_port(args.http)
    if args.http is not None and where is None:  # `--http ""` (an unset variable) is no address, not stdio
        return fail(args, "invalid_argument", f"--http wants HOST:PORT, got {args.http!r}", EXIT_USAGE)
    # over stdio too: its agent's every call failed for the server's own home, and on a new home its
    # listing and search of the stored pages were `not_found` (no store yet), not none stored
    refused = home_refused(settings)
    if refused is not None:
        return fail(args, "invalid_argument", refused, EXIT_USAGE)
    if where is not None:
        from webferret.mcp_server import serve_http

        warning = exposure_warning(where[0])
        if warning:
            sys.stderr.write(warning + "\n")

        try:
            serve_http(settings, *where)  # type: ignore[arg-type]
        except OSError as exc:  # the port is taken, or the address is not this machine's
            message = f"cannot listen on {args.http}: {exc.strerror or exc}"
            return fail(args, "invalid_argument", message, EXIT_USAGE)
        return EXIT_OK
    from webferret.mcp_server import serve_stdio

    asyncio.run(serve_stdio(settings))  # type: ignore[arg-type]
    return EXIT_OK
