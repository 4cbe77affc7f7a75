"""The `Fetcher`: vets every hop, follows redirects by hand, applies caps, picks the tier.

    fetcher = Fetcher(settings)
    raw = await fetcher.fetch(url, opts)   # RawResponse, or raises FerretError
    await fetcher.aclose()

One `fetch` call: rewrite the URL (`net.rewrite`), then per hop vet it (`UrlPolicy`), ask the
tier chosen by `tier_for` for one request, follow a redirect (at most `max_redirects`, a loop is
`too_many_redirects`; a cookie a hop sets goes with the next hops, `hop_cookies`), retry a 429
once when its Retry-After is short (<= `retry_after_max`).
The whole call, redirects and retry included, runs under the per-page `timeout`, so a server
dripping one byte at a time ends in `timeout`. A 4xx/5xx ends in `http_error` (429 in
`rate_limited`); a 304 is returned as it is (conditional requests, `opts.headers`).
Fetches of URLs on one host are capped at `per_host_concurrency` at a time (the per-page
timeout starts once a slot is free; the batch budget bounds the wait).

Tiers (`http`, `impersonate`, `browser`) share the `HttpTier` API (`webferret.fetch.http`); the
ladder (`webferret.fetch.ladder`) picks them per `opts.tier` and escalates on blocks and JS shells.
"""

from __future__ import annotations

import asyncio
import contextlib
import ssl
import time
from contextvars import ContextVar
from http import HTTPStatus
from typing import Any
from urllib.parse import urldefrag

from webferret.config import Settings, load_settings
from webferret.fetch.hop_cookies import HopCookies
from webferret.fetch.http import HttpTier, is_redirect_status
from webferret.fetch.ladder import climb
from webferret.fetch.refresh import refresh_target
from webferret.fetch.types import Admit, FetchOptions, RawResponse, struck_trail
from webferret.fetch.walls import Walls
from webferret.models import ErrorCode, FerretError, without_password
from webferret.net.dns import CachingResolver, system_resolver
from webferret.net.domains import host_of
from webferret.net.joined import join_url
from webferret.net.policy import Resolver, Target, UrlPolicy
from webferret.net.proxy import ProxyRoute
from webferret.net.rewrite import rewrite_url
from webferret.remote_text import quoted, url_without_blanks
from webferret.retry_after import retry_after_seconds


