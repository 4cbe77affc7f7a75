"""`webferret serve` end to end: real server and client processes on a Unix socket in a temp folder."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO

import pytest
from serve_programs import STALE_SERVER
from simweb import Handler, SimWeb, article_html

from webferret.handoff import ping
from webferret.search.unreachable import UNREACHABLE_FILE, UnreachableMemory

ALLOW = ["--allow-host", "127.0.0.1"]
PAGE = (
    "<html><head><title>Warm</title></head><body><article><h1>Warm</h1>"
    + ("<p>A ferret keeps warm in its burrow, and reads pages quickly.</p>" * 6)
    + "</article></body></html>"
)
PROBE = (
    "import os, sys\n"
    "from webferret.handoff import handoff\n"
    "code = handoff(sys.argv[1:])\n"
    "sys.stdout.flush()\n"
    "open(os.environ['PROBE_OUT'], 'w').write(repr(code))\n"
    "os._exit(0 if code is None else code)\n"
)
"""A client that only hands off (never runs in-process) and writes what `handoff` answered."""


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("WEBFERRET_")}
    return {**env, **extra}


class Served:
    """A `webferret serve` process on a socket in its own 0700 folder."""

    def __init__(self, folder: Path, idle: float = 60.0, code: str | None = None) -> None:
        self.folder = folder
        self.path = str(folder / "serve.sock")
        argv = ["serve", "--socket", self.path, "--idle-timeout", str(idle)]
        program = ["-m", "webferret", *argv] if code is None else ["-c", code, *argv]
        self.proc = subprocess.Popen(
            [sys.executable, *program],
            env=_env(WEBFERRET_HOME=str(folder / "server-home")),
            stdin=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )

    def wait_ready(self) -> Served:
        deadline = time.monotonic() + 30
        while not os.path.exists(self.path) or not ping(self.path):
            assert self.proc.poll() is None, self.proc.stderr.read() if self.proc.stderr else ""
            assert time.monotonic() < deadline, "the server never answered"
            time.sleep(0.05)
        return self

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        self.proc.wait(timeout=10)
        if self.proc.stderr:
            self.proc.stderr.close()


def serving(prefix: str) -> Iterator[Served]:
    """A server in a new folder named from `prefix`, ready; stopped and its folder removed after
    (a module's fixture yields from it)."""
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    served = Served(folder).wait_ready()
    try:
        yield served
    finally:
        served.stop()
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def server() -> Iterator[Served]:
    yield from serving("wf-serve-")


def client(
    argv: list[str], socket_path: str, stdin: bytes = b"", **env: str
) -> subprocess.CompletedProcess[bytes]:
    """`webferret ARGV` as a user runs it, with the server's socket configured."""
    return subprocess.run(
        [sys.executable, "-m", "webferret", *argv],
        env=_env(WEBFERRET_SERVE=socket_path, **env),
        input=stdin,
        capture_output=True,
        timeout=60,
    )


def probe(argv: list[str], socket_path: str, tmp: Path, stdin: bytes = b"", **env: str) -> tuple[str, bytes]:
    """What `handoff` answered (`None` = not handed off) and the call's stdout."""
    out = tmp / "probe.txt"
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *argv],
        env=_env(WEBFERRET_SERVE=socket_path, PROBE_OUT=str(out), **env),
        input=stdin,
        capture_output=True,
        timeout=60,
    )
    return out.read_text(), done.stdout


def _without_times(text: bytes) -> str:
    """The JSON text with the two values that differ between any two fetches (when, how long) blanked."""
    envelope = json.loads(text)
    for page in envelope["data"]["pages"]:
        page["fetched_at"] = page["meta"]["elapsed_ms"] = None
    return json.dumps(envelope, indent=2)


