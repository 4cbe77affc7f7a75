"""Ctrl-C during `webferret fetch`: the finished pages are printed (and stored), exit 130."""

import argparse
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from simweb import SimWeb

from webferret.cli.common import run_command
from webferret.store.pages import PageStore


def _fetch(*args: str) -> subprocess.Popen[str]:
    command = [sys.executable, "-m", "webferret", "fetch", "--allow-host", "127.0.0.1", *args]
    env = {key: value for key, value in os.environ.items() if key != "WEBFERRET_SERVE"}
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def _wait_stored(home: Path, url: str, proc: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 30
    while True:
        assert time.monotonic() < deadline and proc.poll() is None
        if (home / "store.sqlite3").exists():
            store = PageStore.in_home(home)
            try:
                if store.lookup(url) is not None:
                    return
            finally:
                store.close()
        time.sleep(0.05)


def _interrupt(
    webferret_home: Path, simweb: SimWeb, *args: str, by: signal.Signals = signal.SIGINT
) -> tuple[str, str, int]:
    hanging = simweb.add("/hanging", "<html><body><p>late</p></body></html>", delay=15.0)
    proc = _fetch(*args, hanging, simweb.url("/article"))
    _wait_stored(webferret_home, simweb.url("/article"), proc)
    # the store's commit is seen from here a turn of the event loop before the page counts as finished
    # (its thread's result handed back, then `on_page`): a Ctrl-C in between finds it stored, unprinted
    time.sleep(0.5)
    proc.send_signal(by)
    out, err = proc.communicate(timeout=20)
    return out, err, proc.returncode


def test_ctrl_c_prints_the_finished_pages(webferret_home: Path, simweb: SimWeb) -> None:
    out, err, code = _interrupt(webferret_home, simweb)
    assert code == 130, err
    assert out.startswith("# The Ferret Field Guide\n") and "late" not in out
    assert err == "webferret: interrupted: 1 of 2 pages not finished\n"


def test_ctrl_c_with_json_answers_the_finished_pages(webferret_home: Path, simweb: SimWeb) -> None:
    out, err, code = _interrupt(webferret_home, simweb, "--json")
    envelope = json.loads(out)
    assert code == 130 and "Traceback" not in err
    assert envelope["ok"] is False
    assert envelope["meta"] == {"count": 1, "failed": 0, "interrupted": True, "unfinished": 1}
    assert [page["url"] for page in envelope["data"]["pages"]] == [simweb.url("/article")]


def test_sigterm_with_json_answers_the_finished_pages(webferret_home: Path, simweb: SimWeb) -> None:
    """A timeout wrapper or an agent's harness sends SIGTERM: the call ends as after Ctrl-C, what it
    finished answered, and its status is SIGTERM's (143)."""
    out, err, code = _interrupt(webferret_home, simweb, "--json", by=signal.SIGTERM)
    envelope = json.loads(out)
    assert code == 143 and "Traceback" not in err
    assert envelope["meta"]["interrupted"] is True and envelope["meta"]["unfinished"] == 1
    assert [page["url"] for page in envelope["data"]["pages"]] == [simweb.url("/article")]


@pytest.mark.parametrize("view", ["--json", "--agent", "human"])
def test_ctrl_c_in_a_crawl_answers_the_pages_read(webferret_home: Path, simweb: SimWeb, view: str) -> None:
    """`crawl --json` answered `data: null` after Ctrl-C, though the pages it read are stored."""
    fast = simweb.add("/walk/fast", "<html><body><h1>Fast</h1><p>quick words</p></body></html>")
    hanging = simweb.add("/walk/hanging", "<html><body><p>late</p></body></html>", delay=15.0)
    start = simweb.add(
        "/walk/start", f'<html><body><p>Start <a href="{fast}">f</a> <a href="{hanging}">h</a>'
    )
    command = [sys.executable, "-m", "webferret", "crawl", start, "--depth", "1", "--allow-host", "127.0.0.1"]
    env = {key: value for key, value in os.environ.items() if key != "WEBFERRET_SERVE"}
    options = [] if view == "human" else [view]
    proc = subprocess.Popen(
        [*command, *options], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )
    _wait_stored(webferret_home, fast, proc)
    time.sleep(0.5)  # its entry is kept a turn of the event loop after its commit (see `_interrupt`)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=20)
    assert proc.returncode == 130 and "Traceback" not in err
    assert err.endswith("webferret: interrupted: 1 page being read not finished\n"), err
    if view == "--json":
        envelope = json.loads(out)
        assert envelope["ok"] is False and envelope["meta"]["interrupted"] is True
        assert envelope["meta"]["unfinished"] == 1
        assert [page["url"] for page in envelope["data"]["pages"]] == [start, fast]
        assert [page["depth"] for page in envelope["data"]["pages"]] == [0, 1]
    elif view == "--agent":
        assert fast in out and "The crawl was interrupted" in out and hanging not in out
    else:
        assert "2 pages read" in out and fast in out and "late" not in out


@pytest.mark.parametrize("as_json", [True, False])
def test_ctrl_c_in_any_other_command_still_answers_its_envelope(
    capsys: pytest.CaptureFixture[str], as_json: bool
) -> None:
    """`search --json` and the like have nothing finished to show, but a JSON reader gets its envelope."""

    async def interrupted(args: argparse.Namespace) -> int:
        raise KeyboardInterrupt  # what asyncio.run raises after Ctrl-C cancelled the call

    code = run_command(argparse.Namespace(run=interrupted, json=as_json))
    out, err = capsys.readouterr()
    assert code == 130 and err == "webferret: interrupted\n"
    if as_json:
        envelope = json.loads(out)
        assert envelope["ok"] is False and envelope["meta"] == {"interrupted": True}
    else:
        assert out == ""


def test_the_human_view_shows_each_page_once_the_pages_before_it_are_done(simweb: SimWeb) -> None:
    """A long list is not silent until its slowest page: pages come out in the order asked, each as
    soon as the ones before it are finished."""
    hanging = simweb.add("/hanging-late", "<html><body><p>late</p></body></html>", delay=15.0)
    proc = _fetch(simweb.url("/article"), simweb.url("/text"), hanging)
    assert proc.stdout is not None
    assert proc.stdout.readline() == "# The Ferret Field Guide\n"  # while the third page still hangs
    for line in proc.stdout:  # the second page follows it (a process that ended would end the loop)
        if "Plain text about ferrets." in line:
            break
    assert proc.poll() is None
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=20) == 130
    out, err = proc.stdout.read(), proc.stderr.read() if proc.stderr else ""  # past the lines read
    assert "late" not in out
    assert err == "webferret: interrupted: 1 of 3 pages not finished\n"


