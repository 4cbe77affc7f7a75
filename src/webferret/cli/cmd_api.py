"""`webferret api`: serve search, fetch, open, find, map, crawl and extract over plain HTTP and JSON, for
programs that are not MCP clients (`curl http://127.0.0.1:8780/r/https://example.org/` reads a page)."""

from __future__ import annotations

import argparse

from webferret.cli.common import EXIT_OK, EXIT_USAGE, add_network, fail, start_early

DEFAULT_LISTEN = "127.0.0.1:8780"


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser(
        "api", help="serve the core over HTTP and JSON (127.0.0.1:8780)", description=__doc__
    )
    parser.add_argument(
        "--http",
        metavar="HOST:PORT",
        default=DEFAULT_LISTEN,
        help=f"where to listen ({DEFAULT_LISTEN}); past loopback only with a token (setting api_token)",
    )
    parser.add_argument("--home", metavar="DIR", help="store directory (env WEBFERRET_HOME)")
    parser.add_argument("--searxng-url", metavar="URL", help="SearXNG instance (env WEBFERRET_SEARXNG_URL)")
    parser.add_argument("--engines", metavar="A,B", help="engines searches use (default auto)")
    parser.add_argument(
        "--access-log", action="store_true", help="write a line per call to stderr (method, path, status)"
    )
    add_network(parser)
    parser.set_defaults(run=run, json=False, early=_prefork, serves=True)


def _prefork(args: argparse.Namespace) -> None:
    """A resident server extracts on every core: its workers are forked now, while this process runs
    one thread, and serve every call."""
    import os

    start_early(os.cpu_count() or 1, engines=True, spare_core=False)


def run(args: argparse.Namespace) -> int:
    from webferret.cli.cmd_mcp import home_refused, parse_host_port, server_settings
    from webferret.listening import loopback

    where = parse_host_port(args.http)
    if where is None:
        return fail(args, "invalid_argument", f"--http wants HOST:PORT, got {args.http!r}", EXIT_USAGE)
    settings = server_settings(args)
    host, port = where
    if not loopback(host) and not settings.api_token:
        message = (
            f"--http {args.http}: other machines can reach {host}, so the API wants a token: set "
            "WEBFERRET_API_TOKEN (setting api_token), or listen on 127.0.0.1"
        )
        return fail(args, "invalid_argument", message, EXIT_USAGE)
    refused = home_refused(settings)
    if refused is not None:
        return fail(args, "invalid_argument", refused, EXIT_USAGE)
    from webferret.http_api.app import serve

    try:
        serve(settings, host, port, access_log=args.access_log)
    except OSError as exc:  # the port is taken, or the address is not this machine's
        return fail(
            args, "invalid_argument", f"cannot listen on {args.http}: {exc.strerror or exc}", EXIT_USAGE
        )
    return EXIT_OK
