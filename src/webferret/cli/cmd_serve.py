"""`webferret serve`: stay resident, so later `webferret` calls skip their start-up.

fetch, search, open, find and extract calls made while it runs are handed to it: each runs in a
child forked from this warm process, with the caller's arguments, environment, working directory and
terminal, and exits with the same code. Set WEBFERRET_SERVE=off to never hand a call off.
"""

from __future__ import annotations

import argparse

from webferret.cli.numbers import seconds

DEFAULT_IDLE_TIMEOUT = 1800.0


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser(
        "serve",
        help="stay resident: later CLI calls run in a warm forked process",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--idle-timeout",
        type=seconds(zero=True),
        default=DEFAULT_IDLE_TIMEOUT,
        metavar="SECONDS",
        help=f"end after this long without a call; 0 = never (default {DEFAULT_IDLE_TIMEOUT:g})",
    )
    parser.add_argument(
        "--socket",
        metavar="PATH",
        help="socket to listen on (default: the setting `serve` when it is a path, else "
        "$XDG_RUNTIME_DIR/webferret/serve.sock, else /tmp/webferret-UID/serve.sock)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import os

    from webferret.cli.serve import serve
    from webferret.handoff import configured_socket, default_socket

    path = args.socket or configured_socket(os.environ) or default_socket()
    return serve(os.path.abspath(path), args.idle_timeout)
