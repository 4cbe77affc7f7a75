"""Verification: fetch every candidate in parallel, drop dead or refused ones, count tokens.

Pages are fetched through `Ferret.fetch_many` (in batches of the `max_urls` setting, run together),
so they land in the store like any fetched page and a listed result can be read later offline.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import TYPE_CHECKING

from webferret.models import ErrorCode, Hit, Page
from webferret.search.types import DroppedDuplicate, Unreachable
from webferret.tokens import estimate_tokens

if TYPE_CHECKING:
    from webferret.ferret import Ferret

DEAD_CODES = frozenset(
    {
        ErrorCode.INVALID_URL,
        ErrorCode.UNSUPPORTED_SCHEME,
        ErrorCode.BLOCKED_ADDRESS,
        ErrorCode.DNS_FAILURE,
        ErrorCode.CONNECT_FAILED,
        ErrorCode.TIMEOUT,
        ErrorCode.TOO_MANY_REDIRECTS,
        ErrorCode.HTTP_ERROR,
        ErrorCode.NOT_FOUND,
        ErrorCode.BLOCKED_BY_SITE,
        ErrorCode.ROBOTS_DISALLOWED,
        ErrorCode.RATE_LIMITED,
    }
)
"""A page failing with one of these is dead or refused; other failures (empty, JS-only) still exist."""


def is_dead(page: Page) -> bool:
    return not page.ok and (page.error is None or page.error.code in DEAD_CODES)


def apply_page(hit: Hit, page: Page) -> Hit:
    """The hit marked reachable or not, with the page's token count and store handle."""
    if is_dead(page):
        return hit.model_copy(update={"reachable": False})
    tokens = page.tokens if page.tokens is not None else (estimate_tokens(page.content) if page.ok else None)
    return hit.model_copy(update={"reachable": True, "tokens": tokens, "handle": page.handle})


async def fetch_pages(ferret: Ferret, urls: Sequence[str], timeout: float) -> list[Page]:
    """Fetch `urls` in parallel batches of `max_urls`, order kept, within `timeout` seconds.

    Every candidate is requested at once (the per-host cap still holds): the answer waits for the
    slowest page anyway, so a candidate queued behind the `concurrency` setting only lengthens it."""
    size = ferret.settings.max_urls
    at_once = max(ferret.settings.concurrency, min(len(urls), size))
    options = ferret.fetch_options(timeout=timeout, budget=timeout, concurrency=at_once)
    batches = [list(urls[start : start + size]) for start in range(0, len(urls), size)]
    done = await asyncio.gather(*(ferret.fetch_many(batch, options=options) for batch in batches))
    return [page for batch in done for page in batch]


def near_duplicate_map(texts: list[str], threshold: float) -> dict[int, int]:
    """Index of a near-duplicate text -> index of the one kept (the earlier, better-ranked one).

    Seam: uses `webferret.present.dedup.near_duplicates` from the store branch when it is present;
    without it no near-duplicates are detected (exact URL duplicates are already merged by fusion).
    """
    try:
        from webferret.present.dedup import near_duplicates  # type: ignore[import-not-found]
    except ImportError:
        return {}
    preference = [float(len(texts) - index) for index in range(len(texts))]
    return dict(near_duplicates(texts, preference, threshold))


async def verify_hits(
    ferret: Ferret, hits: list[Hit], timeout: float
) -> tuple[list[Hit], list[Unreachable], list[DroppedDuplicate]]:
    """Reachable hits (duplicates dropped), the unreachable ones, the dropped near-duplicates."""
    pages = await fetch_pages(ferret, [hit.url for hit in hits], timeout)
    checked = [apply_page(hit, page) for hit, page in zip(hits, pages, strict=True)]
    unreachable = [
        Unreachable(url=hit.url, error=page.error)
        for hit, page in zip(checked, pages, strict=True)
        if not hit.reachable
    ]
    alive = [(hit, page) for hit, page in zip(checked, pages, strict=True) if hit.reachable]
    duplicates = near_duplicate_map([page.content for _, page in alive], ferret.settings.dedup_threshold)
    dropped = [
        DroppedDuplicate(url=alive[dup][0].url, duplicate_of=alive[keep][0].url)
        for dup, keep in duplicates.items()
    ]
    kept = [hit for index, (hit, _) in enumerate(alive) if index not in duplicates]
    return kept, unreachable, dropped