def test_a_closed_stdout_is_no_traceback(tmp_path: Path) -> None:
    """`webferret fetch URL >&-`: the answer goes nowhere, the exit code still says how it went."""
    done = subprocess.run(
        [sys.executable, "-m", "webferret", "fetch", "http://127.0.0.1:9/x", "--home", str(tmp_path)],
        stderr=subprocess.PIPE,
        text=True,
        timeout=60,
        env={**os.environ, "WEBFERRET_SERVE": "off"},
        preexec_fn=lambda: os.close(1),  # the program starts with no stdout
    )
    assert done.returncode == 1 and "Traceback" not in done.stderr and "internal" not in done.stderr


@pytest.mark.parametrize("mode", [(), ("--json",), ("--jsonl",)])
def test_a_url_given_twice_is_one_page_in_the_count(
    webferret_home: Path, simweb: SimWeb, mode: tuple[str, ...]
) -> None:
    """Ctrl-C said "1 of 3" for a URL asked twice beside another, where --jsonl said "1 of 2"."""
    hanging = simweb.add("/hanging-twice", "<html><body><p>late</p></body></html>", delay=15.0)
    proc = _fetch(*mode, hanging, simweb.url("/article"), hanging)
    _wait_stored(webferret_home, simweb.url("/article"), proc)
    time.sleep(0.5)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=20)
    assert proc.returncode == 130, err
    assert err.endswith("interrupted: 1 of 2 pages not finished\n"), err


READ_SYSCALL = {"x86_64": "0", "aarch64": "63"}  # read(2), as /proc/PID/task/TID/syscall names it