def test_handed_off_fetch_matches_in_process(server: Served, simweb: SimWeb, tmp_path: Path) -> None:
    url = simweb.url("/article")
    answered, served_json = probe(["fetch", url, "--json", *ALLOW], server.path, tmp_path)
    assert answered == "0"
    alone = client(["fetch", url, "--json", *ALLOW], "off", WEBFERRET_HOME=str(tmp_path / "h2"))
    assert alone.returncode == 0
    assert _without_times(served_json) == _without_times(alone.stdout)
    served_text = client(["fetch", url, "-q", "--fresh", *ALLOW], server.path)
    alone_text = client(["fetch", url, "-q", "--fresh", *ALLOW], "off")
    assert served_text.returncode == alone_text.returncode == 0
    assert served_text.stdout == alone_text.stdout and b"Ferret Field Guide" in served_text.stdout


def test_a_crawl_is_served(server: Served, simweb: SimWeb, tmp_path: Path) -> None:
    start = simweb.add("/served/guide/", "<html><body><p>Start.</p><a href='/article'>out</a></body></html>")
    answered, out = probe(["crawl", start, "--json", *ALLOW], server.path, tmp_path)
    envelope = json.loads(out)
    assert answered == "0" and envelope["ok"]
    assert [page["url"] for page in envelope["data"]["pages"]] == [start]
    assert envelope["data"]["not_followed"] == {"out_of_scope": 1}


def test_exit_codes_are_relayed(server: Served, simweb: SimWeb, tmp_path: Path) -> None:
    answered, _ = probe(["fetch", simweb.url("/status/404"), *ALLOW], server.path, tmp_path)
    assert answered == "1"
    answered, _ = probe(["fetch", "--no-such-flag", "http://example.com/"], server.path, tmp_path)
    assert answered == "2"
    failed = client(["fetch", simweb.url("/status/404"), *ALLOW], server.path)
    assert failed.returncode == 1 and b"http_error" in failed.stdout + failed.stderr
    usage = client(["fetch", "--no-such-flag", "x"], server.path)
    assert usage.returncode == 2 and b"unrecognized arguments" in usage.stderr


def test_stdin_reaches_the_child(server: Served, tmp_path: Path) -> None:
    answered, out = probe(["extract", "-", "-q"], server.path, tmp_path, stdin=PAGE.encode())
    assert answered == "0"
    assert b"A ferret keeps warm in its burrow" in out


def test_child_sees_the_clients_environment(server: Served, simweb: SimWeb, tmp_path: Path) -> None:
    home = tmp_path / "client-home"
    answered, _ = probe(
        ["fetch", simweb.url("/article"), *ALLOW], server.path, tmp_path, WEBFERRET_HOME=str(home)
    )
    assert answered == "0"
    assert any(home.iterdir()), "the call's store is in the client's WEBFERRET_HOME"
    assert not (server.folder / "server-home").exists()
    (tmp_path / "page.html").write_text(PAGE)  # a relative path: the client's cwd, not the server's
    cwd_call = subprocess.run(
        [sys.executable, "-c", PROBE, "extract", "page.html", "-q"],
        env=_env(WEBFERRET_SERVE=server.path, PROBE_OUT=str(tmp_path / "p2")),
        cwd=tmp_path,
        capture_output=True,
        timeout=60,
    )
    assert (tmp_path / "p2").read_text() == "0" and b"burrow" in cwd_call.stdout


def test_bad_setting_falls_back_to_in_process(server: Served, tmp_path: Path) -> None:
    answered, _ = probe(["extract", "-"], "off", tmp_path, stdin=PAGE.encode())
    assert answered == "None"
    answered, _ = probe(["extract", "-"], "relative/serve.sock", tmp_path, stdin=PAGE.encode())
    assert answered == "None"
    bad = client(["extract", "-"], "relative/serve.sock", stdin=PAGE.encode())
    assert bad.returncode == 2 and b"WEBFERRET_SERVE" in bad.stderr
    answered, _ = probe(["--help"], server.path, tmp_path)
    assert answered == "None"


def test_sigint_on_the_client_ends_the_child(server: Served, simweb: SimWeb) -> None:
    with _held_call(server, simweb, "/serve/sigint") as proc:  # (a page that answered in 3 s could be
        proc.send_signal(signal.SIGINT)  # read before a loaded machine forwarded the signal: exit 0)
        _, err = proc.communicate(timeout=20)
    assert proc.returncode == 130, err
    assert b"interrupted" in err and b"Traceback" not in err


