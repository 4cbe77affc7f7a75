"""Small SQLite files beside the page store (search pacing, robots.txt answers), shared by processes."""

from __future__ import annotations

import sqlite3
from pathlib import Path

BUSY_TIMEOUT_S = 5.0


def connect(path: Path, schema: str) -> sqlite3.Connection:
    """An autocommit connection to `path` in WAL mode, its schema made (idempotent DDL)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_S, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute(schema)
    return conn
