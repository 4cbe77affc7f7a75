"""Tier 1, `impersonate`: curl_cffi with a current browser's TLS and HTTP/2 fingerprint.

The same guard as tier 0: every hop is vetted and curl is pinned to the vetted address through its
RESOLVE list (no second DNS lookup), redirects are followed by hand and re-vetted, the body is capped
on decompressed bytes and the page has one timeout. Failures are `FerretError`s with tier 0's codes.
"""

from __future__ import annotations

import asyncio
import time
from urllib.parse import urljoin

from curl_cffi import CurlECode, CurlOpt
from curl_cffi.requests import AsyncSession, Response
from curl_cffi.requests.exceptions import RequestException

from webferret.fetch.guard import Pin, Vet
from webferret.fetch.types import FetchOptions, RawResponse
from webferret.models import ErrorCode, FerretError

REDIRECTS = {301, 302, 303, 307, 308}
CURL_ERRORS: dict[int, tuple[ErrorCode, str]] = {
    CurlECode.COULDNT_RESOLVE_HOST: (ErrorCode.DNS_FAILURE, "could not resolve the host"),
    CurlECode.COULDNT_CONNECT: (ErrorCode.CONNECT_FAILED, "could not connect"),
    CurlECode.OPERATION_TIMEDOUT: (ErrorCode.TIMEOUT, "timed out"),
    CurlECode.PARTIAL_FILE: (ErrorCode.CONNECT_FAILED, "the body ended before its announced length"),
    CurlECode.RECV_ERROR: (ErrorCode.CONNECT_FAILED, "the connection broke while reading"),
    CurlECode.GOT_NOTHING: (ErrorCode.CONNECT_FAILED, "the server closed without answering"),
    CurlECode.SSL_CONNECT_ERROR: (ErrorCode.CONNECT_FAILED, "the TLS handshake failed"),
    CurlECode.PEER_FAILED_VERIFICATION: (ErrorCode.CONNECT_FAILED, "the TLS certificate did not verify"),
}


class ImpersonateTier:
    """Fetch with a browser fingerprint (`settings.impersonate`, e.g. "chrome"); one curl session per call."""

    name = "impersonate"

    def __init__(self, vet: Vet, fingerprint: str = "chrome") -> None:
        self._vet = vet
        self._fingerprint = fingerprint

    async def fetch(self, url: str, opts: FetchOptions) -> RawResponse:
        started = time.monotonic()
        try:
            async with asyncio.timeout(opts.timeout):
                return await self._follow(url, opts, started)
        except TimeoutError:
            msg = f"{url} took longer than {opts.timeout:g} s (impersonate tier)"
            raise FerretError(ErrorCode.TIMEOUT, msg) from None

    async def _follow(self, url: str, opts: FetchOptions, started: float) -> RawResponse:
        # One session per call: cookies set by a hop (an interstitial's, say) go along to the next hop.
        async with AsyncSession(impersonate=self._fingerprint, trust_env=False) as session:  # type: ignore[arg-type]
            current, seen = url, {url}
            for _ in range(opts.max_redirects + 1):
                pin = await self._vet(current)
                status, headers, body = await request_once(session, pin, opts)
                location = headers.get("location")
                if status not in REDIRECTS or not location:
                    elapsed = (time.monotonic() - started) * 1000
                    return RawResponse(url, current, status, headers, body, "impersonate", elapsed)
                current = urljoin(current, location)
                if current in seen:
                    raise FerretError(ErrorCode.TOO_MANY_REDIRECTS, f"redirect loop at {current}")
                seen.add(current)
        msg = f"more than {opts.max_redirects} redirects starting at {url}"
        raise FerretError(ErrorCode.TOO_MANY_REDIRECTS, msg)


async def request_once(
    session: AsyncSession,
    pin: Pin,
    opts: FetchOptions,
    *,
    method: str = "GET",
    headers: dict[str, str] | None = None,
    data: bytes | None = None,
) -> tuple[int, dict[str, str], bytes]:
    """One request, no redirects followed, connected to the pinned address; header names lower-cased."""
    session.curl_options = {CurlOpt.RESOLVE: [pin.curl_resolve()], CurlOpt.NOPROXY: "*"}
    sent = {**dict(opts.headers), **(headers or {})}
    try:
        response = await session.request(
            method,  # type: ignore[arg-type]
            pin.url,
            headers=sent or None,
            data=data,
            allow_redirects=False,
            timeout=opts.timeout,
            stream=True,
        )
        try:
            body = await _read_capped(response, opts.max_bytes, pin.url)
        finally:
            await response.aclose()
    except RequestException as exc:
        raise _ferret_error(exc, pin) from None
    merged: dict[str, str] = {}  # repeated headers joined; set-cookie by newlines, as Playwright does
    for key, value in response.headers.multi_items():
        name = key.lower()
        glue = "\n" if name == "set-cookie" else ", "
        merged[name] = f"{merged[name]}{glue}{value}" if name in merged else value
    return response.status_code, merged, body


async def _read_capped(response: Response, max_bytes: int, url: str) -> bytes:
    """The decompressed body, refusing more than `max_bytes`."""
    chunks: list[bytes] = []
    total = 0
    async for chunk in response.aiter_content():
        total += len(chunk)
        if total > max_bytes:
            msg = f"{url} is larger than the cap of {max_bytes} bytes (decompressed)"
            raise FerretError(ErrorCode.TOO_LARGE, msg)
        chunks.append(chunk)
    return b"".join(chunks)


def _ferret_error(exc: RequestException, pin: Pin) -> FerretError:
    code, what = CURL_ERRORS.get(int(exc.code or 0), (ErrorCode.CONNECT_FAILED, "the request failed"))
    return FerretError(code, f"{pin.url} ({pin.address}): {what} (curl: {exc})")
