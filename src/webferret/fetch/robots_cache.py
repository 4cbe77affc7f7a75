"""robots.txt answers kept in `<home>/robots.sqlite` (WAL), shared by every process of one home.

A CLI and an MCP server on the same machine then ask a site for robots.txt once a day, not once
per process. Reads and writes run in a worker thread, never on the event loop. A file that cannot
be used (damaged, in a read-only home) is a cache lost, not a failed call: the process keeps its
answers in memory instead.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from webferret import sidecar
from webferret.fetch.robots import (
    DEFAULT_TTL,
    ROBOTS_TIMEOUT,
    MemoryRobotsCache,
    RobotsPolicy,
    RobotsRules,
    fetcher_getter,
)

ROBOTS_FILE = "robots.sqlite"
_SCHEMA = """
CREATE TABLE IF NOT EXISTS robots (
    origin TEXT PRIMARY KEY,
    verdict TEXT NOT NULL,
    reason TEXT NOT NULL,
    body TEXT NOT NULL,
    fetched_at REAL NOT NULL
)
"""


class SqliteRobotsCache:
    def __init__(self, path: Path, ttl: float = DEFAULT_TTL) -> None:
        self.path = path
        self.ttl = ttl
        self._connection = sidecar.KeptConnection(path, _SCHEMA)
        self._memory: MemoryRobotsCache | None = None  # once the file failed: this process's answers

    @classmethod
    def in_home(cls, home: Path, ttl: float = DEFAULT_TTL) -> SqliteRobotsCache:
        return cls(Path(home) / ROBOTS_FILE, ttl)

    def _get(self, origin: str) -> RobotsRules | None:
        with self._connection() as conn:
            row = conn.execute(
                "SELECT verdict, reason, body, fetched_at FROM robots WHERE origin = ?", (origin,)
            ).fetchone()
        if row is None or time.time() - row[3] > self.ttl:
            return None
        return RobotsRules(origin, row[0], row[1], row[2])

    def _put(self, rules: RobotsRules) -> None:
        with self._connection() as conn:
            conn.execute(
                "INSERT OR REPLACE INTO robots (origin, verdict, reason, body, fetched_at) "
                "VALUES (?, ?, ?, ?, ?)",
                (rules.origin, rules.verdict, rules.reason, rules.text, time.time()),
            )

    async def get(self, origin: str) -> RobotsRules | None:
        if self._memory is None:
            try:
                return await asyncio.to_thread(self._get, origin)
            except (sqlite3.Error, OSError):
                self._memory = MemoryRobotsCache(self.ttl)
        return await self._memory.get(origin)

    async def put(self, rules: RobotsRules) -> None:
        if self._memory is None:
            try:
                return await asyncio.to_thread(self._put, rules)
            except (sqlite3.Error, OSError):
                self._memory = MemoryRobotsCache(self.ttl)
        await self._memory.put(rules)


def home_robots(ferret: Any, fetch: Any = None, *, keep_failures: bool = False) -> RobotsPolicy:
    """The robots.txt policy of fetches a session starts on its own (an agent's, a crawl's): read
    through the session's fetcher with the pages' `fetch` options (their allowed hosts), in plain
    HTTP, within `ROBOTS_TIMEOUT` seconds; its answers shared with every process of the home
    (`keep_failures`: see `RobotsPolicy`)."""
    base = fetch or ferret.fetch_options()
    timeout = min(base.timeout, ROBOTS_TIMEOUT)
    # a robots.txt is read for the pages, not asked of their `admit` (which asks robots.txt itself)
    options = replace(base.with_(tier="http", timeout=timeout, budget=timeout), admit=None)
    cache = SqliteRobotsCache.in_home(ferret.settings.home)
    return RobotsPolicy(fetcher_getter(ferret.fetcher, options), cache=cache, keep_failures=keep_failures)
