"""Small SQLite files beside the page store (search pacing, robots.txt answers), shared by processes."""

from __future__ import annotations

import sqlite3
from pathlib import Path

BUSY_TIMEOUT_S = 5.0


def connect(path: Path, schema: str, *, any_thread: bool = False) -> sqlite3.Connection:
    """An autocommit connection to `path` in WAL mode, its schema made (idempotent DDL).

    `synchronous=NORMAL`: a commit does not wait for the disk (in WAL mode the file stays
    consistent; a power cut may lose the last commits). What these files hold (when an engine was
    last asked, a robots.txt answer) is cheap to lose, and a search's engine request waited 10-20 ms
    for the pacing commit's fsync when it queued behind the page store's. `any_thread`: the caller
    uses it from several threads, one at a time (its own lock)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(
        path, timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=not any_thread
    )
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.execute(schema)
    return conn
