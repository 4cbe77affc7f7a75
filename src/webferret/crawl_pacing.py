"""The pause between a crawl's requests to a site that asked for one (robots.txt `Crawl-delay`,
`Request-rate`): the pages of a crawl, and the sitemaps of a crawl or a map, are read one at a time
that far apart, each request `delay` seconds after the one before it (a page the store answers, or
of a site that asked to wait, `rate_limits`, sends none and waits for none).
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any

from webferret.models import FerretError, Page

if TYPE_CHECKING:
    from webferret.ferret import Ferret

CRAWL_DELAY_MAX = 30.0
"""The longest pause between requests a robots.txt `Crawl-delay` is honoured with (a longer one is
taken as this: the call's budget then ends the crawl, and says so)."""


async def asked_delay(robots: Any, url: str) -> float | None:
    """The pause between requests the robots.txt of `url`'s site asks for (at most `CRAWL_DELAY_MAX`);
    None when it asks none, when robots.txt is not honoured (`robots` None), or when the guard
    refused to ask for it (a private address): reading the pages says why."""
    if robots is None:
        return None
    try:
        rules = await robots.rules_for(url)
    except FerretError:
        return None
    asked = rules.delay()
    return min(asked, CRAWL_DELAY_MAX) if asked else None


async def read_paced(
    urls: list[str],
    ferret: Ferret,
    opts: Any,
    xopts: Any,
    fresh: bool,
    deadline: float,
    delay: float | None,
    finished: Any = None,
) -> list[Page]:
    """The pages at `urls`, all at once (within the fetch's concurrency limits), or with `delay`, one
    at a time, each request `delay` seconds after the one before it (the caller's last, for the
    first; a page the store answers, or of a site that asked to wait (`rate_limits`), sends none and
    waits for none); with a delay, the pages the deadline leaves no time for are not read (the answer
    is shorter). `finished(url, page)` is called as each page is read."""
    if not delay:
        if deadline <= time.monotonic():  # spent already: none read (a budget of 0 is no budget)
            return []
        budget = opts.left_of(deadline)
        return await ferret.fetch_all(urls, options=budget, extract=xopts, fresh=fresh, on_page=finished)
    pages: list[Page] = []
    limits = opts.rate_limits
    for url in urls:
        held = limits is not None and limits.holds(url, opts.retry_after_max)
        if not held and not await ferret.in_store(url, opts, xopts, fresh):  # only a request waits
            if time.monotonic() + delay >= deadline:
                break
            await asyncio.sleep(delay)
        if deadline <= time.monotonic():  # a page before this one spent the rest, stored or not
            break
        budget = opts.left_of(deadline)
        pages.extend(
            await ferret.fetch_all([url], options=budget, extract=xopts, fresh=fresh, on_page=finished)
        )
    return pages
