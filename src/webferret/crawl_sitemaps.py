"""The page URLs a site's sitemaps list, for a crawl's `sitemap` and a map.

The sitemaps read are those the site's robots.txt names (`Sitemap:`; read for them when its rules
are not honoured too), else `/sitemap.xml` where robots.txt allows it (when honoured); a sitemap
index's sitemaps are read too, each file once, up to `SITEMAPS_READ` files. The answer names the
files that could not be read and why, or why none was asked for, and how many files past the cap an
index named (`Sitemaps.unread`): a caller that asked for the sitemaps is told, not left to guess from
a count that is missing or small. When robots.txt is honoured and asks for a pause between
requests (`Crawl-delay`), the files are read one at a time that far apart (`crawl_pacing`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from webferret.crawl_pacing import asked_delay, read_paced
from webferret.crawl_rules import site_robots
from webferret.models import FerretError, Page
from webferret.net.canonical import canonical_url
from webferret.remote_text import one_line

if TYPE_CHECKING:
    from webferret.ferret import Ferret

SITEMAPS_READ = 20
"""The most sitemap files one crawl reads (an index's sitemaps included)."""
SITEMAP_BYTES = 50 * 1024 * 1024
"""The most bytes of one sitemap file read (uncompressed), when `max_bytes` is less: the sitemaps
protocol's own limit (a file of its 50,000 URLs, with their dates and images, is past the 10 MiB of
the default `max_bytes`)."""
SITEMAP_LINKS = 50_000
"""Most URLs of one sitemap file looked at: the sitemaps protocol's own limit per file."""
_OUT_OF_TIME = "not asked for, the call's time budget ran out"
REASONS_SAID = 3
"""Most files whose failure `Sitemaps.unread` names (the others are counted)."""


@dataclass(frozen=True)
class Sitemaps:
    """What the site's sitemaps list: each page URL with the sitemap that lists it (`listed` None
    when no sitemap was read); `unread`: the files that could not be read and why, or why none was
    asked for."""

    listed: list[tuple[str, str]] | None
    unread: str | None = None


async def sitemap_listed(
    ferret: Ferret, start: str, robots: Any, opts: Any, deadline: float, fresh: bool = False
) -> Sitemaps:
    """The page URLs the sitemaps of `start`'s site list (see the module docstring). A sitemap that
    cannot be read lists nothing; none read (the site refused, its robots.txt or the guard; none
    could be read; the budget ran out): `listed` is None."""
    from webferret.fetch.robots import origin_of

    try:
        rules = await (robots or site_robots(ferret, opts)).rules_for(start)
    except FerretError as exc:
        return Sitemaps(None, f"robots.txt, which names the sitemaps, could not be asked for: {exc.message}")
    queue = rules.sitemaps
    if not queue:  # none named: `/sitemap.xml`, a path like any other, where robots.txt allows it
        guessed = origin_of(start) + "/sitemap.xml"
        if robots is not None and not rules.allows(guessed, robots.user_agent):
            # (a robots.txt that could not be read allows no path)
            return Sitemaps(
                None, f"robots.txt names no sitemap and does not allow {guessed} ({rules.reason})"
            )
        queue = [guessed]
    delay = await asked_delay(robots, start)  # the site's pause between requests, robots.txt honoured
    xopts = ferret.extract_options(links=True, link_limit=SITEMAP_LINKS)
    found: list[tuple[str, str]] = []
    asked: set[str] = set()  # the sitemaps read, each once: an index that names itself reads no loop
    past_cap: set[str] = set()  # those an index named past the `SITEMAPS_READ` files
    answered = False  # a sitemap was read: it listed `found`, if only none
    failures: list[str] = []
    while deadline > time.monotonic() and (batch := _not_asked(queue, asked, past_cap)):
        queue = []
        left = opts.with_(max_bytes=max(opts.max_bytes, SITEMAP_BYTES))
        read = await read_paced(batch, ferret, left, xopts, fresh, deadline, delay)
        failures += [f"{url}: {_OUT_OF_TIME}" for url in batch[len(read) :]]
        for url, page in zip(batch, read, strict=False):  # (those the budget left no time for: above)
            kind = page.meta.get("extract", {}).get("sitemap") if page.ok else None
            listed = [link.url for link in page.links or []]
            answered = answered or kind in ("sitemapindex", "urlset")
            if kind == "sitemapindex":
                queue.extend(listed)
            elif kind == "urlset":
                found.extend((entry, url) for entry in listed)
            else:
                failures.append(_failure(url, page))
    if asked:  # the sitemaps an index named that the budget left no time for
        failures += [f"{url}: {_OUT_OF_TIME}" for url in _not_asked(queue, asked, past_cap)]
    if not answered and not failures:
        return Sitemaps(None, "the call's time budget ran out before a sitemap was read")
    return Sitemaps(found if answered else None, _unread(failures, len(past_cap)))


def _not_asked(sitemaps: list[str], asked: set[str], past_cap: set[str]) -> list[str]:
    """The `sitemaps` not `asked` for yet (however written), each once, while fewer than
    `SITEMAPS_READ` files were; added to `asked`, and those past that cap to `past_cap`."""
    batch: list[str] = []
    for url in sitemaps:
        key = canonical_url(url)
        if key in asked:
            continue
        if len(asked) < SITEMAPS_READ:
            asked.add(key)
            batch.append(url)
        else:
            past_cap.add(key)
    return batch


def _failure(url: str, page: Page) -> str:
    """Why the file at `url` listed nothing: its error, or its type (a page, an empty sitemap)."""
    if page.error is not None:
        return f"{url}: {one_line(page.error.message, 200)}"
    return f"{url} holds no sitemap entry ({page.content_type or 'of no type'})"


def _unread(failures: list[str], past_cap: int = 0) -> str | None:
    """The files that could not be read, and why, and how many more an index named than
    `SITEMAPS_READ` lets be read, on a line (None: none)."""
    said = failures[:REASONS_SAID]
    if len(failures) > REASONS_SAID:
        said.append(f"and {len(failures) - REASONS_SAID} more")
    if past_cap:
        files = f"{past_cap} sitemap file{'s' * (past_cap != 1)}"
        said.append(f"{files} the indexes named past the {SITEMAPS_READ} read in a call")
    return "; ".join(said) or None
