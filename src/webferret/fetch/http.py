"""Tier 0: plain HTTP with httpx, one hop at a time, to a vetted address only.

Tier API (what the `Fetcher` calls, and what other tiers implement the same way):

    class SomeTier:
        name: str                       # "http", "impersonate", "browser"; goes to `fetched_via`
        async def fetch(self, target: Target, opts: FetchOptions, policy: UrlPolicy) -> RawResponse
        async def aclose(self) -> None

`fetch` makes ONE request to `target` (a URL that `UrlPolicy.vet` passed, with its pinned address),
does not follow redirects (the Fetcher does, re-vetting each hop), returns a `RawResponse` for
every HTTP status (a redirect's body is not read), and raises `FerretError` for failures below
HTTP: `connect_failed`, `timeout`, `too_large`, `http_error` for a broken HTTP answer (such as a
body shorter than its Content-Length), `blocked_address` when the peer is not the vetted address
and the policy refuses it. `opts.headers` (e.g. If-None-Match) are sent as given.
"""

from __future__ import annotations

import contextlib
import ssl
import time
from http.cookiejar import CookieJar, CookiePolicy

import httpx

from webferret.fetch.body import ACCEPT_ENCODING, REDIRECTS, answers_without_body, read_capped
from webferret.fetch.types import FetchOptions, RawResponse
from webferret.models import ErrorCode, FerretError
from webferret.net.policy import Target, UrlPolicy
from webferret.net.proxy import DIRECT, ProxyRoute
from webferret.net.transport import PinnedTransport, peer_address
from webferret.remote_text import quoted

_KEPT_LOCATION = "x-webferret-location"
ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"


class HttpTier:
    """httpx over a `PinnedTransport`; one shared client, closed by `aclose`."""

    name = "http"

    def __init__(self, verify: bool | ssl.SSLContext = True, route: ProxyRoute = DIRECT) -> None:
        self.transport = PinnedTransport(verify=verify, route=route)
        self.client = httpx.AsyncClient(
            transport=self.transport,
            trust_env=False,
            follow_redirects=False,
            cookies=CookieJar(_KeepNone()),
            event_hooks={"response": [_set_aside_unusable_location]},
        )

    async def aclose(self) -> None:
        await self.client.aclose()

    async def fetch(self, target: Target, opts: FetchOptions, policy: UrlPolicy) -> RawResponse:
        """One request to `target`; see the module docstring for the contract."""
        self.transport.pin(target)
        request = self.client.build_request(
            "GET", target.url, headers=_headers(opts), timeout=httpx.Timeout(opts.timeout)
        )
        started = time.monotonic()
        try:
            response = await self.client.send(request, stream=True)
            if _KEPT_LOCATION in response.headers:  # the Fetcher judges it, as for every tier
                response.headers["location"] = response.headers.pop(_KEPT_LOCATION)
            try:
                peer = peer_address(response)
                if peer is not None and peer != target.address and not self.transport.via_proxy(target):
                    policy.check_peer(target.host, peer)  # through a proxy, the peer is the proxy
                body = b""
                if not is_redirect(response):
                    clip = opts.clip or answers_without_body(response.status_code)
                    body = await read_capped(response, opts.max_bytes, target.url, clip=clip)
            except httpx.HTTPError as exc:
                raise network_error(exc, target, status=response.status_code) from None
            finally:
                await response.aclose()
                if self.client.is_closed:  # closed under this request: its connection left the pool
                    await _close_connection(response)
        except httpx.HTTPError as exc:
            raise network_error(exc, target) from None
        return RawResponse(
            url=target.url,
            final_url=target.url,
            status=response.status_code,
            headers=response.headers,
            body=body,
            fetched_via=self.name,
            elapsed_ms=(time.monotonic() - started) * 1000,
        )


