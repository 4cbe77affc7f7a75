"""Small helpers shared by engine parsers (pure)."""

from __future__ import annotations

import html
import re
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from webferret.models import ErrorCode, FerretError, Hit, Source
from webferret.remote_text import json_value, quoted, url_without_blanks

if TYPE_CHECKING:
    from webferret.net.proxy import Proxy

_SPACE = re.compile(r"\s+")


_NO_NAME = (
    "name resolution",
    "name or service not known",
    "nodename nor servname",
    "resolving dns",
    "dnserror",
)


def transport_code(exc: BaseException) -> ErrorCode:
    """The error code of an engine request that got no answer: a time-out, a host name that does not
    resolve (offline, a typo), or any other failure to connect."""
    if "Timeout" in type(exc).__name__:
        return ErrorCode.TIMEOUT
    said = f"{type(exc).__name__} {exc}".lower()
    return ErrorCode.DNS_FAILURE if any(mark in said for mark in _NO_NAME) else ErrorCode.CONNECT_FAILED


def unreachable(engine: str, url: str, exc: BaseException, proxy: Proxy | None = None) -> FerretError:
    """The error of an engine request that got no answer, the same from every transport: its code
    (`transport_code`) and a message naming the engine, the URL and the cause once (the ddgs
    transport wraps a cause in its own repr: `DNSError('error sending request for url (URL) > ...')`).
    Through `proxy`, a connection that failed is the proxy's (it connects to the engine), and its
    answer to CONNECT says whose failure it is, as for a page (`net.proxy.connect_refused`)."""
    code = transport_code(exc)
    if code == ErrorCode.DNS_FAILURE:
        return FerretError(code, f"{engine}: cannot reach {url}: its host name does not resolve (offline?)")
    if code == ErrorCode.TIMEOUT:
        return FerretError(code, f"{engine}: no answer from {url} in time (engine_timeout)")
    said = _WRAPPED.sub(r"\1", str(exc)).replace(f"error sending request for url ({url}) > ", "")
    if proxy is not None:
        return _through(engine, url, f"{type(exc).__name__}: {said}", proxy)
    return FerretError(code, f"{engine}: cannot reach {url}: {type(exc).__name__}: {quoted(said, 160)}")


_CONNECT_STATUS = re.compile(r"(?:CONNECT failed: HTTP/[\d.]+ |^ProxyError: )(\d{3})\b")


def _through(engine: str, url: str, said: str, proxy: Proxy) -> FerretError:
    from webferret.net.proxy import connect_refused

    parts = urlsplit(url)
    where = f"{parts.hostname}:{parts.port or (443 if parts.scheme == 'https' else 80)}"
    status = _CONNECT_STATUS.search(said)
    if status:
        code, message = connect_refused(proxy, where, int(status.group(1)), f"HTTP {status.group(1)}")
        return FerretError(code, f"{engine}: {message}")
    if "ProxyError" in said:
        return FerretError(
            ErrorCode.PROXY_ERROR, f"{engine}: the proxy {proxy.shown} failed: {quoted(said, 160)}"
        )
    return FerretError(
        ErrorCode.PROXY_ERROR, f"{engine}: cannot reach the proxy {proxy.shown}: {quoted(said, 160)}"
    )


_WRAPPED = re.compile(r"^\w+\('(.*)'\)$", re.S)


_TAGS = re.compile(r"<[a-zA-Z/!][^>]*>")  # a tag or a comment: not `a < b`, which text may hold


def strip_markup(text: str) -> str:
    """An engine's HTML text (Wikipedia's excerpts with `searchmatch` spans, SearXNG's titles and
    snippets as some upstreams give them) as plain text: the tags dropped, then the entities decoded
    (`&lt;b&gt;` is text that shows `<b>`)."""
    return html.unescape(_TAGS.sub("", text))


_MARKUP = re.compile(r"</[a-zA-Z][\w-]*\s*>|<[a-zA-Z][\w-]*\s[^<>]*=|<br\s*/?>|<!--", re.IGNORECASE)
"""What only markup holds: a closing tag, a tag with an attribute, a line break, a comment."""


def text_or_markup(text: str) -> str:
    """An engine's field that one upstream sends as HTML and another as plain text (SearXNG's titles
    and snippets): read as HTML (`strip_markup`) when it holds markup, else as text with its
    entities decoded, where `Vec<T>` or MDN's `<div>: The Content Division element` are words."""
    return strip_markup(text) if _MARKUP.search(text) else html.unescape(text)


_INVISIBLE = str.maketrans(dict.fromkeys("\u00ad\u200b\u2060\ufeff"))
"""Soft hyphens (German headlines break their long words with them), zero-width spaces, word joiners
and byte order marks: they show nothing, yet split a word for whoever looks for it (the joiners that
letters and emoji need stay)."""


def clean_text(value: Any) -> str:
    """Collapse whitespace and drop the characters that show nothing (`_INVISIBLE`); None and
    non-strings become ''."""
    return _SPACE.sub(" ", value.translate(_INVISIBLE)).strip() if isinstance(value, str) else ""


def load_json(body: str, engine: str) -> Any:
    """Parse an engine's JSON body; an unreadable one is an `engine_error` naming the engine."""
    try:
        return json_value(body)
    except ValueError as exc:
        raise FerretError(
            ErrorCode.ENGINE_ERROR,
            f"{engine} answered something that is not JSON ({exc}): {quoted(body, 80)}",
        ) from None


def make_hit(engine: str, rank: int, url: str, title: str, snippet: str = "", **extra: Any) -> Hit:
    """A single-engine hit at `rank` (1-based); `published` may be passed in `extra`. A space or
    control character in the URL is percent-encoded (one token in every message that names it)."""
    published = extra.pop("published", None)
    return Hit(
        url=url_without_blanks(url.strip()),
        title=clean_text(title),
        snippet=clean_text(snippet),
        published=published or None,
        sources=[Source(engine=engine, rank=rank)],
        extra={key: value for key, value in extra.items() if value not in (None, "", [], {})},
    )


def iso_date(value: Any) -> str | None:
    """An ISO 8601 timestamp or date string normalized to ISO 8601 (UTC when it has an offset); None
    for anything else, a moment UTC cannot write among them (`0001-01-01T00:00:00+01:00`)."""
    if not isinstance(value, str) or not value.strip():
        return None
    text = value.strip().replace("Z", "+00:00")
    for parse in (datetime.fromisoformat, _parse_offset_space):
        try:
            moment = parse(text)
        except ValueError:
            continue
        if moment.tzinfo is not None:
            try:
                moment = moment.astimezone(UTC)
            except OverflowError:  # before the first year or past the last once in UTC: no date
                return None
        return moment.isoformat()
    return None


def _parse_offset_space(text: str) -> datetime:
    """searx's `pubdate`: `2024-01-06 12:00:00+0000`."""
    return datetime.strptime(text, "%Y-%m-%d %H:%M:%S%z")
