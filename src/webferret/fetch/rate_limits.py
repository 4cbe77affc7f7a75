"""Sites that asked a crawl to wait: a page answered 429 with a Retry-After (RFC 6585), or 503 with
one (a site down for maintenance, RFC 9110 15.6.4), says how long the site (its scheme, host and
port) wants no more requests.

The fetches of one call that reads a site's pages (a crawl) share a `RateLimits` (`FetchOptions.
rate_limits`): each site that answered so is remembered until its wait is over, and until then its
next pages are not asked; they fail at once (`rate_limited`, or `http_error` 503 after a 503),
saying which page the site answered so and how long is left (`retry_after`), unless that is short
(`retry_after_max`, as a 429's own retry waits): then they wait it out. The crawl then stops
knocking where it was asked to wait (it asked a site its 38 other pages within a second of a 429
asking for 2 minutes, each answered 429 again). A 429 or 503 without a Retry-After names no
time, and is not remembered.
"""

from __future__ import annotations

import asyncio
import time

from webferret.fetch.walls import site_key
from webferret.models import ErrorCode, FerretError

SITES_REMEMBERED = 1000
"""At most this many sites (the one remembered longest ago is forgotten first)."""


class RateLimits:
    """The sites that answered 429 or 503 with a Retry-After: until when, the page they answered and
    its status."""

    def __init__(self) -> None:
        self._until: dict[str, tuple[float, str, str, int]] = {}  # site -> (end, page, message, status)

    async def wait(self, url: str, short: float) -> None:
        """Wait out what is left of the wait the site of `url` asked for when that is `short` (at most
        that many seconds: the fetch's `retry_after_max`, as a 429's own retry waits), else raise
        `rate_limited`: the page is not asked."""
        held = self._held(url)
        if held is None:
            return
        left, page, said, status = held
        if left <= short:
            await asyncio.sleep(left)
            return
        message = f"not asked: the site answered {page} {said}; {left:.0f} s of that wait left"
        code = ErrorCode.RATE_LIMITED if status == 429 else ErrorCode.HTTP_ERROR
        raise FerretError(code, message, status=status, retry_after=left)

    def holds(self, url: str, short: float) -> bool:
        """Whether a page at `url` would not be asked (`wait` raises): no request, so no pause
        before it."""
        held = self._held(url)
        return held is not None and held[0] > short

    def _held(self, url: str) -> tuple[float, str, str, int] | None:
        """The seconds left of the wait the site of `url` asked for, its page and what it said; None
        when it asked none, or its wait is over (then forgotten)."""
        site = site_key(url)
        remembered = self._until.get(site) if site else None
        if remembered is None:
            return None
        until, page, said, status = remembered
        left = until - time.monotonic()
        if left <= 0:
            del self._until[site]
            return None
        return left, page, said, status

    def learn(self, url: str, error: FerretError) -> None:
        """Remember the site of `url`, whose page answered `error`, when it is a 429 or a 503 with a
        wait."""
        site = site_key(url)
        status = 429 if error.code == ErrorCode.RATE_LIMITED else error.status
        if not site or status not in (429, 503) or not error.retry_after:
            return
        self._until.pop(site, None)  # put back last: the oldest goes first
        self._until[site] = (time.monotonic() + error.retry_after, url, error.message, status)
        while len(self._until) > SITES_REMEMBERED:
            del self._until[next(iter(self._until))]
