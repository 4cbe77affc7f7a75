"""One call in a child forked by `webferret serve`: become the client's process, run `main(argv)`.

The child takes the client's stdin/stdout/stderr (received over the socket), environment, cwd and
umask, so the settings the call computes come from the client's environment, as in a process of its
own; then it runs the command line's `main` and sends the exit code back.

A spare child (`run_spare`) is forked before its call: its extraction workers are forked then, from
the server's state, so they hold the server's stdio, not the client's (a reader of the call's output
sees its end when the call ends, not when they do), and the call adopts them
(`webferret.extract.pool.prefork`). One per core, whatever the call: a call that needs fewer leaves
the others idle. They keep the server's environment and working directory, which extraction never
reads (each page comes with its options).

The exit code goes to the client as soon as the call's output is written. Then the child lets go
of the client's stdio (a pipe reading the output ends with the answer), runs the work held for after
the answer (`webferret.after_answer`: the store's close, the event loop's end), ends the workers no
call adopted and reaps its children, with `CLIENT_LEFT` blocked: the server sends it when a client
leaves, to stop the work of one killed mid-call, and a client leaves on its answer. A call whose client
was killed lets go of its stdio before it ends as by SIGTERM: a process killed outright writes nothing
more, and neither does its call (no "interrupted" line, no envelope in the file its output went to).
"""

from __future__ import annotations

import codecs
import contextlib
import io
import json
import os
import signal
import socket
import sys
import tempfile
import time
from typing import Any, NoReturn

from webferret.after_answer import hold, run_held
from webferret.handoff import send_line
from webferret.launch import flush_output

MAX_REQUEST = 4 * 1024 * 1024
"""Largest request (argv + environment) a child reads, bytes."""
_started = False  # the client was told the call runs here


CLIENT_LEFT = signal.SIGUSR1
"""What the server sends a call's child whose client went away before its answer (`_client_left`)."""
HELD_SIGNALS = frozenset({signal.SIGTERM, signal.SIGINT, CLIENT_LEFT})


def fork_child() -> int:
    """`os.fork()` for a call's child, with `HELD_SIGNALS` blocked across it: the parent unblocks them
    at once, a child once its own handlers are in place (`_leave_parent`). Sent in between (the server
    ends a call whose client left, right as it forks its child), a SIGTERM waits for the child's
    handler instead of reaching the server's, which would only set the server's flag in the child's
    copy: the call would run on for a client that is gone. A signal sent to the server meanwhile
    reaches the server just after (a child starts with none pending)."""
    before = signal.pthread_sigmask(signal.SIG_BLOCK, HELD_SIGNALS)
    try:
        pid = os.fork()
    except BaseException:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)
        raise
    if pid:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)
    return pid


def run_child(conn: socket.socket, inherited: list[int], expected: str) -> NoReturn:
    """The whole life of a child forked for a call; always ends with `os._exit`."""
    try:
        _leave_parent(inherited)
    except BaseException:  # a child must never return into the server's loop
        os._exit(1)
    _run_call(conn, expected)


def _run_call(conn: socket.socket, expected: str) -> NoReturn:
    """Read the call on `conn`, run it and answer; always ends with `os._exit`."""
    code = 1
    try:
        request, fds = _read_request(conn)
        code = _answer(conn, request, fds, expected)
    except BaseException as exc:  # a child must never return into the server's loop
        if _started:  # before that, the client runs the call in-process: nothing to say
            with contextlib.suppress(BaseException):
                sys.stderr.write(
                    f"webferret: error: internal: webferret serve: {type(exc).__name__}: {exc}\n"
                )
    finally:
        os._exit(code)


