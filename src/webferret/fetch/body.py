"""Read a response body under a byte cap counted on DECOMPRESSED bytes.

The body is read raw from the socket and inflated here with `max_length`, so a gzip bomb never
expands past `max_bytes + 1` bytes in memory: it stops at the cap with `too_large`. A declared
Content-Length above the cap is refused before reading. A body shorter than its Content-Length
surfaces from the HTTP stack as a protocol error (the caller maps it).
"""

from __future__ import annotations

import zlib

import httpx

from webferret.models import ErrorCode, FerretError
from webferret.remote_text import quoted

ACCEPT_ENCODING = "gzip, deflate"


class _Inflater:
    """Incremental gzip/zlib/raw-deflate decoding that never yields more than asked."""

    def __init__(self, encoding: str, url: str) -> None:
        self._encoding = encoding
        self._url = url
        self._raw_fallback = encoding == "deflate"
        self._obj = zlib.decompressobj(47 if encoding in ("gzip", "x-gzip") else 15)

    def feed(self, data: bytes, room: int) -> bytes:
        try:
            out = self._obj.decompress(data, room)
        except zlib.error as exc:
            if self._raw_fallback:  # some servers send raw deflate without the zlib header
                self._raw_fallback = False
                self._obj = zlib.decompressobj(-15)
                return self.feed(data, room)
            raise FerretError(
                ErrorCode.UNSUPPORTED_CONTENT, f"the {self._encoding} body of {self._url} is corrupt: {exc}"
            ) from None
        self._raw_fallback = False
        return out


class _Identity:
    def feed(self, data: bytes, room: int) -> bytes:
        return data


class UnreadEncoding(FerretError):
    """A body in a content encoding this tier does not decode (brotli or zstd, sent though only gzip
    and deflate were asked for): with `--tier auto` the impersonate tier, whose curl decodes them as
    a browser does, reads the page (`fetch.ladder`)."""

    def __init__(self, url: str, encoding: str, status: int | None) -> None:
        message = f"{url} sent content encoding {quoted(encoding, 40)}, not supported"
        super().__init__(ErrorCode.UNSUPPORTED_CONTENT, message, status=status)
        self.url = url


CONTENT_CODINGS = frozenset(("gzip", "x-gzip", "deflate", "br", "zstd", "compress", "x-compress", "identity"))
"""The content codings HTTP registers that servers send: a label past them names none."""


def _decoder(
    headers: httpx.Headers, url: str, status: int | None = None, lenient: bool = False
) -> _Inflater | _Identity:
    raw = headers.get("content-encoding", "")
    codings = [part.strip().lower() for part in raw.split(",") if part.strip()]
    codings = [coding for coding in codings if coding != "identity"]
    if lenient:
        codings = [coding for coding in codings if coding in CONTENT_CODINGS]
    if not codings:
        return _Identity()
    if len(codings) == 1 and codings[0] in ("gzip", "x-gzip", "deflate"):
        return _Inflater(codings[0], url)
    raise UnreadEncoding(url, raw, status)


def too_large(max_bytes: int, detail: str = "", status: int | None = None) -> FerretError:
    """`too_large`; `status`: the HTTP status the server answered with, before its body passed the cap."""
    return FerretError(
        ErrorCode.TOO_LARGE,
        f"body larger than the cap of {max_bytes} bytes{detail} (setting max_bytes)",
        status=status,
    )


REDIRECTS = (301, 302, 303, 307, 308)


def answers_without_body(status: int | None) -> bool:
    """A redirect or an error status (4xx/5xx) is the page's answer whatever its body's size: that
    body is never content, so past the cap it is clipped (an error page's start is enough to tell a
    wall), not `too_large`."""
    return status is not None and (status in REDIRECTS or status >= 400)


def declared_length(headers: httpx.Headers) -> int | None:
    try:
        value = int(headers.get("content-length", ""))
    except ValueError:
        return None
    return value if value >= 0 else None


async def read_capped(
    response: httpx.Response, max_bytes: int, url: str, *, clip: bool = False, lenient: bool = False
) -> bytes:
    """The decompressed body of `response`, at most `max_bytes` long, else `too_large` (`clip`: its
    first `max_bytes`, the rest not read). `lenient`: a `Content-Encoding` label that names no coding
    (`utf-8`, `none`: a misconfigured server's) is passed over, as httpx does, where a page has no
    tier after this one to read it."""
    decoder = _decoder(response.headers, url, response.status_code, lenient)
    length = declared_length(response.headers)
    if not clip and isinstance(decoder, _Identity) and length is not None and length > max_bytes:
        raise too_large(max_bytes, f" (Content-Length {length})", response.status_code)
    out = bytearray()
    async for chunk in response.aiter_raw():
        out += decoder.feed(chunk, max_bytes - len(out) + 1)
        if len(out) > max_bytes and clip:
            return bytes(out[:max_bytes])
        if len(out) > max_bytes:
            detail = " once decompressed" if isinstance(decoder, _Inflater) else ""
            raise too_large(max_bytes, detail, response.status_code)
    return bytes(out)