class Fetcher:
    """Fetches URLs safely; owns the HTTP client(s) until `aclose`."""

    def __init__(
        self,
        settings: Settings | None = None,
        resolver: Resolver | None = None,
        verify: bool | ssl.SSLContext = True,
    ) -> None:
        """`resolver` replaces the system resolver and `verify` the CA store (both for tests and
        special networks); neither is needed in normal use."""
        self.settings = settings
        chosen = settings or load_settings()
        self._resolver = (
            resolver if resolver is not None else CachingResolver(system_resolver, chosen.dns_cache_seconds)
        )
        self.route = ProxyRoute.configured(chosen.proxy, chosen.no_proxy)
        self.http = HttpTier(verify=verify, route=self.route)
        self._host_limits: dict[str, asyncio.Semaphore] = {}
        self._tiers: dict[str, Any] = {"http": self.http}
        self.walls = Walls()  # sites whose wall sent a page up the ladder lately: their pages start higher
        self._closed = False

    async def aclose(self) -> None:
        """Close every tier; a request after this (a call still under way: its next hop, a robots.txt)
        is refused (`invalid_argument`), never sent by a closed client or a tier made anew."""
        self._closed = True
        tiers, self._tiers = self._tiers, {"http": self.http}
        for tier in tiers.values():
            await tier.aclose()

    def policy(self, opts: FetchOptions) -> UrlPolicy:
        return UrlPolicy(opts.allow_private_hosts, opts.allow_hosts, resolver=self._resolver)

    def tier_for(self, name: str) -> Any:
        """The tier called `name` (http, impersonate, browser), made on first use; `fetch.ladder` picks."""
        if self._closed:
            raise FerretError(
                ErrorCode.INVALID_ARGUMENT, "the fetcher was closed (aclose) while this call was reading"
            )
        if name not in self._tiers:
            settings = self.settings or load_settings()
            if name == "impersonate":
                from webferret.fetch.impersonate import ImpersonateTier

                self._tiers[name] = ImpersonateTier(settings.impersonate, self.route)
            else:
                from webferret.fetch.browser import BrowserTier

                self._tiers[name] = BrowserTier(settings, self.route)
        return self._tiers[name]

    async def fetch(
        self,
        url: str,
        opts: FetchOptions,
        progress: list[dict[str, Any]] | None = None,
        *,
        capped: bool = True,
    ) -> RawResponse:
        """The response for `url` after redirects; raises `FerretError` when there is none.

        `progress` (when given) collects every hop begun, so a caller whose own deadline cancels the
        fetch can still say where it struck (`struck_trail`), as the per-page timeout does.
        `capped` False: outside the per-host cap (a robots.txt, read while pages of its host may hold
        every slot, one of them waiting for it: a redirect's next hop is admitted inside its fetch)."""
        progress = [] if progress is None else progress
        asked = FETCHING.set(url)
        try:
            return await self._fetch(url, opts, progress, capped)
        finally:
            FETCHING.reset(asked)

    async def _fetch(
        self, url: str, opts: FetchOptions, progress: list[dict[str, Any]], capped: bool
    ) -> RawResponse:
        """`fetch`, within its task's `FETCHING`."""
        if opts.tier == "browser":  # a cold start of the browser asked for is not the page's time
            try:
                await self.tier_for("browser").ready()
            except FerretError as exc:  # (`browser_unavailable`) the hop it struck, as the ladder's
                exc.trail = [{"url": without_password(url), "via": "browser", "error": exc.code.value}]
                raise
        async with self._host_slot(url, opts) if capped else contextlib.nullcontext():
            if capped and opts.rate_limits is not None:  # (a robots.txt is the site's answer to read)
                await opts.rate_limits.wait(url, opts.retry_after_max)
            started = time.monotonic()
            try:
                async with asyncio.timeout(opts.timeout) as scope:
                    policy = self.policy(opts)
                    start = self.walls.start(url) if opts.tier == "auto" else None
                    raw = await climb(
                        opts.tier,
                        lambda tier: self._follow(url, opts, policy, tier, progress, scope.when()),
                        start,
                    )
            except TimeoutError:
                message = (
                    f"not read in full within {opts.timeout:g} s (per-page timeout, setting {opts.timed_by})"
                )
                if opts.wait_for:
                    message += f"; no element matching the wait-for selector {opts.wait_for!r} had appeared"
                error = FerretError(ErrorCode.TIMEOUT, message)
                error.trail = struck_trail(progress)
                raise error from None
            except FerretError as exc:  # any hop's error (a tier's own time-out too) shows where it struck
                if not exc.trail:
                    exc.trail = struck_trail(progress, exc.code.value)
                raise
        raw.elapsed_ms = (time.monotonic() - started) * 1000
        if opts.tier == "auto":
            self.walls.learn(url, raw.trail)
        try:
            _check_status(raw)
        except FerretError as exc:
            exc.trail = raw.trail
            if opts.rate_limits is not None:
                opts.rate_limits.learn(raw.final_url, exc)
            raise
        return raw

    async def _follow(
        self,
        url: str,
        opts: FetchOptions,
        policy: UrlPolicy,
        tier: str = "http",
        progress: list[dict[str, Any]] | None = None,
        deadline: float | None = None,
    ) -> RawResponse:
        """The page's hops by `tier`; `deadline` (the event loop's clock): when the page's time is up."""
        current, seen, trail, retried = rewrite_url(url), [], [], False
        cookies = HopCookies()  # set by the page's redirects, sent with its next hops
        while True:
            target = await policy.vet(current)
            shown = without_password(target.url)
            begun = {"url": shown, "via": tier}
            if progress is not None:
                progress.append(begun)
            hop = opts.for_request(target.url, url)
            sent = cookies.sent(target.url, hop.headers)
            hop = hop if sent == hop.headers else hop.with_(headers=sent)
            try:
                raw = await self._hop(target, hop, policy, tier)
            except FerretError as exc:  # this tier's hops, the one it struck marked (a tier before
                if not exc.trail:  # it is put ahead by the ladder)
                    exc.trail = [*trail, {**begun, "error": exc.code.value}]
                raise
            begun["status"] = raw.status
            hops = raw.trail or [{"url": shown, "status": raw.status}]  # a browser lists its own
            trail.extend({**hop, "via": raw.fetched_via} for hop in hops)
            if raw.status == 429 and not retried:
                wait = retry_after(raw)
                # not a wait the page's time cannot hold: the 429 and its wait are the answer
                left = None if deadline is None else deadline - asyncio.get_running_loop().time()
                if wait is not None and wait <= opts.retry_after_max and (left is None or wait < left):
                    retried = True
                    await asyncio.sleep(wait)
                    continue
            location = raw.headers.get("location") if is_redirect_status(raw.status) else None
            if location is None and (moved := refresh_target(raw, target.url)) is not None:
                trail[-1]["meta_refresh"] = begun["meta_refresh"] = True  # a hop, as a browser takes it
                location = moved
            if not location:
                _check_no_location(raw.status, target.url, trail)
                break
            seen.append((target.url, cookies.header(target.url)))
            cookies.take(target.url, raw.headers)
            current = _redirect_target(target.url, location, trail)
            _check_redirect(url, (current, cookies.header(current)), seen, opts.max_redirects)
            await admitted(current, target.url, opts.admit)
        raw.url, raw.trail = url, trail
        raw.final_url = urldefrag(raw.final_url)[0]  # a fragment is the reader's place, not the page's
        return raw

    async def _hop(self, target: Target, opts: FetchOptions, policy: UrlPolicy, tier: str) -> RawResponse:
        return await self.tier_for(tier).fetch(target, opts, policy)

    def _host_slot(self, url: str, opts: FetchOptions) -> asyncio.Semaphore:
        """The per-host cap, keyed by the asked URL's host; waiting for it is not page time."""
        host = host_of(url)
        limit = self._host_limits.get(host)
        if limit is None:
            limit = self._host_limits[host] = asyncio.Semaphore(opts.per_host_concurrency)
        return limit