async def _close_connection(response: httpx.Response) -> None:
    """Close the connection `response` came on. A pool closed while the connection was being made
    holds it no more, so once the response is read nothing else closes it (its socket was left to
    the garbage collector: `ResourceWarning: unclosed transport`)."""
    stream = response.extensions.get("network_stream")
    if stream is not None:
        with contextlib.suppress(Exception):
            await stream.aclose()


class _KeepNone(CookiePolicy):
    """The shared client's cookie policy: keep no cookie an answer sets. httpx's client kept them
    and sent them with every later page of their site, all session long: a session cookie a page
    read with the caller's own `Cookie` answered with unlocked later calls made without it. A page's
    own redirects carry theirs (`fetch.hop_cookies`), as the other tiers do."""

    netscape, rfc2965, hide_cookie2 = True, False, True

    def set_ok(self, cookie: object, request: object) -> bool:
        return False

    def return_ok(self, cookie: object, request: object) -> bool:
        return False

    def domain_return_ok(self, domain: str, request: object) -> bool:
        return False

    def path_return_ok(self, path: str, request: object) -> bool:
        return False


def is_redirect_status(status: int) -> bool:
    return status in REDIRECTS


def is_redirect(response: httpx.Response) -> bool:
    return is_redirect_status(response.status_code) and "location" in response.headers


def _headers(opts: FetchOptions) -> dict[str, str]:
    headers = {
        "User-Agent": opts.user_agent,
        "Accept": ACCEPT,
        "Accept-Language": "en-US,en;q=0.9",
        "Accept-Encoding": ACCEPT_ENCODING,
    }
    headers.update(dict(opts.headers))
    return headers


async def _set_aside_unusable_location(response: httpx.Response) -> None:
    """A `Location` httpx cannot make a URL of (`data:`, `javascript:`, `http:ok`) is moved out of
    its way: it raises `InvalidURL` building the next request even when redirects are not followed,
    and the response with it. The Fetcher then refuses it by its scheme, as it does for other tiers.
    A `Location` sent twice (a server and its proxy each adding one) is the first, as curl and
    Firefox take it: the two joined ("/a, /b") are no address."""
    first, *more = response.headers.get_list("location") or [None]
    if first is not None and more:
        response.headers["location"] = first
    location = response.headers.get("location")
    if location is None or not is_redirect(response):
        return
    try:
        written = httpx.URL(location)
        usable = response.request.url.join(written).scheme in ("http", "https") and bool(
            written.host or not written.scheme
        )
    except (httpx.InvalidURL, ValueError):  # a host no IDNA reads (`xn--zz`): idna's error
        usable = False
    if not usable:
        response.headers[_KEPT_LOCATION] = response.headers.pop("location")


def network_error(exc: httpx.HTTPError, target: Target, status: int | None = None) -> FerretError:
    """The `FerretError` for an httpx failure, naming the host and address (and the HTTP status
    when the failure came after the response head, e.g. a body shorter than its Content-Length)."""
    where = f"{target.host}:{target.port} ({target.address})"
    detail = str(exc) or type(exc).__name__
    if isinstance(exc, httpx.ProxyError):  # the proxy's own failure, not the page's
        return FerretError(ErrorCode.PROXY_ERROR, f"{target.url}: {detail}")
    if isinstance(exc, httpx.TimeoutException):
        return FerretError(ErrorCode.TIMEOUT, f"{target.url}: no answer from {where} in time ({detail})")
    if isinstance(exc, httpx.ConnectError):
        return FerretError(ErrorCode.CONNECT_FAILED, f"cannot connect to {where}: {detail}")
    if isinstance(exc, httpx.RemoteProtocolError):
        message = f"broken HTTP answer from {where}: {quoted(detail, 160)}"  # it may quote the answer
        return FerretError(ErrorCode.HTTP_ERROR, message, status=status)
    if isinstance(exc, httpx.UnsupportedProtocol | httpx.InvalidURL):
        return FerretError(ErrorCode.INVALID_URL, f"{target.url}: {detail}")
    return FerretError(ErrorCode.CONNECT_FAILED, f"connection to {where} failed: {quoted(detail, 160)}")