def test_a_child_killed_by_a_signal_is_reported(server: Served, simweb: SimWeb) -> None:
    with _held_call(server, simweb, "/serve/child-killed") as proc:
        os.kill(int(_call_child(server, proc)), signal.SIGKILL)
        _, err = proc.communicate(timeout=20)
    assert proc.returncode == 128 + signal.SIGKILL
    assert err.decode().strip() == "webferret: error: internal: the call's process was ended by SIGKILL"


def test_sigterm_on_the_client_ends_it_as_without_a_server(server: Served, simweb: SimWeb) -> None:
    with _held_call(server, simweb, "/serve/sigterm") as proc:
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=20)
    assert proc.returncode == 128 + signal.SIGTERM, err  # as its own process ends: 143, what it had done said
    assert b"interrupted" in err and b"internal" not in err and b"Traceback" not in err


def test_a_killed_client_ends_its_call(server: Served, simweb: SimWeb, tmp_path: Path) -> None:
    said = tmp_path / "said.txt"  # a file, as `> out 2> err`: no pipe the call's child would hold open
    with said.open("wb") as output, _held_call(server, simweb, "/serve/held", output) as proc:
        _child_ends_with_its_client(server, proc)
    # as the same call in its own process, killed outright: it writes nothing more. Not the exit code
    # it could not send (an internal error), nor the "interrupted" line of the call the server ended
    assert said.read_bytes() == b""


def _held(handler: Handler, released: threading.Event) -> None:
    released.wait(60)
    handler.reply(200, PAGE.encode())


@contextlib.contextmanager
def _held_call(
    server: Served, simweb: SimWeb, path: str, output: int | IO[bytes] = subprocess.PIPE
) -> Iterator[subprocess.Popen[bytes]]:
    """A handed-off fetch of a page held at `path` (the test's own) until the block ends: only what
    the test does ends the call before that, however slow the machine."""
    released = threading.Event()
    simweb.add(path, stream=lambda handler, web: _held(handler, released))
    try:
        proc = subprocess.Popen(  # a job of its own, as a shell starts one: a group Ctrl-Z can stop
            [sys.executable, "-m", "webferret", "fetch", simweb.url(path), *ALLOW],
            env=_env(WEBFERRET_SERVE=server.path),
            stdout=output,
            stderr=output,
            process_group=0,
        )
        deadline = time.monotonic() + 20
        while not simweb.served(path):  # its request reached the web: the call runs
            assert time.monotonic() < deadline and proc.poll() is None
            time.sleep(0.02)
        yield proc
    finally:
        released.set()


def _call_child(server: Served, proc: subprocess.Popen[bytes]) -> str:
    """The server's child that runs `proc`'s call: the one given the client's stderr. (Not the first
    child listed: the call before may still be winding down in its own after its answer, which a
    loaded machine showed, and Ctrl-Z was then tested on that one.)"""
    given = os.readlink(f"/proc/{proc.pid}/fd/2")
    deadline = time.monotonic() + 15
    while True:
        for pid in _children(server.proc.pid):
            with contextlib.suppress(OSError):  # (one that ended meanwhile)
                if os.readlink(f"/proc/{pid}/fd/2") == given:
                    return pid
        assert time.monotonic() < deadline, "no child of the server runs the call"
        time.sleep(0.02)


def test_a_calls_child_holds_no_other_calls_connection(server: Served, simweb: SimWeb) -> None:
    """A child forked while another call runs closes that call's connection: held there, it stayed
    open past that call's end (a client waiting for the end of its connection waited on)."""
    with (
        _held_call(server, simweb, "/serve/first") as first,
        _held_call(server, simweb, "/serve/second") as second,
    ):
        children = {_call_child(server, first), _call_child(server, second)}
        for child in children:
            assert len(_server_connections(child, server.path)) == 1, child  # its own alone
    first.wait(timeout=30)
    second.wait(timeout=30)


