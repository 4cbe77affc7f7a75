"""The browser tier's guard: the route handler of one page's context. Every request the page makes
(its document, a frame's, a script, a style, what a script fetches) is vetted by the SSRF policy and
fetched here, pinned to the vetted address, one hop at a time, through the impersonate tier's curl;
a main-frame redirect is stopped and left to `browser._navigate`. A page's files are read
`FILES_AT_ONCE` at a time, within `FILES_BUDGET` times `max_bytes` and `FILES_MOST` requests, and
none once the page has closed.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from webferret.fetch.charset import browser_charset, read_body
from webferret.fetch.fetcher import FETCHING, admitted, fetching
from webferret.fetch.hop_cookies import HopCookies
from webferret.fetch.impersonate import new_session, request_once
from webferret.fetch.sniff import HTML_TYPES, mime_of, sniff_kind
from webferret.fetch.types import FetchOptions
from webferret.models import ErrorCode, FerretError, without_password
from webferret.net.joined import join_url
from webferret.net.policy import UrlPolicy
from webferret.net.proxy import ProxyRoute
from webferret.remote_text import quoted, url_without_blanks

if TYPE_CHECKING:
    from playwright.async_api import Request, Route

HEAVY = {"image", "font", "media"}
IN_MEMORY = {"data", "blob", "about"}  # schemes a page may load: nothing leaves the browser for them
REDIRECTS = {301, 302, 303, 307, 308}
# Headers the pinned fetch has already undone (decompression, framing); the browser must not see them.
HOP_HEADERS = {"content-encoding", "content-length", "transfer-encoding", "connection", "keep-alive"}
Answer = tuple[int, dict[str, str], bytes]
"""A request's status, headers and body."""
FILES_AT_ONCE = 8
"""The most files (scripts, styles, a script's `fetch`) of one page read at once: each may be up to
`max_bytes`, and what is read is held in this process until the browser takes it."""
FILES_BUDGET = 5
"""A page's files together are at most this many times `max_bytes`; past it the page gets no more
(a page asking for hundreds of endless bodies held gigabytes here)."""
FILES_MOST = 500
"""The most requests of one page's files answered; past it each is refused at once. Every request
answered costs this process a few round trips to the browser: a page whose script asked for
thousands of small files (2,000) was not read within its timeout, and the closing of its context,
behind the same queue, went on as long again past it."""


