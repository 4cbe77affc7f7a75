"""Per-engine pacing remembered across processes: a minimum interval and suspensions.

State lives in its own SQLite file (`<home>/search-pacing.sqlite`, WAL) so a burst of agent calls
from several processes still spaces its requests, and an engine that answered with a rate limit or
a captcha rests (for its Retry-After when it gave one) before anyone asks it again.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from webferret import sidecar
from webferret.models import ErrorCode, FerretError

DEFAULT_SUSPENSION = 300.0
MAX_SUSPENSION = 3600.0
MIN_SUSPENSION = 5.0  # `Retry-After: 0` says "now": a few seconds, not the default's minutes
_SCHEMA = """
CREATE TABLE IF NOT EXISTS engine_pacing (
    engine TEXT PRIMARY KEY,
    last_request REAL NOT NULL DEFAULT 0,
    suspended_until REAL NOT NULL DEFAULT 0,
    reason TEXT NOT NULL DEFAULT ''
)
"""


def next_slot(last_request: float, now: float, min_interval: float) -> float:
    """When the next request may go: `min_interval` after the last one, never in the past."""
    return max(now, last_request + min_interval)


def suspension_seconds(retry_after: float | None) -> float:
    """How long to rest after a rate limit: the server's Retry-After (at least `MIN_SUSPENSION`, at
    most `MAX_SUSPENSION`), else a default."""
    if retry_after is None:
        return DEFAULT_SUSPENSION
    return min(max(retry_after, MIN_SUSPENSION), MAX_SUSPENSION)


@dataclass(frozen=True)
class Suspension:
    until: float
    reason: str


class Pacer:
    """Reserves request slots and records suspensions in a SQLite file shared by processes, over
    one kept connection (`sidecar.KeptConnection`)."""

    def __init__(self, path: Path, clock: Callable[[], float] = time.time) -> None:
        self.path = path
        self.clock = clock
        self._connection = sidecar.KeptConnection(path, _SCHEMA)

    def reserve(self, engine: str, min_interval: float) -> float:
        """Take the engine's next slot; answer the seconds to wait for it.

        Raises `rate_limited` (with retry_after) while the engine is suspended.
        """
        with self._connection() as conn, sidecar.immediate(conn):
            row = conn.execute(
                "SELECT last_request, suspended_until, reason FROM engine_pacing WHERE engine = ?",
                (engine,),
            ).fetchone()
            last, until, reason = row if row else (0.0, 0.0, "")
            now = self.clock()
            if until > now:
                raise FerretError(
                    ErrorCode.RATE_LIMITED,
                    f"{engine} is resting for {until - now:.0f} s more after: {reason}",
                    retry_after=round(until - now, 1),
                )
            slot = next_slot(last, now, min_interval)
            conn.execute(
                "INSERT INTO engine_pacing (engine, last_request) VALUES (?, ?) "
                "ON CONFLICT(engine) DO UPDATE SET last_request = excluded.last_request",
                (engine, slot),
            )
        return slot - now

    def suspend(self, engine: str, retry_after: float | None, reason: str) -> float:
        """Suspend `engine`; answer the seconds of the suspension."""
        seconds = suspension_seconds(retry_after)
        until = self.clock() + seconds
        with self._connection() as conn:
            conn.execute(
                "INSERT INTO engine_pacing (engine, suspended_until, reason) VALUES (?, ?, ?) "
                "ON CONFLICT(engine) DO UPDATE SET suspended_until = excluded.suspended_until, "
                "reason = excluded.reason",
                (engine, until, reason),
            )
        return seconds

    def suspension(self, engine: str) -> Suspension | None:
        with self._connection() as conn:
            row = conn.execute(
                "SELECT suspended_until, reason FROM engine_pacing WHERE engine = ?", (engine,)
            ).fetchone()
        if row and row[0] > self.clock():
            return Suspension(until=row[0], reason=row[1])
        return None

    async def wait_turn(self, engine: str, min_interval: float) -> None:
        """Reserve a slot off the event loop, then sleep until it comes."""
        delay = await asyncio.to_thread(self.reserve, engine, min_interval)
        if delay > 0:
            await asyncio.sleep(delay)


@lru_cache(maxsize=8)
def pacer_at(path: Path) -> Pacer:
    """The process's pacer for the file at `path` (its connection kept from search to search)."""
    return Pacer(path)
