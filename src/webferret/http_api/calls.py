"""The HTTP API's calls: each endpoint's parameters (`params`) turned into the core's call and its
answer into the envelope the same CLI command prints with `--json` (`present.envelopes`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from pydantic import BaseModel

from webferret.fetch.types import header_of
from webferret.http_api.params import (
    CrawlParams,
    FetchParams,
    FindParams,
    HandleParams,
    MapParams,
    OpenParams,
    OutlineParams,
    Params,
    ReadingParams,
    SearchParams,
    SiteParams,
    StoredParams,
)
from webferret.models import Envelope, ErrorCode, FerretError, Page
from webferret.present.envelopes import (
    crawl_envelope,
    data_envelope,
    map_envelope,
    pages_envelope,
    passages_envelope,
    search_envelope,
)

if TYPE_CHECKING:
    from webferret.ferret import Ferret

Handler = Callable[["Ferret", Any], Awaitable[Envelope]]


async def _search(ferret: Ferret, p: SearchParams) -> Envelope:
    result, read = await searched(ferret, p)
    return search_envelope(result, read if p.read else None)


async def searched(ferret: Ferret, p: SearchParams) -> tuple[Any, list[Any]]:
    """The search `p` asks for, and the pages `read` read (`/search`, and `/s/` as Markdown)."""
    from webferret.search.reading import search_and_read

    options = ferret.search_options(
        engines=None if p.engines is None else tuple(p.engines),
        results=p.n,
        site=p.site,
        time_range=p.time,
        region=p.region,
        engine_timeout=p.engine_timeout,
        verify=p.verify,
        verify_timeout=p.verify_timeout,
        fresh=p.fresh,
    )
    result, read, _ = await search_and_read(ferret, p.query, options, p.read, p.page_tokens)
    return result, read


async def _fetch(ferret: Ferret, p: FetchParams) -> Envelope:
    return pages_envelope(await fetch_pages(ferret, p))


async def fetch_pages(ferret: Ferret, p: FetchParams, screenshot: str | None = None) -> list[Page]:
    """The pages `p` asks for, each clipped at `max_chars` (`/fetch`, and `/r/` for its one page;
    `screenshot`: the path the browser writes the page's picture to)."""
    from webferret.present.pages import clip_page

    options = _fetch_options(ferret, p, screenshot)
    pages = await ferret.fetch_all(
        p.url, options=options, extract=extract_options_of(ferret, p), fresh=p.fresh
    )
    return [clip_page(page, p.max_chars) for page in pages]


def _fetch_options(ferret: Ferret, p: FetchParams, screenshot: str | None = None) -> Any:
    return ferret.fetch_options(
        screenshot=screenshot,
        timeout=p.timeout,
        budget=p.budget,
        tier=p.tier,
        wait_for=p.wait_for,
        actions=tuple(p.action) or None,
        headers=tuple(header_of(text) for text in p.header) or None,  # `NAME: VALUE`, as --header
    )


def extract_options_of(ferret: Ferret, p: ReadingParams) -> Any:
    """The extraction options of `/fetch`'s, `/r/`'s and `/extract`'s reading parameters."""
    return ferret.extract_options(
        format=p.format,
        links=p.links or p.link_limit is not None,
        link_limit=p.link_limit,
        selector=p.selector,
        exclude=tuple(p.exclude),
        whole_page=p.whole_page,
    )


async def _open(ferret: Ferret, p: OpenParams) -> Envelope:
    opened = await ferret.open(p.handle, p.page, p.page_tokens, links=p.links, link_limit=p.link_limit)
    return data_envelope(opened)


async def _outline(ferret: Ferret, p: OutlineParams) -> Envelope:
    return data_envelope(await ferret.outline(p.handle, p.page_tokens))


async def _diff(ferret: Ferret, p: HandleParams) -> Envelope:
    return data_envelope(await ferret.diff(p.handle))


async def _find(ferret: Ferret, p: FindParams) -> Envelope:
    return passages_envelope(p.query, await ferret.find(p.query, handles=p.handle, n=p.n, site=p.site))


async def _stored(ferret: Ferret, p: StoredParams) -> Envelope:
    return data_envelope(await ferret.list_stored(p.site, p.n))


def _site_rules(ferret: Ferret, p: SiteParams) -> dict[str, Any]:
    """The `MapOptions` / `CrawlOptions` fields `SiteParams` give (robots: the setting's unless said)."""
    robots = ferret.settings.respect_robots if p.robots is None else p.robots
    return {"scope": p.scope, "include": tuple(p.include), "exclude": tuple(p.exclude), "robots": robots}


def _site_fetch(ferret: Ferret, p: SiteParams) -> Any:
    return ferret.fetch_options(timeout=p.timeout, budget=p.budget, tier=p.tier)


async def _map(ferret: Ferret, p: MapParams) -> Envelope:
    from webferret.site_map import MapOptions

    options = MapOptions(limit=p.limit, search=p.search, sitemap=p.sitemap, **_site_rules(ferret, p))
    return map_envelope(await ferret.map_site(p.url, options, fetch=_site_fetch(ferret, p), fresh=p.fresh))


def _crawl_options(ferret: Ferret, p: CrawlParams) -> Any:
    from webferret.crawler import CrawlOptions

    return CrawlOptions(depth=p.depth, limit=p.limit, sitemap=p.sitemap, **_site_rules(ferret, p))


async def _crawl(ferret: Ferret, p: CrawlParams) -> Envelope:
    if p.max_chars is not None:  # as `crawl --max-chars` without --jsonl is refused
        message = (
            "max_chars clips the pages a streamed crawl answers (Accept: application/x-ndjson); "
            "without it the crawl answers no page text"
        )
        raise FerretError(ErrorCode.INVALID_ARGUMENT, message)
    options, fetch = _crawl_options(ferret, p), _site_fetch(ferret, p)
    return crawl_envelope(await ferret.crawl(p.url, options, fetch=fetch, fresh=p.fresh))


Put = Callable[[Page], None]
Run = Callable[[Put], Awaitable[Envelope]]
Lines = Callable[["Ferret", Any], Run]
"""A streamed call: made from the parameters (their options checked then, so a bad one is refused
before the stream starts), then run, giving each page to `Put` as it is finished."""


def _fetch_lines(ferret: Ferret, p: FetchParams) -> Run:
    """`/fetch` streamed: each page as it is finished; the envelope without them."""
    options, xopts = _fetch_options(ferret, p), extract_options_of(ferret, p)

    async def run(put: Put) -> Envelope:
        on_page = lambda _url, page: put(page)  # noqa: E731
        pages = await ferret.fetch_all(p.url, options=options, extract=xopts, fresh=p.fresh, on_page=on_page)
        return pages_envelope(pages).model_copy(update={"data": None})

    return run


def _crawl_lines(ferret: Ferret, p: CrawlParams) -> Run:
    """`/crawl` streamed: each page read, with its content; the crawl's summary (its `data` without
    the page entries, which the lines were)."""
    options, fetch = _crawl_options(ferret, p), _site_fetch(ferret, p)

    async def run(put: Put) -> Envelope:
        result = await ferret.crawl(p.url, options, fetch=fetch, fresh=p.fresh, on_read=put)
        envelope = crawl_envelope(result)
        summary = {key: value for key, value in (envelope.data or {}).items() if key != "pages"}
        return envelope.model_copy(update={"data": summary})

    return run


class Endpoint(NamedTuple):
    """One JSON endpoint: its parameters, its call, what it does, the model of its answer's `data`
    (for `/openapi.json`), and its streamed call, if it streams (`Accept: application/x-ndjson`)."""

    params: type[Params]
    handler: Handler
    does: str
    data: type[BaseModel]
    lines: Lines | None = None


def endpoints() -> dict[str, Endpoint]:
    """The JSON endpoints by path."""
    from webferret.crawler import CrawlResult
    from webferret.models import FetchedPages
    from webferret.search.present import SearchData
    from webferret.site_map import SiteMap
    from webferret.store.types import DocumentOutline, FoundPassages, OpenedPage, PageDiff, StoredPages

    return {
        "/search": Endpoint(SearchParams, _search, "search the web (webferret search)", SearchData),
        "/fetch": Endpoint(FetchParams, _fetch, "read pages (webferret fetch)", FetchedPages, _fetch_lines),
        "/open": Endpoint(OpenParams, _open, "page K of a stored document (webferret open)", OpenedPage),
        "/outline": Endpoint(
            OutlineParams,
            _outline,
            "a stored document's headings (webferret open --outline)",
            DocumentOutline,
        ),
        "/diff": Endpoint(
            HandleParams, _diff, "what changed in a stored document (webferret open --diff)", PageDiff
        ),
        "/find": Endpoint(FindParams, _find, "passages across stored pages (webferret find)", FoundPassages),
        "/stored": Endpoint(
            StoredParams, _stored, "the pages stored last (webferret store list)", StoredPages
        ),
        "/map": Endpoint(MapParams, _map, "a site's URLs (webferret map)", SiteMap),
        "/crawl": Endpoint(
            CrawlParams, _crawl, "a site's pages by their links (webferret crawl)", CrawlResult, _crawl_lines
        ),
    }