@pytest.mark.skipif(os.uname().machine not in READ_SYSCALL, reason="read(2)'s number on this machine")
@pytest.mark.parametrize("command", [["fetch", "-"], ["extract", "-"], ["store", "import", "-"]])
def test_ctrl_c_while_standard_input_is_read_ends_the_call(command: list[str], webferret_home: Path) -> None:
    """`fetch -`, `extract -` and `store import -` read standard input inside the call's event loop
    (`extract` in a worker thread, whose read the loop's end waited for): the first Ctrl-C only
    cancelled the call's task, which the read holding the loop never let run, so the call went on
    waiting for input until a second Ctrl-C or the end of stdin. It now ends at the first, exit 130."""
    code, err = _signalled_while_reading_stdin(command, webferret_home, signal.SIGINT)
    assert code == 130 and err.endswith("webferret: interrupted\n"), err


@pytest.mark.skipif(os.uname().machine not in READ_SYSCALL, reason="read(2)'s number on this machine")
@pytest.mark.parametrize("command", [["fetch", "--json", "-"], ["extract", "-"], ["store", "import", "-"]])
def test_sigterm_while_standard_input_is_read_ends_the_call_as_ctrl_c(
    command: list[str], webferret_home: Path
) -> None:
    """Standard input is read before the call's event loop, whose SIGTERM handler ends a call as
    Ctrl-C does: a SIGTERM (a timeout wrapper, an agent's harness) killed the process outright, with
    no word on stderr and, with --json, no envelope for its reader. It ends as after Ctrl-C, 143."""
    code, err = _signalled_while_reading_stdin(command, webferret_home, signal.SIGTERM)
    assert code == 143 and err.endswith("webferret: interrupted\n"), err


def _signalled_while_reading_stdin(command: list[str], home: Path, signum: int) -> tuple[int, str]:
    """The exit code and stderr of `webferret COMMAND` sent `signum` while it waits for its stdin."""
    env = {**os.environ, "WEBFERRET_HOME": str(home), "WEBFERRET_SERVE": "off"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "webferret", *command],
        stdin=subprocess.PIPE,  # held open, and nothing written: the call waits for its input
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        _wait_reading_stdin(proc)
        proc.send_signal(signum)
        code = proc.wait(timeout=30)
    finally:
        proc.kill()
        proc.wait()
        assert proc.stdin is not None and proc.stderr is not None
        proc.stdin.close()
        err = proc.stderr.read()
    return code, err


def _wait_reading_stdin(proc: subprocess.Popen[str]) -> None:
    """Until a thread of `proc` waits in read(2) on its standard input (fd 0)."""
    _wait_blocked(proc, READ_SYSCALL, "0x0")


