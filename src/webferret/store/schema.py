"""The store's SQLite schema, its migrations, and how a connection is opened.

WAL journal (readers never block the writer), a busy timeout (a writer waits for another instead
of failing), `synchronous=FULL` (a committed page survives a crash), and `PRAGMA user_version` as the
schema version, migrated forward inside one write transaction.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from webferret.models import ErrorCode, FerretError
from webferret.sidecar import immediate

BUSY_TIMEOUT_S = 30.0
T = TypeVar("T")

MIGRATIONS: tuple[str, ...] = (
    # 1: pages (one row per version: URL + content hash) and their passage chunks
    """
    CREATE TABLE pages (
        id INTEGER PRIMARY KEY,
        handle TEXT NOT NULL,
        key_url TEXT NOT NULL,
        url TEXT NOT NULL,
        final_url TEXT,
        canonical_url TEXT,
        content_hash TEXT NOT NULL,
        fetched_at REAL NOT NULL,
        etag TEXT,
        last_modified TEXT,
        title TEXT,
        format TEXT NOT NULL,
        tokens INTEGER NOT NULL,
        page_json TEXT NOT NULL,
        content TEXT NOT NULL,
        UNIQUE (key_url, content_hash)
    );
    CREATE INDEX pages_handle ON pages (handle, fetched_at);
    CREATE INDEX pages_fetched ON pages (fetched_at);
    CREATE TABLE chunks (
        id INTEGER PRIMARY KEY,
        page_id INTEGER NOT NULL REFERENCES pages (id) ON DELETE CASCADE,
        page_no INTEGER NOT NULL,
        words INTEGER NOT NULL,
        text TEXT NOT NULL
    );
    CREATE INDEX chunks_page ON chunks (page_id);
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    """,
    # 2: pages fetched under an SSRF exemption (--allow-host, --allow-private-hosts) are marked, so
    # the store answers them only to a call with the same exemption
    """
    ALTER TABLE pages ADD COLUMN exempt INTEGER NOT NULL DEFAULT 0;
    """,
    # 3: a page is also opened by the URL a redirect ended at (`open` / `find` given a final URL)
    """
    CREATE INDEX pages_final_url ON pages (final_url);
    """,
    # 4: one page read under several URLs is one document: the other URLs' handles name its handle
    """
    CREATE TABLE aliases (handle TEXT PRIMARY KEY, target TEXT NOT NULL);
    CREATE INDEX aliases_target ON aliases (target);
    """,
    # 5: pages read with a caller's own headers (a cookie, a token) are marked, so the store answers
    # them to no later fetch (a call without those headers would be given what they unlocked)
    """
    ALTER TABLE pages ADD COLUMN private INTEGER NOT NULL DEFAULT 0;
    """,
    # 6: a page read another way (a format, a scope) is a variant under a handle of its own, beside
    # its document (`variants`); the variants older stores kept as versions are split off once. And
    # the `page_tokens` a page's passages were numbered at (`paged_at`), for a reader with another
    """
    ALTER TABLE pages ADD COLUMN variant TEXT NOT NULL DEFAULT '';
    ALTER TABLE pages ADD COLUMN document TEXT;
    ALTER TABLE pages ADD COLUMN paged_at INTEGER;
    UPDATE pages SET document = handle;
    CREATE INDEX pages_document ON pages (document, fetched_at);
    INSERT OR REPLACE INTO meta (key, value) VALUES ('variants_split', '0');
    """,
    # 7: the text the passage index reads (`terms.indexed_text`: Chinese and Japanese characters one
    # word each) where it differs from a passage's text; the passages kept before are given theirs once
    """
    ALTER TABLE chunks ADD COLUMN terms TEXT;
    CREATE VIEW chunk_terms AS SELECT id, coalesce(terms, text) AS text FROM chunks;
    INSERT OR REPLACE INTO meta (key, value) VALUES ('chunk_terms', '0');
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)

FTS_TOKENIZER = "unicode61 remove_diacritics 2 categories 'L* N* Co M*'"
"""Letters, numbers and marks make words: a Thai, Devanagari or Arabic word is one term, not cut at
its vowel signs (`categories` left out, marks separate words). Latin letters lose their diacritics."""
FTS_ARGUMENTS = f"text, content='chunk_terms', content_rowid='id', tokenize=\"{FTS_TOKENIZER}\""
"""The index reads the `chunk_terms` view: a passage's text as `terms.indexed_text` makes it."""
FTS_TABLE = f"CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts USING fts5({FTS_ARGUMENTS})"


class UnusableStore(sqlite3.OperationalError, FerretError):
    """The store file cannot be used (damaged, foreign, or still locked): still an `sqlite3.Error`, so
    a fetch goes on without the store; a call that reads the store fails with it, a `FerretError`
    (`invalid_argument`: the setting `home` names it) as every failure the library raises."""

    def __init__(self, message: str) -> None:
        FerretError.__init__(self, ErrorCode.INVALID_ARGUMENT, message)


class DamagedReading(UnusableStore):
    """One stored reading cannot be read (its page JSON damaged), the rest of the store can."""


def is_locked(exc: sqlite3.Error) -> bool:
    text = str(exc).lower()
    return "locked" in text or "busy" in text


