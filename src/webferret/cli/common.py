"""Options and error handling shared by the subcommands."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from typing import Any, TypeVar

T = TypeVar("T")

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2
EXIT_INTERRUPTED = 130  # Ctrl-C (128 + SIGINT)
EXIT_PIPE_CLOSED = 141  # what a shell reports for a process its reader's exit killed (128 + SIGPIPE)
EXIT_TERMINATED = 143  # SIGTERM (128 + 15): ended as Ctrl-C ends a call, what is finished answered
_terminated: list[bool] = []  # set by the SIGTERM handler of `_collecting_once_waiting`


def add_common(parser: argparse.ArgumentParser, json: bool = True, home: bool = True) -> None:
    """Flags every command takes (`json` False: one whose output is JSON already, `store export`;
    `home` False: one that reads no store and keeps nothing, `extract`)."""
    if home:
        parser.add_argument("--home", metavar="DIR", help="store directory (env WEBFERRET_HOME)")
    if json:
        parser.add_argument("--json", action="store_true", help="answer one JSON envelope")
    else:
        parser.set_defaults(json=False)
    parser.add_argument("--debug", action="store_true", help="show tracebacks of internal errors")


def add_site(parser: argparse.ArgumentParser, verb: str = "") -> None:
    """`--site HOST` of the commands that read the store (`verb`: what they do with those pages)."""
    parser.add_argument(
        "--site",
        type=site_host,
        metavar="HOST",
        help=f"{verb + ' ' if verb else ''}only this host's pages (its subdomains too)",
    )


def add_network(parser: argparse.ArgumentParser) -> None:
    """Flags of commands that reach the network."""
    parser.add_argument(
        "--allow-host",
        action="append",
        type=checked_by("webferret.net.hostspec", "allow_host_entry"),
        metavar="HOST",
        dest="allow_host",
        help="allow this host or IP past the private-address guard (repeatable; env WEBFERRET_ALLOW_HOSTS)",
    )
    parser.add_argument(
        "--allow-private-hosts",
        action="store_true",
        default=None,
        help="lift the private-address guard entirely (deliberate internal fetches)",
    )
    parser.add_argument(
        "--proxy",
        type=checked_by("webferret.net.proxy", "proxy_url"),
        metavar="URL",
        help="send everything through this proxy: http://[user:pass@]host:port or socks5://... "
        "(env WEBFERRET_PROXY; WEBFERRET_NO_PROXY lists hosts reached directly)",
    )


def add_fetch_limits(parser: argparse.ArgumentParser, budget: str = "per-call budget in seconds") -> None:
    """`--timeout`, `--budget` and `--tier`: how the pages of a call are read (fetch, crawl, map)."""
    from webferret.cli.numbers import seconds

    parser.add_argument("--timeout", type=seconds(), metavar="S", help="per-page timeout in seconds")
    parser.add_argument("--budget", type=seconds(), metavar="S", help=budget)
    parser.add_argument("--tier", choices=("auto", "http", "impersonate", "browser"), help="fetch tier")


def add_site_rules(parser: argparse.ArgumentParser, verb: str, default_scope: str) -> None:
    """`--scope`, `--include`, `--exclude` and `--ignore-robots` of a command that walks a site's
    links (`verb`: what it does with one, "follow" or "list")."""
    parser.add_argument(
        "--scope", metavar="URL", help=f"{verb} only URLs under this prefix (default: {default_scope})"
    )
    parser.add_argument(
        "--include",
        action="append",
        metavar="GLOB",
        help=f"{verb} only paths matching GLOB, e.g. '/docs/*' (repeatable)",
    )
    parser.add_argument(
        "--exclude", action="append", metavar="GLOB", help=f"never {verb} paths matching GLOB (repeatable)"
    )
    also = ", and links the site marks nofollow," if verb == "follow" else ""
    parser.add_argument(
        "--ignore-robots", action="store_true", help=f"{verb} URLs robots.txt disallows{also} too"
    )


def site_rules(args: argparse.Namespace, settings: Any) -> dict[str, Any]:
    """The `CrawlOptions` / `MapOptions` fields `add_site_rules`' flags give."""
    return {
        "scope": args.scope,
        "include": tuple(args.include or ()),
        "exclude": tuple(args.exclude or ()),
        "robots": not args.ignore_robots and settings.respect_robots,
    }


def fetch_limits(ferret: Any, args: argparse.Namespace) -> Any:
    """The `FetchOptions` of `add_fetch_limits`' and `add_network`'s flags."""
    return ferret.fetch_options(
        timeout=args.timeout, budget=args.budget, tier=args.tier, allow_hosts=tuple(args.allow_host or ())
    )


