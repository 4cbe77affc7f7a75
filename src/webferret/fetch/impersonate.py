"""Tier 1, `impersonate`: curl_cffi with a current browser's TLS and HTTP/2 fingerprint.

The tier API of `webferret.fetch.http` (one hop; the `Fetcher` follows and re-vets redirects), with
the same guard as tier 0: curl is pinned to the vetted address through its RESOLVE list (no second
DNS lookup; the peer curl reached is checked again), the body is capped on decompressed bytes, and
the request has the page's timeout. Failures are `FerretError`s with tier 0's codes.
"""

from __future__ import annotations

import re
import time
import typing
from dataclasses import replace
from ipaddress import ip_address

import certifi
from curl_cffi import BrowserTypeLiteral, Curl, CurlECode, CurlHttpVersion, CurlInfo, CurlOpt, ffi, lib
from curl_cffi.curl import CURL_WRITEFUNC_ERROR
from curl_cffi.requests import AsyncSession, Response
from curl_cffi.requests.exceptions import RequestException

from webferret.fetch.body import answers_without_body, too_large
from webferret.fetch.hop_cookies import joined_cookies
from webferret.fetch.types import FetchOptions, RawResponse
from webferret.models import ErrorCode, FerretError
from webferret.net.policy import Target, UrlPolicy
from webferret.net.proxy import (
    DIRECT,
    Proxy,
    ProxyRoute,
    bracketed,
    connect_refused,
    proxy_connect_timeout,
    socks_refused,
)
from webferret.net.tls import env_cas

CURL_ERRORS: dict[int, tuple[ErrorCode, str]] = {
    CurlECode.COULDNT_RESOLVE_HOST: (ErrorCode.DNS_FAILURE, "could not resolve the host"),
    CurlECode.COULDNT_CONNECT: (ErrorCode.CONNECT_FAILED, "could not connect"),
    CurlECode.OPERATION_TIMEDOUT: (ErrorCode.TIMEOUT, "no answer in time"),
    CurlECode.PARTIAL_FILE: (ErrorCode.HTTP_ERROR, "broken HTTP answer: the body ended before its length"),
    # as the http tier names them: conflicting Content-Length headers, a header past curl's limits
    CurlECode.WEIRD_SERVER_REPLY: (ErrorCode.HTTP_ERROR, "broken HTTP answer"),
    CurlECode.TOO_LARGE: (ErrorCode.HTTP_ERROR, "broken HTTP answer: its headers are too large"),
    CurlECode.RECV_ERROR: (ErrorCode.CONNECT_FAILED, "the connection broke while reading"),
    CurlECode.GOT_NOTHING: (ErrorCode.CONNECT_FAILED, "the server closed without answering"),
    CurlECode.SSL_CONNECT_ERROR: (ErrorCode.CONNECT_FAILED, "the TLS handshake failed"),
    CurlECode.PEER_FAILED_VERIFICATION: (ErrorCode.CONNECT_FAILED, "the TLS certificate did not verify"),
    CurlECode.BAD_CONTENT_ENCODING: (
        ErrorCode.UNSUPPORTED_CONTENT,
        "a body whose content encoding did not decode",
    ),
    # our own writer refuses only past the cap (`CappedBody`, `too_large`): else it is curl's
    # decoder's, a body its Content-Encoding (brotli) does not decode
    CurlECode.WRITE_ERROR: (
        ErrorCode.UNSUPPORTED_CONTENT,
        "a body whose content encoding did not decode",
    ),
}


class ImpersonateTier:
    """One request with a browser fingerprint (`settings.impersonate`, e.g. "chrome")."""

    name = "impersonate"

    def __init__(self, fingerprint: str = "chrome", route: ProxyRoute = DIRECT) -> None:
        self.fingerprint = fingerprint
        self.route = route

    async def aclose(self) -> None:
        """Nothing to close: every call has its own curl session (no cookies shared between pages)."""

    async def fetch(self, target: Target, opts: FetchOptions, policy: UrlPolicy) -> RawResponse:
        started = time.monotonic()
        async with new_session(self.fingerprint) as session:
            status, headers, body = await request_once(session, target, opts, policy, route=self.route)
        elapsed = (time.monotonic() - started) * 1000
        return RawResponse(target.url, target.url, status, headers, body, self.name, elapsed)


def fingerprints() -> tuple[str, ...]:
    """The fingerprints curl_cffi says it impersonates (its `BrowserTypeLiteral`): `chrome`,
    `safari`, `firefox` (its current ones) and versions such as `chrome131`."""
    return typing.get_args(BrowserTypeLiteral)


