"""`webferret serve --status | --stop | --detach`, end to end on a socket in a temp folder."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
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


def test_a_stopped_server_is_named_and_stopped(socket_path: Path) -> None:
    """A server stopped by Ctrl-Z (or SIGSTOP) answers nothing: --status says it is stopped, not
    that none is there, and --stop ends it (it said "nothing to stop", and the server lived on)."""
    started = serve("--detach", "--idle-timeout", "120", socket=socket_path)
    assert started.returncode == 0, started.stderr
    pid = int(started.stdout.split("(pid ")[1].split(";")[0])
    os.kill(pid, signal.SIGSTOP)
    try:
        deadline = time.monotonic() + 10
        while Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[1].split()[0] != b"T":
            assert time.monotonic() < deadline, "the server did not stop"
            time.sleep(0.01)
        status = serve("--status", socket=socket_path)
        assert status.returncode == 1 and f"(pid {pid}) is stopped" in status.stdout
        stopped = serve("--stop", socket=socket_path)
        assert (
            stopped.returncode == 0 and f"stopped the server on {socket_path} (pid {pid})" in stopped.stdout
        )
        assert _gone(pid)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGCONT)


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


@pytest.mark.parametrize("flag", ["--status", "--stop"])
def test_a_setting_that_names_no_socket_is_refused_as_the_calls_refuse_it(flag: str, tmp_path: Path) -> None:
    """`WEBFERRET_SERVE=relative.sock`: every call refuses it (exit 2), so `serve` must not serve or
    look at the default socket instead, where none of those calls would come."""
    env = {**_env(), "XDG_RUNTIME_DIR": str(tmp_path), "WEBFERRET_SERVE": "relative/serve.sock"}
    done = subprocess.run(
        [sys.executable, "-m", "webferret", "serve", flag],
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2, done.stdout
    assert "setting 'serve' (WEBFERRET_SERVE)" in done.stderr and "'relative/serve.sock'" in done.stderr
    assert not (tmp_path / "webferret").exists()


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


PAGE = (
    "<html><head><title>Warm</title></head><body><article><h1>Warm</h1>"
    + "<p>A ferret keeps warm in its burrow, and reads pages quickly.</p>" * 6
    + "</article></body></html>"
)
HANDED = (
    "import os, sys\n"
    "from webferret.handoff import handoff\n"
    "code = handoff(sys.argv[1:])\n"
    "sys.stdout.flush()\n"
    "os._exit(100 if code is None else code)\n"
)
"""A client that only hands off: exit 100 when the call was not handed to a server."""


def _handed(runtime: Path) -> int:
    env = {**_env(), "XDG_RUNTIME_DIR": str(runtime), "WEBFERRET_SERVE": "start"}
    argv = [sys.executable, "-c", HANDED, "extract", "-", "-q"]
    done = subprocess.run(argv, env=env, input=PAGE.encode(), capture_output=True, timeout=60)
    assert done.returncode == 100 or b"burrow" in done.stdout
    return done.returncode


def test_the_setting_start_starts_a_server_for_the_calls_after() -> None:
    runtime = Path(tempfile.mkdtemp(prefix="wf-rt-"))
    path = runtime / "webferret" / "serve.sock"
    env = {**_env(), "XDG_RUNTIME_DIR": str(runtime), "WEBFERRET_SERVE": "start"}
    try:
        first = subprocess.run(
            [sys.executable, "-m", "webferret", "extract", "-", "-q"],
            env=env,
            input=PAGE.encode(),
            capture_output=True,
            timeout=60,
        )
        assert first.returncode == 0 and b"burrow" in first.stdout  # in its own process, as always
        deadline = time.monotonic() + 60
        while not ping(str(path)):  # and a server is warming up for the next ones
            assert time.monotonic() < deadline, "no server was started"
            time.sleep(0.1)
        assert _handed(runtime) == 0
        assert (path.parent / "serve.log").exists()
    finally:
        serve("--stop", socket=path)
        shutil.rmtree(runtime, ignore_errors=True)


def test_the_setting_start_starts_none_in_a_folder_others_may_enter() -> None:
    runtime = Path(tempfile.mkdtemp(prefix="wf-rt-open-"))
    (runtime / "webferret").mkdir(mode=0o777)
    os.chmod(runtime / "webferret", 0o777)
    try:
        assert _handed(runtime) == 100
        # the client makes both before it starts a server
        assert not (runtime / "webferret" / "serve.starting").exists()
        assert not (runtime / "webferret" / "serve.log").exists()
    finally:
        shutil.rmtree(runtime, ignore_errors=True)


def _servers_on(socket_path: Path) -> set[int]:
    """The `webferret serve` processes started for `socket_path` (their children, the spare and its
    workers, are forks with the same command line: only those whose parent is not one count)."""
    found: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
            parent = int((entry / "stat").read_bytes().rsplit(b")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        if b"serve" in argv and str(socket_path).encode() in argv and not _gone(int(entry.name)):
            found[int(entry.name)] = parent
    return {pid for pid, parent in found.items() if parent not in found}


def test_two_detaches_at_once_leave_one_server(socket_path: Path) -> None:
    argv = [sys.executable, "-m", "webferret", "serve", "--socket", str(socket_path), "--detach"]
    both = [subprocess.Popen(argv, env=_env(), stdout=subprocess.PIPE, text=True) for _ in range(2)]
    outs = [proc.communicate(timeout=120)[0] for proc in both]
    assert [proc.returncode for proc in both] == [0, 0], outs
    answering = int(serve("--status", socket=socket_path).stdout.split("(pid ")[1].split(")")[0])
    assert all(f"(pid {answering};" in out or f"(pid {answering})" in out for out in outs), outs
    deadline = time.monotonic() + 30  # one whose socket the other took over ends by itself
    while _servers_on(socket_path) != {answering}:
        assert time.monotonic() < deadline, f"servers left: {_servers_on(socket_path)}"
        time.sleep(0.1)


def test_a_socket_in_the_home_folder_is_there_and_an_empty_one_is_refused(tmp_path: Path) -> None:
    """`serve --socket=~/wf.sock` (no shell expands a `~` after `=`) served in a folder named `~`
    made where it ran, where no call set to `~/wf.sock` would come; `--socket ""` (an unset variable)
    served on the default socket without a word."""
    env = {**_env(), "HOME": str(tmp_path)}
    run = {
        "env": env,
        "cwd": tmp_path,
        "stdin": subprocess.DEVNULL,
        "capture_output": True,
        "text": True,
        "timeout": 60,
    }
    home = subprocess.run(
        [sys.executable, "-m", "webferret", "serve", "--socket=~/wf.sock", "--status"], **run
    )
    assert home.returncode == 1 and f"no server answers on {tmp_path / 'wf.sock'}" in home.stdout, home
    assert not (tmp_path / "~").exists()
    empty = subprocess.run([sys.executable, "-m", "webferret", "serve", "--socket", "", "--status"], **run)
    assert empty.returncode == 2 and "--socket: an empty path" in empty.stderr, empty
