"""Tier 2, `browser`: headless Chromium driven by Playwright, for pages that need JavaScript.

One browser per `BrowserTier` (started on first use, or reached over CDP with `browser_ws`), a fresh
context per call (cookies and storage isolated), images/fonts/media refused, a bounded wait for the
network to settle and a V8 heap cap. Every request a page makes goes through the SSRF guard: the
route handler vets the URL and fetches it itself, pinned to the vetted address, one hop at a time.
The browser would follow a redirect without showing its next hop to the handler, so a sub-resource's
redirects are followed (and vetted) by the handler and a main-frame redirect is loaded by `_navigate`
as a new navigation. A launched chromium cannot reach the network by itself at all (`FENCE_FLAGS`).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from webferret.fetch.blocks import BodyView, body_verdict, js_shell, letters, visible_text
from webferret.fetch.body import answers_without_body
from webferret.fetch.browser_guard import Guard, lost
from webferret.fetch.composed import page_html
from webferret.fetch.sniff import mime_of
from webferret.fetch.types import FetchOptions, RawResponse
from webferret.models import ErrorCode, FerretError, without_password
from webferret.net.policy import Target, UrlPolicy
from webferret.net.proxy import ProxyRoute
from webferret.remote_text import quoted

if TYPE_CHECKING:
    from playwright.async_api import Browser, Playwright, Response, WebSocketRoute

    from webferret.config import Settings

QUIET_FLAGS = (
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    "--disable-gpu",
    "--disable-default-apps",
    "--disable-domain-reliability",
    "--metrics-recording-only",
)
# Defence in depth for a browser we launch: chromium itself can reach nothing. Its only way out is a
# proxy on a dead loopback port (loopback included, `<-loopback>`) and it resolves no name, so any
# request the route handler does not answer (a hop it never saw) fails closed.
FENCE_FLAGS = (
    "--proxy-server=http://127.0.0.1:9",
    "--proxy-bypass-list=<-loopback>",
    "--host-resolver-rules=MAP * ~NOTFOUND",
    # WebRTC sends UDP (STUN) to any address a page names, past the proxy and the route handler
    "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
    "--webrtc-ip-handling-policy=disable_non_proxied_udp",
)
CLOSED_APIS = """const closed = [
  "RTCPeerConnection", "webkitRTCPeerConnection", "RTCDataChannel", "SharedWorker",
];
for (const name of closed) {
  try { Object.defineProperty(window, name, {value: undefined, configurable: false}); } catch (e) {}
}
window.alert = () => undefined; window.confirm = () => false; window.prompt = () => null;
"""
"""Run before a page's scripts in every frame: pages are read, not talked to, and a browser reached
over CDP (`browser_ws`) has no launch flags of ours. WebRTC's packets and a SharedWorker's requests
never pass the route handler (Playwright routes a page's and its dedicated workers' requests only;
service workers are refused by the context). A dialog is answered at once, as Playwright would
dismiss it, but without a round trip to this process each (a loop of alerts held the page)."""
DESKTOP_AGENT = (
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/{major}.0.0.0 Safari/537.36"
)
"""The browser's User-Agent: Chrome of its own major version, not `HeadlessChrome` (the first thing a
wall looks for)."""
MOBILE_DEVICE = "Pixel 7"
SETTLE_MAX = 10.0
CHALLENGE_SHARE = 0.6  # an interstitial that solves itself may use this share of the page timeout
LOADING_SHARE = 0.6  # of the time left, what the document's parsing may take, then what settling may
READING_MARGIN = 0.5  # seconds kept from the page timeout to read the page as it stands
FILES_MARGIN = 1.0  # and before that, seconds (a tenth of a short timeout) by which its files have answered
DRAW_WAIT = 5.0
"""Most seconds a page the server sent as a JavaScript app's shell is given, once loaded, to draw its
content: on a timer, or from a data request begun after the network went quiet."""
DRAW_POLL = 0.25
NO_CONTENT = (204, 205)  # statuses Chromium answers by staying where it was: it shows no page


class BrowserTier:
    """Render pages in Chromium. `aclose()` ends the browser and its driver (no zombie processes)."""

    name = "browser"

    def __init__(self, settings: Settings, route: ProxyRoute | None = None) -> None:
        self._settings = settings
        self._route = route if route is not None else ProxyRoute.configured(settings.proxy, settings.no_proxy)
        self._pw: Playwright | None = None
        self._browser: Browser | None = None
        self._lock = asyncio.Lock()
        self._launching: asyncio.Future[None] | None = None  # the launch under way (`ready`)

    def launch_args(self) -> list[str]:
        heap = f"--js-flags=--max-old-space-size={self._settings.browser_heap_mb}"
        return [*QUIET_FLAGS, *FENCE_FLAGS, heap]

    async def ready(self) -> tuple[Playwright, Browser]:
        """The running browser, launched first if there is none (or it went away).

        The launch runs on by itself when its caller is cancelled (a `wait_for` shorter than
        Chromium's start): the next call takes the browser it brings, and `aclose` ends it; cut
        short, it would leave the driver it had started running, which nothing ends."""
        async with self._lock:
            if self._browser is not None and not self._browser.is_connected():
                await self._gone()  # it crashed or was killed: a resident session starts another
            if self._pw is None or self._browser is None:
                launching = self._launching
                if launching is None or launching.done():  # done here: it failed, with nobody waiting
                    launching = self._launching = asyncio.ensure_future(self._launch())
                    launching.add_done_callback(_seen)
                try:
                    await asyncio.shield(launching)  # cancelled: the launch goes on, for the next call
                finally:
                    if launching.done() and self._launching is launching:
                        self._launching = None
            assert self._pw is not None and self._browser is not None
            return self._pw, self._browser

    async def _launch(self) -> None:
        """Start the driver and Chromium (`browser_unavailable` when Chromium cannot start)."""
        from playwright.async_api import Error, async_playwright

        pw = await async_playwright().start()
        try:
            browser = await self._start(pw)
        except Error as exc:
            with contextlib.suppress(Error, OSError):
                await pw.stop()
            message = _launch_message(self._settings, exc)
            raise FerretError(ErrorCode.BROWSER_UNAVAILABLE, message) from None
        self._pw, self._browser = pw, browser

    async def _start(self, pw: Playwright) -> Browser:
        if self._settings.browser_ws:
            return await pw.chromium.connect_over_cdp(self._settings.browser_ws)
        return await pw.chromium.launch(
            executable_path=self._settings.chromium_path,
            headless=True,
            args=self.launch_args(),
            chromium_sandbox=not self._settings.browser_no_sandbox,
            # Playwright turns off Chromium's limit on a page's history and navigation calls: a loop
            # of `pushState` then reached the driver as events without end, past the page's timeout
            ignore_default_args=["--disable-ipc-flooding-protection"],
        )

    async def _forget_unreachable(self) -> None:
        """Let go of a browser no call reaches any more: one whose Playwright driver died (killed,
        out of memory) still says it is connected, as only the driver could tell it otherwise, and
        every page of a resident session (`mcp`, `api`, `serve`) failed on it. A page of its own,
        opened and closed, is the call that tells."""
        browser = self._browser
        if browser is None or not browser.is_connected():
            return  # gone, and said so: `ready` launches another
        try:
            context = await browser.new_context()
        except Exception as exc:
            if not lost(exc):
                raise
            async with self._lock:
                if self._browser is browser:
                    await self._gone()
            return
        await _close(context)

    async def _gone(self) -> None:
        """Let go of a browser that is no longer there (and of its driver, which may have gone too)."""
        from playwright.async_api import Error

        with contextlib.suppress(Error, OSError):  # `aclose` lets go of both before it closes them
            await self.aclose()

    async def aclose(self) -> None:
        launching, self._launching = self._launching, None
        if launching is not None:  # a launch nobody waits for any more: ended with the rest
            with contextlib.suppress(Exception):
                await asyncio.shield(launching)
        browser, pw = self._browser, self._pw
        self._browser = self._pw = None
        if browser is not None:
            await browser.close()
        if pw is not None:
            await pw.stop()

    async def fetch(self, target: Target, opts: FetchOptions, policy: UrlPolicy) -> RawResponse:
        """Render `target` (vetted by the caller); redirects are followed inside, each hop vetted."""
        url = target.url
        started = time.monotonic()  # the fetch's clock (`Fetcher.fetch`) counts a launch it did not
        await self.ready()  # make first (an escalation's): so do this tier's deadlines, or its would strike
        try:
            async with asyncio.timeout(max(0.1, opts.timeout - (time.monotonic() - started))):
                try:
                    return await self._render(url, opts, policy, started)
                except Exception as exc:
                    if not lost(exc):
                        raise
                    # Chromium, or the page's renderer, went away under the page (a crash, a kill):
                    # once more, in a new browser when the old one is gone, within the same timeout
                    await self._forget_unreachable()
                    return await self._render(url, opts, policy, started)
        except TimeoutError:
            setting = f"per-page timeout, setting {opts.timed_by}; browser tier"
            msg = f"not rendered within {opts.timeout:g} s ({setting})"
            raise FerretError(ErrorCode.TIMEOUT, msg) from None
        except Exception as exc:
            if not _crashed(exc):
                raise
            message = (
                "the browser's renderer crashed on the page (most often its scripts building more than "
                f"the browser's memory cap of {self._settings.browser_heap_mb} MiB, setting browser_heap_mb)"
            )
            raise FerretError(ErrorCode.TOO_LARGE, message) from None

    async def _render(self, url: str, opts: FetchOptions, policy: UrlPolicy, started: float) -> RawResponse:
        pw, browser = await self.ready()
        major = browser.version.split(".")[0]
        device = dict(pw.devices[MOBILE_DEVICE]) if opts.mobile else {}
        device.pop("default_browser_type", None)
        agent = device.get("user_agent") or DESKTOP_AGENT.format(major=major)
        device["user_agent"] = re.sub(r"(?:Headless)?Chrome/[\d.]+", f"Chrome/{major}.0.0.0", agent)
        context = await browser.new_context(service_workers="block", **device)
        await context.add_init_script(CLOSED_APIS)
        files_by = started + opts.timeout - READING_MARGIN - min(FILES_MARGIN, opts.timeout / 10)
        guard = Guard(policy, opts, self._settings.impersonate, url, self._route, files_by)
        try:
            await context.route("**/*", guard.handle)
            await context.route_web_socket("**/*", _refuse_socket)
            page = await context.new_page()
            last: list[Response] = []
            page.on("response", lambda r: last.append(r) if r.request.is_navigation_request() else None)
            downloads: set[str] = set()  # navigations the browser made downloads: the tab stays put
            page.on("download", lambda d: downloads.add(d.url))
            if await _navigate(page, url, opts, guard, started + opts.timeout - READING_MARGIN):
                sent = _as_sent(url, guard, started)  # an attachment: the document is what was sent
                if opts.screenshot:
                    declared = mime_of(sent.content_type)
                    kind = quoted(declared, 60) if declared else "a file"  # the server's words: quoted
                    sent.screenshot_missing = (
                        f"the browser took it for a download ({kind}), which it does not draw"
                    )
                return sent
            _check_web(page.url)
            reading_by = started + opts.timeout - READING_MARGIN

            async def follow() -> None:  # a redirect the guard stopped once the page had loaded
                await _follow_stopped(page, opts, guard, reading_by)

            html, walled = await _past_challenge(page, started + opts.timeout * CHALLENGE_SHARE, follow)
            if opts.wait_for:  # once past a challenge, whose form post's redirect `follow` loads
                await _wait_for(page, opts.wait_for, started + opts.timeout, opts.timeout)
                html = await page_html(page)
            elif not walled:  # with it, the caller said what the page is waited for
                baseline = _shell_letters(guard.main_body, opts.draws_later)
                until = min(started + opts.timeout - READING_MARGIN, time.monotonic() + DRAW_WAIT)
                html = await _drawn(page, html, until, baseline)
            landed = page.url  # where the steps start
            answered = [r.status for r in last if r.frame == page.main_frame]
            if opts.actions and not walled and (not answered or answered[-1] < 400):  # not on an error page
                from webferret.fetch.actions import perform

                await perform(page, opts.actions, started + opts.timeout - READING_MARGIN)
                await follow()  # a form a step posted, answered with a redirect
                if guard.main_error is not None:  # a step led where the guard or `admit` refused to go
                    raise guard.main_error
                _check_web(page.url, " after the steps")  # a click to a refused address shows an error page
                html = await _content(page)
            if len(html) > opts.max_bytes:  # a few bytes of script can build a page of any size
                statuses = [r.status for r in last if r.frame == page.main_frame]
                if not statuses or not answers_without_body(statuses[-1]):
                    message = f"the rendered page is more than {opts.max_bytes:,} bytes (setting max_bytes)"
                    raise FerretError(ErrorCode.TOO_LARGE, message)
                html = html[: opts.max_bytes]  # an error page: its start tells a wall, as in the other tiers
            undrawn = await _screenshot(page, opts.screenshot) if opts.screenshot else None
            main = [r for r in last if r.frame == page.main_frame and r.url not in downloads]
            status = main[-1].status if main else 200
            headers = await main[-1].all_headers() if main else {}
            shown = main[-1] if main else None
            answered = (
                guard.main_answer is not None and shown is not None and guard.main_answer[0] == shown.url
            )
            body, headers = await _document(shown, html, headers, guard.main_body, drawn=answered)
            # steps that lead to another page read it as the page they were done on (its variant,
            # `store.variants`): where they led is the trail's `after_actions`, no redirect
            final_url = landed if opts.actions else page.url
            led = page.url if opts.actions and page.url != landed else None
        finally:
            try:
                await _close(context)
            finally:
                await guard.aclose()
        elapsed = (time.monotonic() - started) * 1000
        raw = RawResponse(url, final_url, status, headers, body, "browser", elapsed)
        raw.screenshot, raw.screenshot_missing = (None, undrawn) if undrawn else (opts.screenshot, None)
        raw.trail = [{"url": without_password(response.url), "status": response.status} for response in main]
        if led and raw.trail:
            raw.trail[-1]["after_actions"] = without_password(led)
        return raw


async def _close(context: Any) -> None:
    """Close a page's context. One its browser took with it (closed under the page: on Ctrl-C the
    Playwright driver, in the terminal's process group, closes Chromium as the call is cancelled)
    is closed already: its "has been closed" must not stand in for the error or the cancellation
    the render ends with, which the tier would take for a browser lost and read the page again."""
    from playwright.async_api import Error

    try:
        await context.close()
    except Error as exc:
        if not lost(exc):
            raise


def _seen(launch: asyncio.Future[None]) -> None:
    """Mark a launch's failure seen (asyncio would log it as never retrieved): one whose caller was
    gone is told to nobody, and the next call launches again."""
    if not launch.cancelled():
        launch.exception()


def _as_sent(url: str, guard: Guard, started: float) -> RawResponse:
    """A document Chromium would not show (an attachment it took for a download, an error status
    with an empty body, a 204: `_not_shown`): read from the answer the guard gave the browser, as the
    other tiers read it."""
    answered, status, headers = guard.main_answer or (url, 200, {})
    elapsed = (time.monotonic() - started) * 1000
    body = guard.main_body or b""
    raw = RawResponse(url, answered, status, headers, body, "browser", elapsed)
    raw.trail = [{"url": without_password(answered), "status": status}]
    return raw


async def _screenshot(page: Any, path: str) -> str | None:
    """Write the picture of the whole page to `path`; None once written, else why the browser could
    not draw it (a page too large for one picture: the page is read all the same)."""
    from playwright.async_api import Error

    try:
        drawn = await page.screenshot(path=path, full_page=True)
    except OSError as exc:  # checked before the fetch (`check_screenshot`); still, say it
        why = f"cannot write the screenshot to {path!r}: {exc.strerror or exc}"
        raise FerretError(ErrorCode.INVALID_ARGUMENT, why) from None
    except Error as exc:
        if lost(exc) or _crashed(exc):
            raise
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return f"the browser could not draw the page: {quoted(first.split('): ')[-1], 200)}"
    if not drawn:  # Chromium's JPEG encoder gives no bytes for a page past its largest side
        with contextlib.suppress(OSError):
            os.unlink(path)  # Playwright wrote the empty picture
        return "the browser made an empty picture (a JPEG is at most 65,535 pixels high: ask for a .png)"
    return None


def _check_web(url: str, when: str = "") -> None:
    """Refuse a page the browser ended on that is no web page (a local file, its error page)."""
    if urlsplit(url).scheme.lower() not in ("http", "https"):
        message = f"the browser ended on {quoted(url, 100)}{when}, not a web page"
        raise FerretError(ErrorCode.UNSUPPORTED_SCHEME, message)


async def _document(
    response: Any, rendered: str, headers: dict[str, str], sent: bytes | None = None, *, drawn: bool = False
) -> tuple[bytes, dict[str, str]]:
    """The body and headers a page is read from: the rendered DOM of an HTML document; the bytes the
    server sent for any other kind (text, JSON, XML, PDF), which Chromium would show wrapped in a
    viewer: `sent`, as the guard answered the browser with them (a PDF viewer's response body is
    cut short), else the response's. A body labelled HTML that is not (a PDF, an image: `sniff_kind`)
    is read from `sent` too, as the other tiers read it (Chromium draws its bytes as text), when
    `drawn` says `sent` is the document shown (not a download a script started since)."""
    from webferret.fetch.sniff import sniff_kind

    kind = headers.get("content-type", "")
    if drawn and sent is not None and sniff_kind(sent, kind) in ("pdf", "binary"):
        return sent, headers
    if response is not None and mime_of(kind) and "html" not in mime_of(kind):
        if sent is not None:
            return sent, headers
        from playwright.async_api import Error

        with contextlib.suppress(Error):
            return await response.body(), headers
    return rendered.encode("utf-8"), {**headers, "content-type": "text/html; charset=utf-8"}


async def _navigate(
    page: Any, url: str, opts: FetchOptions, guard: Guard, deadline: float, *, vetted: bool = True
) -> bool:
    """Load `url` and let it settle, by `deadline` (`time.monotonic()`); True when the browser shows
    no page for the document (an attachment it took for a download, an error status with an empty
    body, a 204: `_not_shown`; `_as_sent` reads it). A
    main-frame redirect (from the server or after a script's navigation) is not left to the browser,
    which would not show its next hop to the route handler: the guard stops it and the next hop is
    loaded here, as a new, vetted navigation. A document whose parsing a script holds up (a
    `<script src>` that never answers) is read as it stands once its share of the time is up, not
    lost to the timeout. `vetted`: the caller vetted `url` (else it is vetted here)."""
    from playwright.async_api import Error

    for hop in range(opts.max_redirects + 1):
        if hop or not vetted:  # the first URL was vetted by the caller; each next one is vetted here,
            await guard.vet(url)  # whatever its scheme: a server's redirect to `file:` opens a local file
        guard.redirect_to = None
        guard.stopped.clear()
        try:
            await page.goto(url, wait_until="commit", timeout=_left(deadline) * 1000)
        except Error as exc:
            if guard.redirect_to is None and guard.main_answer is not None and _not_shown(exc, guard):
                return True
            if guard.redirect_to is None:
                raise guard.error_for(exc) from None
        if guard.redirect_to is None and not await _loaded(page, guard, _left(deadline) * LOADING_SHARE):
            guard.cut_files()  # a file that never answers holds the parsing: read on without it
            await _loaded(page, guard, min(FILES_MARGIN, _left(deadline) * LOADING_SHARE))
        if guard.redirect_to is None:
            await _settle(page, min(SETTLE_MAX, opts.timeout / 2, _left(deadline) * LOADING_SHARE))
        if guard.main_error is not None:  # a script took the page where the guard refused to go
            raise guard.main_error
        if guard.redirect_to is None:
            return False
        url = guard.redirect_to
    msg = f"more than {opts.max_redirects} redirects in the browser (setting max_redirects); last to {url}"
    raise FerretError(ErrorCode.TOO_MANY_REDIRECTS, msg)


async def _loaded(page: Any, guard: Guard, seconds: float) -> bool:
    """Wait until the document's DOM has loaded, `seconds` at most, or until the guard stops a
    redirect of the page (a script's navigation to a URL that redirects): the page it left would
    not load until the wait ran out. False when the time ran out first."""
    from playwright.async_api import Error

    loading = asyncio.ensure_future(page.wait_for_load_state("domcontentloaded", timeout=seconds * 1000))
    stopped = asyncio.ensure_future(guard.stopped.wait())
    try:
        done, _ = await asyncio.wait((loading, stopped), return_when=asyncio.FIRST_COMPLETED)
    finally:
        for waiting in (loading, stopped):
            waiting.cancel()
        with contextlib.suppress(Error):
            await asyncio.gather(loading, stopped, return_exceptions=True)
    return stopped in done or (loading in done and loading.exception() is None)


async def _follow_stopped(page: Any, opts: FetchOptions, guard: Guard, deadline: float) -> None:
    """Load the redirect the guard stopped after the page had loaded (a challenge's form post, a
    step's), as `_navigate` loads a server's redirect: a new navigation, vetted."""
    if guard.redirect_to is not None and guard.main_error is None:
        await _navigate(page, guard.redirect_to, opts, guard, deadline, vetted=False)


async def _refuse_socket(ws: WebSocketRoute) -> None:
    """Pages are read, not talked to: WebSockets never leave the browser."""
    await ws.close(code=1008, reason="webferret does not open WebSockets")


def _left(deadline: float) -> float:
    """Seconds until `deadline`, at least a tenth (a wait of 0 means no limit to Playwright)."""
    return max(0.1, deadline - time.monotonic())


async def _settle(page: Any, seconds: float) -> None:
    """Wait until the network has been quiet a moment, or `seconds` at most; a busy page is read as it is."""
    from playwright.async_api import Error

    with contextlib.suppress(Error):
        await page.wait_for_load_state("networkidle", timeout=seconds * 1000)


async def _wait_for(page: Any, css: str, deadline: float, timeout: float) -> None:
    """Wait until an element matching `css` is in the page (`--wait-for`), until `deadline` at most
    (the page's `timeout` is the one a message names: the page's loading took the rest)."""
    from playwright.async_api import Error

    seconds = _left(deadline - 0.25)  # before the tier's own timeout fires
    try:
        await page.wait_for_selector(f"css={css}", state="attached", timeout=seconds * 1000)
    except Error as exc:
        if "Timeout" in type(exc).__name__ or "timeout" in str(exc).lower():
            message = (  # said alike to the CLI (--wait-for), the library and MCP (wait_for)
                f"no element matching the wait-for selector {css!r} appeared within the page's "
                f"timeout of {timeout:g} s ({seconds:.1f} s of it after the page loaded) at {page.url}"
            )
            raise FerretError(ErrorCode.TIMEOUT, message) from None
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise FerretError(ErrorCode.INVALID_ARGUMENT, f"bad wait-for selector {css!r}: {first}") from None


async def _past_challenge(
    page: Any, deadline: float, follow: Callable[[], Awaitable[None]]
) -> tuple[str, bool]:
    """The page's HTML once an interstitial that solves itself (a script, a cookie, a reload, a form
    post whose redirect `follow` loads) is past, or as it stands at `deadline`, and whether it is
    still walled then: the ladder judges what is left."""
    from playwright.async_api import Error

    while True:
        await follow()
        try:
            html: str = await page_html(page)
        except Error:  # the page is navigating (the challenge reloads it): read it once it has loaded
            html = ""
        blocked = not html or body_verdict(200, html, visible_text(html.encode("utf-8"))).blocked
        if not blocked or time.monotonic() >= deadline:
            return (html or await _content(page)), blocked
        await asyncio.sleep(0.25)
        await _settle(page, max(0.1, min(2.0, deadline - time.monotonic())))


async def _content(page: Any) -> str:
    """The page's HTML, once it holds still: a page its scripts keep navigating (a reload every few
    milliseconds) cannot be read while it moves, and the tier's timeout ends one that never stops."""
    from playwright.async_api import Error

    while True:
        try:
            html: str = await page_html(page)
            return html
        except Error as exc:
            if "is navigating" not in str(exc):
                raise
        await asyncio.sleep(0.1)


async def _drawn(page: Any, html: str, deadline: float, baseline: int | None) -> str:
    """`html`, or the page's HTML once its scripts have drawn it. A shell not yet drawn once loaded
    (`_shown`) is read again every `DRAW_POLL` seconds, its network let settle in between, until it
    is drawn and its text has stopped growing, or until `deadline`: a page that never draws is then
    judged as it stands. A drawn page, or one the server did not send as a shell, is not waited for."""
    from playwright.async_api import Error

    if baseline is None or _shown(html, baseline) is not None:
        return html
    seen: int | None = None
    while time.monotonic() < deadline:
        await asyncio.sleep(DRAW_POLL)
        await _settle(page, max(0.1, min(1.0, deadline - time.monotonic())))
        try:
            html = await page_html(page)
        except Error:  # navigating: read it on the next round
            continue
        shown = _shown(html, baseline)
        if shown is not None and shown == seen:
            return html
        seen = shown
    return html


def _shown(html: str, baseline: int) -> int | None:
    """The letters a page the server sent as a JavaScript app's shell of `baseline` letters shows once
    its app has drawn; None while it shows no more than the shell, or its app's root is still empty
    (`blocks.js_shell`)."""
    view = BodyView(html.encode("utf-8"), "text/html")  # parsed once for both questions
    if not view.more_letters(baseline) or js_shell(view.body, view=view).js_shell:
        return None
    return letters(view.visible)


def _shell_letters(sent: bytes | None, shell: bool) -> int | None:
    """How many letters the document the server sent shows, when it is a JavaScript app's shell (by
    the fetch verdict, or `shell`: as extraction found it); else None."""
    if sent is None:
        return None
    view = BodyView(sent, "text/html")
    if not shell and not js_shell(sent, view=view).js_shell:
        return None
    return letters(view.visible)


def _not_shown(exc: BaseException, guard: Guard) -> bool:
    """Did the browser show no page for the document the guard answered it with: one it took for a
    download (Playwright's "Download is starting"), an error status with an empty body (a 404 of no
    words, or one whose body passed `max_bytes`), for which Chromium shows its own error page
    (`ERR_HTTP_RESPONSE_CODE_FAILURE`), or a 204 or 205 (No Content: Chromium stays where it was,
    `ERR_ABORTED`)? Each is read as it was sent (`_as_sent`), so the page is what the other tiers
    make of that answer (`http_error`, `empty_content`), not a failure to connect."""
    message = str(exc)
    status = guard.main_answer[1] if guard.main_answer is not None else None
    return (
        "Download is starting" in message
        or "net::ERR_HTTP_RESPONSE_CODE_FAILURE" in message
        or (status in NO_CONTENT and "net::ERR_ABORTED" in message)
    )


def _crashed(exc: BaseException) -> bool:
    """Did the page's renderer crash under it (Playwright's "Target crashed"), as a page whose
    scripts outgrow the heap cap makes it?"""
    return "Target crashed" in str(exc) and type(exc).__module__.startswith("playwright")


def _launch_message(settings: Settings, exc: Exception) -> str:
    first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    if settings.browser_ws:
        return f"cannot reach the browser at {settings.browser_ws} (WEBFERRET_BROWSER_WS): {first}"
    hint = ""
    if "sandbox" in str(exc).lower() and not settings.browser_no_sandbox:
        hint = " (running as root or in a container? set WEBFERRET_BROWSER_NO_SANDBOX=1)"
    return f"cannot start chromium at {settings.chromium_path} (WEBFERRET_CHROMIUM_PATH): {first}{hint}"