def new_session(fingerprint: str) -> AsyncSession:
    """A curl session that ignores proxy variables, impersonates `fingerprint` and keeps no cookie:
    a page's redirects carry theirs (`fetch.hop_cookies`), and in the browser tier Chromium holds the
    page's own and sends them (a session that kept them sent a second `Cookie` header, with the
    cookies the page's script had deleted)."""
    return _Session(
        impersonate=fingerprint,  # type: ignore[arg-type]
        trust_env=False,
        discard_cookies=True,
        # did a proxy accept the connection, and answer CONNECT (`_proxy_failure`)
        curl_infos=[CurlInfo.CONNECT_TIME, CurlInfo.HTTP_CONNECTCODE],
    )


class _Session(AsyncSession[Response]):
    """curl_cffi's session, its transfer taken out of curl's multi handle before the handles of its
    callbacks are let go: curl_cffi (0.17) lets them go first, and a request cancelled while its
    headers came in (a timeout, Ctrl-C, a page closed) had curl call the header callback once more
    on a collected handle, a fatal error that ended the process (exit 134, nothing answered)."""

    def release_curl(self, curl: Curl) -> None:
        if not self._closed:
            self.acurl.remove_handle(curl)  # done: curl_cffi's own removal, next, finds it gone
        super().release_curl(curl)


def _error_page_refused(exc: RequestException, status: int | None, method: str, data: bytes | None) -> bool:
    """Did curl refuse an error page (4xx/5xx) before its body, its Content-Length past the cap
    (`MAXFILESIZE`)? The start of such a page tells a wall (a Cloudflare challenge is a 403), so a GET
    is asked once more, clipped at the cap, as the http tier reads it."""
    refused = exc.code == CurlECode.FILESIZE_EXCEEDED and status is not None and status >= 400
    return refused and method == "GET" and data is None


def curl_resolve(target: Target) -> str:
    """The `host:port:address` entry of curl's RESOLVE list that pins `target` (IPv6 in brackets)."""
    address = f"[{target.address}]" if ip_address(target.address).version == 6 else target.address
    return f"{target.host_key.strip('[]')}:{target.port}:{address}"


async def request_once(
    session: AsyncSession,
    target: Target,
    opts: FetchOptions,
    policy: UrlPolicy,
    *,
    method: str = "GET",
    headers: dict[str, str] | None = None,
    data: bytes | None = None,
    route: ProxyRoute = DIRECT,
) -> tuple[int, dict[str, str], bytes]:
    """One request to the pinned address (through `route`'s proxy, when it has one for the host),
    no redirect followed; header names lower-cased."""
    proxy = route.proxy_for(target.host, target.address)
    session.curl_options = {
        CurlOpt.RESOLVE: [curl_resolve(target)],
        CurlOpt.NOPROXY: "*",
        # the whole request is bounded (a low-speed limit lets a server dripping a byte a second pass)
        CurlOpt.TIMEOUT_MS: max(1, int(opts.timeout * 1000)),
        **ca_options(),
    }
    if method != "HEAD" and not opts.clip:  # a Content-Length past the cap is refused before the body
        session.curl_options[CurlOpt.MAXFILESIZE_LARGE] = opts.max_bytes
    tunnel_to = (
        _through(session, proxy, target, opts.timeout) if proxy is not None else None
    )  # alive until the end
    sent = merged_headers(opts.headers, headers or {})
    body = CappedBody(opts.max_bytes, clip=opts.clip)
    try:
        response = await session.request(
            method,  # type: ignore[arg-type]
            target.url,
            headers=sent or None,
            data=data,
            allow_redirects=False,
            timeout=opts.timeout,
            content_callback=body.write,
            # as Chrome speaks plain http: HTTP/1.1, never curl's `Upgrade: h2c` (a tell of a client)
            http_version=CurlHttpVersion.V1_1 if target.url.startswith("http:") else None,
        )
    except RequestException as exc:
        answered = exc.response.status_code if exc.response is not None else None  # before the body
        if _error_page_refused(exc, answered, method, data):  # its start is asked for, as a wall's
            return await request_once(
                session, target, replace(opts, clip=True), policy, headers=headers, route=route
            )
        stopped = body.over or exc.code == CurlECode.FILESIZE_EXCEEDED  # at the cap, or refused before it
        clipped = body.clip or answers_without_body(answered)  # as asked, or an error page's
        if stopped and clipped and exc.response is not None:  # curl stopped at the cap: its start is read
            response = exc.response
        elif body.over:
            raise body.too_large(answered) from None
        elif exc.code == CurlECode.FILESIZE_EXCEEDED:  # a Content-Length past the cap: no body read yet;
            said = " (its Content-Length says so)" if body.empty else ""  # else one without, read to it
            raise too_large(opts.max_bytes, said, answered) from None
        else:
            raise _ferret_error(exc, target, proxy) from None
    except ValueError:  # (past RequestException, some of which are ValueErrors) curl_cffi reading
        # the head of a failed answer: a proxy's answer to CONNECT that is not HTTP
        if proxy is None:
            raise
        said = f"the proxy {proxy.shown} answered CONNECT with something that is not HTTP"
        raise FerretError(ErrorCode.PROXY_ERROR, said) from None
    del tunnel_to  # curl no longer needs the list
    peer = getattr(response, "primary_ip", "") or ""
    if peer and peer != target.address and proxy is None:  # through a proxy, it is the proxy
        policy.check_peer(target.host, peer)
    return response.status_code, _merged_headers(response), body.bytes()