def run_spare(sock: socket.socket, inherited: list[int], expected: str) -> NoReturn:
    """A child forked ahead of its call: forks its extraction workers, then waits for the server to
    send it a client's connection and runs that call. Always ends with `os._exit`."""
    try:
        _leave_parent(inherited)
        from webferret.extract.pool import prefork

        prefork(os.cpu_count() or 1, spare_core=False, reaped=False)
        _, fds, _, _ = socket.recv_fds(sock, 16, 1)
        sock.close()
    except BaseException:
        os._exit(1)
    if not fds:  # the server ended
        os._exit(0)
    _run_call(socket.socket(fileno=fds[0]), expected)  # it left the server's state already


def _leave_parent(inherited: list[int]) -> None:
    """Drop the server's listening socket, wakeup pipe and signal handlers, and take the signals
    held since the fork; a session of its own (stopping the server does not stop calls in flight)."""
    signal.set_wakeup_fd(-1)
    for fd in inherited:
        with contextlib.suppress(OSError):
            os.close(fd)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(CLIENT_LEFT, _client_left)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, HELD_SIGNALS)  # held since `fork_child`
    with contextlib.suppress(OSError):
        os.setsid()


def _client_left(_signum: int, _frame: object) -> None:
    """The client went away mid-call (killed outright: it forwards the signals it can catch): the
    call ends as by SIGTERM, which the same call in its own process would not have lived to see, so
    what it says on ending goes nowhere rather than to the output of a process that is gone."""
    _release_client_stdio()
    os.kill(os.getpid(), signal.SIGTERM)


def _read_request(conn: socket.socket) -> tuple[dict[str, Any], list[int]]:
    data, fds, _, _ = socket.recv_fds(conn, 65536, 3)
    while not data.endswith(b"\n") and len(data) < MAX_REQUEST:
        more = conn.recv(65536)
        if not more:
            break
        data += more
    return json.loads(data), fds


def _answer(conn: socket.socket, request: dict[str, Any], fds: list[int], expected: str) -> int:
    if request.get("fingerprint") != expected:
        send_line(conn, {"refused": f"this server runs another webferret ({expected})"})
        return 0
    if request.get("ping"):
        send_line(conn, {"pong": expected})
        return 0
    if len(fds) != 3:
        send_line(conn, {"refused": f"expected stdin, stdout and stderr, got {len(fds)} descriptors"})
        return 0
    _become_client(request, fds)
    send_line(conn, {"pid": os.getpid()})  # fails (so nothing runs) if the client gave up waiting
    global _started
    _started = True
    hold()  # the store's close and the event loop's end wait until the client has its answer
    code = _run(request["argv"])
    # the server stops a call whose client left, and this one's leaves on its answer: what is left
    # here (the held work, the workers' reaping) is not cut short. Blocked, not ignored: the held
    # end of the event loop puts back the handler its SIGTERM handling replaced
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM, CLIENT_LEFT})
    with contextlib.suppress(OSError):  # a client killed (kill -9) is past hearing its exit code
        send_line(conn, {"exit": code})
    _started = False  # nothing more is said to the client
    _release_client_stdio()
    run_held()
    from webferret.extract.pool import release_preforked

    release_preforked()  # the spare's workers a call never adopted (`open`, a usage error) end now
    _reap_children()
    return code


def _release_client_stdio() -> None:
    """Point fds 0-2 at /dev/null: a reader of the call's output (`webferret search X | jq`) sees
    its end when the call answers, not when this process has also done its held work and reaped its
    workers."""
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.close(null)


REAP_SECONDS = 5.0
"""How long a call's child waits, after its answer, for its own children to end."""


def _reap_children() -> None:
    """Wait for this process's children (the extraction workers a spare forked, which the call did
    not wait for: see `webferret.extract.pool.prefork`), once the client has its exit code: off the
    call's clock, and none is left for init to reap. One that has not ended in `REAP_SECONDS` is left
    to end with this process."""
    deadline = time.monotonic() + REAP_SECONDS
    with contextlib.suppress(ChildProcessError):  # none left
        while time.monotonic() < deadline:
            if os.waitpid(-1, os.WNOHANG) == (0, 0):
                time.sleep(0.002)


