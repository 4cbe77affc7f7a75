"""The async core: composes policy, fetch tiers, extraction and the store behind one object.

    async with Ferret() as ferret:
        page = await ferret.fetch("https://example.org/")
        pages = await ferret.fetch_many([...])

The sync facades for scripts (`webferret.fetch()`, `fetch_many()`, `search()`, ...) are in
`webferret.sync_api`; the checks of a call's arguments in `webferret.arguments`, the failed pages in
`webferret.page_failures`.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

from webferret.after_answer import later
from webferret.arguments import (
    check_batch,
    check_count,
    check_switch,
    check_text,
    check_type,
    handle_text,
    is_text,
    site_text,
    strings_of,
    url_list,
)
from webferret.callbacks import Held, check_callback
from webferret.config import Settings, checked_overrides, load_settings, settings_with
from webferret.crawler import CrawledPage, CrawlOptions, CrawlResult
from webferret.extract.types import ExtractOptions
from webferret.fetch.types import FetchOptions, RawResponse
from webferret.limits import MAX_LISTED, MAX_PASSAGES, MIN_PAGE_TOKENS
from webferret.models import ErrorCode, ErrorInfo, FerretError, Page, clipped, has_password
from webferret.page_failures import (
    budget_spent,
    failed_raw,
    fetch_failed,
    late_shell,
    shell_marked,
    with_browser_failure,
)
from webferret.readings import Readings
from webferret.robots_tags import combined, header_directives, header_lines
from webferret.search.types import SearchOptions, SearchResult
from webferret.site_map import MapOptions, SiteMap
from webferret.store.freshness import (
    as_asked,
    document_kind,
    document_variant,
    exempt_fetch,
    is_fresh,
    served,
    usable,
    validates,
    variant_of,
    with_validators,
)
from webferret.store.handles import with_schemes
from webferret.store.session import SessionStore, not_kept
from webferret.store.types import DocumentOutline, OpenedPage, PageDiff, Passage, StoredPage, StoredPages

CLOSED = "this Ferret is closed (aclose): make a new one"
CLOSED_UNDER_CALL = (
    "this Ferret was closed (aclose) while this page was being read: close it once its calls have answered"
)


class Ferret:
    """One session: owns the HTTP clients, the browser (if started), the extractor pool and the store."""

    def __init__(self, settings: Settings | None = None, **overrides: Any) -> None:
        # overrides apply to given settings too (`Ferret(settings, timeout=5)`), checked alike
        given = settings is not None
        check_type("settings", settings, Settings, "load_settings() (or keywords: timeout=5)")
        self.settings = settings_with(settings, **overrides) if given else load_settings(**overrides)
        self._fetcher: Any = None
        self._engine_client: Any = None
        self._engine_route: Any = None
        self._extractor: Any = None
        self._store: Any = None
        self._store_lock = threading.Lock()  # the store may be opened in a thread (`open_store_soon`)
        self._store_opener: threading.Thread | None = None
        self._session = SessionStore(lambda: self.store)  # its writes and the reads that wait for them
        self._readings = Readings()  # the pages being read, so a call asking for one again waits for it
        self._loop: asyncio.AbstractEventLoop | None = None  # the event loop its connections belong to
        self._closed = False

    async def __aenter__(self) -> Ferret:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """End the session: the store writes finished, every connection, worker and file closed. A
        closed Ferret answers no more calls (`invalid_argument`); a second `aclose` does nothing."""
        if self._closed:
            return
        same_loop = self._loop in (None, asyncio.get_running_loop())
        if same_loop:  # another loop's connections and writes ended with it: nothing to wait for
            await self._written()  # a page an answer named is in the store before the session ends
        self._closed = True
        if self._fetcher is not None:
            if same_loop:
                await self._fetcher.aclose()
            self._fetcher = None
        if self._engine_client is not None:
            if same_loop:
                await self._engine_client.aclose()
            self._engine_client = None
        if self._extractor is not None:
            self._extractor.close()
            self._extractor = None
        with self._store_lock:
            store, self._store = self._store, None
        if store is not None:  # its writes are committed: a served call closes it after its answer
            later(store.close)

    # -- parts, made on first use -------------------------------------------------------------
    def _unclosed(self) -> None:
        """Refuse to make a part (a client, the extractor's workers) once `aclose` ended the session:
        a call still under way would make one nobody closes (its sockets, its worker processes)."""
        if self._closed:
            raise FerretError(ErrorCode.INVALID_ARGUMENT, CLOSED_UNDER_CALL)

    @property
    def fetcher(self) -> Any:
        if self._fetcher is None:
            from webferret.fetch.fetcher import Fetcher

            self._unclosed()

            self._fetcher = Fetcher(self.settings)
        return self._fetcher

    @property
    def engine_route(self) -> Any:
        """The setting `proxy` (less `no_proxy`) the search engines' requests take: the engine
        client's, and what an engine with its own sender (ddgs's) is handed with each request."""
        if self._engine_route is None:
            from webferret.net.proxy import ProxyRoute

            self._engine_route = ProxyRoute.configured(self.settings.proxy, self.settings.no_proxy)
        return self._engine_route

    @property
    def engine_client(self) -> Any:
        """The HTTP client of the search engines' requests, kept for the session: a resident
        session's next search reuses its connections (on the internet, TLS handshakes)."""
        if self._engine_client is None:
            import httpx

            self._unclosed()

            from webferret.fetch.body import ACCEPT_ENCODING
            from webferret.net.proxy import RoutedTransport
            from webferret.net.transport import shared_tls

            # the encodings `fetch.body` inflates under a cap (httpx would also ask for brotli, which
            # it inflates whole: a bomb's size in memory)
            headers = {"User-Agent": self.settings.user_agent, "Accept-Encoding": ACCEPT_ENCODING}
            route = self.engine_route
            tls = shared_tls()
            # redirects are `search.runner`'s to follow, each hop off an engine's host past the guard;
            # the setting `proxy` is the one way out through a proxy (not the environment's variables)
            self._engine_client = httpx.AsyncClient(
                headers=headers,
                follow_redirects=False,
                verify=tls,
                trust_env=False,
                transport=RoutedTransport(route, tls) if route.proxy is not None else None,
            )
        return self._engine_client

    @property
    def extractor(self) -> Any:
        if self._extractor is None:
            from webferret.extract.pool import Extractor

            self._unclosed()

            self._extractor = Extractor()
        return self._extractor

    @property
    def store(self) -> Any:
        """The page store in `settings.home`, opened on first use (never again once the session
        is closed: `aclose` closed it)."""
        with self._store_lock:
            if self._store is None:
                if self._closed:
                    message = "this Ferret is closed (aclose), and its store with it: make a new one"
                    raise FerretError(ErrorCode.INVALID_ARGUMENT, message)
                self._store = self._open_store()
            return self._store

    def _open_store(self) -> Any:
        from webferret.store.pages import PageStore

        return PageStore.in_home(self.settings.home, page_tokens=self.settings.page_tokens)

    def open_store_soon(self) -> None:
        """Open the page store in a thread, so the pages a call is waiting for find it open (a
        search opens it while its engines are asked: 1-5 ms, more for a new home, off the time from
        their answer to the page requests). A store that cannot be opened is left to the call, which
        reports it where it first needs the store. One thread a session: each engine request of a
        search calls this as it leaves."""
        if self._store is not None or self._closed or self._store_opener is not None:
            return

        def open_now() -> None:
            with self._store_lock:
                if self._store is None and not self._closed:
                    try:
                        self._store = self._open_store()
                    except Exception:  # the call's own first use reports it
                        return

        self._store_opener = threading.Thread(target=open_now, name="webferret-store-open", daemon=True)
        self._store_opener.start()

    def check_store(self, named: str | None = None) -> None:
        """Raise `not_found` when no page store exists in `settings.home` (a reading call does not
        make one: a mistyped home would look like an empty store); `named`: the handle asked for.
        A closed Ferret's reading call is `invalid_argument` saying so, store or none."""
        from webferret.store.pages import STORE_FILE

        if self._closed:
            raise FerretError(ErrorCode.INVALID_ARGUMENT, CLOSED)
        from webferret.store.schema import file_in_the_way

        path = self.settings.home / STORE_FILE
        try:
            missing = self._store is None and not path.exists()
        except OSError:  # a name too long, a folder this user cannot enter: opening the store says so
            missing = False
        if missing:
            asked = f"{clipped(named, 80)!r} is not stored: " if named else ""
            blocker = file_in_the_way(self.settings.home)  # `--home` naming the store file itself
            why = (
                f"{blocker} is a file, not a folder (setting home names the folder a store is in)"
                if blocker is not None
                else "nothing was fetched with this home (setting home)"
            )
            raise FerretError(ErrorCode.NOT_FOUND, f"{asked}no page store at {path}; {why}")

    def fetch_options(self, **overrides: Any) -> FetchOptions:
        checked = checked_overrides(self.settings, overrides, "fetch_options", FetchOptions)
        return FetchOptions.from_settings(self.settings, **checked)

    def extract_options(self, **overrides: Any) -> ExtractOptions:
        checked = checked_overrides(self.settings, overrides, "extract_options", ExtractOptions)
        return ExtractOptions.from_settings(self.settings, **checked)

    # -- fetching -----------------------------------------------------------------------------
    async def fetch(
        self,
        url: str,
        *,
        options: FetchOptions | None = None,
        extract: ExtractOptions | None = None,
        fresh: bool = False,
    ) -> Page:
        """Fetch one URL and extract it. Never raises for a page problem: the page carries `error`."""
        check_text("url", url, text=False)  # a URL that is no text is a failed page: `invalid_url`
        pages = await self.fetch_many([url], options=options, extract=extract, fresh=fresh)
        return pages[0]

    async def fetch_many(
        self,
        urls: Sequence[str],
        *,
        options: FetchOptions | None = None,
        extract: ExtractOptions | None = None,
        fresh: bool = False,
        on_page: Callable[[str, Page], Any] | None = None,
    ) -> list[Page]:
        """Fetch URLs concurrently (order kept); one failed page never fails the others.

        A page fetched within `fresh_seconds` comes from the store; a stale one is revalidated;
        `fresh=True` skips the store. Near-duplicates in the batch are marked `duplicate_of`.
        `on_page(url, page)` (a function or an `async def` one) is called as each page is finished
        (stored, if it was kept), so a caller that is cancelled (Ctrl-C) still has the pages
        finished before; what it raises is raised once the batch is finished. At most `max_urls` URLs a
        call (`invalid_argument` beyond), so an agent's call cannot flood its context; `fetch_all`
        takes a list of any length.
        """
        urls = url_list(urls)
        check_batch(len(urls), self.settings.max_urls)
        return await self.fetch_all(urls, options=options, extract=extract, fresh=fresh, on_page=on_page)

    async def fetch_all(
        self,
        urls: Sequence[str],
        *,
        options: FetchOptions | None = None,
        extract: ExtractOptions | None = None,
        fresh: bool = False,
        on_page: Callable[[str, Page], Any] | None = None,
    ) -> list[Page]:
        """`fetch_many` for a list of any length (the CLI's URL lists): at most `concurrency` pages
        are read at once, and `budget` is the whole list's."""
        self._usable()
        urls = url_list(urls)
        check_type("options", options, FetchOptions, "fetch_options(...)")
        check_type("extract", extract, ExtractOptions, "extract_options(...)")
        check_switch("fresh", fresh)
        check_callback("on_page", on_page)
        opts = options or self.fetch_options()
        xopts = extract or self.extract_options()
        deadline = time.monotonic() + opts.budget
        # a URL given twice is read once and answered twice (an item that is no string, each alone);
        # one that another call is reading with the same options, once too (`_readings`)
        firsts = {_url_key(url): url for url in reversed(urls)}
        distinct = [firsts[key] for key in dict.fromkeys(_url_key(url) for url in urls)]
        self.extractor.warm(len(distinct))
        self.extractor.expect(len(distinct))
        limit = asyncio.Semaphore(opts.concurrency)

        from webferret.present.dedup import mark_duplicates, prepare

        held = Held()  # what the caller's on_page raises: the batch goes on

        async def one(url: str) -> Page:
            async with limit:
                try:
                    # a page another call is reading with the same options is read once (`readings`)
                    page = await self._readings.read(
                        (_url_key(url), opts, xopts, fresh),
                        deadline,
                        lambda until: self._fetch_one(url, opts, xopts, until, fresh),
                    )
                except asyncio.CancelledError as stop:  # Ctrl-C: a page stored as it came is finished
                    kept = getattr(stop, "kept", None)
                    if kept is not None:
                        prepare(kept, len(distinct))
                        await held.call(on_page, url, kept)
                    raise
            prepare(page, len(distinct))
            await held.call(on_page, url, page)
            return page

        pages = list(await asyncio.gather(*(one(url) for url in distinct)))
        held.raise_first()  # once every page is finished (and stored): none goes on unseen
        marked = mark_duplicates(pages, self.settings.dedup_threshold)
        by_url = dict(zip((_url_key(url) for url in distinct), marked, strict=True))
        return [by_url[_url_key(url)] for url in urls]

    async def _fetch_one(
        self, url: str, opts: FetchOptions, xopts: ExtractOptions, deadline: float, fresh: bool = False
    ) -> Page:
        got = await self.fetch_response(url, opts, xopts, deadline, fresh)
        if isinstance(got, Page):
            return got
        return await self.finish_page(got, opts, xopts, deadline)

    async def crawl(
        self,
        start: str,
        options: CrawlOptions | None = None,
        *,
        fetch: FetchOptions | None = None,
        fresh: bool = False,
        on_page: Callable[[CrawledPage], Any] | None = None,
        on_read: Callable[[Page], Any] | None = None,
    ) -> CrawlResult:
        """Read `start` and the pages its links lead to, within a scope, level by level, each kept in
        the store (`webferret.crawler`): the answer lists them with their handles, not their text;
        `on_read(page)` is given each page itself as it is finished (for a pipeline's own use)."""
        from webferret.crawler import crawl

        self._usable()
        check_type("options", options, CrawlOptions, "CrawlOptions(...)")
        check_text("url", start, text=False)
        check_type("fetch", fetch, FetchOptions, "fetch_options(...)")
        check_switch("fresh", fresh)
        check_callback("on_page", on_page)
        check_callback("on_read", on_read)
        return await crawl(self, start, options, fetch=fetch, fresh=fresh, on_page=on_page, on_read=on_read)

    async def map_site(
        self,
        start: str,
        options: MapOptions | None = None,
        *,
        fetch: FetchOptions | None = None,
        fresh: bool = False,
    ) -> SiteMap:
        """The URLs of a site that `start` links to and its sitemaps list, within a scope, without
        reading them (`webferret.site_map`); with `options.search`, those matching it, best first."""
        from webferret.site_map import map_site

        self._usable()
        check_type("options", options, MapOptions, "MapOptions(...)")
        check_text("url", start, text=False)
        check_type("fetch", fetch, FetchOptions, "fetch_options(...)")
        check_switch("fresh", fresh)
        return await map_site(self, start, options, fetch=fetch, fresh=fresh)

    async def fetch_response(
        self,
        url: str,
        opts: FetchOptions,
        xopts: ExtractOptions,
        deadline: float,
        fresh: bool = False,
        known_failure: Callable[[str], Page] | None = None,
    ) -> Page | RawResponse:
        """The network step of fetching `url` by `deadline` (`time.monotonic()`): a finished `Page`
        (from the store, revalidated, or failed), or the response still to extract (`finish_page`).
        `known_failure`: a failure remembered at `url`, answered instead of the network when the
        store holds no fresh reading (a search's `unreachable` memory).

        A caller can hold a response between the two steps (a search extracts a spare candidate only
        when the answer needs it); `fetch_many` runs them back to back."""
        if not is_text(url):  # a lone surrogate (`json.loads('"\\ud800"')`, an undecodable argv byte)
            if isinstance(url, str):
                shown = url.encode("utf-8", "backslashreplace").decode()
                message = f"{shown}: not a URL (a character that is no text)"
            else:  # a list of URLs holding None or bytes: that item fails, the others are read
                shown = repr(url)[:200]
                message = f"{shown}: not a URL but {type(url).__name__} (a URL is a string)"
            return Page.failed(shown, ErrorInfo(code=ErrorCode.INVALID_URL, message=message))
        stored = await self._usable_copy(url, opts, xopts, fresh)
        if stored is not None and is_fresh(stored, self.settings.fresh_seconds):
            landed = stored.page.final_url  # a redirect followed before: where it led is asked too
            if opts.admit is not None and landed and landed != url:
                from webferret.fetch.fetcher import admitted

                try:
                    await admitted(landed, url, opts.admit)
                except FerretError as exc:
                    return Page.failed(url, exc.info())
            return served(stored.page, xopts, "store", url)
        if known_failure is not None:
            return known_failure(url)
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return budget_spent(url, opts)
        progress: list[dict[str, Any]] = []  # the hops begun, for a budget that runs out mid-fetch
        try:
            async with asyncio.timeout(remaining):
                raw = await self.fetcher.fetch(url, with_validators(opts, stored), progress)
                if stored is not None and raw.status == 304 and not validates(stored, raw.final_url):
                    raw = await self.fetcher.fetch(url, opts, progress)  # another page's 304: read it
                if stored is not None and raw.status == 304:
                    page = await asyncio.to_thread(self.store.revalidated, stored, raw.headers)
                    if raw.trail:  # how it was read now (the 304), not how it was first read
                        page = page.model_copy(update={"meta": {**page.meta, "trail": raw.trail}})
                    return served(page, xopts, "revalidated", url)
                return raw
        except Exception as exc:
            return fetch_failed(url, opts, self._closed_under(exc), progress)

    async def finish_page(
        self,
        raw: RawResponse,
        opts: FetchOptions,
        xopts: ExtractOptions,
        deadline: float,
        *,
        keep_later: bool = False,
    ) -> Page:
        """The rest of a fetch after `fetch_response`: extract `raw` and keep the page in the store,
        by `deadline` (`time.monotonic()`). Never raises for a page problem.

        `keep_later`: answer the page (with the handle and token count the store gives it) as soon
        as it is extracted, while its store write runs on; every later read of the store in this
        session (a fetch's look-up of that page), and `aclose`, waits for the write first (a
        search's answer leaves without it)."""
        read: Page | None = None  # the page, once it is read and only its store write is left
        try:
            async with asyncio.timeout(deadline - time.monotonic()):
                page = await self._page_from_raw(raw, xopts.unpacking(opts.max_bytes))
                if opts.actions and page.ok:  # what the steps brought is no plain reading (`variants`)
                    page = page.model_copy(update={"meta": {**page.meta, "actions": list(opts.actions)}})
                if opts.mobile and page.ok:  # nor is a phone's rendering
                    page = page.model_copy(update={"meta": {**page.meta, "mobile": True}})
                if late_shell(page, raw, opts):
                    page, raw = await self._rendered(page, raw, opts, xopts, deadline)
                read = page
                try:
                    kept = (
                        self._keep_later(page, raw, opts) if keep_later else await self._keep(page, raw, opts)
                    )
                except asyncio.CancelledError as stop:
                    if getattr(stop, "kept", None) is not None:  # stored as it was cancelled: still answered
                        stop.kept = as_asked(stop.kept, xopts)  # type: ignore[attr-defined]
                    raise
                return as_asked(kept, xopts)
        except TimeoutError as exc:
            if read is None or not read.ok:  # the budget ran out before the page was read
                return fetch_failed(raw.url, opts, exc)
            why = "the page store was still busy (another process holds it) when the call's budget ran out"
            return as_asked(not_kept(read, f"{why}: this page may not be kept"), xopts)
        except Exception as exc:
            return fetch_failed(raw.url, opts, self._closed_under(exc))

    async def page_from_raw(self, raw: RawResponse, extract: ExtractOptions | None = None) -> Page:
        """Extract bytes already in hand (a file, stdin, a stored body) into a `Page`; never raises."""
        xopts = extract or self.extract_options()
        return as_asked(await self._page_from_raw(raw, xopts), xopts)

    async def _rendered(
        self, page: Page, raw: RawResponse, opts: FetchOptions, xopts: ExtractOptions, deadline: float
    ) -> tuple[Page, RawResponse]:
        """`page` read again through the browser (`late_shell`), by `deadline` less `RENDER_MARGIN`
        (left for the extraction): the rendering's page when it has content; else the first reading,
        its trail (or its error) saying what the browser gave."""
        try:
            async with asyncio.timeout(deadline - time.monotonic() - RENDER_MARGIN):
                rendered = await self.fetcher.fetch(raw.url, opts.with_(tier="browser", draws_later=True))
        except TimeoutError:
            failure = FerretError(ErrorCode.TIMEOUT, "the call's time budget ran out before it rendered")
            return with_browser_failure(page, raw, failure), raw
        except FerretError as exc:
            return with_browser_failure(page, raw, exc), raw
        rendered.trail = shell_marked(raw.trail, page) + rendered.trail
        again = await self._page_from_raw(rendered, xopts)
        if not page.ok or (again.ok and (again.word_count or 0) >= (page.word_count or 0)):
            return again, rendered
        return page.model_copy(update={"meta": {**page.meta, "trail": rendered.trail}}), raw

    async def in_store(
        self, url: str, opts: FetchOptions, xopts: ExtractOptions, fresh: bool = False
    ) -> bool:
        """Whether a fetch of `url` with these options is answered from the store, with no request (a
        fresh reading it may use): a crawl that paces its requests does not wait before it."""
        stored = await self._usable_copy(url, opts, xopts, fresh)
        return stored is not None and is_fresh(stored, self.settings.fresh_seconds)

    async def _usable_copy(
        self, url: str, opts: FetchOptions, xopts: ExtractOptions, fresh: bool
    ) -> StoredPage | None:
        """The stored page for `url` this fetch may answer with or revalidate, fresh or not; None when
        there is none, or when the call asks for a new reading (`fresh`; a wait for an element, actions
        or a screenshot: a new rendering; its own credentials: another page)."""
        skip = fresh or opts.wait_for is not None or opts.screenshot is not None or bool(opts.actions)
        skip = skip or opts.mobile  # a phone's rendering is asked anew, and kept as a variant
        if skip or _private(url, opts):
            return None
        return await self._stored_copy(url, xopts, opts)

    async def _stored_copy(self, url: str, xopts: ExtractOptions, opts: FetchOptions) -> StoredPage | None:
        """The stored page for `url` if it can answer this call (see `SessionStore.stored_copy`); a
        document that is no HTML answers by the copy of a read without `--format html` or a scope."""
        stored = await self._session.stored_copy(url, variant_of(xopts))
        plain = document_variant(xopts)
        if stored is None and plain is not None:
            stored = await self._session.stored_copy(url, plain)
            stored = stored if stored is not None and document_kind(stored.page) else None
        return usable(stored, xopts, opts)

    async def _keep(self, page: Page, raw: RawResponse, opts: FetchOptions) -> Page:
        """Put a fetched page in the store; it comes back with its handle and token count."""
        return await self._session.keep(page, raw.headers, exempt_fetch(opts), _private(raw.url, opts))

    def _keep_later(self, page: Page, raw: RawResponse, opts: FetchOptions) -> Page:
        """`_keep` started, not awaited: the page is answered now (see `finish_page`)."""
        return self._session.keep_later(page, raw.headers, exempt_fetch(opts), _private(raw.url, opts))

    def finish_later(self, tasks: Sequence[asyncio.Task[Any]]) -> None:
        """Let cancelled `tasks` wind down after the call that cancelled them has answered (closing
        their requests takes a few loop turns); they are awaited before the next store read and
        by `aclose`, so none is left behind."""
        self._session.finish_later(tasks)

    async def _written(self) -> None:
        """Wait for the store writes (`keep_later`) and other work (`finish_later`) still under way."""
        self._usable()
        await self._session.written()

    def _closed_under(self, exc: Exception) -> Exception:
        """`exc`, or, when `aclose` ended the session while a call was reading a page (its clients
        and workers closed under it), the error that says so: not a bug, nor the site's failure."""
        if not self._closed or isinstance(exc, TimeoutError):
            return exc
        return FerretError(ErrorCode.INVALID_ARGUMENT, CLOSED_UNDER_CALL)

    def _usable(self) -> None:
        """Refuse a call on a closed Ferret, or from an event loop other than the one it began in
        (its connections and pending writes belong to that loop: each `asyncio.run` makes a new one)."""
        if self._closed:
            raise FerretError(ErrorCode.INVALID_ARGUMENT, CLOSED)
        loop = asyncio.get_running_loop()
        if self._loop is None:
            self._loop = loop
        elif loop is not self._loop:
            raise FerretError(
                ErrorCode.INVALID_ARGUMENT,
                "this Ferret began in another event loop (each asyncio.run makes a new one): use it in "
                "one loop, or make a Ferret per loop",
            )

    # -- the store ----------------------------------------------------------------------------
    async def stored(self, handle: str) -> StoredPage | None:
        """The newest stored version of `handle` (or of a URL's page), or None."""
        await self._written()
        return await asyncio.to_thread(self.store.named, handle_text(handle))

    async def _named_or_missing(self, handle: str) -> StoredPage:
        """The newest stored version `handle` names; `not_found` when the home has no store or the
        store does not hold it."""
        self.check_store(handle)
        stored = await self.stored(handle)
        if stored is None:
            raise await self._not_stored(handle)
        return stored

    async def _not_stored(self, handle: str) -> FerretError:
        """`not_stored`, naming the stored handles a handle cut short may have been (`site~2a82c9`)."""
        text = handle_text(handle)
        near = [] if "://" in text else await asyncio.to_thread(self.store.completions, text)
        return not_stored(handle, near)

    async def open(
        self,
        handle: str,
        page: int = 1,
        page_tokens: int | None = None,
        *,
        links: bool = False,
        link_limit: int | None = None,
    ) -> OpenedPage:
        """Page `page` of a stored document; an unknown handle or a page past the end is `not_found`.
        `links`: also the document's outgoing links, the first `link_limit` (by default the setting's;
        a `link_limit` given asks for them too, as the CLI's `--link-limit` and MCP's `link_limit`)."""
        from webferret.present.disclosure import open_document

        check_switch("links", links)
        links = links or link_limit is not None
        handle = handle_text(handle)
        check_count("page", page)
        for name, value, least in (
            ("page_tokens", page_tokens, MIN_PAGE_TOKENS),
            ("link_limit", link_limit, 1),
        ):
            if value is not None:
                check_count(name, value, least)
        stored = await self._named_or_missing(handle)
        size = page_tokens or self.settings.page_tokens
        opened = await asyncio.to_thread(open_document, stored.page, page, size, self.settings.page_tokens)
        if not links or stored.page.links is None:
            return opened
        limit = self.settings.link_limit if link_limit is None else link_limit
        every = stored.page.links
        total = max(len(every), int(stored.page.meta.get("links_total") or 0))  # the store's own cap
        shown = every[:limit]  # cut at the limit, or at what the store kept of a page of more
        return opened.model_copy(
            update={"links": shown, "links_total": total if total > len(shown) else None}
        )

    async def outline(self, handle: str, page_tokens: int | None = None) -> DocumentOutline:
        """The headings of a stored document, each with the page `open` shows it on at `page_tokens`
        (by default the setting's) and its section's tokens; an unknown handle is `not_found`."""
        from webferret.present.outline import outline_of

        handle = handle_text(handle)
        if page_tokens is not None:
            check_count("page_tokens", page_tokens, MIN_PAGE_TOKENS)
        stored = await self._named_or_missing(handle)
        size = page_tokens or self.settings.page_tokens
        return await asyncio.to_thread(outline_of, stored.page, size)

    async def diff(self, handle: str) -> PageDiff:
        """What changed between a stored document's newest reading and the one before it; an
        unknown handle is `not_found`."""
        from webferret.store.changes import changed_lines

        handle = handle_text(handle)
        stored = await self._named_or_missing(handle)
        before = await asyncio.to_thread(self.store.previous, stored)
        page = stored.page
        facts = {"handle": stored.handle, "url": page.final_url or page.url, "title": page.title}
        if before is None:
            return PageDiff(**facts, status="new", fetched_at=page.fetched_at)
        diff, added, removed = await asyncio.to_thread(changed_lines, before.page.content, page.content)
        return PageDiff(
            **facts,
            status="changed",
            fetched_at=page.fetched_at,
            previous_fetched_at=before.page.fetched_at,
            added=added,
            removed=removed,
            diff=diff,
        )

    async def exempt_documents(self) -> dict[str, set[str]]:
        """The stored documents read under an SSRF exemption, by handle, with the hosts they were
        read from (`PageStore.exempt_documents`); none when the home has no store."""
        try:
            self.check_store()
        except FerretError:
            return {}
        await self._written()
        return await asyncio.to_thread(self.store.exempt_documents)

    async def list_stored(self, site: str | None = None, n: int = 20) -> StoredPages:
        """The `n` stored documents fetched last (of `site`, a host with its subdomains), newest first."""
        check_count("n", n, most=MAX_LISTED)
        site = site_text(site)
        self.check_store()
        await self._written()
        return await asyncio.to_thread(self.store.listed, site, n)

    async def find(
        self, query: str, handles: Sequence[str] | None = None, n: int = 5, site: str | None = None
    ) -> list[Passage]:
        """The best passages for `query` across stored pages (BM25); any text is a safe query.
        `handles` or `site` (a host, its subdomains too) narrow the pages searched (`handles=[]` names
        none: no passage).
        A handle in `handles` that the store does not hold is `not_found` (not an empty answer); an
        empty or blank query is `invalid_argument`, as in `search`."""
        from webferret.store.passages import query_terms

        check_text("query", query)
        check_count("n", n, most=MAX_PASSAGES)
        if isinstance(handles, str):  # else each character would be read as a handle
            raise FerretError(ErrorCode.INVALID_ARGUMENT, "handles: a list of handles, not one string")
        if not query.strip():
            raise FerretError(ErrorCode.INVALID_ARGUMENT, "the query is empty")
        if not query_terms(query):
            quoted_query = clipped(query, 60)
            message = f"the query {quoted_query!r} has no words to look for, only punctuation or symbols"
            raise FerretError(ErrorCode.INVALID_ARGUMENT, message)
        if handles is not None:
            handles = [handle_text(h) for h in strings_of("handles", handles, "a list of handles")]
        site = site_text(site)
        if handles == []:  # no page named: none searched (None searches every page)
            return []
        self.check_store()
        await self._written()
        if handles and (missing := await asyncio.to_thread(self._first_not_held, handles)) is not None:
            raise await self._not_stored(missing)
        return await asyncio.to_thread(self.store.find, query, handles, n, site)

    def _first_not_held(self, handles: list[str]) -> str | None:
        """The first of `handles` the store does not hold: one trip to a thread for them all (a trip
        each took 9 s for 40,000 handles)."""
        return next((handle for handle in handles if not self.store.holds(handle)), None)

    async def _page_from_raw(self, raw: RawResponse, xopts: ExtractOptions) -> Page:
        try:
            extracted = await self.extractor.extract(raw, xopts)
        except FerretError as exc:
            return failed_raw(raw, exc.info())
        except Exception as exc:  # an extractor bug must not fail the other pages of a batch
            if isinstance(closed := self._closed_under(exc), FerretError):  # its workers closed under it
                return failed_raw(raw, closed.info())
            message = f"extraction of {raw.final_url} failed: {type(exc).__name__}: {exc}"
            return failed_raw(raw, ErrorInfo(code=ErrorCode.INTERNAL, message=message))
        fields = extracted.model_dump(exclude={"extra", "links"})
        said = header_directives(header_lines(raw.headers))
        robots = combined(extracted.extra.pop("robots", None) or (), said)  # (a page's own, for a crawl)
        kept = max(STORED_LINKS, xopts.link_limit)  # more when asked: a sitemap's
        cut = {"links_total": len(extracted.links)} if len(extracted.links) > kept else {}
        page = Page(
            url=raw.url,
            final_url=raw.final_url,
            status=raw.status,
            ok=True,
            fetched_via=raw.fetched_via,  # type: ignore[arg-type]
            fetched_at=datetime.now(UTC),
            links=extracted.links[:kept],  # kept in the store; answered as asked (`as_asked`)
            meta={"trail": raw.trail, "elapsed_ms": round(raw.elapsed_ms, 1), "extract": extracted.extra}
            | ({"screenshot": raw.screenshot} if raw.screenshot else {})
            | ({"screenshot_missing": raw.screenshot_missing} if raw.screenshot_missing else {})
            | cut
            | ({"robots": robots} if robots else {}),
            **fields,
        )
        if not page.content.strip():
            message = "no readable content" + (f" at {raw.final_url}" if raw.final_url else "")
            if extracted.extra.get("quality_veto") == "empty_shell":
                message += ": the page is an empty JavaScript app shell" + (
                    ", also as the browser rendered it (a page that draws its content later is read "
                    "with --wait-for CSS, MCP wait_for, waiting for an element of it)"
                    if raw.fetched_via == "browser"
                    else " whose content its scripts draw (the browser tier renders it)"
                )
            error = ErrorInfo(code=ErrorCode.EMPTY_CONTENT, message=message)
            return failed_raw(raw, error, {"extract": extracted.extra})
        return page

    # -- searching ----------------------------------------------------------------------------
    def search_options(self, **overrides: Any) -> SearchOptions:
        checked = checked_overrides(self.settings, overrides, "search_options", SearchOptions)
        return SearchOptions.from_settings(self.settings, **checked)

    async def search(self, query: str, options: SearchOptions | None = None) -> SearchResult:
        """Search several engines at once, fuse their rankings, and verify the candidates by fetching.

        An engine failing is reported in `result.engines`, never raised; a bad argument (an unknown
        engine, an empty query) raises `FerretError(invalid_argument)`.
        """
        from webferret.search.router import query_text
        from webferret.search.service import run_search

        self._usable()
        check_text("query", query)
        check_type("options", options, SearchOptions, "search_options(...)")
        query_text(query)  # empty or too long: refused before anything starts
        return await run_search(self, query, options or self.search_options())


