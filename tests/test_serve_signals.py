"""Signals a served call's client ignores (`nohup`, a script's background job) do not end the call,
as they would not end the same call without a server; Ctrl-C while a fetch reads its URL list
ends it, served or not."""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from simweb import SimWeb
from test_serve import ALLOW, Served, _env


@pytest.fixture(scope="module")
def server() -> Iterator[Served]:
    folder = Path(tempfile.mkdtemp(prefix="wf-serve-sig-"))
    served = Served(folder).wait_ready()
    yield served
    served.stop()
    shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.parametrize("ignored", [signal.SIGHUP, signal.SIGINT])
def test_a_signal_the_client_ignores_is_not_passed_on(
    server: Served, simweb: SimWeb, ignored: signal.Signals
) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "webferret", "fetch", simweb.url("/slow"), "-q", *ALLOW],
        env=_env(WEBFERRET_SERVE=server.path),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=lambda: signal.signal(ignored, signal.SIG_IGN),  # as `nohup` leaves SIGHUP
    )
    deadline = time.monotonic() + 20
    while not any(path == "/slow" for path, _ in simweb.requests):
        assert time.monotonic() < deadline and proc.poll() is None
        time.sleep(0.02)
    proc.send_signal(ignored)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    assert b"Ferrets are curious animals" in out


def _reading_stdin(pids: Callable[[], list[int]]) -> None:
    """Once one of `pids` waits on its stdin pipe (the call reads the URL list)."""
    deadline = time.monotonic() + 30
    while not any("pipe_read" in _wchan(pid) for pid in pids()):  # pipe_read, anon_pipe_read
        assert time.monotonic() < deadline, "the call never read its stdin"
        time.sleep(0.02)


def _wchan(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/wchan").read_text()
    except OSError:
        return ""


@pytest.mark.parametrize("served", [True, False])
def test_ctrl_c_while_fetch_reads_its_url_list_ends_the_call(server: Served, served: bool) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "webferret", "fetch", "-", "--json", *ALLOW],
        env=_env(WEBFERRET_SERVE=server.path if served else "off"),
        stdin=subprocess.PIPE,  # held open: the list never ends, as a terminal's before Ctrl-D
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    children = Path(f"/proc/{server.proc.pid}/task/{server.proc.pid}/children")
    _reading_stdin(lambda: [int(pid) for pid in children.read_text().split()] if served else [proc.pid])
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert json.loads(out)["meta"] == {"interrupted": True}
    assert err == b"webferret: interrupted\n"