def retry_locked(action: Callable[[], T], deadline_s: float | None = None) -> T:
    """Run `action`, retrying while SQLite says the database is busy (beyond its own busy handler),
    for `deadline_s` (default `BUSY_TIMEOUT_S`)."""
    stop = time.monotonic() + (BUSY_TIMEOUT_S if deadline_s is None else deadline_s)
    delay = 0.005
    while True:
        try:
            return action()
        except sqlite3.OperationalError as exc:
            if not is_locked(exc) or time.monotonic() > stop:
                raise
            time.sleep(delay)
            delay = min(delay * 2, 0.2)


def read_text(value: object) -> str | None:
    """A text column selected as its bytes (`CAST(title AS BLOB)`) as text, bytes that are no UTF-8
    (damaged on disk) read as U+FFFD: where a listing or a search reads many pages' rows, one
    damaged row, which SQLite cannot give as text, failed the whole call as a store to move away."""
    if isinstance(value, bytes):
        return value.decode("utf-8", errors="replace")
    return None if value is None else str(value)


def fts5_available() -> bool:
    try:
        probe = sqlite3.connect(":memory:")
        probe.execute("CREATE VIRTUAL TABLE probe USING fts5(x)")
        probe.close()
        return True
    except sqlite3.OperationalError:
        return False


def wait_for_locks(conn: sqlite3.Connection, seconds: float | None = None) -> None:
    """How long `conn` waits for another process's lock before "database is locked" (SQLite's busy
    handler): `seconds`, by default `BUSY_TIMEOUT_S`."""
    conn.execute(f"PRAGMA busy_timeout = {int((BUSY_TIMEOUT_S if seconds is None else seconds) * 1000)}")


def connect(path: Path) -> sqlite3.Connection:
    """Open (creating if needed) the store at `path`, in WAL mode, migrated to `SCHEMA_VERSION`."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False)
    except (OSError, sqlite3.Error) as exc:
        where = f"cannot open the page store at {path} (setting home: --home or WEBFERRET_HOME)"
        blocker = file_in_the_way(path.parent)
        why = f"{blocker} is a file, not a folder" if blocker is not None else str(exc)  # not "File exists"
        raise FerretError(ErrorCode.INVALID_ARGUMENT, f"{where}: {why}") from None
    try:
        wait_for_locks(conn)
        retry_locked(lambda: conn.execute("PRAGMA journal_mode = WAL").fetchone())
        conn.execute("PRAGMA synchronous = FULL")
        conn.execute("PRAGMA foreign_keys = ON")
        retry_locked(lambda: migrate(conn, path))
    except sqlite3.DatabaseError as exc:  # not a database (a damaged or foreign file), or still locked
        conn.close()  # still an sqlite3 error: a fetch goes on without the store, a store command stops
        if isinstance(exc, UnusableStore):  # said already (a newer webferret's store)
            raise
        raise unusable(path, exc) from None
    return conn


def file_in_the_way(folder: Path) -> Path | None:
    """The file standing where `folder`, or a folder above it, must be, if one does."""
    for part in (folder, *folder.parents):
        try:
            if part.exists():
                return None if part.is_dir() else part
        except OSError:  # a name too long, a folder this user cannot enter: the caller's error says it
            return None
    return None


def unusable(path: Path, exc: sqlite3.DatabaseError) -> UnusableStore:
    """What SQLite said of the store at `path` (damaged, full, read-only, locked), with what to do."""
    text = str(exc).lower()
    if "another process" in text:  # said already (`pages.PageStore._hurried`)
        return UnusableStore(f"cannot use the page store at {path}: {exc}")
    if is_locked(exc):
        remedy = "another process holds it: try again once that one is done"
    elif "full" in text:
        remedy = "free some disk space, or use another --home"
    elif ("unable to open" in text or "readonly" in text) and not _writable(path.parent):
        # SQLite writes its journal and shared-memory files beside the store: a read-only folder
        # fails it even where the file itself could be written
        remedy = f"its folder {path.parent} is read-only: make the folder writable, or use another --home"
    elif "readonly" in text or "read-only" in text or not _writable(path):
        remedy = "make it writable, or use another --home"
    else:
        remedy = "move the file away, or use another --home"
    return UnusableStore(f"cannot use the page store at {path}: {exc} ({remedy})")


def _writable(path: Path) -> bool:
    """May this process write `path` (a file or a folder; one that does not exist: yes)? A read-only
    file system answers no even to root."""
    return not path.exists() or os.access(path, os.W_OK)


def named_failure(path: Path, action: Callable[[], T]) -> T:
    """`action()`, a failure of the store file found after it opened (a damaged page a read comes
    to, a full disk, a read-only file, a lock another process held past the busy timeout) raised as
    `unusable`: a command says which store and why, not an internal error. A mistake in a statement
    (`IntegrityError`, ...) stays one."""
    try:
        return action()
    except UnusableStore:
        raise
    except sqlite3.DatabaseError as exc:
        if type(exc) not in (sqlite3.DatabaseError, sqlite3.OperationalError):
            raise
        raise unusable(path, exc) from None


def migrate(conn: sqlite3.Connection, path: Path) -> None:
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version == SCHEMA_VERSION:
        return
    with immediate(conn):
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:  # a newer webferret's store: no bug, a store this one cannot use
            raise UnusableStore(
                f"the page store at {path} has schema version {version}; this webferret knows up to "
                f"{SCHEMA_VERSION} (upgrade webferret or use another --home)"
            )
        for number in range(version, SCHEMA_VERSION):
            for statement in MIGRATIONS[number].split(";"):
                if statement.strip():
                    conn.execute(statement)
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