def _url_key(url: object) -> object:
    """What a batch's URLs are told apart by: a string itself; another item (a list, a dict: no URL,
    maybe not hashable) by its identity, each failing alone."""
    return url if isinstance(url, str) else ("not a string", id(url))


def _private(url: str, opts: FetchOptions) -> bool:
    """Was (or is) the page at `url` read with the caller's own credentials: headers of its own, or a
    password in the URL? Such a page answers no later fetch (`freshness.permitted`)."""
    return opts.credentials or has_password(url)


RENDER_MARGIN = 1.0
"""Seconds of a call's budget left for extracting a page read again through the browser."""
STORED_LINKS = 1000
"""Most links of a page kept in the store (the main content's first), whether the call lists them or
not: a later `--links` read, `open --links` or an agent's `web_open(links=true)` answers from there.
A call that asks for more (`link_limit`: a crawl reading a sitemap of 50,000 URLs) keeps as many."""


def not_stored(handle: str, near: Sequence[str] = ()) -> FerretError:
    """`not_found` for a handle (or URL) the store does not hold, saying how a page gets there;
    `near`: the stored handles it may be cut short from."""
    if "://" in handle:
        return FerretError(ErrorCode.NOT_FOUND, f"no stored page for {clipped(handle, 300)}: fetch it first")
    message = f"no stored page has the handle {clipped(handle, 80)!r}"
    if near:
        short = "a handle has 12 hex digits after '~': " if len(handle.rpartition("~")[2]) < 12 else ""
        short = "a URL starts with https:// or http://: " if with_schemes(handle) else short
        message += f" ({short}did you mean {' or '.join(near)}?)"
    else:
        message += " (handles come from fetch and search answers)"
    return FerretError(ErrorCode.NOT_FOUND, message)