def merged_headers(caller: tuple[tuple[str, str], ...], request: dict[str, str]) -> dict[str, str]:
    """The headers of one request: the caller's (`--header`), each replaced by the request's own of
    that name in any case (a browser's, written in lower case), but for `Cookie`: the caller's and the
    request's in one header, as RFC 6265 has a client send them (a server reading the first of two
    saw only the caller's, never the cookies the page holds), the page's winning by name
    (`joined_cookies`)."""
    sent: dict[str, str] = {}
    spelled: dict[str, str] = {}  # a name in lower case -> as it is written in `sent`
    for name, value in (*caller, *request.items()):
        key = name.lower()
        if key in spelled:
            before = sent.pop(spelled[key])
            value = joined_cookies(before, value) if key == "cookie" else value
        spelled[key], sent[name] = name, value
    return sent


def ca_options() -> dict[CurlOpt, str]:
    """The CAs the http tier trusts (`net.tls`), as curl is told them: the file `SSL_CERT_FILE`
    names, else the folder `SSL_CERT_DIR` names (beside curl's default file), else certifi's store.
    curl_cffi's async session left the variables unread, so a corporate or test CA that the http
    tier trusted failed this tier and the browser's (whose requests this module makes)."""
    cafile, capath = env_cas()
    if capath:
        return {CurlOpt.CAPATH: capath}
    return {CurlOpt.CAINFO: cafile or certifi.where()}


def _through(session: AsyncSession, proxy: Proxy, target: Target, timeout: float) -> object:
    """Send the request through `proxy`, tunnelled to the vetted address as the http tier's are:
    curl's CONNECT_TO list names the address for an HTTP proxy's CONNECT (a SOCKS5 proxy is given
    the address RESOLVE pins). The connection phase has half of `timeout` (`proxy_connect_timeout`),
    so a proxy that never accepts fails as the proxy's (`_proxy_failure`). Returns the list, which
    must outlive the request."""
    host, address = bracketed(target.host_key.strip("[]")), bracketed(target.address)
    entry = f"{host}:{target.port}:{address}:{target.port}"
    connect_to = ffi.gc(lib.curl_slist_append(ffi.NULL, entry.encode()), lib.curl_slist_free_all)
    session.curl_options.update(
        {
            CurlOpt.PROXY: proxy.url,
            CurlOpt.NOPROXY: "",
            CurlOpt.HTTPPROXYTUNNEL: 1,  # plain http is tunnelled too
            CurlOpt.CONNECT_TO: connect_to,
            CurlOpt.CONNECTTIMEOUT_MS: max(1, int((proxy_connect_timeout(timeout) or timeout) * 1000)),
        }
    )
    return connect_to


def _merged_headers(response: Response) -> dict[str, str]:
    """Header names lower-cased; repeats joined (set-cookie by newlines, as Playwright expects), but
    for `Location`: the first, as the http tier takes it."""
    merged: dict[str, str] = {}
    for key, value in response.headers.multi_items():
        name = key.lower()
        if name == "location" and name in merged:
            continue
        glue = "\n" if name == "set-cookie" else ", "
        merged[name] = f"{merged[name]}{glue}{value}" if name in merged else value
    return merged


