"""Candidates a search could not read, remembered a while in `<home>/unreachable.sqlite` (WAL).

An agent's searches on one subject meet the same dead links: a host that times out held each of
them up to its `verify_timeout`. A failure verification saw is kept `unreachable_seconds` (by
default as long as a read page stays fresh), and a later search lists that candidate as
unreachable again without asking (the error as it was seen, `remembered_at` saying when), unless
the store holds a reading of it made after the failure. A timeout is only remembered for a search
that would wait no longer; `--fresh` asks every candidate anew, and a candidate read again is
forgotten.

Only failures that say something about the page are kept: not a refusal of our own (an SSRF guard,
robots.txt, a scheme), not a rate limit (pacing's concern), not a browser missing here. The file is
made when the first failure is kept, so a search in a home without one asks it nothing.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path

from webferret import sidecar
from webferret.models import ErrorCode, ErrorInfo, Page
from webferret.net.canonical import canonical_url

UNREACHABLE_FILE = "unreachable.sqlite"
REMEMBERED = frozenset(
    {
        ErrorCode.DNS_FAILURE,
        ErrorCode.CONNECT_FAILED,
        ErrorCode.TIMEOUT,
        ErrorCode.TOO_LARGE,
        ErrorCode.TOO_MANY_REDIRECTS,
        ErrorCode.HTTP_ERROR,
        ErrorCode.NOT_FOUND,
        ErrorCode.UNSUPPORTED_CONTENT,
        ErrorCode.EMPTY_CONTENT,
        ErrorCode.NEEDS_JAVASCRIPT,
        ErrorCode.BLOCKED_BY_SITE,
    }
)
"""The errors a page keeps giving for a while; the others are the call's own (a guard, a budget)."""
NOTE_WAIT_S = 2.0
"""How long a recall waits for this process's notes still being written (they take milliseconds)."""
_SCHEMA = """
CREATE TABLE IF NOT EXISTS unreachable (
    key TEXT PRIMARY KEY,
    failed_at REAL NOT NULL,
    waited REAL NOT NULL,
    exempt INTEGER NOT NULL,
    error TEXT NOT NULL
)
"""


@dataclass(frozen=True)
class Failure:
    """A candidate's failure as verification saw it: `waited` the per-page timeout it had, `exempt`
    whether the call lifted the SSRF guard."""

    url: str
    error: ErrorInfo
    waited: float
    exempt: bool


@dataclass(frozen=True)
class Recalled:
    error: ErrorInfo
    failed_at: float  # time.time()

    def page(self, url: str) -> Page:
        """The failure as a page the store answered (`fetched_via` "store", `fetched_at` when seen)."""
        ago = _ago(time.time() - self.failed_at)
        error = self.error.model_copy(
            update={"message": f"{self.error.message} (remembered: seen {ago} ago)"}
        )
        when = datetime.fromtimestamp(self.failed_at, UTC)
        return Page.failed(url, error, fetched_via="store", fetched_at=when)


def _ago(seconds: float) -> str:
    if seconds < 90:
        return f"{max(int(seconds), 1)} s"
    return f"{round(seconds / 60)} min"


def remembered(page: Page) -> bool:
    """Is `page` a failure this memory answered (not one seen now)?"""
    return not page.ok and page.fetched_via == "store"


def lasting_error(page: Page) -> ErrorInfo | None:
    """`page`'s error if it says something about the page, worth remembering (and seen now)."""
    error = page.error
    return error if error is not None and error.code in REMEMBERED and not remembered(page) else None


class UnreachableMemory:
    """The failures of one home's searches, shared by its processes (`sidecar.KeptConnection`).
    Call it from a worker thread: it reads and writes SQLite."""

    def __init__(self, path: Path, seconds: float) -> None:
        self.path = path
        self.seconds = seconds
        self._connection = sidecar.KeptConnection(path, _SCHEMA)
        self._quiet = threading.Condition()
        self._notes = 0  # notes promised (`note_later`) and not yet written

    def holds(self) -> bool:
        """Might a recall find anything: a file, or a note on its way to it?"""
        return self.seconds > 0 and (self._notes > 0 or self.path.exists())

    def recall(self, urls: Iterable[str], waits: float, exempt: bool) -> dict[str, Recalled]:
        """The failures still remembered of `urls` that a search waiting `waits` seconds a page, with
        (`exempt`) or without an SSRF exemption, would meet again; by URL as asked. The notes this
        process promised are written first (a search right after another meets its failures)."""
        with self._quiet:
            self._quiet.wait_for(lambda: self._notes == 0, timeout=NOTE_WAIT_S)
        if self.seconds <= 0 or not self.path.exists():
            return {}
        keys = {canonical_url(url): url for url in urls}
        if not keys:
            return {}
        since = time.time() - self.seconds
        marks = ",".join("?" * len(keys))
        with self._connection() as conn:
            rows = conn.execute(
                f"SELECT key, failed_at, waited, exempt, error FROM unreachable WHERE key IN ({marks}) "
                "AND failed_at > ?",
                (*keys, since),
            ).fetchall()
        found = {}
        for key, failed_at, waited, row_exempt, error in rows:
            info = ErrorInfo.model_validate_json(error)
            if info.code is ErrorCode.TIMEOUT and waits > waited:
                continue  # it may answer a search that waits longer
            if row_exempt and not exempt:
                continue  # seen past the guard: this call meets the guard first
            found[keys[key]] = Recalled(info, failed_at)
        return found

    def clear(self) -> int:
        """Forget every failure kept (`store clear`); answer how many were."""
        if not self.path.exists():
            return 0
        with self._connection() as conn:
            return conn.execute("DELETE FROM unreachable").rowcount

    def note_later(self, failed: Sequence[Failure], read: Sequence[str]) -> Callable[[], None]:
        """`note`, promised now and written by the job answered (for a worker thread): a recall
        waits for it. A note that cannot be written is lost (its candidates are asked again)."""
        with self._quiet:
            self._notes += 1

        def job() -> None:
            try:
                with contextlib.suppress(sqlite3.Error, OSError):
                    self.note(failed, read)
            finally:
                with self._quiet:
                    self._notes -= 1
                    self._quiet.notify_all()

        return job

    def note(self, failed: Sequence[Failure], read: Sequence[str]) -> None:
        """Keep `failed`, forget the URLs `read` now; the file is made only to keep a failure."""
        if self.seconds <= 0 or not (failed or (read and self.path.exists())):
            return
        now = time.time()
        rows = [
            (canonical_url(item.url), now, item.waited, int(item.exempt), item.error.model_dump_json())
            for item in failed
        ]
        gone = [(canonical_url(url),) for url in read]
        with self._connection() as conn, sidecar.immediate(conn):
            conn.executemany("DELETE FROM unreachable WHERE key = ?", gone)
            conn.executemany("INSERT OR REPLACE INTO unreachable VALUES (?, ?, ?, ?, ?)", rows)
            conn.execute("DELETE FROM unreachable WHERE failed_at < ?", (now - self.seconds,))


@lru_cache(maxsize=8)
def memory_at(home: Path, seconds: float) -> UnreachableMemory:
    """The process's memory for `home` (its connection kept from search to search)."""
    return UnreachableMemory(Path(home) / UNREACHABLE_FILE, seconds)