def _become_client(request: dict[str, Any], fds: list[int]) -> None:
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
    for fd in fds:
        if fd > 2:
            os.close(fd)
    os.environ.clear()
    os.environ.update(request["env"])
    time.tzset()
    tempfile.tempdir = None  # computed again from the client's TMPDIR
    os.chdir(request["cwd"])
    os.umask(int(request["umask"]))
    sys.argv = ["webferret", *request["argv"]]
    _fresh_stdio()


def _fresh_stdio() -> None:
    """Text streams on the new fds 0-2, buffered as a new process would buffer them (none written
    ahead under the client's `PYTHONUNBUFFERED`), in the client's `PYTHONIOENCODING`
    (`encoding[:errors]`) when it sets one, else its locale's (`_locale_stdio`), never the server's."""
    asked, _, asked_errors = os.environ.get("PYTHONIOENCODING", "").partition(":")
    unbuffered = bool(os.environ.get("PYTHONUNBUFFERED"))
    default_encoding, default_errors = _locale_stdio()
    for name, fd, mode in (("stdin", 0, "r"), ("stdout", 1, "w"), ("stderr", 2, "w")):
        encoding, errors = default_encoding, "backslashreplace" if fd == 2 else default_errors
        if asked and _known(asked):
            encoding = asked
        if asked_errors and fd != 2:  # stderr keeps backslashreplace, as Python's own does
            errors = asked_errors
        stream: io.TextIOWrapper
        if unbuffered and mode == "w":  # as Python's own: every write goes straight to the fd
            raw = open(fd, "wb", 0, closefd=False)  # noqa: SIM115  # lives as long as this process
            stream = io.TextIOWrapper(raw, encoding, errors, line_buffering=False, write_through=True)
        else:
            buffering = 1 if fd == 2 or os.isatty(fd) else -1  # 1: line-buffered
            stream = open(  # noqa: SIM115  # lives as long as this process
                fd, mode, buffering, encoding=encoding, errors=errors, closefd=False
            )
        setattr(sys, name, stream)
        setattr(sys, f"__{name}__", stream)


COERCED_LOCALES = frozenset({"C", "POSIX", "C.UTF-8", "C.utf8", "UTF-8"})
"""Locales whose stdin and stdout Python gives `surrogateescape` (the legacy ones and their UTF-8
stand-ins)."""


def _locale_stdio() -> tuple[str, str]:
    """The encoding and errors a new Python process gives stdin and stdout in this (the client's)
    environment, its `PYTHONIOENCODING` aside: UTF-8 in UTF-8 mode (`PYTHONUTF8=1`, or a C or POSIX
    locale), else its locale's encoding."""
    import locale

    try:
        name = locale.setlocale(locale.LC_CTYPE, "")  # as Python's start does, from LC_ALL/LC_CTYPE/LANG
    except locale.Error:  # a locale that is not installed: Python stays in C
        name = locale.setlocale(locale.LC_CTYPE, "C")
    utf8_mode = os.environ.get("PYTHONUTF8")
    if utf8_mode == "1" or (utf8_mode != "0" and name in ("C", "POSIX")):
        return "utf-8", "surrogateescape"
    return locale.getencoding(), "surrogateescape" if name in COERCED_LOCALES else "strict"


def _known(encoding: str) -> bool:
    try:
        codecs.lookup(encoding)
    except LookupError:
        return False
    return True


def _run(argv: list[str]) -> int:
    """`webferret.cli.main(argv)` as `entry()` runs it: the exit code, output flushed."""
    from webferret.cli import main

    try:
        code = main(argv)
    except SystemExit as exc:  # argparse: usage errors (2), --version (0)
        code = _exit_code(exc.code)
    except KeyboardInterrupt:
        sys.stderr.write("webferret: interrupted\n")
        code = 130
    return flush_output(code)


def _exit_code(value: object) -> int:
    if value is None:
        return 0
    if isinstance(value, int):
        return value
    sys.stderr.write(f"{value}\n")
    return 1
