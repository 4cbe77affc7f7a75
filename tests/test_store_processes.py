"""Several real processes on one store at once; a writer killed with SIGKILL loses nothing committed."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

from store_worker import _text

from webferret.store.pages import PageStore

WORKER = Path(__file__).with_name("store_worker.py")
PROCESSES, PAGES_EACH = 4, 25


def _spawn(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, str(WORKER), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(WORKER.parent)},
    )


def _integrity(home: Path) -> None:
    conn = sqlite3.connect(home / "store.sqlite3")
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert conn.execute("INSERT INTO chunks_fts (chunks_fts) VALUES ('integrity-check')").fetchall() == []
    conn.close()


def test_processes_write_and_read_one_store_at_once(tmp_path: Path) -> None:
    go = tmp_path / "go"
    workers = [_spawn("mixed", str(tmp_path), str(n), str(PAGES_EACH), str(go)) for n in range(PROCESSES)]
    go.touch()
    results = [worker.communicate(timeout=180) for worker in workers]
    for worker, (out, err) in zip(workers, results, strict=True):
        assert worker.returncode == 0, err
        assert out.strip() == f"done {PAGES_EACH}"
        assert "locked" not in err
    _integrity(tmp_path)
    store = PageStore.in_home(tmp_path)
    stats = store.stats()
    assert stats.pages == PROCESSES * PAGES_EACH + 1
    for n in range(PROCESSES):
        for i in range(PAGES_EACH):
            stored = store.lookup(f"https://w{n}.example/{i}")
            assert stored is not None and stored.page.content == _text(str(n), i)
    shared = store.lookup("https://shared.example/")
    assert shared is not None and shared.page.content.startswith("Shared page by")
    assert len(store.find("shared", n=50)) == 1
    store.close()


def test_a_killed_writer_loses_nothing_it_committed(tmp_path: Path) -> None:
    writer = _spawn("writer", str(tmp_path))
    committed: list[tuple[str, int]] = []
    assert writer.stdout is not None
    while len(committed) < 15:
        line = writer.stdout.readline()
        assert line, writer.stderr.read() if writer.stderr else "writer died"
        handle, index = line.split()
        committed.append((handle, int(index)))
    writer.send_signal(signal.SIGKILL)
    writer.communicate(timeout=30)
    assert writer.returncode == -signal.SIGKILL
    _integrity(tmp_path)
    store = PageStore.in_home(tmp_path)
    for handle, index in committed:
        stored = store.get(handle)
        assert stored is not None and stored.page.content == _text("k", index, size=400)
        assert store.find(f"wkx{index}", n=1)[0].handle == handle
    store.close()
