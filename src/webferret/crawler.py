"""Crawling: read a site's pages by following its links from one page, within a scope, level by level.

`crawl(ferret, start, options)` reads the start page, then the pages its links lead to, then theirs,
up to `depth` link hops and `limit` pages, each kept in the page store: the answer lists every page
read with its handle and size in tokens (`open` pages through one), never the pages' text, so a
crawl of a documentation site does not flood a context.

Links are followed from the whole page (a documentation site's menu is how its pages are reached),
the main content's first, then the rest, each in the page's order (as the page's links are kept),
and only:
- within `scope`, a URL prefix: by default the start page's folder on its host, where its redirects
  took it (`https://docs.x.org/guide/intro` gives `https://docs.x.org/guide/`); http and https alike;
- past the `include` globs (any of them, when given) and none of the `exclude` globs, both matched
  against the URL's path (`/guide/*`, `*.html`, `*/changelog/*`);
- to documents a reader can use: not images, media, fonts, styles, scripts or archives;
- once per URL, however it is written (`canonical_url`, http and https alike, a folder's index
  document its folder: `page_key`), and not to a page a redirect reached before, nor to the URL a
  page read names its canonical one (`<link rel="canonical">` on its site: `ReadOnce`);
  each URL judged, read and listed as a client requests it, its dot segments resolved (`as_requested`);
- where robots.txt allows it (a crawl follows links on its own, as an agent does), unless `robots`
  is off; when robots.txt asks for a pause between requests (`Crawl-delay`, `Request-rate`), the
  pages after the start are read one at a time that far apart (at most `crawl_pacing.CRAWL_DELAY_MAX`
  seconds;
  a page the store answers sends no request, and waits for none);
- unless `robots` is off, not from a page whose robots rules (`<meta name="robots">`, the
  `X-Robots-Tag` header: `robots_tags`) say `nofollow`, nor a link marked `rel="nofollow"` (counted
  as `nofollow`). A page that says `noindex` is read and kept all the same: the store is the user's
  own reading of the pages they asked the crawl for, not an index anyone else searches; its entry
  says so (`robots_tags`), for whoever would publish what the crawl read.
Where a followed link leads (its redirects, a meta refresh, a script's navigation) is judged by the
same rules before it is requested (`crawl_hops`): a page they refuse is a failed page saying why.
With `sitemap`, the pages the site's sitemaps list (those robots.txt names, whether or not its rules
are honoured, else `/sitemap.xml`; an index's sitemaps too) are followed as if the start page linked
to them, after its own links (and when the start page cannot be read, as a map reads them then).
The call's `budget` is the whole crawl's: a level begun when it runs out ends with the pages read
by then (those being read fail as `timeout`), and the links not yet asked for are counted as not
followed (`budget`).
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field

from webferret.arguments import check_switches, is_whole
from webferret.callbacks import Held
from webferret.crawl_hops import ReadOnce, judging_hops
from webferret.crawl_pacing import asked_delay, read_paced
from webferret.crawl_rules import (
    Follow,
    default_scope,
    landed_scope,
    page_key,
    robots_allowed,
    robots_unread,
    site_robots,
    site_rules,
    stated_key,
    within,
)
from webferret.crawl_sitemaps import sitemap_listed
from webferret.fetch.rate_limits import RateLimits
from webferret.limits import MAX_CRAWL_DEPTH, MAX_CRAWL_PAGES
from webferret.models import ErrorCode, ErrorInfo, FerretError, Page
from webferret.net.urlpath import as_requested
from webferret.net.urltext import web_url
from webferret.page_failures import never_requested
from webferret.robots_tags import page_directives

if TYPE_CHECKING:
    from webferret.ferret import Ferret

FOLLOWED_LINKS = 1000
"""Most links of one page looked at (the store keeps as many)."""


@dataclass(frozen=True)
class CrawlOptions:
    """What a crawl follows; see the module docstring."""

    depth: int = 2
    limit: int = 20
    scope: str | None = None
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    robots: bool = True
    sitemap: bool = False

    def __post_init__(self) -> None:
        if not is_whole(self.depth) or not 0 <= self.depth <= MAX_CRAWL_DEPTH:
            message = f"depth {self.depth!r}: a whole number of link hops from 0 to {MAX_CRAWL_DEPTH}"
            raise FerretError(ErrorCode.INVALID_ARGUMENT, message)
        if not is_whole(self.limit) or not 1 <= self.limit <= MAX_CRAWL_PAGES:
            message = f"limit {self.limit!r}: a whole number of pages from 1 to {MAX_CRAWL_PAGES}"
            raise FerretError(ErrorCode.INVALID_ARGUMENT, message)
        site_rules(self)
        check_switches(self, "robots", "sitemap")
        if self.sitemap and self.depth == 0:
            message = "sitemap follows what the sitemaps list, a link hop: it needs depth 1 or more"
            raise FerretError(ErrorCode.INVALID_ARGUMENT, message)


class CrawledPage(BaseModel):
    """One page a crawl read (or tried to)."""

    url: str
    final_url: str | None = None
    depth: int = Field(description="link hops from the start page")
    found_on: str | None = Field(default=None, description="the page whose link led here")
    ok: bool
    title: str | None = None
    handle: str | None = Field(default=None, description="store handle: `webferret open HANDLE`")
    tokens: int | None = None
    word_count: int | None = None
    new_links: int = Field(default=0, description="links of this page the crawl queued to follow")
    robots_tags: list[str] | None = Field(
        default=None,
        description="what the page's own robots rules (`<meta name=robots>`, `X-Robots-Tag`) say: `nofollow` "
        "(its links were not followed, unless robots rules were ignored), `noindex` (read and kept in "
        "the local store all the same: not to be republished)",
    )
    error: ErrorInfo | None = None
    store_error: str | None = Field(
        default=None,
        description="why the page store did not keep this page, read (it has no handle: `open` and `find` "
        "do not know it)",
    )


class CrawlResult(BaseModel):
    """The `data` of `crawl` with `--json`."""

    start: str
    scope: str
    depth: int
    limit: int
    pages: list[CrawledPage]
    not_followed: dict[str, int] = Field(
        description="links not followed, by why: out_of_scope, excluded, not_a_page, robots, past_depth, "
        "past_limit, budget, same_page (it led to a page another link read), past_link_cap (a page's "
        "links past the 1,000 looked at), nofollow (marked `rel=nofollow`, or on a page whose robots "
        "rules say `nofollow`)"
    )
    sitemap_urls: int | None = Field(
        default=None, description="URLs the site's sitemaps listed (with `sitemap`; None: none read)"
    )
    sitemap_unread: str | None = Field(
        default=None,
        description="with `sitemap`: the sitemap files that could not be read and why, or why "
        "none was asked for; how many an index named past the 20 read",
    )
    crawl_delay: float | None = Field(
        default=None, description="seconds between requests robots.txt asked for: pages read one at a time"
    )
    robots_unread: str | None = Field(
        default=None,
        description="why the site's robots.txt could not be read (a 5xx, an outage), which disallows every "
        "path (RFC 9309): the links counted as `robots` were not followed for that",
    )
    elapsed_ms: float


async def crawl(
    ferret: Ferret,
    start: str,
    options: CrawlOptions | None = None,
    *,
    fetch: Any = None,
    fresh: bool = False,
    on_page: Any = None,
    on_read: Any = None,
) -> CrawlResult:
    """Read `start` and the pages its links lead to (see the module docstring); `fetch` is the
    `FetchOptions` of every page. As each page is read, `on_read(Page)` is called with the page itself
    (its content; no links; `meta.crawl` says its `depth` and where it was `found_on`); once its
    level is read, `on_page(CrawledPage)` with its entry (in the level's order: its links counted).
    Cancelled (Ctrl-C), the `CancelledError` carries what was read by then: `crawled`, the answer
    of those pages (a level's pages with no links counted), and `unfinished`, its pages not read."""
    options = options or CrawlOptions()
    start = start.strip()  # pasted with a line break or an indent: the page a fetch of it reads
    started = time.monotonic()
    opts = replace(fetch or ferret.fetch_options(), rate_limits=RateLimits())  # a 429's wait kept
    deadline = started + opts.budget
    xopts = ferret.extract_options(links=True, link_limit=FOLLOWED_LINKS)
    scope = options.scope or default_scope(start)  # a start that is no URL fails as its page says
    follow = Follow(scope, options.include, options.exclude)
    robots = site_robots(ferret, opts) if options.robots else None
    seen = {page_key(start)}
    once = ReadOnce()
    held = Held()  # what the caller's callbacks raise, raised once the crawl is finished
    level: list[tuple[str, str | None]] = [(start, None)]
    pages: list[CrawledPage] = []
    skipped: Counter[str] = Counter()
    sitemap_urls: int | None = None
    sitemap_unread: str | None = None
    delay: float | None = None  # what robots.txt asks between requests, once the start is read
    unread: str | None = None  # why robots.txt could not be read, when that kept links from being followed
    reading: dict[str, tuple[int, str | None]] = {}  # the level being read: URL -> depth, found on
    arrived: dict[str, Page] = {}  # its pages read, as each is finished (what a Ctrl-C still answers)

    def answer(listed: list[CrawledPage]) -> CrawlResult:
        return CrawlResult(
            start=start,
            scope=scope,
            depth=options.depth,
            limit=options.limit,
            pages=listed,
            not_followed={why: count for why, count in skipped.items() if count},
            sitemap_urls=sitemap_urls,
            sitemap_unread=sitemap_unread,
            crawl_delay=delay,
            robots_unread=unread,
            elapsed_ms=round((time.monotonic() - started) * 1000, 1),
        )

    try:
        for depth in range(options.depth + 1):
            if depth:  # the start is the caller's own ask; a link robots.txt forbids takes no room
                level = await robots_allowed(level, robots, skipped, deadline)
            following: list[tuple[str, str | None]] = []
            spent = False  # the budget ran out: the crawl ends with this level
            while level:  # a level's links in turns: room a link took without a page listed is refilled
                room = options.limit - len(pages)
                if room <= 0:
                    break
                admitted, level = level[:room], level[room:]
                if depth:  # a page a redirect of an earlier link reached: not requested again
                    admitted = once.unread(admitted, skipped)
                    if not admitted:
                        continue
                if deadline - time.monotonic() <= 0:
                    skipped["budget"] += len(admitted)
                    spent = True
                    break
                found_on = dict(admitted)
                once.batch([url for url, _ in admitted])
                reading, arrived = {url: (depth, found) for url, found in admitted}, {}

                async def finished(
                    url: str,
                    page: Page,
                    depth: int = depth,
                    found_on: dict[str, str | None] = found_on,
                    arrived: dict[str, Page] = arrived,
                ) -> None:
                    arrived[url] = page
                    if on_read is None or (depth and never_requested(page)):
                        return
                    if once.first(url, page):  # as soon as it is read, not once its level is
                        where = {"depth": depth, "found_on": found_on[url]}
                        await held.call(
                            on_read,
                            page.model_copy(update={"links": None, "meta": {**page.meta, "crawl": where}}),
                        )

                urls = [url for url, _ in admitted]
                led = (
                    judging_hops(opts, follow, robots, once) if depth else opts
                )  # not where the start's redirects end
                read = await read_paced(urls, ferret, led, xopts, fresh, deadline, delay, finished)
                skipped["budget"] += len(admitted) - len(read)
                admitted = admitted[: len(read)]
                if depth == 0 and options.scope is None and read[0].final_url:
                    scope = landed_scope(start, read[0].final_url)  # where a redirect took the start
                    follow = Follow(scope, options.include, options.exclude)
                for (url, _), page in zip(admitted, read, strict=True):
                    if depth and never_requested(page):  # the budget ran out before it was asked for
                        skipped["budget"] += 1
                        continue
                    if not once.first(url, page):  # another link of the crawl led to this page: listed there
                        skipped["same_page"] += 1
                        continue
                    if (stated := stated_key(page, url)) is not None:
                        seen.add(stated)  # the page it says it is a copy of: read here
                    queued = follow.links(
                        page, seen, skipped, deadline, nofollow=options.robots
                    )  # past the budget: counted, not judged
                    if depth == options.depth:
                        skipped["past_depth"] += len(queued)
                        queued = []
                    following.extend((link, page.final_url or url) for link in queued)
                    entry = _entry(url, page, depth, found_on[url], len(queued))
                    pages.append(entry)
                    await held.call(on_page, entry)
                reading, arrived = {}, {}  # the batch's pages are entries now: their text is let go
            skipped["past_limit"] += len(level)
            if spent:
                break
            # the sitemaps are read whether or not the start page could be, as a map reads them
            if depth == 0:
                landed = read[0].final_url or start
                listed = None
                if options.sitemap and options.depth and web_url(landed):
                    sitemaps = await sitemap_listed(ferret, landed, robots, opts, deadline, fresh)
                    listed, sitemap_unread = sitemaps.listed, sitemaps.unread
                if listed is not None:
                    sitemap_urls = len(listed)
                    following.extend(_sitemap_links(listed, follow, seen, skipped, deadline))
                if robots is not None and (read[0].ok or following):
                    delay = await asked_delay(robots, landed)
            level = following
    except asyncio.CancelledError as stop:  # Ctrl-C: the pages read by then are stored, and answered
        done = {entry.url for entry in pages}
        for url, (depth, found) in reading.items():
            page = arrived.get(url)
            if url in done or page is None or (depth and never_requested(page)) or not once.first(url, page):
                continue
            pages.append(_entry(url, page, depth, found, 0))
        stop.crawled = answer(pages)  # type: ignore[attr-defined]
        stop.unfinished = sum(url not in arrived for url in reading)  # type: ignore[attr-defined]
        raise
    held.raise_first()  # every page read and stored first, as a batch's callbacks are
    unread = await robots_unread(robots, scope, skipped)
    return answer(pages)


def _sitemap_links(
    listed: list[tuple[str, str]], follow: Follow, seen: set[str], skipped: Counter[str], deadline: float
) -> list[tuple[str, str | None]]:
    """The pages `listed` by the sitemaps to follow, each with the first sitemap that lists it (those
    not judged by `deadline` counted as `budget`)."""
    lists: dict[str, str] = {}
    for url, sitemap in within(listed, deadline, skipped):
        lists.setdefault(as_requested(url), sitemap)
    return [(url, lists[url]) for url in follow.judged(list(lists), seen, skipped, deadline)]


def _entry(url: str, page: Page, depth: int, found_on: str | None, new_links: int) -> CrawledPage:
    return CrawledPage(
        url=url,
        final_url=page.final_url,
        depth=depth,
        found_on=found_on,
        ok=page.ok,
        title=page.title,
        handle=page.handle,
        tokens=page.tokens,
        word_count=page.word_count,
        new_links=new_links,
        robots_tags=sorted(page_directives(page)) or None,
        error=page.error,
        store_error=page.meta.get("store_error"),
    )
