"""The page readings under way in one session, so a page asked for again while it is being read is
read once.

`Ferret.fetch_all` (behind `fetch`, `fetch_many`, a crawl, the MCP and HTTP faces) merges a URL
given twice in one batch; this merges it across calls: a call (another task) that asks for a URL
with the same options while a reading of it is under way waits for that reading, and the site is
asked once and the store written once. A reading runs as a task of its own, so a caller that is
cancelled (`wait_for`, `task.cancel()`, Ctrl-C) leaves it to the others; the last caller's
cancellation cancels it, as it would have cancelled a reading of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Coroutine, Hashable
from dataclasses import dataclass
from typing import Any

from webferret.models import ErrorCode, Page

Read = Callable[[float], Coroutine[Any, Any, Page]]
"""A reading of one page by a deadline (`time.monotonic()`)."""


@dataclass
class _Reading:
    task: asyncio.Task[Page]
    deadline: float
    waiting: int = 0


class Readings:
    """The readings under way, by what they read (a URL and the options it is read with)."""

    def __init__(self) -> None:
        self._under_way: dict[Hashable, _Reading] = {}

    async def read(self, key: Hashable, deadline: float, read: Read) -> Page:
        """`read(deadline)`'s page; or, when a reading of `key` is under way, that one's page (a copy
        of its own, so no caller sees another's changes). A reading that joined another whose call's
        budget ran out before this one's reads the page again, by its own deadline."""
        try:
            reading = self._under_way.get(key)
        except TypeError:  # options holding a list (a `FetchOptions` made by hand): read alone
            return await read(deadline)
        if reading is None:
            task = asyncio.ensure_future(read(deadline))
            reading = self._under_way[key] = _Reading(task, deadline)
            task.add_done_callback(lambda _: self._forget(key, reading))
            return await self._wait(key, reading)
        page = await self._wait(key, reading)
        if _budget_ran_out(page, reading.deadline) and time.monotonic() < deadline:
            return await self.read(key, deadline, read)
        return page.model_copy(deep=True)

    async def _wait(self, key: Hashable, reading: _Reading) -> Page:
        """The reading's page; a caller cancelled leaves it to the others, and the last one cancels it
        (a page it stored as it was cancelled goes with the caller's cancellation, as `kept`)."""
        reading.waiting += 1
        try:
            return await asyncio.shield(reading.task)
        except asyncio.CancelledError as stop:
            reading.waiting -= 1
            if reading.waiting == 0 and not reading.task.done():
                self._forget(key, reading)  # a call that comes now starts a reading of its own
                reading.task.cancel()
                kept = await _ended(reading.task)
                if kept is not None:
                    stop.kept = kept  # type: ignore[attr-defined]
            raise

    def _forget(self, key: Hashable, reading: _Reading) -> None:
        if self._under_way.get(key) is reading:
            del self._under_way[key]


async def _ended(task: asyncio.Task[Page]) -> Page | None:
    """The page a cancelled reading finished anyway (stored as it was cancelled), or None. The caller
    waits for the reading's end through its cancellations, without passing them on: cancelled again
    while it waits (anyio cancels at every await, as it does the MCP server's calls), it would
    cancel the reading's cleanup, and the connection it was reading would stay open, its slot in
    the pool taken for as long as the process runs."""
    while not task.done():
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.shield(task)
    try:
        return task.result()
    except asyncio.CancelledError as stop:
        kept: Page | None = getattr(stop, "kept", None)
        return kept
    except Exception:  # its callers are gone: nobody to tell
        return None


def _budget_ran_out(page: Page, deadline: float) -> bool:
    """Whether `page` failed because the budget of the call that read it ran out (its `deadline`),
    not because of the page itself."""
    timed_out = page.error is not None and page.error.code == ErrorCode.TIMEOUT
    return timed_out and time.monotonic() >= deadline
