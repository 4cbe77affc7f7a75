"""`webferret serve --status | --stop | --detach`, end to end on a socket in a temp folder."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from serve_programs import STALE_SERVER

from webferret.handoff import ping


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith("WEBFERRET_")}


def serve(*flags: str, socket: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "webferret", "serve", "--socket", str(socket), *flags],
        env=_env(),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture
def socket_path() -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="wf-ctl-"))  # short: a socket path has a length limit
    path = folder / "serve.sock"
    yield path
    serve("--stop", socket=path)
    shutil.rmtree(folder, ignore_errors=True)


def _gone(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[1].split()[0]
    except FileNotFoundError:
        return True
    return state == b"Z"


def test_detach_status_and_stop(socket_path: Path) -> None:
    none = serve("--status", socket=socket_path)
    assert none.returncode == 1 and f"no server answers on {socket_path}" in none.stdout

    started = serve("--detach", "--idle-timeout", "120", socket=socket_path)
    assert started.returncode == 0, started.stderr
    assert f"running on {socket_path} (pid " in started.stdout
    pid = int(started.stdout.split("(pid ")[1].split(";")[0])
    assert ping(str(socket_path)) and not _gone(pid)
    assert (socket_path.parent / "serve.log").exists()

    again = serve("--detach", socket=socket_path)  # one is running: no second one
    assert again.returncode == 0 and f"already running on {socket_path} (pid {pid})" in again.stdout

    running = serve("--status", socket=socket_path)
    assert running.returncode == 0 and f"(pid {pid})" in running.stdout

    stopped = serve("--stop", socket=socket_path)
    assert stopped.returncode == 0 and f"stopped the server on {socket_path} (pid {pid})" in stopped.stdout
    assert _gone(pid) and not ping(str(socket_path))
    nothing = serve("--stop", socket=socket_path)
    assert nothing.returncode == 0 and "nothing to stop" in nothing.stdout


def test_a_server_of_other_files_is_named_and_replaced(socket_path: Path) -> None:
    stale = subprocess.Popen(
        [sys.executable, "-c", STALE_SERVER, "serve", "--socket", str(socket_path)],
        env=_env(),
        stdin=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while "other webferret files" not in (seen := serve("--status", socket=socket_path)).stdout:
            assert time.monotonic() < deadline and stale.poll() is None, seen.stdout
            time.sleep(0.1)
        assert seen.returncode == 1 and f"(pid {stale.pid})" in seen.stdout
        started = serve("--detach", socket=socket_path)
        assert started.returncode == 0 and "running on" in started.stdout, started.stderr
        assert stale.wait(timeout=30) == 0  # its socket taken over, it ended
        assert serve("--status", socket=socket_path).returncode == 0
    finally:
        stale.kill()
        stale.wait()


def test_the_flags_exclude_each_other(socket_path: Path) -> None:
    done = serve("--stop", "--status", socket=socket_path)
    assert done.returncode == 2 and "not allowed with argument" in done.stderr


def test_detach_refuses_a_folder_others_may_enter(tmp_path: Path) -> None:
    folder = Path(tempfile.mkdtemp(prefix="wf-ctl-open-"))
    try:
        os.chmod(folder, 0o777)
        done = serve("--detach", socket=folder / "s.sock")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    assert done.returncode == 2 and "accessible to other users" in done.stderr
    assert "Traceback" not in done.stderr


def test_detach_says_why_the_server_could_not_start() -> None:
    folder = Path(tempfile.mkdtemp(prefix="wf-ctl-long-"))
    path = folder / ("x" * 120) / "s.sock"  # too long for a Unix socket
    try:
        done = serve("--detach", socket=path)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    assert done.returncode == 2, done.stderr
    assert "invalid_argument: the server ended as it started (exit 2)" in done.stderr
    assert "cannot listen on" in done.stderr and "Traceback" not in done.stderr