@pytest.mark.skipif(not Path("/proc/self/wchan").exists(), reason="no /proc/PID/wchan on this system")
@pytest.mark.parametrize(("signum", "expected"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_while_a_named_pipe_waits_for_its_writer_ends_extract(
    tmp_path: Path, webferret_home: Path, signum: int, expected: int
) -> None:
    """`extract` opened its files in a worker thread, and opening a named pipe that no one writes to
    waits for a writer: Ctrl-C or SIGTERM cancelled the call, whose loop then waited for that thread
    for ever. The files are read before the loop, as standard input is, and the call ends at once."""
    pipe = tmp_path / "pipe.html"
    os.mkfifo(pipe)
    env = {**os.environ, "WEBFERRET_HOME": str(webferret_home), "WEBFERRET_SERVE": "off"}
    command = [sys.executable, "-m", "webferret", "extract", str(pipe)]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        _wait_in(proc, "wait_for_partner")  # the kernel's wait in open(2) of a pipe with no writer
        proc.send_signal(signum)
        _, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
        proc.communicate()
    assert proc.returncode == expected and err.endswith("webferret: interrupted\n"), err


def _wait_in(proc: subprocess.Popen[str], wchan: str) -> None:
    """Until a thread of `proc` waits in the kernel function `wchan`."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and proc.poll() is None:
        for task in Path(f"/proc/{proc.pid}/task").iterdir():
            try:
                if (task / "wchan").read_text() == wchan:
                    return
            except OSError:  # a thread that ended meanwhile
                continue
        time.sleep(0.01)
    raise AssertionError(f"the call never waited in {wchan}")


WRITE_SYSCALL = {"x86_64": "1", "aarch64": "64"}  # write(2)


def _wait_blocked(proc: subprocess.Popen[str], syscall: dict[str, str], fd: str) -> None:
    """Until a thread of `proc` waits in `syscall` (by machine) on the descriptor `fd` (`0x1`)."""
    blocked = [syscall[os.uname().machine], fd]
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and proc.poll() is None:
        for task in Path(f"/proc/{proc.pid}/task").iterdir():
            try:
                if (task / "syscall").read_text().split()[:2] == blocked:
                    return
            except (OSError, IndexError):  # a thread that ended meanwhile
                continue
        time.sleep(0.01)
    raise AssertionError(f"the call never waited in {blocked}")


@pytest.mark.skipif(os.uname().machine not in WRITE_SYSCALL, reason="write(2)'s number on this machine")
def test_sigterm_during_a_store_export_whose_reader_stopped_ends_it(webferret_home: Path) -> None:
    """The export writes inside the call's event loop without awaiting, where the loop's SIGTERM
    handler only cancels the call's task: with a reader that stopped reading (`| less`), a SIGTERM
    (a timeout wrapper's) did nothing, and the call waited for ever. It ends now, exit 143."""
    lines = (
        json.dumps({"url": f"https://doc.example/{n}", "content": "word " * 2000, "ok": True})
        for n in range(200)
    )
    webferret_home.mkdir(parents=True, exist_ok=True)
    (webferret_home / "pages.jsonl").write_text("\n".join(lines) + "\n")
    env = {**os.environ, "WEBFERRET_HOME": str(webferret_home), "WEBFERRET_SERVE": "off"}
    imported = subprocess.run(
        [sys.executable, "-m", "webferret", "store", "import", str(webferret_home / "pages.jsonl")],
        env=env,
        capture_output=True,
        text=True,
    )
    assert imported.returncode == 0, imported.stderr
    proc = subprocess.Popen(
        [sys.executable, "-m", "webferret", "store", "export"],
        stdout=subprocess.PIPE,  # never read: the pipe fills, and the export waits to write
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        _wait_blocked(proc, WRITE_SYSCALL, "0x1")
        proc.send_signal(signal.SIGTERM)
        code = proc.wait(timeout=30)
    finally:
        proc.kill()
        proc.wait()
        assert proc.stderr is not None and proc.stdout is not None
        err = proc.stderr.read()
        proc.stdout.close()
    assert code == 143 and err.endswith("webferret: interrupted\n"), err


def test_ctrl_c_in_an_extract_batch_prints_the_files_finished(tmp_path: Path, webferret_home: Path) -> None:
    """`extract` held every page until the last was read, and Ctrl-C lost them all; each is written
    as soon as the ones before it are, and Ctrl-C prints those finished and counts the others."""
    quick = tmp_path / "quick.html"
    quick.write_text(
        "<html><head><title>Quick notes</title></head><body><article><p>Ferrets sleep for most of the"
        " day and play hard for the rest of it.</p></article></body></html>",
        encoding="utf-8",
    )
    slow = tmp_path / "slow.html"  # 100,000 paragraphs: read for many seconds, past the Ctrl-C
    paragraphs = "".join(f"<p>ferrets dig tunnel number {n}</p>" for n in range(100_000))
    slow.write_text(f"<html><body>{paragraphs}</body></html>")
    env = {**os.environ, "WEBFERRET_HOME": str(webferret_home), "WEBFERRET_SERVE": "off"}
    command = [sys.executable, "-m", "webferret", "extract", str(quick), str(slow)]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    try:
        assert proc.stdout is not None
        shown = b""  # (a page's last line ends only when the next page, or the end, is written)
        while b"play hard for the rest of it." not in shown and (
            chunk := os.read(proc.stdout.fileno(), 65536)
        ):
            shown += chunk
        assert shown.startswith(b"# Quick notes\n") and proc.poll() is None  # the second page still read
        proc.send_signal(signal.SIGINT)
        rest, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
        proc.communicate()
    assert proc.returncode == 130
    assert b"tunnel number" not in shown + rest
    assert err.decode() == "webferret: interrupted: 1 of 2 pages not finished\n"