def test_a_stopped_server_is_not_called(server: Served) -> None:
    """A server stopped by Ctrl-Z (or SIGSTOP) cannot answer: a call runs in its own process at once,
    rather than wait 10 s for an answer (the kernel took its connection all the same)."""
    from webferret.handoff import connect

    os.kill(server.proc.pid, signal.SIGSTOP)
    try:
        deadline = time.monotonic() + 10
        while Path(f"/proc/{server.proc.pid}/stat").read_bytes().rsplit(b")", 1)[1].split()[0] != b"T":
            assert time.monotonic() < deadline, "the server did not stop"
            time.sleep(0.01)
        assert connect(server.path) is None
    finally:
        os.kill(server.proc.pid, signal.SIGCONT)
    sock = connect(server.path)  # going on, it is called again
    assert sock is not None
    sock.close()


def _server_connections(pid: str, path: str) -> list[str]:
    """The connections to the server's socket `path` that process `pid` holds (its descriptors that
    are Unix sockets the kernel lists at `path`: the ends the server accepted)."""
    at_path = set()
    for line in Path("/proc/net/unix").read_text().splitlines()[1:]:
        fields = line.split()
        if len(fields) >= 8 and fields[7] == path:
            at_path.add(fields[6])
    held = []
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        with contextlib.suppress(OSError):
            target = os.readlink(fd)
            if target.startswith("socket:[") and target[8:-1] in at_path:
                held.append(fd.name)
    return held


def _child_ends_with_its_client(server: Served, proc: subprocess.Popen[bytes]) -> None:
    child = _call_child(server, proc)
    proc.kill()  # SIGKILL: nothing is forwarded
    proc.wait(timeout=20)
    # the page is held for 60 s and the fetch's timeout is 30 s: before either, only the kill ends the call
    deadline = time.monotonic() + 15
    while child in _children(server.proc.pid):
        assert time.monotonic() < deadline, "the call's child outlived its client"
        time.sleep(0.02)


def test_client_refuses_a_folder_others_may_enter(server: Served, tmp_path: Path) -> None:
    os.chmod(server.folder, 0o755)
    try:
        answered, _ = probe(["extract", "-"], server.path, tmp_path, stdin=PAGE.encode())
    finally:
        os.chmod(server.folder, 0o700)
    assert answered == "None"


def test_server_refuses_a_world_writable_folder(tmp_path: Path) -> None:
    folder = Path(tempfile.mkdtemp(prefix="wf-open-"))
    try:
        os.chmod(folder, 0o777)
        done = subprocess.run(
            [sys.executable, "-m", "webferret", "serve", "--socket", str(folder / "s.sock")],
            env=_env(),
            capture_output=True,
            text=True,
            timeout=60,
        )
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    assert done.returncode == 2
    assert "accessible to other users" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize("where", ["missing/folder/s.sock", "x" * 120 + "/s.sock"])