class Guard:
    """The route handler of one context: vets every request and fetches it pinned, one hop at a time."""

    def __init__(
        self,
        policy: UrlPolicy,
        opts: FetchOptions,
        fingerprint: str,
        page: str,
        route: ProxyRoute,
        files_by: float | None = None,
    ) -> None:
        self._policy = policy
        self._fetching = fetching()  # the fetch this page is read for, as its hops are admitted
        # by when (`time.monotonic()`) a file must have answered: a synchronous XHR that never
        # answers holds the page's scripts, and the page could not be read at all, only time out
        self._files_by = files_by
        self._route = route  # the page's requests leave through the proxy as the other tiers' do
        self._opts = opts
        self._page = page  # the URL rendered: the caller's headers go to its origin only
        self._session = new_session(fingerprint)
        self.main_error: FerretError | None = None
        self.redirect_to: str | None = None
        self.stopped = asyncio.Event()  # set with `redirect_to`
        self.main_body: bytes | None = None  # the bytes the page's own document was answered with
        self._files = asyncio.Semaphore(FILES_AT_ONCE)
        self._files_left = FILES_BUDGET * opts.max_bytes  # the bytes the page's files may still bring
        self._files_asked = 0  # the page's requests other than its own document's, `FILES_MOST` at most
        self._closed = False  # the page has closed: what is still waiting for a slot is not fetched
        self._cut = asyncio.Event()  # set by `cut_files`: the files being read then are given up
        self.main_answer: tuple[str, int, dict[str, str]] | None = None  # its URL, status and headers

    async def vet(self, url: str) -> None:
        """Raise the guard's `FerretError` for a main-frame hop it refuses (and remember it)."""
        try:
            await self._policy.vet(url)
        except FerretError as exc:
            self.main_error = self.main_error or exc
            raise

    async def handle(self, route: Route) -> None:
        """Answer `route` (`_answer`); one whose page has closed meanwhile, or that Playwright let go
        of (it keeps a bounded number of requests), is left unanswered: a page that asked for
        thousands of files closed with its requests still waiting, and each answer after that was
        Playwright's error, printed, then the page's, as `internal`."""
        from playwright.async_api import Error

        try:
            await self._answer(route)
        except Error as exc:
            if not (lost(exc) or "has been collected" in str(exc)):  # a request waiting among thousands
                raise

    async def _answer(self, route: Route) -> None:
        from playwright.async_api import Error

        request = route.request
        if request.resource_type in HEAVY:
            await route.abort("blockedbyclient")
            return
        scheme = urlsplit(request.url).scheme.lower()
        if scheme in IN_MEMORY:
            await route.continue_()
            return
        if scheme not in ("http", "https"):  # file:, chrome:, ftp:...: nothing a page may reach
            await route.abort("blockedbyclient")
            return
        navigation = request.is_navigation_request()
        try:
            request.frame  # noqa: B018  a pop-up's navigation has no frame yet (`window.open`)
        except Error:
            await route.abort("blockedbyclient")  # pages are read one at a time: no pop-ups
            return
        main = navigation and request.frame.parent_frame is None
        if not main:
            self._files_asked += 1
            if self._files_asked > FILES_MOST:  # refused before any round trip to the browser
                await route.abort("blockedbyclient")
                return
        try:
            if navigation and request.url != self._page:  # a redirect's, a script's, a step's, a frame's
                on = request.frame.url if request.frame.url.startswith(("http://", "https://")) else ""
                asked = FETCHING.set(self._fetching)  # (a handler runs in a task of Playwright's)
                try:
                    await admitted(request.url, on or self._page, self._opts.admit)
                finally:
                    FETCHING.reset(asked)
            status, got, body = await self._fetch(request, follow=not navigation)
        except FerretError as exc:
            if main:
                self.main_error = self.main_error or _went(exc, request.url, self._page)
            await route.abort("blockedbyclient" if exc.code == ErrorCode.BLOCKED_ADDRESS else "failed")
            return
        location = got.get("location")
        if navigation and status in REDIRECTS and location:
            await _give_cookies(request, request.url, got)  # the browser never sees this answer
            if request.frame.parent_frame is None:
                self.redirect_to = url_without_blanks(join_url(request.url, location))
                self.stopped.set()
            await route.abort("aborted")  # the browser would follow it unseen; `_navigate` does instead
            return
        kept = {k: v for k, v in got.items() if k not in HOP_HEADERS}
        if main:
            self.main_body, self.main_answer = body, (request.url, status, kept)
        if navigation:
            body, kept = in_utf8(body, kept)
        await route.fulfill(status=status, headers=kept, body=body)

    async def _fetch(self, request: Request, *, follow: bool) -> tuple[int, dict[str, str], bytes]:
        """The request, pinned; with `follow`, its redirects too, each hop vetted (the browser would
        follow a redirect unseen by the route handler)."""
        url, method, data = request.url, request.method, request.post_data_buffer
        headers = {k: v for k, v in (await request.all_headers()).items() if not k.startswith(":")}
        document = request.is_navigation_request() and request.frame.parent_frame is None
        hops = HopCookies()
        for _ in range(self._opts.max_redirects + 1):
            target = await self._policy.vet(url)
            opts = self._opts.for_request(url, self._page, document=document)
            if not document and self._files_by is not None:
                opts = replace(opts, timeout=min(opts.timeout, max(0.1, self._files_by - time.monotonic())))
            ask = functools.partial(
                request_once,
                self._session,
                target,
                opts,
                self._policy,
                method=method,
                headers=headers,
                data=data,
                route=self._route,
            )
            status, got, body = await (ask() if document else self._file(ask))
            location = got.get("location")
            if not (follow and status in REDIRECTS and location):
                return status, got, body
            nxt = url_without_blanks(join_url(url, location))
            if urlsplit(nxt)[:2] != urlsplit(url)[:2]:  # credentials stay with their origin
                headers = {k: v for k, v in headers.items() if k not in ("cookie", "authorization")}
            hops.take(url, got)  # what a hop the browser never sees sets goes on with the next ones
            headers = dict(hops.sent(nxt, tuple(headers.items())))
            await _give_cookies(request, url, got)
            if status in (301, 302, 303):
                method, data = "GET", None
            url = nxt
        msg = f"{request.url}: more than {self._opts.max_redirects} redirects (setting max_redirects)"
        raise FerretError(ErrorCode.TOO_MANY_REDIRECTS, msg)

    async def _file(self, ask: Callable[[], Awaitable[Answer]]) -> Answer:
        """`ask()`, the request of one of the page's files (a script, a style, what a script fetches,
        a frame's document), vetted: `FILES_AT_ONCE` at a time, within what is left of the page's
        `FILES_BUDGET` (`too_large` past it; a file refused at `max_bytes` counts that)."""
        async with self._files:
            if self._closed:
                raise FerretError(ErrorCode.CONNECT_FAILED, "the page has closed")
            if self._files_left <= 0:
                most = FILES_BUDGET * self._opts.max_bytes
                said = f"the page's files came to more than {most:,} bytes ({FILES_BUDGET} times max_bytes)"
                raise FerretError(ErrorCode.TOO_LARGE, said)
            try:
                answer = await self._unless_cut(ask)
            except FerretError as exc:
                if exc.code == ErrorCode.TOO_LARGE:  # it was read to the cap, then refused
                    self._files_left -= self._opts.max_bytes
                raise
            self._files_left -= len(answer[2])
            return answer

    def cut_files(self) -> None:
        """Give up the files being read now (a `<script src>` that never answers holds the document's
        parsing): each fails, so the browser parses on without it; files asked later are read."""
        self._cut.set()
        self._cut = asyncio.Event()

    async def _unless_cut(self, ask: Callable[[], Awaitable[Answer]]) -> Answer:
        """`ask()`, unless `cut_files` gives it up first (`timeout`)."""
        asking, cutting = asyncio.ensure_future(ask()), asyncio.ensure_future(self._cut.wait())
        try:
            await asyncio.wait((asking, cutting), return_when=asyncio.FIRST_COMPLETED)
        finally:
            cutting.cancel()
            if not asking.done():
                asking.cancel()
                await asyncio.gather(asking, return_exceptions=True)
        if asking.cancelled():
            said = "given up: the page's document waited on it past its share of the page's time"
            raise FerretError(ErrorCode.TIMEOUT, said)
        return asking.result()

    def error_for(self, exc: Exception) -> FerretError:
        """The page's own navigation failed: the guard's reason when it refused, a time-out when it
        took the page's time, else a connect failure."""
        from playwright.async_api import TimeoutError as NavigationTimeout

        if self.main_error is not None:
            return self.main_error
        if isinstance(exc, NavigationTimeout):
            setting = f"per-page timeout, setting {self._opts.timed_by}; browser tier"
            return FerretError(ErrorCode.TIMEOUT, f"not rendered within {self._opts.timeout:g} s ({setting})")
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        message = f"the browser could not load the page: {quoted(first, 200)}"  # its text may quote the page
        return FerretError(ErrorCode.CONNECT_FAILED, message)

    async def aclose(self) -> None:
        self._closed = True
        await self._session.close()


