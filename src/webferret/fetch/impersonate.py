"""Tier 1, `impersonate`: curl_cffi with a current browser's TLS and HTTP/2 fingerprint.

The tier API of `webferret.fetch.http` (one hop; the `Fetcher` follows and re-vets redirects), with
the same guard as tier 0: curl is pinned to the vetted address through its RESOLVE list (no second
DNS lookup; the peer curl reached is checked again), the body is capped on decompressed bytes, and
the request has the page's timeout. Failures are `FerretError`s with tier 0's codes.
"""

from __future__ import annotations

import time
from ipaddress import ip_address

from curl_cffi import CurlECode, CurlOpt
from curl_cffi.requests import AsyncSession, Response
from curl_cffi.requests.exceptions import RequestException

from webferret.fetch.types import FetchOptions, RawResponse
from webferret.models import ErrorCode, FerretError
from webferret.net.policy import Target, UrlPolicy

CURL_ERRORS: dict[int, tuple[ErrorCode, str]] = {
    CurlECode.COULDNT_RESOLVE_HOST: (ErrorCode.DNS_FAILURE, "could not resolve the host"),
    CurlECode.COULDNT_CONNECT: (ErrorCode.CONNECT_FAILED, "could not connect"),
    CurlECode.OPERATION_TIMEDOUT: (ErrorCode.TIMEOUT, "no answer in time"),
    CurlECode.PARTIAL_FILE: (ErrorCode.HTTP_ERROR, "broken HTTP answer: the body ended before its length"),
    CurlECode.RECV_ERROR: (ErrorCode.CONNECT_FAILED, "the connection broke while reading"),
    CurlECode.GOT_NOTHING: (ErrorCode.CONNECT_FAILED, "the server closed without answering"),
    CurlECode.SSL_CONNECT_ERROR: (ErrorCode.CONNECT_FAILED, "the TLS handshake failed"),
    CurlECode.PEER_FAILED_VERIFICATION: (ErrorCode.CONNECT_FAILED, "the TLS certificate did not verify"),
}


class ImpersonateTier:
    """One request with a browser fingerprint (`settings.impersonate`, e.g. "chrome")."""

    name = "impersonate"

    def __init__(self, fingerprint: str = "chrome") -> None:
        self.fingerprint = fingerprint

    async def aclose(self) -> None:
        """Nothing to close: every call has its own curl session (no cookies shared between pages)."""

    async def fetch(self, target: Target, opts: FetchOptions, policy: UrlPolicy) -> RawResponse:
        started = time.monotonic()
        async with new_session(self.fingerprint) as session:
            status, headers, body = await request_once(session, target, opts, policy)
        elapsed = (time.monotonic() - started) * 1000
        return RawResponse(target.url, target.url, status, headers, body, self.name, elapsed)


def new_session(fingerprint: str) -> AsyncSession:
    """A curl session that ignores proxy variables and impersonates `fingerprint`."""
    return AsyncSession(impersonate=fingerprint, trust_env=False)  # type: ignore[arg-type]


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
) -> tuple[int, dict[str, str], bytes]:
    """One request to the pinned address, no redirect followed; header names lower-cased."""
    session.curl_options = {
        CurlOpt.RESOLVE: [curl_resolve(target)],
        CurlOpt.NOPROXY: "*",
        # a streamed request has only a low-speed limit (a server dripping a byte a second passes it),
        # and a cancelled read waits for the transfer's end: the whole request is bounded instead
        CurlOpt.TIMEOUT_MS: max(1, int(opts.timeout * 1000)),
    }
    sent = {**dict(opts.headers), **(headers or {})}
    try:
        response = await session.request(
            method,  # type: ignore[arg-type]
            target.url,
            headers=sent or None,
            data=data,
            allow_redirects=False,
            timeout=opts.timeout,
            stream=True,
        )
        try:
            peer = getattr(response, "primary_ip", "") or ""
            if peer and peer != target.address:
                policy.check_peer(target.host, peer)
            body = await _read_capped(response, opts.max_bytes)
        finally:
            await response.aclose()
    except RequestException as exc:
        raise _ferret_error(exc, target) from None
    return response.status_code, _merged_headers(response), body


def _merged_headers(response: Response) -> dict[str, str]:
    """Header names lower-cased; repeats joined (set-cookie by newlines, as Playwright expects)."""
    merged: dict[str, str] = {}
    for key, value in response.headers.multi_items():
        name = key.lower()
        glue = "\n" if name == "set-cookie" else ", "
        merged[name] = f"{merged[name]}{glue}{value}" if name in merged else value
    return merged


async def _read_capped(response: Response, max_bytes: int) -> bytes:
    """The decompressed body, refusing more than `max_bytes`."""
    chunks: list[bytes] = []
    total = 0
    async for chunk in response.aiter_content():
        total += len(chunk)
        if total > max_bytes:
            msg = f"body larger than the cap of {max_bytes} bytes, decompressed (setting max_bytes)"
            raise FerretError(ErrorCode.TOO_LARGE, msg)
        chunks.append(chunk)
    return b"".join(chunks)


def _ferret_error(exc: RequestException, target: Target) -> FerretError:
    code, what = CURL_ERRORS.get(int(exc.code or 0), (ErrorCode.CONNECT_FAILED, "the request failed"))
    where = f"{target.host}:{target.port} ({target.address})"
    return FerretError(code, f"{what} at {where} (curl: {exc})")