def test_a_socket_path_that_cannot_be_used_is_a_usage_error(tmp_path: Path, where: str) -> None:
    """A folder that cannot be made there, or a path too long for a socket: named, exit 2."""
    path = tmp_path / where
    done = subprocess.run(
        [sys.executable, "-m", "webferret", "serve", "--socket", str(path)],
        env=_env(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, done.stderr
    assert "invalid_argument" in done.stderr and str(path.parent) in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("kind", ["file", "folder", "link"])
def test_a_path_that_is_no_socket_is_never_replaced(tmp_path: Path, kind: str) -> None:
    folder = tmp_path / "priv"
    folder.mkdir(mode=0o700)
    path, notes = folder / "notes.txt", folder / "kept.txt"
    notes.write_text("precious")
    if kind == "file":
        path = notes
    elif kind == "folder":
        path.mkdir()
    else:
        path.symlink_to(notes)
    done = subprocess.run(
        [sys.executable, "-m", "webferret", "serve", "--socket", str(path), "--idle-timeout", "1"],
        env=_env(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "is not a socket: refusing to replace it" in done.stderr
    assert os.path.lexists(path) and notes.read_text() == "precious"


def test_a_stale_server_is_not_used(tmp_path: Path) -> None:
    folder = Path(tempfile.mkdtemp(prefix="wf-stale-"))
    stale = Served(folder, code=STALE_SERVER)
    try:
        deadline = time.monotonic() + 30
        while not os.path.exists(stale.path):
            assert time.monotonic() < deadline and stale.proc.poll() is None
            time.sleep(0.05)
        time.sleep(0.2)
        assert not ping(stale.path)
        answered, out = probe(["extract", "-", "-q"], stale.path, tmp_path, stdin=PAGE.encode())
        assert answered == "None" and out == b""
        alone = client(["extract", "-", "-q"], stale.path, stdin=PAGE.encode())
        assert alone.returncode == 0 and b"burrow" in alone.stdout
    finally:
        stale.stop()
        shutil.rmtree(folder, ignore_errors=True)


def test_idle_timeout_ends_the_server() -> None:
    folder = Path(tempfile.mkdtemp(prefix="wf-idle-"))
    served = Served(folder, idle=0.5)
    try:
        assert served.proc.wait(timeout=60) == 0
        assert not os.path.exists(served.path), "the socket is removed"
    finally:
        served.stop()
        shutil.rmtree(folder, ignore_errors=True)


STOPPED_IN_A_FORK = (
    "import os, signal, sys\n"
    "server = os.getpid()\n"
    "def stop():\n"
    "    if os.getpid() == server:\n"
    "        os.kill(server, signal.SIGTERM)\n"
    "os.register_at_fork(before=stop)\n"
    "from webferret.cli import main\n"
    "sys.exit(main(sys.argv[1:]))\n"
)
"""A server that gets SIGTERM as it forks: its handler then runs inside an at-fork hook, where an
exception raised to stop the loop was printed and dropped, and the server served on."""


def test_a_stop_that_comes_during_a_fork_is_not_lost() -> None:
    folder = Path(tempfile.mkdtemp(prefix="wf-forkstop-"))
    served = Served(folder, idle=0, code=STOPPED_IN_A_FORK)
    try:
        deadline = time.monotonic() + 30
        while served.proc.poll() is None and not ping(served.path):  # a call: the server forks
            assert time.monotonic() < deadline, "it never answered"
            time.sleep(0.05)
        assert served.proc.wait(timeout=30) == 0  # stopped as it forked
        assert not os.path.exists(served.path)
    finally:
        served.stop()
        shutil.rmtree(folder, ignore_errors=True)


ENDED_AS_IT_FORKS = (
    "import os, signal, time\n"
    "from webferret.cli import served\n"
    "signal.signal(signal.SIGTERM, lambda *_: None)  # the server's own handler: it only sets a flag\n"
    "pid = served.fork_child()\n"
    "if pid == 0:\n"
    "    time.sleep(0.5)  # a child not yet past its first steps\n"
    "    served._leave_parent([])\n"
    "    time.sleep(10)\n"
    "    os._exit(0)\n"
    "os.kill(pid, signal.SIGTERM)  # its client left: the server ends the call\n"
    "_, status = os.waitpid(pid, 0)\n"
    "held = signal.SIGTERM in signal.pthread_sigmask(signal.SIG_BLOCK, [])\n"
    "print(os.WTERMSIG(status) if os.WIFSIGNALED(status) else 'exit', 'held' if held else 'free')\n"
)


def test_a_call_ended_as_its_child_is_forked_ends() -> None:
    """A SIGTERM sent to a call's child before it has put its own handlers in place waits for them
    (it used to reach the server's handler, copied into the child, and the call ran on); the server
    itself takes signals again at once."""
    done = subprocess.run(
        [sys.executable, "-c", ENDED_AS_IT_FORKS], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.split() == [str(int(signal.SIGTERM)), "free"]


def test_a_server_whose_socket_was_taken_over_ends() -> None:
    """Its socket replaced by a newer server's (or removed), no client can reach it: it ends, even
    with no idle timeout, rather than live on unseen."""
    folder = Path(tempfile.mkdtemp(prefix="wf-orphan-"))
    served = Served(folder, idle=0).wait_ready()
    try:
        time.sleep(1)  # the server back waiting, with nothing to wake it but its own check
        os.unlink(served.path)
        with socket.socket(socket.AF_UNIX) as other:
            other.bind(served.path)  # another socket at its path
            assert served.proc.wait(timeout=30) == 0
        assert os.path.exists(served.path), "the other socket is left alone"
    finally:
        served.stop()
        shutil.rmtree(folder, ignore_errors=True)


TRACE_SERVER = (
    "import os, sys\n"
    "import webferret.cli.served as served\n"
    "from webferret.launch import entry\n"
    "run = served._run\n"
    "def traced(argv):\n"
    "    before = set(sys.modules)\n"
    "    try:\n"
    "        return run(argv)\n"
    "    finally:\n"
    "        with open({out!r}, 'a') as f:\n"
    "            f.write(' '.join(sorted(set(sys.modules) - before)) + '\\n')\n"
    "served._run = traced\n"
    "import webferret.cli as cli\n"
    "build = cli.build_parser\n"
    "def counted():\n"
    "    with open({out!r} + '.parsers', 'a') as f:\n"
    "        f.write(str(os.getpid()) + '\\n')\n"
    "    return build()\n"
    "cli.build_parser = counted\n"
    "entry()\n"
)
"""`webferret serve`, each call's child writing the modules it imported, one line a call, and every
process that builds the command-line parser its pid."""


def test_a_served_call_imports_nothing_the_warm_up_left_out(simweb: SimWeb, tmp_path: Path) -> None:
    """Every module a fetch or a search needs is imported by `webferret serve` before it forks a call,
    not in each call's child (a search's start was a few ms later for each one left out); and the
    parser is built there, once."""
    folder = Path(tempfile.mkdtemp(prefix="wf-trace-"))
    out = tmp_path / "modules.txt"
    served = Served(folder, code=TRACE_SERVER.format(out=str(out))).wait_ready()
    html = {"Content-Type": "text/html"}
    pages = [simweb.add(f"/warm/{n}", article_html(f"Burrow {n}", 3 + 2 * n), headers=html) for n in range(3)]
    results = [
        {"url": url, "title": f"Warm {n}", "content": "A ferret.", "engine": "x"}
        for n, url in enumerate(pages)
    ]
    simweb.add("/search", json.dumps({"results": results}), headers={"Content-Type": "application/json"})
    engine = {"WEBFERRET_SEARXNG_URL": simweb.url("/"), "WEBFERRET_ENGINES": "searxng"}
    try:
        fetched = client(
            ["fetch", pages[0], "--json", *ALLOW], served.path, WEBFERRET_HOME=str(tmp_path / "h")
        )
        found = client(
            ["search", "ferret", "--json", *ALLOW], served.path, WEBFERRET_HOME=str(tmp_path / "h"), **engine
        )
    finally:
        served.stop()
        shutil.rmtree(folder, ignore_errors=True)
    assert fetched.returncode == 0 and found.returncode == 0, found.stderr
    assert len(json.loads(found.stdout)["data"]["results"]) == 3
    assert out.read_text().splitlines() == ["", ""]
    assert set(Path(f"{out}.parsers").read_text().split()) == {str(served.proc.pid)}  # no child builds one


def test_the_clients_io_encoding_is_the_calls(server: Served, tmp_path: Path) -> None:
    page = "<html><body><article><h1>Frettchen</h1><p>" + "Ein Frettchen spielt gern, schläft viel. " * 8
    page += "</p></article></body></html>"
    answered, served_out = probe(
        ["extract", "-", "-q"], server.path, tmp_path, stdin=page.encode(), PYTHONIOENCODING="latin-1"
    )
    alone = client(["extract", "-", "-q"], "off", stdin=page.encode(), PYTHONIOENCODING="latin-1")
    assert answered == "0" and b"schl\xe4ft" in served_out and served_out == alone.stdout


def _children(pid: int) -> list[str]:
    try:
        return Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:  # it ended
        return []


def _spare(server: int) -> tuple[str, list[str]]:
    """The server's spare child, once it is the only one and its workers are forked (a ping, such
    as the fixture's, is a call: it takes the spare there was)."""
    cores = os.cpu_count() or 1
    deadline = time.monotonic() + 20
    seen: tuple[str, list[str]] | None = None
    while True:
        children = _children(server)
        found = None
        if len(children) == 1 and len(workers := _children(int(children[0]))) == cores:
            found = (children[0], workers)
            if found == seen:  # the same a moment later: not a taken one on its way out
                return found
        seen = found
        assert time.monotonic() < deadline, f"no spare with {cores} workers: {children}"
        time.sleep(0.25)


def test_the_next_call_runs_in_a_child_forked_ahead(server: Served, simweb: SimWeb) -> None:
    spare, workers = _spare(server.proc.pid)  # no call runs: the spare waits, its workers forked too
    with _held_call(server, simweb, "/serve/spare", subprocess.DEVNULL) as proc:  # runs till the block ends
        assert _children(server.proc.pid) == [spare]  # the call runs there; no other child meanwhile
        assert _children(int(spare)) == workers  # with the workers forked ahead
    proc.wait(timeout=30)
    after, _ = _spare(server.proc.pid)
    assert after != spare
    deadline = time.monotonic() + 10  # not waited for by the call: they end with its process
    while any(os.path.exists(f"/proc/{pid}") for pid in workers):
        assert time.monotonic() < deadline, "the call's workers outlived it"
        time.sleep(0.02)


def test_a_spare_that_died_is_replaced(server: Served, tmp_path: Path) -> None:
    spare, _ = _spare(server.proc.pid)
    os.kill(int(spare), signal.SIGKILL)
    answered, out = probe(["extract", "-", "-q"], server.path, tmp_path, stdin=PAGE.encode())
    assert answered == "0" and b"burrow" in out  # handed to a child forked then, or to the next spare
    after, _ = _spare(server.proc.pid)
    assert after != spare


def test_a_stopped_server_leaves_no_spare_behind() -> None:
    folder = Path(tempfile.mkdtemp(prefix="wf-spare-"))
    served = Served(folder).wait_ready()
    try:
        spare, workers = _spare(served.proc.pid)
        served.stop()
        deadline = time.monotonic() + 10
        while any(os.path.exists(f"/proc/{pid}") for pid in (spare, *workers)):
            assert time.monotonic() < deadline, "the spare or its workers outlived the server"
            time.sleep(0.02)
    finally:
        served.stop()
        shutil.rmtree(folder, ignore_errors=True)


HELD_CLOSE = (
    "import os, sys, time\n"
    "from webferret.store.pages import PageStore\n"
    "close = PageStore.close\n"
    "def gated(self):\n"
    "    deadline = time.monotonic() + 30\n"
    "    while not os.path.exists(os.environ['GATE']) and time.monotonic() < deadline:\n"
    "        time.sleep(0.01)\n"
    "    close(self)\n"
    "    open(os.environ['CLOSED'], 'w').close()\n"
    "PageStore.close = gated\n"
    "from webferret.cli import main\n"
    "sys.exit(main(sys.argv[1:]))\n"
)
"""A server whose calls close the page store only once the file GATE exists (the client's
environment names it), then write the file CLOSED."""


def test_a_call_answers_before_its_store_closes(simweb: SimWeb, tmp_path: Path) -> None:
    folder = Path(tempfile.mkdtemp(prefix="wf-held-"))
    served = Served(folder, code=HELD_CLOSE).wait_ready()
    gate, closed = tmp_path / "gate", tmp_path / "closed"
    try:
        done = client(  # its output pipes reach their end while the store is still open
            ["fetch", simweb.url("/article"), "-q", *ALLOW],
            served.path,
            WEBFERRET_HOME=str(tmp_path / "home"),
            GATE=str(gate),
            CLOSED=str(closed),
        )
        assert done.returncode == 0 and b"Ferret Field Guide" in done.stdout
        assert not closed.exists()
        gate.touch()
        deadline = time.monotonic() + 30
        while not closed.exists():  # and it is closed once the client has its answer
            assert time.monotonic() < deadline, "the store was never closed"
            time.sleep(0.02)
    finally:
        gate.touch()
        served.stop()
        shutil.rmtree(folder, ignore_errors=True)


def test_a_served_search_remembers_what_it_could_not_read(
    server: Served, simweb: SimWeb, tmp_path: Path
) -> None:
    """The failures a served search saw are written after its answer, for the searches after it."""
    alive = simweb.add("/remember/alive", PAGE, headers={"Content-Type": "text/html"})
    dead = simweb.own("/remember/dead", "/status/404")
    results = [{"url": url, "title": "Warm", "content": "A ferret.", "engine": "x"} for url in (alive, dead)]
    simweb.add("/search", json.dumps({"results": results}), headers={"Content-Type": "application/json"})
    home = tmp_path / "home"
    env = {"WEBFERRET_HOME": str(home), "WEBFERRET_SEARXNG_URL": simweb.url("/")}
    env["WEBFERRET_ENGINES"] = "searxng"

    def unreachable() -> list[dict]:
        done = client(["search", "ferret", "--json", *ALLOW], server.path, **env)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)["data"]["unreachable"]

    first = unreachable()
    memory = UnreachableMemory(home / UNREACHABLE_FILE, 600)
    deadline = time.monotonic() + 30
    while not memory.recall([dead], 10, exempt=True):  # written after the answer
        assert time.monotonic() < deadline, "the failure was never written"
        time.sleep(0.02)
    second = unreachable()
    assert [item["remembered_at"] is not None for item in (*first, *second)] == [False, True]
    assert simweb.served("/remember/dead") == 1


def _state(pid: int) -> str:
    """A process's state letter (`T`: stopped) from /proc."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]


def _suspend(proc: subprocess.Popen[bytes]) -> None:
    """Ctrl-Z to the client once it handles it (it does from the call's start; a signal sent before
    would stop it alone, by the default action, as a terminal's would in that instant)."""
    caught = 1 << (signal.SIGTSTP - 1)
    deadline = time.monotonic() + 15
    while not int(_status(proc.pid, "SigCgt"), 16) & caught:
        assert time.monotonic() < deadline, "the client never took up Ctrl-Z"
        time.sleep(0.02)
    proc.send_signal(signal.SIGTSTP)


def _status(pid: int, field: str) -> str:
    """A field of /proc/PID/status."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return line.split(":", 1)[1].strip()
    raise AssertionError(f"no {field} in /proc/{pid}/status")


def _until_stopped(pid: int, stopped: bool = True) -> None:
    deadline = time.monotonic() + 15
    while (_state(pid) == "T") != stopped:
        assert time.monotonic() < deadline, f"process {pid} never {'stopped' if stopped else 'went on'}"
        time.sleep(0.02)


def test_ctrl_z_on_the_client_stops_its_call(server: Served, simweb: SimWeb, tmp_path: Path) -> None:
    """SIGTSTP (Ctrl-Z) stops the call with its client and SIGCONT (fg, bg) goes on with it, as the
    call in its own process; the child, in its own session, ran on and wrote to the terminal of a
    stopped job."""
    said = tmp_path / "said.txt"
    with said.open("wb") as output, _held_call(server, simweb, "/serve/stopped", output) as proc:
        child = int(_call_child(server, proc))
        _suspend(proc)
        _until_stopped(proc.pid)
        _until_stopped(child)
        proc.send_signal(signal.SIGCONT)
        _until_stopped(child, stopped=False)
    assert proc.wait(timeout=30) == 0
    assert b"# Warm" in said.read_bytes()


def test_a_stopped_call_whose_client_is_killed_ends(server: Served, simweb: SimWeb, tmp_path: Path) -> None:
    """Ctrl-Z, then the stopped job killed: the call's child, stopped with its client, ends too (as
    the same call in its own process dies), rather than stay stopped for good."""
    with (
        (tmp_path / "said.txt").open("wb") as output,
        _held_call(server, simweb, "/serve/stopped-killed", output) as proc,
    ):
        child = int(_call_child(server, proc))
        _suspend(proc)
        _until_stopped(child)
        _child_ends_with_its_client(server, proc)
