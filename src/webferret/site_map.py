"""Mapping a site: the URLs a reader could fetch, found without reading them.

`map_site(ferret, start, options)` reads one page, `start` (kept in the store as any fetch), and the
site's sitemaps (those robots.txt names, else `/sitemap.xml`; an index's sitemaps too), and answers
the URLs they name within a scope (by default the whole host), each with the text a link of the
start page gives it. The rules are the crawl's (`crawl_rules.Follow`): in scope, past the include and
exclude globs, documents only, each URL once however it is written, and where robots.txt allows it
(unless it is not honoured). With `search`, only the URLs whose link text or path holds a word of
it are answered, best first: an agent finds the one page of a large documentation site it needs,
at the cost of one page and a few sitemap files.
"""

from __future__ import annotations

import re
import time
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import unquote, urlsplit

from pydantic import BaseModel, Field

from webferret.arguments import check_switches, check_text, is_whole
from webferret.crawl_rules import (
    Follow,
    page_key,
    robots_allowed,
    robots_unread,
    site_robots,
    site_rules,
)
from webferret.crawl_sitemaps import sitemap_listed
from webferret.limits import MAX_MAP_URLS, MAX_QUERY_CHARS
from webferret.models import ErrorCode, ErrorInfo, FerretError
from webferret.net.urltext import web_url

if TYPE_CHECKING:
    from webferret.ferret import Ferret

_WORD = re.compile(r"[^\W_]+")


@dataclass(frozen=True)
class MapOptions:
    """What a map lists; see the module docstring."""

    limit: int = 100
    search: str | None = None
    scope: str | None = None
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    robots: bool = True
    sitemap: bool = True

    def __post_init__(self) -> None:
        if not is_whole(self.limit) or not 1 <= self.limit <= MAX_MAP_URLS:
            message = f"limit {self.limit!r}: a whole number of URLs from 1 to {MAX_MAP_URLS}"
            raise FerretError(ErrorCode.INVALID_ARGUMENT, message)
        if self.search is not None:
            check_text("search", self.search)
        if self.search is not None and len(self.search) > MAX_QUERY_CHARS:
            message = f"search: {len(self.search):,} characters, at most {MAX_QUERY_CHARS}"
            raise FerretError(ErrorCode.INVALID_ARGUMENT, message)
        if self.search is not None and not _words(self.search):
            message = f"search {self.search[:60]!r}: it has no words to look for"
            raise FerretError(ErrorCode.INVALID_ARGUMENT, message)
        site_rules(self)
        check_switches(self, "robots", "sitemap")


class MappedUrl(BaseModel):
    """One URL a map found."""

    url: str
    text: str | None = Field(default=None, description="the start page's link text for it, if it links to it")
    source: Literal["page", "sitemap"] = Field(description="where it was found first")
    score: float | None = Field(default=None, description="with `search`: how well it matches (higher first)")


class SiteMap(BaseModel):
    """The `data` of `map` with `--json`."""

    start: str
    final_url: str | None = None
    handle: str | None = Field(default=None, description="the start page's store handle")
    scope: str
    search: str | None = None
    total: int = Field(description="URLs found in scope (that match `search`, with one)")
    urls: list[MappedUrl] = Field(
        description="the first `limit` of them: the page's links, then the sitemaps'"
    )
    from_page: int = Field(
        default=0, description="URLs listed that the start page links to (before `search`)"
    )
    sitemap_urls: int | None = Field(
        default=None, description="URLs the site's sitemaps listed, in scope or not (None: not read)"
    )
    sitemap_unread: str | None = Field(
        default=None,
        description="the sitemap files that could not be read and why, or why none was asked for; how "
        "many an index named past the 20 read",
    )
    not_listed: dict[str, int] = Field(
        default_factory=dict,
        description="URLs found but not listed, by why: out_of_scope, excluded, not_a_page, robots, "
        "budget (the call's budget ran out before they were judged), past_link_cap (the page's links "
        "past the 5,000 looked at)",
    )
    start_error: ErrorInfo | None = Field(default=None, description="why the start page could not be read")
    robots_unread: str | None = Field(
        default=None,
        description="why the site's robots.txt could not be read (a 5xx, an outage), which disallows every "
        "path (RFC 9309): the URLs counted as `robots` were left out for that",
    )
    elapsed_ms: float


