"""Signals a served call's client ignores (`nohup`, a script's background job) do not end the call,
as they would not end the same call without a server."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest
from simweb import SimWeb
from test_serve import ALLOW, Served, _env, serving


@pytest.fixture(scope="module")
def server() -> Iterator[Served]:
    yield from serving("wf-serve-sig-")


@pytest.mark.parametrize("ignored", [signal.SIGHUP, signal.SIGINT])
def test_a_signal_the_client_ignores_is_not_passed_on(
    server: Served, simweb: SimWeb, ignored: signal.Signals
) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "webferret", "fetch", simweb.own("/ignored/slow", "/slow"), "-q", *ALLOW],
        env=_env(WEBFERRET_SERVE=server.path),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=lambda: signal.signal(ignored, signal.SIG_IGN),  # as `nohup` leaves SIGHUP
    )
    deadline = time.monotonic() + 20
    while not simweb.served(
        "/ignored/slow"
    ):  # its own path: an earlier test's late request may ask for /slow
        assert time.monotonic() < deadline and proc.poll() is None
        time.sleep(0.02)
    proc.send_signal(ignored)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    assert b"Ferrets are curious animals" in out