class CappedBody:
    """The decoded body as curl writes it, refused past `most` bytes inside curl's own write: curl
    decodes what one read of the socket brings in one go (3 KB of brotli are 2 GB), so a reader
    counting behind a queue saw the cap only once gigabytes were in memory. Writing nothing more
    ends the transfer at once (`over` then says why it failed; `clip`: the first `most` bytes kept)."""

    def __init__(self, most: int, *, clip: bool = False) -> None:
        self.most = most
        self.clip = clip
        self.over = False
        self._chunks: list[bytes] = []
        self._size = 0

    def write(self, chunk: bytes) -> int:
        self._size += len(chunk)
        if self._size > self.most:
            self.over = True
            if self.clip:
                self._chunks.append(chunk[: len(chunk) - (self._size - self.most)])
            return CURL_WRITEFUNC_ERROR
        self._chunks.append(chunk)
        return len(chunk)

    def bytes(self) -> bytes:
        return b"".join(self._chunks)

    @property
    def empty(self) -> bool:
        return self._size == 0

    def too_large(self, status: int | None = None) -> FerretError:
        """`too_large`; `status`: the HTTP status the server answered with, before its body."""
        msg = f"body larger than the cap of {self.most} bytes, decompressed (setting max_bytes)"
        return FerretError(ErrorCode.TOO_LARGE, msg, status=status)


def _ferret_error(exc: RequestException, target: Target, proxy: Proxy | None = None) -> FerretError:
    if proxy is not None and (said := _proxy_failure(exc, target, proxy)) is not None:
        return FerretError(*said)
    code, what = CURL_ERRORS.get(int(exc.code or 0), (ErrorCode.CONNECT_FAILED, "the request failed"))
    if exc.code == CurlECode.RECV_ERROR and "chunk" in str(exc).lower():  # curl's error for a bad chunk
        code, what = ErrorCode.HTTP_ERROR, "broken HTTP answer: its chunked body is malformed"
    if exc.code == CurlECode.RECV_ERROR and "too large response headers" in str(exc).lower():
        code, what = CURL_ERRORS[CurlECode.TOO_LARGE]  # many header lines, each within curl's limit
    where = f"{target.host}:{target.port} ({target.address})"
    return FerretError(code, f"{what} at {where} (curl: {exc})")


def _proxy_failure(exc: RequestException, target: Target, proxy: Proxy) -> tuple[ErrorCode, str] | None:
    """What a curl failure through `proxy` means, said as the http tier says it (None: the page's own
    failure, such as a timeout, said as without a proxy)."""
    where = f"{bracketed(target.address)}:{target.port}"
    text = str(exc)
    code = int(exc.code or 0)
    if tunnel := re.search(r"CONNECT tunnel failed, response (\d+)", text):
        status = int(tunnel[1])
        return connect_refused(proxy, where, status, f"it answered {status}")
    if code == CurlECode.PROXY and (reply := re.search(r"\((\d)\)\.?(?: See|$)", text)):
        return socks_refused(proxy, where, int(reply[1]))
    if code == CurlECode.PROXY and "rejected" in text:  # its user and password (RFC 1929)
        return (
            ErrorCode.PROXY_ERROR,
            f"the SOCKS5 proxy {proxy.shown} refused the user and password in the proxy URL",
        )
    infos = exc.response.infos if exc.response is not None else {}
    if code == CurlECode.OPERATION_TIMEDOUT and not infos.get(CurlInfo.CONNECT_TIME, 1):
        return (
            ErrorCode.PROXY_ERROR,
            f"cannot reach the proxy {proxy.shown}: no connection in time (curl: {text})",
        )
    answered = infos.get(CurlInfo.HTTP_CONNECTCODE)
    broken = (CurlECode.RECV_ERROR, CurlECode.SEND_ERROR, CurlECode.GOT_NOTHING)
    if proxy.scheme == "http" and code in broken and not answered:  # before any answer to CONNECT
        return (
            ErrorCode.PROXY_ERROR,
            f"the proxy {proxy.shown} broke the connection when asked for a tunnel to {where} (curl: {text})",
        )
    weird = code == CurlECode.WEIRD_SERVER_REPLY  # a NUL byte in the head: a TLS port's alert, say
    if proxy.scheme == "http" and weird and not answered:
        said = f"the proxy {proxy.shown} answered CONNECT with something that is not HTTP (curl: {text})"
        return ErrorCode.PROXY_ERROR, said
    if code in (CurlECode.COULDNT_CONNECT, CurlECode.COULDNT_RESOLVE_PROXY):
        return ErrorCode.PROXY_ERROR, f"cannot reach the proxy {proxy.shown} (curl: {text})"
    if code == CurlECode.PROXY:
        return ErrorCode.PROXY_ERROR, f"the proxy {proxy.shown} failed (curl: {text})"
    return None
