"""Whether a URL as a user wrote it is an absolute URL, and if not, why: one check for the URLs a
fetch is given (`policy.parse_url`) and for `webferret extract --url` (the page's own URL).

Light on purpose (no HTTP client imported): the command line checks `--url` while it parses.
"""

from __future__ import annotations

from collections.abc import Collection
from urllib.parse import SplitResult, urlsplit

from webferret.models import ErrorCode, FerretError

EXAMPLE = "https://example.org/page"
LOCAL_PATH = " (a local path: `webferret extract` reads local files)"


NAMED_CHARS = 500
"""The most characters of a URL an error message repeats (a caller's 500 KB URL is not said back)."""


def url_named(text: str) -> str:
    """`text`, a URL, as an error message names it: whole, or its start and its length."""
    if len(text) <= NAMED_CHARS:
        return text
    return f"{text[: NAMED_CHARS - 100]}… ({len(text):,} characters)"


def web_url(url: str) -> bool:
    """Whether `url` is an http(s) URL with a host and a usable port (a port past 65535 raises only
    when it is read: here, not in the middle of a crawl), all of it text (no lone surrogate)."""
    try:
        url.encode()
        parts = urlsplit(url)
        parts.port  # noqa: B018
        return parts.scheme.lower() in ("http", "https") and bool(parts.hostname)
    except ValueError:
        return False


def absolute_url(url: object, schemes: Collection[str] | None, local: str = LOCAL_PATH) -> SplitResult:
    """`url` (stripped) split, when it is an absolute URL: a scheme, one of `schemes` (None: any),
    and a host (`file:` URLs have none). Raises `FerretError`: `unsupported_scheme` for another
    scheme, else `invalid_url` naming the text and what is wrong with it: empty, unparsable, no host,
    or not absolute, with a hint (`https://` was left out; `local`: it is a local path)."""
    text = url.strip() if isinstance(url, str) else ""
    if not text:
        raise FerretError(ErrorCode.INVALID_URL, "empty URL")
    named = url_named(text)
    try:
        parts = urlsplit(text)
        host = parts.hostname
    except ValueError as exc:
        raise FerretError(ErrorCode.INVALID_URL, f"cannot parse {named}: {exc}") from None
    scheme = parts.scheme.lower()
    known = schemes is None or scheme in schemes
    if not scheme or (not parts.netloc and not known and _host_port(text)):  # `example.org:8080/x`
        raise FerretError(ErrorCode.INVALID_URL, f"{named} is not an absolute URL{_hint(text, local)}")
    if not known:
        only = " and ".join(schemes or ())
        raise FerretError(
            ErrorCode.UNSUPPORTED_SCHEME, f"{named}: scheme '{scheme}' is not supported (only {only})"
        )
    if not host and scheme != "file":
        raise FerretError(ErrorCode.INVALID_URL, f"{named} has no host")
    return parts


def _host_port(text: str) -> bool:
    """Does `text` start with a host and a port, not a scheme (`example.org:8080/x`, `localhost:8765`)?"""
    head, _, rest = text.partition(":")
    return "." in head or rest.split("/", 1)[0].isdigit()


def _hint(text: str, local: str) -> str:
    if text.startswith(("/", "./", "../", "~")):
        return local
    if "." in text.split("/")[0] or _host_port(text):
        return f" (did you mean https://{text}?)"
    return f" (such as {EXAMPLE})"