def add_scope(parser: argparse.ArgumentParser) -> None:
    """Flags that scope a page's content instead of the main-content choice (`extract.scope`)."""
    parser.add_argument("--selector", metavar="CSS", help="keep only the elements matching this CSS selector")
    parser.add_argument(
        "--exclude", action="append", metavar="CSS", help="drop the elements matching CSS first (repeatable)"
    )
    parser.add_argument("--whole-page", action="store_true", help="the whole body, not only the main content")


class LinkLimit(argparse.Action):
    """`--link-limit N`: at most N links, and the links asked for (a limit alone was ignored)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:  # fmt: skip
        namespace.link_limit, namespace.links = values, True


def add_links(parser: argparse.ArgumentParser, what: str = "the page's") -> None:
    """`--links` (list `what` outgoing links) and `--link-limit N` (which implies it)."""
    from webferret.cli.numbers import whole_number

    parser.add_argument("--links", action="store_true", help=f"list {what} outgoing links")
    parser.add_argument(
        "--link-limit", type=whole_number(), metavar="N", action=LinkLimit,
        help="most links listed (20; implies --links)",
    )  # fmt: skip


def add_agent_view(parser: argparse.ArgumentParser, what: str) -> None:
    """`--agent` (what a page or an engine said, fenced as untrusted data) and `--datamark`; the
    command's parser is kept for `check_agent_view`'s usage errors."""
    parser.add_argument("--agent", action="store_true", help=f"agent view: {what} fenced as untrusted data")
    parser.add_argument("--datamark", action="store_true", help="with --agent: datamark page text")
    parser.set_defaults(parser=parser)


def check_agent_view(args: argparse.Namespace, clashes: tuple[str, ...] = ("json",)) -> None:
    """One view per call: `--agent` with another view (`clashes`), or `--datamark` without `--agent`
    (it would change nothing), is a usage error that says so rather than a choice made silently."""
    clash = [flag for flag in clashes if args.agent and getattr(args, flag)]
    if clash:
        args.parser.error(f"--agent cannot be combined with --{clash[0]}")
    if args.datamark and not args.agent:
        args.parser.error("--datamark only applies to the agent view: add --agent")


def agent_fence(args: argparse.Namespace, settings: Any) -> Any:
    """The fence of an `--agent` answer (`--datamark` or the setting `datamark`)."""
    from webferret.present.fence import Fence

    return Fence.new(datamark=args.datamark or settings.datamark)


def checked_by(module: str, name: str) -> Callable[[str], Any]:
    """An argparse `type` that reads a flag with `module.name`, imported when a flag is read (the
    parser is built on every start), its `ValueError` a usage error with the same words (and the
    value, when they do not name it: a proxy's quote it without its password)."""

    def read(text: str) -> Any:
        import importlib

        try:
            return getattr(importlib.import_module(module), name)(text)
        except ValueError as exc:
            named = repr(text) in str(exc) or "(got " in str(exc)  # it quoted the value (as it may show it)
            words = str(exc) if named else f"{exc} (got {text!r})"
            raise argparse.ArgumentTypeError(words) from None

    read.__name__ = name  # what argparse calls the value in other errors
    return read


site_host = checked_by("webferret.net.hostspec", "site_host")  # `--site`


def request_header(text: str) -> tuple[str, str]:
    """`--header 'NAME: VALUE'` as a pair, checked as the library checks it (`fetch.types.header_of`)."""
    from webferret.fetch.types import header_of
    from webferret.models import FerretError

    try:
        return header_of(text)
    except FerretError as exc:
        raise argparse.ArgumentTypeError(exc.message) from None


def scope_options(args: argparse.Namespace) -> dict[str, Any]:
    """The `ExtractOptions` fields of the scope flags (see `add_scope`)."""
    return {"selector": args.selector, "exclude": tuple(args.exclude or ()), "whole_page": args.whole_page}


def settings_from_args(args: argparse.Namespace, **extra: Any) -> Any:
    """`Settings` from env/TOML with the command line's values on top."""
    from webferret.config import load_settings

    overrides: dict[str, Any] = dict(extra)
    if getattr(args, "home", None) is not None:  # `--home ""` is refused, not the default home
        overrides["home"] = args.home
    if getattr(args, "allow_private_hosts", None):
        overrides["allow_private_hosts"] = True
    if getattr(args, "proxy", None):
        overrides["proxy"] = args.proxy
    flags = {name: f"--{name.replace('_', '-')}" for name in overrides if hasattr(args, name)}
    return load_settings(flags, **overrides)


def start_early(
    pages: int,
    tls: bool = True,
    engines: bool = False,
    spare_core: bool = True,
    stagger: bool = False,
    stoplists: bool = True,
) -> None:
    """Before a command's heavy imports: fork the extraction workers for `pages` pages (none for 0;
    see `webferret.extract.pool.prefork`, also for `stoplists`), so their own imports overlap this
    process's start-up, then (with `tls`) load the CA store(s) in a thread."""
    if pages > 0:
        from webferret.extract.pool import prefork

        # a warm process (a `webferret serve` child) has the extractor imported: nothing to stagger
        stagger = stagger and "webferret.extract.document" not in sys.modules

        prefork(pages, spare_core, stagger, stoplists)
    if tls:
        start_tls_thread(engines)


def start_tls_thread(engines: bool = False) -> None:
    """Load the TLS CA store(s) in a thread while this process imports the rest (after any fork)."""
    import threading

    def load() -> None:
        from webferret.net.tls import prepare_tls  # not the transport: no httpx to import first

        prepare_tls(engines)

    threading.Thread(target=load, name="webferret-tls", daemon=True).start()


def print_json(payload: Any) -> None:
    sys.stdout.write(json.dumps(payload, ensure_ascii=False, indent=2, default=str) + "\n")


def envelope_json(
    ok: bool, data: Any = None, error: Any = None, meta: Any = None, *, one_line: bool = False
) -> None:
    """The JSON envelope on stdout; `one_line` for a `--jsonl` call, whose reader splits lines."""
    from webferret.models import Envelope

    write_envelope(Envelope(ok=ok, data=data, error=error, meta=meta or {}), one_line=one_line)


def write_envelope(envelope: Any, *, one_line: bool = False) -> None:
    """An `Envelope` (`present.envelopes` builds each command's) on stdout, as `--json` prints it.
    A reader that left (`| head -c0`) is not written to: the call ends as it would have, its exit
    status its own (an error's too), with no traceback of the closed pipe."""
    try:
        sys.stdout.write(envelope.model_dump_json(indent=None if one_line else 2) + "\n")
        sys.stdout.flush()
    except BrokenPipeError:
        stdout_gone()


def stdout_gone() -> None:
    """After its reader closed stdout (`| head`): point it at the null device, so the final flush
    at exit has somewhere to go instead of a BrokenPipeError."""
    import os

    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


def fail(args: argparse.Namespace, code: str, message: str, exit_code: int = EXIT_FAILED) -> int:
    """Report a request-level error the way the command's output mode wants it."""
    one_line = getattr(args, "jsonl", False)
    if getattr(args, "json", False) or one_line:
        from webferret.present.envelopes import error_envelope

        try:
            write_envelope(error_envelope(code, message), one_line=one_line)
            return exit_code
        except OSError:  # stdout cannot be written (a full disk): said where it can be
            pass
    if getattr(args, "agent", False):  # an agent face: its messages as the MCP server's tool errors
        from webferret.present.agent import MESSAGE_CHARS, safe_message

        message = safe_message(message, limit=MESSAGE_CHARS * 8)
    sys.stderr.write(f"webferret: error: {code}: {message}\n")
    return exit_code


def run_command(args: argparse.Namespace) -> int:
    """Run a subcommand's `run(args)`; turn every failure into a clear message and an exit code."""
    import asyncio

    from webferret.config import ConfigError
    from webferret.models import ErrorCode, FerretError
    from webferret.present.commands import given_call

    # the hints it answers name its home and view (`present.commands`); a server's are no command's
    serves = getattr(args, "serves", False)
    given_call(
        None if serves else getattr(args, "home", None),
        datamark=not serves and bool(getattr(args, "datamark", False)),
    )
    try:
        result = args.run(args)
        if asyncio.iscoroutine(result):
            result = _run_loop(_collecting_once_waiting(result))
        return EXIT_TERMINATED if _terminated else int(result or 0)
    except ConfigError as exc:
        return fail(args, ErrorCode.INVALID_ARGUMENT, str(exc), EXIT_USAGE)
    except FerretError as exc:  # a damaged store file (an `sqlite3.Error` too) is the home's, no usage error
        sqlite3 = sys.modules.get("sqlite3")  # (not imported: the error cannot be one of its)
        usage = exc.code == ErrorCode.INVALID_ARGUMENT and not (sqlite3 and isinstance(exc, sqlite3.Error))
        return fail(args, exc.code, exc.message, EXIT_USAGE if usage else EXIT_FAILED)
    except (KeyboardInterrupt, asyncio.CancelledError):  # a command that keeps what it finished
        if getattr(args, "json", False):  # (fetch) answers it itself; a JSON reader still gets its
            envelope_json(False, meta={"interrupted": True})  # one envelope
        sys.stderr.write("webferret: interrupted\n")
        return EXIT_TERMINATED if _terminated else EXIT_INTERRUPTED
    except BrokenPipeError:
        return EXIT_OK
    except Exception as exc:
        if _pipes_closed(exc):  # the same, met in tasks (a client of `mcp` that closed its reading end)
            return EXIT_OK
        if _unwritable(exc):  # stdout on a full disk or a failing device, met mid-call
            from webferret.launch import say_unwritten

            say_unwritten(exc)
            return EXIT_FAILED
        if getattr(args, "debug", False):
            import traceback

            traceback.print_exc()
        return fail(args, ErrorCode.INTERNAL, f"{type(exc).__name__}: {exc} (run with --debug for details)")
    finally:
        given_call(None)  # a caller in-process (a test, a script) calls on without it


def _pipes_closed(exc: BaseException) -> bool:
    """Whether `exc` is a group of tasks' errors that are all a closed pipe (`BrokenPipeError`)."""
    return isinstance(exc, BaseExceptionGroup) and exc.split(BrokenPipeError)[1] is None


def _unwritable(exc: BaseException) -> bool:
    """Whether `exc` is a write that failed for want of room or a device (a full disk, a quota, a
    failing disk) on no file of its own naming: the call's output (as `launch.flush_output` says it
    when the end's flush meets it), not a fault of webferret's."""
    import errno

    failed = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO)
    return isinstance(exc, OSError) and exc.errno in failed and exc.filename is None


