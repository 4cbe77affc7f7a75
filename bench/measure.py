"""Run one command as a process: wall time, exit code, peak RSS (of it and its children), output."""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Command:
    argv: list[str]
    env: dict[str, str] = field(default_factory=dict)
    cwd: str | None = None


@dataclass(frozen=True)
class Sample:
    wall: float
    returncode: int
    peak_rss_mb: float
    stdout: str
    stderr: str
    started: float
    ended: float

    @property
    def ok(self) -> bool:
        return self.returncode == 0


def _child_env(extra: dict[str, str]) -> dict[str, str]:
    env = {
        k: v for k, v in os.environ.items() if "proxy" not in k.lower() and not k.startswith("VIRTUAL_ENV")
    }
    return {**env, **extra}


def run(command: Command, timeout: float = 600.0) -> Sample:
    """Run `command` to its end (killed past `timeout`); RSS comes from wait4 on that one child."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.time()
        begin = time.perf_counter()
        proc = subprocess.Popen(
            command.argv,
            stdout=out,
            stderr=err,
            stdin=subprocess.DEVNULL,
            env=_child_env(command.env),
            cwd=command.cwd,
            start_new_session=True,
        )
        status, usage = _wait(proc.pid, timeout)
        wall = time.perf_counter() - begin
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return Sample(
            wall,
            proc.returncode,
            usage.ru_maxrss / 1024,
            out.read().decode("utf-8", "replace"),
            err.read().decode("utf-8", "replace"),
            started,
            time.time(),
        )


def _wait(pid: int, timeout: float) -> tuple[int, resource.struct_rusage]:
    deadline = time.monotonic() + timeout
    while True:
        done, status, usage = os.wait4(pid, os.WNOHANG)
        if done:
            return status, usage
        if time.monotonic() > deadline:
            os.killpg(pid, signal.SIGKILL)
            _, status, usage = os.wait4(pid, 0)
            return status, usage
        time.sleep(0.002)


class Resident:
    """A long-lived process (e.g. `webferret serve`) started for one figure and stopped after it."""

    def __init__(self, command: Command) -> None:
        self.proc = subprocess.Popen(
            command.argv,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env=_child_env(command.env),
            cwd=command.cwd,
            start_new_session=True,
        )

    def wait_until(self, answers: Callable[[], bool], timeout: float) -> str | None:
        """None once `answers()` is true, else why not (the process ended, or the time ran out)."""
        deadline = time.monotonic() + timeout
        while not answers():
            if self.proc.poll() is not None:
                err = self.proc.stderr.read().decode("utf-8", "replace") if self.proc.stderr else ""
                return f"exit {self.proc.returncode}: {err.strip()[-200:]}"
            if time.monotonic() > deadline:
                return f"did not answer within {timeout:g} s"
            time.sleep(0.02)
        return None

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        if self.proc.stderr:
            self.proc.stderr.close()
