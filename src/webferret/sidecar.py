"""Small SQLite files beside the page store (search pacing, robots.txt answers), shared by processes."""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

BUSY_TIMEOUT_S = 5.0


@contextmanager
def immediate(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One `BEGIN IMMEDIATE` transaction on an autocommit connection (a store's or a file's beside
    it): committed when the block ends, rolled back when it raises. A transaction SQLite rolled back
    itself (a full disk) is not rolled back again: that ROLLBACK's "no transaction is active" would
    take the place of the error that says why."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


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
    try:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute(schema)
    except BaseException:  # a damaged or read-only file: no connection left open behind the error
        conn.close()
        raise
    return conn


class KeptConnection:
    """`with kept() as conn:` one connection to a side file, opened on first use and kept, for any
    thread, one at a time (its lock); a forked child opens its own.

    Opened and closed for each use, the last close of a WAL file checkpoints it and deletes its side
    files: 3-12 ms each time (an engine request's pacing, a fetch's robots.txt look-up)."""

    def __init__(self, path: Path, schema: str) -> None:
        self.path = path
        self.schema = schema
        self.conn: sqlite3.Connection | None = None
        self._pid = 0
        self._lock = threading.Lock()

    @contextmanager
    def __call__(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            if self.conn is None or self._pid != os.getpid():
                self.conn = connect(self.path, self.schema, any_thread=True)
                self._pid = os.getpid()
            yield self.conn
