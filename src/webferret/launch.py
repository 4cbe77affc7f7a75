"""The `webferret` program's entry point: hand the call to a running `webferret serve`, else run it
in this process.

A served call's client is this module and `webferret.handoff`: `os`, `sys` and the C halves of
`socket`, `json` and `signal`, and nothing of the command line itself (argparse, `typing`, the
command modules), which the warm server has loaded already. Importing the two takes about 3.5 ms
(10.8 ms with the Python halves of those modules and `contextlib`; 17 ms or more with the
command-line package as well).
"""

from __future__ import annotations

import os
import sys


def entry() -> None:
    """The `webferret` program: `webferret.cli.main()`, then the output flushed and the process
    ended at once.

    A running `webferret serve` (see `webferret.handoff`) runs fetch/search/crawl/map/open/find/extract
    calls in a warm child instead.

    Everything worth keeping is already closed when `main` returns (the store committed and closed,
    clients and worker pools shut down), so the interpreter's own teardown (collecting every module,
    joining an idle warm-up thread) would only add tens of milliseconds to every command.
    """
    sys.unraisablehook = _quiet_interrupt  # before anything is imported: see there
    try:
        _closed_streams_to_devnull()
        from webferret.handoff import handoff

        code = handoff(sys.argv[1:])  # a running `webferret serve` takes the call, else None
        if code is not None:
            os._exit(code)
        from webferret.cli import main

        code = main()
    except KeyboardInterrupt:  # Ctrl-C before the command's own handling began (its imports)
        code = _interrupted_early()
    os._exit(flush_output(code))


def flush_output(code: int) -> int:
    """Flush stdout and stderr at a call's end; the call's exit code, or 1 when its output could not
    be written (a full disk, a device that fails), said on stderr. A reader that left (`| head`) or
    a closed stream changes nothing."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (BrokenPipeError, ValueError):  # a reader that left; a closed stream
            pass
        except OSError as exc:
            if stream is sys.stdout:
                say_unwritten(exc)
            code = code or 1
    return code


def say_unwritten(exc: OSError) -> None:
    """Say on stderr that the output could not be written, and why (`exc`)."""
    try:
        sys.stderr.write(f"webferret: error: the output could not be written: {exc.strerror or exc}\n")
        sys.stderr.flush()
    except (OSError, ValueError):  # stderr fails too: the exit status says it
        pass


def _quiet_interrupt(unraisable: object) -> None:
    """`sys.unraisablehook`: a Ctrl-C that lands inside a callback Python cannot raise from (the
    import system's module-lock clean-up, while the program's modules load) is not printed as
    `Exception ignored ... Traceback`: the signal is sent again, so it is raised where the code
    goes on and said once, as `interrupted`, by the entry's own handling. Anything else goes to
    Python's own hook."""
    if getattr(unraisable, "exc_type", None) is KeyboardInterrupt:
        import threading

        # from another thread, once this one has left the hook: raised inside it, it would be printed
        again = threading.Thread(target=_interrupt_out_of_hook, args=(threading.get_ident(),), daemon=True)
        again.start()
        return
    sys.__unraisablehook__(unraisable)  # type: ignore[arg-type]


def _interrupt_out_of_hook(thread: int) -> None:
    """Send SIGINT once `thread` has returned from `_quiet_interrupt`. Sent after a fixed moment
    instead, it could come while the hook still waited for this thread to start (a loaded machine),
    and Python printed `Exception ignored in sys.unraisablehook` with a traceback."""
    import signal
    import time

    while _in_hook(thread):
        time.sleep(0.001)
    os.kill(os.getpid(), signal.SIGINT)


def _in_hook(thread: int) -> bool:
    frame = sys._current_frames().get(thread)
    while frame is not None:
        if frame.f_code is _quiet_interrupt.__code__:
            return True
        frame = frame.f_back
    return False


def _interrupted_early() -> int:
    """Ctrl-C while the program started: said as a command says it (no traceback; with `--json`,
    its one envelope), exit status 130."""
    if "--json" in sys.argv[1:] or "--jsonl" in sys.argv[1:]:
        try:
            from webferret.models import Envelope

            sys.stdout.write(Envelope(ok=False, meta={"interrupted": True}).model_dump_json() + "\n")
        except BaseException:  # a second Ctrl-C: the line below still says it
            pass
    sys.stderr.write("webferret: interrupted\n")
    return 130


def _closed_streams_to_devnull() -> None:
    """A standard stream the caller closed (`webferret fetch URL >&-`) reads and writes nothing, as
    /dev/null: Python leaves it `None`, and a write to it would end in a traceback."""
    for fd, name in enumerate(("stdin", "stdout", "stderr")):
        if getattr(sys, name) is not None:
            continue
        try:
            os.fstat(fd)
            continue  # open after all (Python saw it closed at start)
        except OSError:
            pass
        opened = os.open(os.devnull, os.O_RDONLY if fd == 0 else os.O_WRONLY)
        if opened != fd:
            os.dup2(opened, fd)
            os.close(opened)
        setattr(sys, name, open(fd, "r" if fd == 0 else "w", closefd=False))  # noqa: SIM115