def _run_loop(command: Coroutine[Any, Any, T]) -> T:
    """`asyncio.run(command)`, its loop's end (tasks left cancelled, idle threads joined: about 2 ms)
    left to `after_answer.later`: a served call answers first."""
    import asyncio

    from webferret.after_answer import later

    runner = asyncio.Runner()
    try:
        return runner.run(command)
    finally:
        later(runner.close)


async def _collecting_once_waiting(command: Awaitable[Any]) -> Any:
    """Run `command`; once it first waits (its start-up imports done), freeze what start-up built and
    turn the garbage collector back on (`webferret.cli.warm.freeze_heap`, without its collection)."""
    import asyncio
    import contextlib
    import signal

    from webferret.cli.warm import settle_heap

    loop = asyncio.get_running_loop()
    loop.call_soon(settle_heap)  # runs when the command's first step yields
    task = asyncio.current_task()
    if task is not None:  # SIGTERM (a timeout wrapper, an agent's harness) ends the call as Ctrl-C does
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):  # no signals here
            loop.add_signal_handler(signal.SIGTERM, _terminate, task)
    return await command


def _terminate(task: Any) -> None:
    """SIGTERM: the call ends as after Ctrl-C (the task cancelled), its exit status 143."""
    _terminated.append(True)
    task.cancel()


