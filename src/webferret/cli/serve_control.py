"""`webferret serve --status | --stop | --detach`: look at, stop or start in the background the
server on a socket, for scripts and agent harnesses that keep one running.

A server is found by asking it on its socket, as a client would (the folder private, the server of
this user): the kernel names the listening process (`SO_PEERCRED`), and the ping's answer says
whether it runs the same webferret files as this process (a server of other files, say from before
an upgrade, serves no call of this one's).
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import time
from dataclasses import dataclass

from webferret.handoff import (
    fingerprint,
    server_answer,
    server_log,
    socket_folder_problem,
    spawn_server,
    stopped_server,
)

STOP_SECONDS = 10.0
"""How long `--stop` waits for the server to end after SIGTERM (calls in flight run on in their own
processes; the server itself ends at its next wake-up)."""
START_SECONDS = 60.0
"""How long `--detach` waits for the new server to answer (its warm-up imports and loads the extractor)."""


@dataclass(frozen=True)
class Answering:
    pid: int  # the listening process
    same: bool  # it runs this process's webferret files


def answering(path: str) -> Answering | None:
    """The server of this user that answers on `path`, or None."""
    mine = fingerprint()
    found = server_answer(path, mine)
    if found is None or not {"pong", "refused"} & found[1].keys():
        return None
    return Answering(found[0], found[1].get("pong") == mine)


def status(path: str) -> int:
    found = answering(path)
    if found is None:
        stopped = stopped_server(path)
        if stopped is not None:
            print(
                f"webferret serve: the server on {path} (pid {stopped}) is stopped (Ctrl-Z or SIGSTOP): "
                f"calls run in their own process until it goes on (`fg`, or kill -CONT {stopped})"
            )
            return 1
        print(f"webferret serve: no server answers on {path}")
        return 1
    if not found.same:
        print(
            f"webferret serve: a server of other webferret files answers on {path} (pid {found.pid}); "
            "calls run in their own process (`webferret serve --detach` replaces it)"
        )
        return 1
    print(f"webferret serve: running on {path} (pid {found.pid})")
    return 0


def stop(path: str) -> int:
    found = answering(path)
    pid = found.pid if found is not None else stopped_server(path)
    if pid is None:
        print(f"webferret serve: no server answers on {path}: nothing to stop")
        return 0
    with contextlib.suppress(ProcessLookupError):  # it ended meanwhile
        os.kill(pid, signal.SIGTERM)
        if found is None:  # stopped (Ctrl-Z): it goes on to end, as a shell's kill of a stopped job
            os.kill(pid, signal.SIGCONT)
    deadline = time.monotonic() + STOP_SECONDS
    while _alive(pid):
        if time.monotonic() > deadline:
            sys.stderr.write(
                f"webferret: error: internal: the server on {path} (pid {pid}) did not end "
                f"within {STOP_SECONDS:g} s of SIGTERM\n"
            )
            return 1
        time.sleep(0.02)
    print(f"webferret serve: stopped the server on {path} (pid {pid})")
    return 0


def detach(path: str, idle_timeout: float) -> int:
    """Start `webferret serve` on `path` in the background (its own session, stdin and stdout on
    /dev/null, stderr to `serve.log` beside the socket) and return once it answers."""
    found = answering(path)
    if found is not None and found.same:
        print(f"webferret serve: already running on {path} (pid {found.pid})")
        return 0
    problem = socket_folder_problem(os.path.dirname(path))
    if problem:
        return _usage(problem)
    before = _inode(path)
    proc = spawn_server(path, idle_timeout)
    log = server_log(path)
    deadline = time.monotonic() + START_SECONDS
    while True:
        found = answering(path)
        if found is not None and found.same:  # this one, or one another `--detach` started meanwhile
            print(f"webferret serve: running on {path} (pid {found.pid}; its log: {log})")
            return 0
        code = proc.poll()
        # it ended, and no other server took the socket meanwhile (another `--detach` at once: that
        # one is waited for; it listens once warm)
        if code is not None and _inode(path) in (None, before):
            kind = "invalid_argument" if code == 2 else "internal"  # 2: the socket or its folder
            ended = f"the server ended as it started (exit {code}): {_tail(log)}"
            sys.stderr.write(f"webferret: error: {kind}: {ended}\n")
            return code or 1
        if time.monotonic() > deadline:
            proc.terminate()
            waited = f"the server did not answer within {START_SECONDS:g} s (its log: {log})"
            sys.stderr.write(f"webferret: error: timeout: {waited}\n")
            return 1
        time.sleep(0.05)


def _inode(path: str) -> int | None:
    try:
        return os.stat(path).st_ino
    except OSError:
        return None


def _alive(pid: int) -> bool:
    """Whether `pid` still runs: a server another process started stays a zombie until that
    process reaps it, which is ended all the same."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            state = handle.read().rsplit(b")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    except (OSError, IndexError):  # no /proc: ask the kernel
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:  # another user's process has that pid now
            return False
        return True
    return state != b"Z"


def _tail(log: str) -> str:
    try:
        with open(log, "rb") as handle:
            lines = handle.read().decode("utf-8", "replace").strip().splitlines()
    except OSError:
        return "(no log)"
    return lines[-1] if lines else "(nothing in its log)"


def _usage(message: str) -> int:
    sys.stderr.write(f"webferret: error: invalid_argument: {message}\n")
    return 2
