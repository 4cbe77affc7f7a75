"""Handles: a readable, stable name `site~hash12` for every canonical URL.

The canonical form here is deliberately small (lower-case scheme and host, the host's letters
composed, no default port, no fragment, no tracking parameters such as `utm_*` (they never change the
page: `net.canonical`), an empty path as `/`, path and query percent-encoded as a client sends them:
`urlpath.percent_encoded`); two spellings of one address therefore share one handle.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from urllib.parse import urlsplit, urlunsplit

from webferret.models import Page
from webferret.net.canonical import in_ascii, in_letters, strip_tracking
from webferret.net.urlpath import percent_encoded, without_dot_segments

_DEFAULT_PORTS = {"http": 80, "https": 443}
HANDLE_RE = re.compile(r"^[^\s/]+~[0-9a-f]{12}$")  # the site: any host (`bücher.example`, `a_b.example`)


def canonical_url(url: str) -> str:
    """The canonical form of `url` used for handles and freshness lookups (a URL that cannot be
    parsed is its own canonical form, so any text has a handle and nothing raises)."""
    try:
        return _canonical(url.strip())
    except ValueError:
        return url.strip()


def _canonical(url: str) -> str:
    parts = urlsplit(strip_tracking(url))
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower()
    if not host.isascii():  # `bu\u0308cher.example`, decomposed, is the `bücher.example` fetched
        host = unicodedata.normalize("NFC", host)
    if ":" in host:  # an IPv6 literal keeps its brackets
        host = f"[{host}]"
    try:
        port = parts.port
    except ValueError:
        port = None
    netloc = host if port is None or _DEFAULT_PORTS.get(scheme) == port else f"{host}:{port}"
    if parts.username:  # the password is never kept (`models.without_password`): nor does it name a page
        netloc = f"{parts.username}@{netloc}"
    path, query = percent_encoded(without_dot_segments(parts.path)) or "/", percent_encoded(parts.query)
    return urlunsplit((scheme, netloc, path, query, ""))


def handle_for(url: str) -> str:
    """`site~hash12`: the host (without port) and 12 hex digits of the canonical URL's SHA-256."""
    canonical = canonical_url(url)
    try:
        site = (urlsplit(canonical).hostname or "local").lower()
    except ValueError:
        site = "local"
    digest = hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:12]
    return f"{site}~{digest}"


def read_handle(page: Page) -> str:
    """The handle of the URL `page` was read at (where its redirects ended)."""
    return handle_for(page.final_url or page.url or "")


def page_names(page: Page, handle: str | None) -> set[str]:
    """The handles `page` (stored, or being written, under `handle`) is known by: that one, its
    asked URL's and its final URL's."""
    return {name for name in (handle, handle_for(page.url or ""), read_handle(page)) if name}


def spellings(url: str) -> list[str]:
    """`url`, then the same address with its host in its other spelling when it has one: an
    international name in its letters (`bücher.example`) and in Punycode (`xn--bcher-kva.example`, as
    a client writes it). A handle hashes the spelling it was read under, so a reader tries both."""
    try:
        parts = urlsplit(url)
        host, port = parts.hostname or "", parts.port
    except ValueError:
        return [url]
    user, port_part = parts.netloc.rpartition("@")[0], f":{port}" if port is not None else ""
    others = dict.fromkeys((in_letters(host), in_ascii(host)))  # (a host may mix the two)
    return [url] + [
        urlunsplit(parts._replace(netloc=f"{user + '@' if user else ''}{other}{port_part}"))
        for other in others
        if other != host
    ]


def with_schemes(text: str) -> list[str]:
    """A URL written without its scheme (`example.org/guide`, `//example.org/guide`, as an address
    bar or a page shows it) as the https and http URLs it may be; none for any other text (a
    handle, a URL with its scheme, words)."""
    bare = text[2:] if text.startswith("//") else text
    if not bare or "://" in bare or "~" in bare or any(char.isspace() for char in bare):
        return []
    try:
        host = urlsplit("//" + bare).hostname
    except ValueError:
        return []
    if not host or not ("." in host or host == "localhost" or ":" in bare.partition("/")[0]):
        return []
    return [f"https://{bare}", f"http://{bare}"]


def looks_like_handle(text: str) -> bool:
    return bool(HANDLE_RE.match(text))


def content_hash(text: str) -> str:
    """SHA-256 of a document's text: the identity of one stored version."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