def in_utf8(body: bytes, headers: dict[str, str]) -> tuple[bytes, dict[str, str]]:
    """An HTML document (a page's or a frame's) as the browser is given it: as sent when the browser
    reads it in the charset the other tiers read it in (`read_body`: its BOM, its label unless the
    bytes belie it, `<meta charset>`, else detection), else re-encoded as UTF-8 and labelled so, as
    Chromium read a page with no label as windows-1252 (`CafÃ©`) and believed a wrong label (a header
    label wins over a `<meta charset>`, as a browser ranks them). Another kind of body is left as sent."""
    kind = headers.get("content-type")
    mime = mime_of(kind)
    if mime not in HTML_TYPES and (mime or sniff_kind(body, None) != "html"):
        return body, headers
    if mime and sniff_kind(body, kind) in ("pdf", "binary"):  # no text under its label: as sent
        return body, headers
    text, charset = read_body(body, kind)
    if charset == browser_charset(body, kind):  # its scripts keep the page's charset too
        return body, headers
    return text.encode("utf-8"), {**headers, "content-type": f"{mime or 'text/html'}; charset=utf-8"}


async def _give_cookies(request: Request, url: str, answer: dict[str, str]) -> None:
    """Give the browser the cookies of the `answer` from `url` (a hop of `request`) that it never
    sees (a redirect the guard follows or stops): the guard's curl keeps none, and Chromium holds the
    page's cookies. One the browser refuses is left out, as a browser leaves it."""
    from playwright.async_api import Error

    jar = HopCookies()
    jar.take(url, answer)
    if given := jar.for_browser(url):
        with contextlib.suppress(Error):
            await request.frame.page.context.add_cookies(given)  # type: ignore[arg-type]


def lost(exc: BaseException) -> bool:
    """Did the browser, its context or the page close under a render (Playwright's TargetClosedError,
    which its public API does not export by name)?"""
    return type(exc).__name__ == "TargetClosedError"


def _went(exc: FerretError, url: str, page: str) -> FerretError:
    """`exc` for the page's own document at `url`, its message naming `url` when the page went there
    from `page` (a script's navigation, a form post): the guard names a refused host, not the page."""
    shown = without_password(url) or url
    if url != page and shown not in exc.message:
        exc.message = f"{exc.message} (the page went on to {quoted(shown, 200)})"
    return exc
