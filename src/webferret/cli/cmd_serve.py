"""`webferret serve`: stay resident, so later `webferret` calls skip their start-up.

fetch, search, crawl, map, open, find and extract calls made while it runs are handed to it: each runs in a
child forked from this warm process, with the caller's arguments, environment, working directory and
terminal, and exits with the same code. Set WEBFERRET_SERVE=off to never hand a call off.
"""

from __future__ import annotations

import argparse

from webferret.cli.numbers import seconds

DEFAULT_IDLE_TIMEOUT = 1800.0
MOST_IDLE = 7 * 86_400.0  # a week; 0 is never


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser(
        "serve",
        help="stay resident: later CLI calls run in a warm forked process",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--idle-timeout",
        type=seconds(zero=True, most=MOST_IDLE),
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
    control = parser.add_mutually_exclusive_group()
    control.add_argument(
        "--detach",
        action="store_true",
        help="start the server in the background (its stderr in serve.log beside the socket) and "
        "return once it answers; one already running is left as it is",
    )
    control.add_argument(
        "--status", action="store_true", help="say whether a server answers on the socket (exit 1 if none)"
    )
    control.add_argument(
        "--stop", action="store_true", help="stop the server on the socket (calls in flight finish)"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    path = _socket_path(args.socket)
    if args.detach or args.status or args.stop:
        from webferret.cli import serve_control

        if args.status:
            return serve_control.status(path)
        if args.stop:
            return serve_control.stop(path)
        return serve_control.detach(path, args.idle_timeout)
    from webferret.cli.serve import serve

    return serve(path, args.idle_timeout)


def _socket_path(given: str | None) -> str:
    """The socket to serve on or look at: `--socket`, else the setting `serve` when it is a path, else
    the default one. A setting that is none of auto, start, off or an absolute path is refused
    (`ConfigError`) as every command refuses it: the calls it was meant for run in their own process."""
    import os

    from webferret.handoff import configured_socket, default_socket, serve_setting

    if given is None and configured_socket(os.environ) is None and serve_setting(os.environ) != "off":
        from webferret.config import load_settings

        load_settings()  # raises, naming the setting and where it came from
    if given is not None:  # `--socket ""` (an unset variable) served on the default socket
        from webferret.config import expanded
        from webferret.models import ErrorCode, FerretError

        if not given.strip():
            raise FerretError(ErrorCode.INVALID_ARGUMENT, "--socket: an empty path (an unset variable?)")
        try:  # `--socket=~/wf.sock`, which no shell expands: a folder named ~ where it ran
            return os.path.abspath(expanded(given))
        except ValueError as exc:
            raise FerretError(ErrorCode.INVALID_ARGUMENT, f"--socket {given}: {exc}") from None
    return os.path.abspath(configured_socket(os.environ) or default_socket())