async def map_site(
    ferret: Ferret, start: str, options: MapOptions | None = None, *, fetch: Any = None, fresh: bool = False
) -> SiteMap:
    """The URLs of a site `start` and its sitemaps name (see the module docstring); `fetch` is the
    `FetchOptions` of the page and sitemap requests, its budget the whole call's; `fresh`: the start
    page and the sitemaps are read anew, not from the store."""
    options = options or MapOptions()
    start = start.strip()  # pasted with a line break or an indent: the page a fetch of it reads
    started = time.monotonic()
    opts = fetch or ferret.fetch_options()
    deadline = started + opts.budget
    robots = site_robots(ferret, opts) if options.robots else None
    xopts = ferret.extract_options(links=True, link_limit=MAX_MAP_URLS)  # as many as a map can list
    (page,) = await ferret.fetch_all([start], options=opts, extract=xopts, fresh=fresh)
    where = page.final_url or start
    scope = options.scope or site_root(where)
    follow = Follow(scope, options.include, options.exclude)
    skipped: Counter[str] = Counter()
    seen = {page_key(start)}
    texts: dict[str, str] = {}  # by canonical URL: `/install#windows` names the page `/install` too
    for link in page.links or []:
        if link.text and not texts.get(key := page_key(link.url)):
            texts[key] = link.text  # the first link with words (a bare icon link before it has none)
    found = [(url, "page") for url in follow.links(page, seen, skipped)] if page.ok else []
    linked = len(found)  # the page's own links, a few: judged by robots.txt whatever the budget left
    sitemap_urls = sitemap_unread = None
    if options.sitemap and deadline > time.monotonic() and web_url(where):
        sitemaps = await sitemap_listed(ferret, where, robots, opts, deadline, fresh)
        listed, sitemap_unread = sitemaps.listed, sitemaps.unread
        if listed is not None:
            sitemap_urls = len(listed)
            found += [
                (url, "sitemap") for url in follow.judged([url for url, _ in listed], seen, skipped, deadline)
            ]
    if robots is not None:
        judging = [(url, None) for url, _ in found]
        kept = await robots_allowed(judging[:linked], robots, skipped)
        kept += await robots_allowed(judging[linked:], robots, skipped, deadline)
        allowed = {url for url, _ in kept}
        found = [(url, source) for url, source in found if url in allowed]
    from_page = sum(source == "page" for _, source in found)
    mapped = [MappedUrl(url=url, text=texts.get(page_key(url)), source=source) for url, source in found]  # type: ignore[arg-type]
    if options.search:
        mapped = ranked(mapped, options.search)
    return SiteMap(
        start=start,
        final_url=page.final_url,
        handle=page.handle,
        scope=scope,
        search=options.search,
        total=len(mapped),
        urls=mapped[: options.limit],
        from_page=from_page,
        sitemap_urls=sitemap_urls,
        sitemap_unread=sitemap_unread,
        not_listed={why: count for why, count in skipped.items() if count},
        start_error=page.error,
        robots_unread=await robots_unread(robots, scope, skipped),
        elapsed_ms=round((time.monotonic() - started) * 1000, 1),
    )


def site_root(url: str) -> str:
    """`https://docs.x.org/guide/intro` -> `https://docs.x.org/`: a map's default scope is the host."""
    from webferret.fetch.robots import origin_of  # (robots.txt's parser is imported on first use)

    try:
        return origin_of(url.strip()) + "/"
    except ValueError:
        return url


def _words(text: str) -> list[str]:
    return [word.casefold() for word in _WORD.findall(text)]


def ranked(mapped: list[MappedUrl], search: str) -> list[MappedUrl]:
    """The URLs whose link text or path holds a word of `search`, best first (the order found among
    equals). A word in the link text counts 2, in the path 1.5, and the start of a longer word
    (`install` of `installation`) half as much."""
    terms = set(_words(search))
    scored: list[MappedUrl] = []
    for entry in mapped:
        text = set(_words(entry.text or ""))
        path = set(_words(unquote(urlsplit(entry.url).path)))
        score = 0.0
        for term in terms:
            for words, weight in ((text, 2.0), (path, 1.5)):
                if term in words:
                    score += weight
                elif len(term) >= 3 and any(word.startswith(term) for word in words):
                    score += weight / 2
        if score:
            scored.append(entry.model_copy(update={"score": score}))
    return sorted(scored, key=lambda entry: -(entry.score or 0))