@contextlib.contextmanager
def signals_raise() -> Iterator[None]:
    """Ctrl-C and SIGTERM raise `KeyboardInterrupt` at once (SIGTERM marking the call terminated,
    exit 143) while the call's thread works or waits outside a turn of its event loop: before the
    loop starts (`fetch -` reading its URLs, `store import`), whose own SIGTERM handler
    (`_collecting_once_waiting`) is not in place yet, so SIGTERM killed the call outright, saying
    nothing (not around a whole command: a server's own handling of SIGTERM stays as it was);
    or within it without awaiting (the question of `store clear`, a `store export` whose
    reader stopped reading), where the loop's handlers only cancel the call's task, which the thread
    never lets run, so a Ctrl-C or SIGTERM did nothing. (Ignored stays ignored.)"""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    raising = {signal.SIGINT: signal.default_int_handler, signal.SIGTERM: _raise_terminated}
    before = {signum: signal.getsignal(signum) for signum in raising}
    for signum, handler in raising.items():
        if before[signum] is not signal.SIG_IGN:
            signal.signal(signum, handler)
    try:
        yield
    finally:
        for signum, handler in before.items():
            signal.signal(signum, handler)


def _raise_terminated(_signum: int, _frame: object) -> None:
    """SIGTERM outside the event loop's turn: the call ends as after Ctrl-C, its exit status 143."""
    _terminated.append(True)
    raise KeyboardInterrupt


Runner = Callable[[argparse.Namespace], Awaitable[int] | int]