FETCHING: ContextVar[str | None] = ContextVar("webferret_fetching", default=None)
"""The URL asked for whose fetch runs in this task (set by `Fetcher.fetch`): an `admit` hook asked
about a hop can tell which page's fetch was led there (two links led to one page, or one fetch's
tiers each following its redirects; the browser's guard sets it for the hops it admits). None
outside a fetch."""


def fetching() -> str | None:
    """The URL asked for whose fetch runs in this task, if any (`FETCHING`)."""
    return FETCHING.get()


async def admitted(url: str, led_from: str, admit: Admit | None) -> None:
    """Raise the refusal of `admit` (`FetchOptions.admit`) for `url`, a page the fetch of `led_from`
    was led to, before it is requested."""
    if admit is not None and (refused := await admit(url)) is not None:
        raise FerretError(refused.code, f"{refused.message} (led there from {led_from})")


def _check_no_location(status: int, url: str, trail: list[dict[str, Any]]) -> None:
    """A redirect status without a `Location` leads nowhere: an HTTP error, not an empty page."""
    if is_redirect_status(status):
        error = FerretError(
            ErrorCode.HTTP_ERROR, f"HTTP {status} from {url} is a redirect without a Location"
        )
        error.status, error.trail = status, trail
        raise error


def _redirect_target(url: str, location: str, trail: list[dict[str, Any]]) -> str:
    """The absolute URL a `Location` points to; a malformed one is `invalid_url`, naming it."""
    try:
        return url_without_blanks(join_url(url, location.strip()))
    except ValueError as exc:
        error = FerretError(
            ErrorCode.INVALID_URL, f"{url} redirects to {quoted(location)}, not a valid URL ({exc})"
        )
        error.trail = trail
        raise error from None


def _check_redirect(
    url: str, nxt: tuple[str, str | None], seen: list[tuple[str, str | None]], max_redirects: int
) -> None:
    """A hop to a URL already asked with the same cookies is a loop (a cookie check's redirect back
    to its page, the cookie now set, is not); more than `max_redirects` hops are too many."""
    if (nxt[0].split("#")[0], nxt[1]) in ((hop.split("#")[0], jar) for hop, jar in seen):
        chain = " -> ".join([*(hop for hop, _ in seen), nxt[0]])
        raise FerretError(ErrorCode.TOO_MANY_REDIRECTS, f"redirect loop: {chain}")
    if len(seen) > max_redirects:
        raise FerretError(
            ErrorCode.TOO_MANY_REDIRECTS,
            f"more than {max_redirects} redirects (setting max_redirects); the last went to {nxt[0]}",
        )


def _check_status(raw: RawResponse) -> None:
    """Raise for an HTTP status that is an error; an error page is never content. The server's
    Retry-After (a 429's, a 503's for its maintenance) is said and kept in `retry_after`."""
    if raw.status < 400:
        return
    where = f" from {raw.final_url}" if raw.final_url != raw.url else ""
    wait = retry_after(raw)
    after = f"; retry after {_wait_text(wait)}" if wait is not None else ""
    code = ErrorCode.RATE_LIMITED if raw.status == 429 else ErrorCode.HTTP_ERROR
    message = f"HTTP {raw.status}{_reason(raw.status)}{where}{after}"
    raise FerretError(code, message, status=raw.status, retry_after=wait)


def _wait_text(seconds: float) -> str:
    """A wait as a reader takes it in: `30 s`, `2 h`, `12 days` (a Retry-After date may be years away)."""
    for unit, size in (("days", 86400.0), ("h", 3600.0), ("min", 60.0)):
        if seconds >= 2 * size:
            return f"{seconds / size:.0f} {unit}"
    return f"{seconds:.0f} s" if seconds >= 10 else f"{round(seconds, 1):g} s"


def _reason(status: int) -> str:
    try:
        return f" {HTTPStatus(status).phrase}"
    except ValueError:
        return ""


def retry_after(raw: RawResponse) -> float | None:
    """Seconds from a Retry-After header (`retry_after_seconds`), None when absent or bad."""
    return retry_after_seconds(raw.headers.get("retry-after"))
