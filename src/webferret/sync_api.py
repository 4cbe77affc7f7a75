"""The sync facades for scripts: `webferret.fetch(url)`, `fetch_many`, `open`, `outline`, `find`,
`crawl`, `map_site` and `search`, each running one `Ferret` call in an event loop of its own."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Callable, Coroutine, Mapping, Sequence
from typing import Any, TypeVar

from webferret.crawler import CrawlOptions, CrawlResult
from webferret.ferret import Ferret
from webferret.models import ErrorCode, FerretError, Page
from webferret.search.types import SearchResult
from webferret.site_map import MapOptions, SiteMap
from webferret.store.types import DocumentOutline, OpenedPage, Passage


# -- sync facades --------------------------------------------------------------------------------
def fetch(url: str, *, fresh: bool = False, **settings: Any) -> Page:
    """Fetch one URL from a script: `webferret.fetch("https://example.org/")` (`fresh=True`: skip the
    store; any other keyword is a setting, as `Ferret(**settings)` takes it)."""

    async def run() -> Page:
        async with Ferret(**settings) as ferret:
            return await ferret.fetch(url, fresh=fresh)

    return _run_sync("fetch", run, settings)


def fetch_many(urls: Sequence[str], *, fresh: bool = False, **settings: Any) -> list[Page]:
    """Fetch several URLs from a script, concurrently; order is kept."""

    async def run() -> list[Page]:
        async with Ferret(**settings) as ferret:
            return await ferret.fetch_many(urls, fresh=fresh)

    return _run_sync("fetch_many", run, settings)


def open(
    handle: str,
    page: int = 1,
    page_tokens: int | None = None,
    *,
    links: bool = False,
    link_limit: int | None = None,
    **settings: Any,
) -> OpenedPage:
    """Page `page` of a stored document from a script: `webferret.open(handle, 2)` (`Ferret.open`;
    other keywords are settings)."""

    async def run() -> OpenedPage:
        async with Ferret(**settings) as ferret:
            return await ferret.open(handle, page, page_tokens, links=links, link_limit=link_limit)

    return _run_sync("open", run, settings)


def outline(handle: str, page_tokens: int | None = None, **settings: Any) -> DocumentOutline:
    """A stored document's headings and their pages from a script: `webferret.outline(handle)`
    (`Ferret.outline`)."""

    async def run() -> DocumentOutline:
        async with Ferret(**settings) as ferret:
            return await ferret.outline(handle, page_tokens)

    return _run_sync("outline", run, settings)


def find(
    query: str, handles: Sequence[str] | None = None, n: int = 5, *, site: str | None = None, **settings: Any
) -> list[Passage]:
    """The best stored passages for `query` from a script: `webferret.find("ownership")` (`Ferret.find`;
    other keywords are settings)."""

    async def run() -> list[Passage]:
        async with Ferret(**settings) as ferret:
            return await ferret.find(query, handles, n, site)

    return _run_sync("find", run, settings)


def crawl(
    url: str,
    *,
    depth: int = 2,
    limit: int = 20,
    scope: str | None = None,
    include: Sequence[str] | str = (),
    exclude: Sequence[str] | str = (),
    robots: bool = True,
    sitemap: bool = False,
    fresh: bool = False,
    **settings: Any,
) -> CrawlResult:
    """Crawl from a script: `webferret.crawl("https://docs.example/guide/", depth=1)` (`Ferret.crawl`
    with these `CrawlOptions`; other keywords are settings)."""
    rules = {"scope": scope, "include": include, "exclude": exclude, "robots": robots, "sitemap": sitemap}
    options = CrawlOptions(depth=depth, limit=limit, **rules)  # type: ignore[arg-type]  (checked there)

    async def run() -> CrawlResult:
        async with Ferret(**settings) as ferret:
            return await ferret.crawl(url, options, fresh=fresh)

    return _run_sync("crawl", run, settings)


def map_site(
    url: str,
    *,
    search: str | None = None,
    limit: int = 100,
    scope: str | None = None,
    include: Sequence[str] | str = (),
    exclude: Sequence[str] | str = (),
    robots: bool = True,
    sitemap: bool = True,
    fresh: bool = False,
    **settings: Any,
) -> SiteMap:
    """Map a site from a script: `webferret.map_site("https://docs.example/", search="install")`
    (`Ferret.map_site` with these `MapOptions`; other keywords are settings)."""
    rules = {"scope": scope, "include": include, "exclude": exclude, "robots": robots, "sitemap": sitemap}
    options = MapOptions(limit=limit, search=search, **rules)  # type: ignore[arg-type]  (checked there)

    async def run() -> SiteMap:
        async with Ferret(**settings) as ferret:
            return await ferret.map_site(url, options, fresh=fresh)

    return _run_sync("map_site", run, settings)


def search(
    query: str,
    *,
    site: str | None = None,
    time_range: str | None = None,
    fresh: bool = False,
    **settings: Any,
) -> SearchResult:
    """Search from a script: `webferret.search("ferret care", site="wikipedia.org")` (`Ferret.search`;
    `results`, `engines`, `region`, `verify` and the other keywords are settings)."""

    async def run() -> SearchResult:
        async with Ferret(**settings) as ferret:
            options = ferret.search_options(site=site, time_range=time_range, fresh=fresh)
            return await ferret.search(query, options)

    return _run_sync("search", run, settings)


T = TypeVar("T")


def _misplaced_keyword(name: str, settings: Mapping[str, Any]) -> None:
    """A `ConfigError` for a keyword that is no setting but close to an argument of the facade
    `name` (`webferret.crawl(url, dept=1)`, `search(q, time_rang="week")`), or the name of a call
    option (`webferret.fetch(url, selector="article")`, as `extract_options` takes it): it was
    refused as "no such setting", sending its caller to the settings table for what is no setting."""
    from webferret.config import ConfigError, Settings, closest

    own = [
        parameter.name
        for parameter in inspect.signature(globals()[name]).parameters.values()
        if parameter.kind in (parameter.POSITIONAL_OR_KEYWORD, parameter.KEYWORD_ONLY)
    ]
    for key in settings:
        if key in Settings.model_fields:
            continue
        close, maker = closest(key.lower(), own), _option_maker(key, searching=name == "search")
        if close is None and maker is None:
            continue  # no such setting either: the settings say so, naming one close to it
        meant = (
            f"did you mean {close}=?"
            if close is not None
            else f"it is an option of Ferret.{maker}(), which a script facade does not take (only "
            f"settings): use `async with webferret.Ferret() as ferret:` and pass "
            f"ferret.{maker}({key}=...) to its call"
        )
        raise ConfigError(
            f"setting '{key}' (given as an argument): no such setting, nor an argument of "
            f"webferret.{name}(): {meant}"
        )


def _option_maker(key: str, searching: bool) -> str | None:
    """The `Ferret` method whose options take `key` (`selector`: `extract_options`), or None;
    `search_options` only for a search (a crawl's `site=` is no search's site)."""
    from dataclasses import fields

    from webferret.extract.types import ExtractOptions
    from webferret.fetch.types import FetchOptions
    from webferret.search.types import SearchOptions

    for maker, options in (
        ("fetch_options", FetchOptions),
        ("extract_options", ExtractOptions),
        *((("search_options", SearchOptions),) if searching else ()),
    ):
        if key in {field.name for field in fields(options)}:
            return maker
    return None


def _run_sync(name: str, run: Callable[[], Coroutine[Any, Any, T]], settings: Mapping[str, Any]) -> T:
    """`run()` in an event loop of its own; inside a running loop (a notebook, an async app) an
    error that says what to call instead (`asyncio.run` would refuse with a RuntimeError).
    `settings`: the facade's other keywords, each a setting (`_misplaced_keyword` checks the others)."""
    _misplaced_keyword(name, settings)
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(run())
    raise FerretError(
        ErrorCode.INVALID_ARGUMENT,
        f"webferret.{name}() runs its own event loop and cannot be called inside a running one (a "
        f"notebook, an async app): use `async with webferret.Ferret() as ferret: await ferret.{name}(...)`",
    )
