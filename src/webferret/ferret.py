"""The async core: composes policy, fetch tiers, extraction and the store behind one object.

    async with Ferret() as ferret:
        page = await ferret.fetch("https://example.org/")
        pages = await ferret.fetch_many([...])

`fetch()` / `fetch_many()` / `search()` at module level are sync facades for scripts.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from webferret.config import Settings, load_settings
from webferret.extract.types import ExtractOptions
from webferret.fetch.types import FetchOptions, RawResponse
from webferret.models import ErrorCode, ErrorInfo, FerretError, Page
from webferret.search.types import SearchOptions, SearchResult


class Ferret:
    """One session: owns the HTTP clients, the browser (if started), the extractor pool and the store."""

    def __init__(self, settings: Settings | None = None, **overrides: Any) -> None:
        self.settings = settings if settings is not None else load_settings(**overrides)
        self._fetcher: Any = None
        self._extractor: Any = None

    async def __aenter__(self) -> Ferret:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        if self._fetcher is not None:
            await self._fetcher.aclose()
            self._fetcher = None
        if self._extractor is not None:
            self._extractor.close()
            self._extractor = None

    # -- parts, made on first use -------------------------------------------------------------
    @property
    def fetcher(self) -> Any:
        if self._fetcher is None:
            from webferret.fetch.fetcher import Fetcher

            self._fetcher = Fetcher(self.settings)
        return self._fetcher

    @property
    def extractor(self) -> Any:
        if self._extractor is None:
            from webferret.extract.pool import Extractor

            self._extractor = Extractor()
        return self._extractor

    def fetch_options(self, **overrides: Any) -> FetchOptions:
        return FetchOptions.from_settings(self.settings, **overrides)

    def extract_options(self, **overrides: Any) -> ExtractOptions:
        return ExtractOptions.from_settings(self.settings, **overrides)

    # -- fetching -----------------------------------------------------------------------------
    async def fetch(
        self,
        url: str,
        *,
        options: FetchOptions | None = None,
        extract: ExtractOptions | None = None,
    ) -> Page:
        """Fetch one URL and extract it. Never raises for a page problem: the page carries `error`."""
        pages = await self.fetch_many([url], options=options, extract=extract)
        return pages[0]

    async def fetch_many(
        self,
        urls: Sequence[str],
        *,
        options: FetchOptions | None = None,
        extract: ExtractOptions | None = None,
    ) -> list[Page]:
        """Fetch URLs concurrently (order kept); one failed page never fails the others."""
        opts = options or self.fetch_options()
        xopts = extract or self.extract_options()
        if len(urls) > self.settings.max_urls:
            raise FerretError(
                ErrorCode.INVALID_ARGUMENT,
                f"{len(urls)} URLs given; at most {self.settings.max_urls} per call (setting max_urls)",
            )
        deadline = time.monotonic() + opts.budget
        limit = asyncio.Semaphore(opts.concurrency)

        async def one(url: str) -> Page:
            async with limit:
                return await self._fetch_one(url, opts, xopts, deadline)

        return list(await asyncio.gather(*(one(url) for url in urls)))

    async def _fetch_one(self, url: str, opts: FetchOptions, xopts: ExtractOptions, deadline: float) -> Page:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return _budget_spent(url, opts)
        try:
            async with asyncio.timeout(remaining):
                raw = await self.fetcher.fetch(url, opts)
                return await self._page_from_raw(raw, xopts)
        except TimeoutError:
            return _budget_spent(url, opts)
        except FerretError as exc:
            return Page.failed(url, exc.info(), status=exc.status)

    async def _page_from_raw(self, raw: RawResponse, xopts: ExtractOptions) -> Page:
        from webferret.fetch.sniff import sniff_kind

        if sniff_kind(raw.body, raw.content_type) == "binary":
            served = raw.content_type or "no content type"
            message = f"{raw.final_url} is binary content (served as {served}), not a readable document"
            return _failed_raw(raw, ErrorInfo(code=ErrorCode.UNSUPPORTED_CONTENT, message=message))
        try:
            extracted = await self.extractor.extract(raw, xopts)
        except FerretError as exc:
            return _failed_raw(raw, exc.info())
        except Exception as exc:  # an extractor bug must not fail the other pages of a batch
            message = f"extraction of {raw.final_url} failed: {type(exc).__name__}: {exc}"
            return _failed_raw(raw, ErrorInfo(code=ErrorCode.INTERNAL, message=message))
        fields = extracted.model_dump(exclude={"markdown", "jsonld", "extra", "links"})
        page = Page(
            url=raw.url,
            final_url=raw.final_url,
            status=raw.status,
            ok=True,
            fetched_via=raw.fetched_via,  # type: ignore[arg-type]
            fetched_at=datetime.now(UTC),
            links=extracted.links[: xopts.link_limit] if xopts.links else None,
            meta={"trail": raw.trail, "elapsed_ms": round(raw.elapsed_ms, 1)},
            **fields,
        )
        if not page.content.strip():
            message = f"no readable content at {raw.final_url}"
            return _failed_raw(raw, ErrorInfo(code=ErrorCode.EMPTY_CONTENT, message=message))
        return page

    # -- searching ----------------------------------------------------------------------------
    def search_options(self, **overrides: Any) -> SearchOptions:
        return SearchOptions.from_settings(self.settings, **overrides)

    async def search(self, query: str, options: SearchOptions | None = None) -> SearchResult:
        """Search several engines at once, fuse their rankings, and verify the candidates by fetching.

        An engine failing is reported in `result.engines`, never raised; a bad argument (an unknown
        engine, an empty query) raises `FerretError(invalid_argument)`.
        """
        from webferret.search.service import run_search

        return await run_search(self, query, options or self.search_options())


def _failed_raw(raw: RawResponse, error: ErrorInfo) -> Page:
    return Page.failed(
        raw.url,
        error,
        final_url=raw.final_url,
        status=raw.status,
        content_type=raw.content_type,
        fetched_via=raw.fetched_via,
    )


def _budget_spent(url: str, opts: FetchOptions) -> Page:
    message = f"the call's time budget of {opts.budget:g} s ran out before {url} was read"
    return Page.failed(url, ErrorInfo(code=ErrorCode.TIMEOUT, message=message))


# -- sync facades --------------------------------------------------------------------------------
def fetch(url: str, **settings: Any) -> Page:
    """Fetch one URL from a script: `webferret.fetch("https://example.org/")`."""

    async def run() -> Page:
        async with Ferret(**settings) as ferret:
            return await ferret.fetch(url)

    return asyncio.run(run())


def fetch_many(urls: Sequence[str], **settings: Any) -> list[Page]:
    """Fetch several URLs from a script, concurrently; order is kept."""

    async def run() -> list[Page]:
        async with Ferret(**settings) as ferret:
            return await ferret.fetch_many(urls)

    return asyncio.run(run())


def search(query: str, **settings: Any) -> Any:
    """Search from a script (see `Ferret.search`)."""

    async def run() -> Any:
        async with Ferret(**settings) as ferret:
            return await ferret.search(query)

    return asyncio.run(run())
