"""A served call's output, as the same call without a server writes it: in the client's encoding,
unbuffered under its `PYTHONUNBUFFERED`, and a stdout that cannot be written (a full disk) is a
failed call."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from simweb import SimWeb
from test_serve import ALLOW, Served, _env, serving

pytestmark = pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")


@pytest.fixture(scope="module")
def server() -> Iterator[Served]:
    yield from serving("wf-serve-out-")


def _into_full_disk(
    argv: list[str], serve: str, home: Path, **env: str
) -> subprocess.CompletedProcess[bytes]:
    """`webferret ARGV` with its stdout on /dev/full (every write fails: no space left)."""
    base = {k: v for k, v in _env(WEBFERRET_SERVE=serve).items() if k != "PYTHONUNBUFFERED"}
    with open("/dev/full", "wb") as full:
        return subprocess.run(
            [sys.executable, "-m", "webferret", *argv],
            env={**base, "WEBFERRET_HOME": str(home), **env},
            stdout=full,
            stderr=subprocess.PIPE,
            timeout=60,
        )


@pytest.mark.parametrize("mode", [[], ["--json"], ["--jsonl"]])
def test_output_that_cannot_be_written_fails_the_call(
    server: Served, simweb: SimWeb, tmp_path: Path, mode: list[str]
) -> None:
    argv = ["fetch", simweb.url("/article"), *mode, *ALLOW]
    for serve in (server.path, "off"):
        done = _into_full_disk(argv, serve, tmp_path / serve.replace("/", "_"))
        assert done.returncode == 1, (serve, done.stderr)
        assert b"No space left on device" in done.stderr and b"Traceback" not in done.stderr


def test_a_served_call_is_unbuffered_as_its_client_asked(
    server: Served, simweb: SimWeb, tmp_path: Path
) -> None:
    argv = ["fetch", simweb.url("/article"), "--json", *ALLOW]
    served = _into_full_disk(argv, server.path, tmp_path / "served", PYTHONUNBUFFERED="1")
    alone = _into_full_disk(argv, "off", tmp_path / "alone", PYTHONUNBUFFERED="1")
    assert served.returncode == alone.returncode == 1
    assert served.stderr == alone.stderr


def test_output_that_fails_midway_is_said_as_output_not_a_fault(
    server: Served, simweb: SimWeb, tmp_path: Path
) -> None:
    """A write that fails mid-call (unbuffered output, or a page longer than the buffer) was said as
    `internal: OSError ... No space left on device`, a fault of webferret's; it is the output's."""
    argv = ["fetch", simweb.url("/article"), *ALLOW]
    for serve in (server.path, "off"):
        done = _into_full_disk(argv, serve, tmp_path / serve.replace("/", "_"), PYTHONUNBUFFERED="1")
        assert done.returncode == 1, (serve, done.stderr)
        assert b"the output could not be written: No space left on device" in done.stderr, done.stderr
        assert b"internal" not in done.stderr


def test_a_served_calls_encoding_is_its_clients_not_the_servers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = "<html><body><article><h1>Schnee</h1><p>" + "Ein Schneemann ☃ schläft im Bau. " * 8
    page += "</p></article></body></html>"
    monkeypatch.setenv("PYTHONIOENCODING", "latin-1")  # the server's, not its clients'
    (tmp_path / "latin").mkdir(0o700)
    served = Served(tmp_path / "latin").wait_ready()
    monkeypatch.delenv("PYTHONIOENCODING")
    try:
        calls = {
            serve: subprocess.run(
                [sys.executable, "-m", "webferret", "extract", "-", "-q"],
                env=_env(WEBFERRET_SERVE=serve, WEBFERRET_HOME=str(tmp_path / "home")),
                input=page.encode(),
                capture_output=True,
                timeout=60,
            )
            for serve in (served.path, "off")
        }
    finally:
        served.stop()
    assert calls[served.path].returncode == calls["off"].returncode == 0, calls[served.path].stderr
    assert calls[served.path].stdout == calls["off"].stdout and "☃".encode() in calls["off"].stdout
