"""URL canonicalization, so the same page found by two engines merges into one result.

`canonical_url` keeps a URL usable (scheme kept); `dedup_key` is the merge key (scheme-free).
Both drop what never changes the page: fragments, default ports, tracking parameters and session ids,
a trailing slash, dot segments, the host's case and its `www.` prefix. The merge key also reads
another edition of the same page as that page: a mobile host (`en.m.wikipedia.org`, `m.site.com`),
an AMP copy (`amp.` host, a final `/amp`, `?amp=1`, Google's AMP cache and viewer), old and new
Reddit, and YouTube's short links.
"""

from __future__ import annotations

import posixpath
import re
import unicodedata
from urllib.parse import parse_qsl, quote, unquote, urlencode, urlsplit, urlunsplit

TRACKING_PREFIXES = ("utm_", "pk_", "mtm_", "__hs", "_hs", "aspsessionid")
TRACKING_PARAMS = frozenset(
    {
        "fbclid",
        "gclid",
        "gclsrc",
        "dclid",
        "gbraid",
        "wbraid",
        "msclkid",
        "yclid",
        "twclid",
        "ttclid",
        "igshid",
        "mc_cid",
        "mc_eid",
        "mkt_tok",
        "oly_anon_id",
        "oly_enc_id",
        "vero_id",
        "_ga",
        "_gl",
        "ref_src",
        "ref_url",
        "spm",
        "srsltid",
        # a session's id a server writes into its links for a client without cookies (PHP, Java
        # servlets, ColdFusion): a new one in every link made each page a new URL, a crawl's trap
        "phpsessid",
        "jsessionid",
        "cfid",
        "cftoken",
    }
)
_SESSION_IN_PATH = re.compile(r";jsessionid=[^/?#;]*", re.IGNORECASE)
"""A Java servlet's session id as a path parameter (`/cart;jsessionid=0A1B...`)."""
DEFAULT_PORTS = {"http": 80, "https": 443}


def is_tracking_param(name: str) -> bool:
    lowered = name.lower()
    return lowered in TRACKING_PARAMS or lowered.startswith(TRACKING_PREFIXES)


def strip_tracking(url: str) -> str:
    """`url` without tracking parameters (utm_*, fbclid, ref_src, ...) and session ids (PHPSESSID,
    `;jsessionid=`); the rest exactly as it was."""
    parts = urlsplit(url)
    path = _SESSION_IN_PATH.sub("", parts.path) if ";" in parts.path else parts.path
    if not parts.query:
        return url if path == parts.path else urlunsplit(parts._replace(path=path))
    pairs = parts.query.split("&")
    kept = [pair for pair in pairs if pair and not is_tracking_param(unquote(pair.split("=", 1)[0]))]
    if len(kept) == len(pairs) and path == parts.path:
        return url
    return urlunsplit(parts._replace(path=path, query="&".join(kept)))


def canonical_host(hostname: str) -> str:
    """A host as the canonical URL writes it: lower case, no final dot, no `www.` before a domain
    (`www.github.com` is `github.com`; `www.com` stays), an international name in its own letters
    (`xn--bcher-kva.de` is `bücher.de`: engines and redirects give either), its letters composed as
    IDNA composes them (`bu\u0308cher.de`, a `u` and a combining diaeresis, is `bücher.de`)."""
    host = in_letters(hostname.lower().rstrip("."))
    return host[4:] if host.startswith("www.") and host.count(".") >= 2 else host


def in_letters(host: str) -> str:
    """`host` with each label in Punycode (`xn--bcher-kva`) in its own letters (`bücher`), composed
    as IDNA composes them (`bu\u0308cher`, a `u` and a combining diaeresis, is `bücher`), so a name
    written any of these ways is one host (`net.domains` matches domains so too)."""
    host = ".".join(_letters(label) for label in host.split(".")) if "xn--" in host else host
    return host if host.isascii() else unicodedata.normalize("NFC", host)


def in_ascii(host: str) -> str:
    """`host` as a client sends it: each label not in ASCII in Punycode (`bücher` is `xn--bcher-kva`,
    as httpx and a browser write it, so a fetched page's final URL names it so); the inverse of
    `in_letters` for a host in lower case. Its letters are composed first, as IDNA composes them:
    `bu\u0308cher` (a `u` and a combining diaeresis) is `xn--bcher-kva`, not another name."""
    if host.isascii():
        return host
    letters = in_letters(host)
    try:
        return ".".join(
            label if label.isascii() else "xn--" + label.encode("punycode").decode()
            for label in letters.split(".")
        )
    except UnicodeError:
        return host


def _letters(label: str) -> str:
    """A host label written in Punycode (`xn--bcher-kva`) in its own letters; any other as it is."""
    if not label.startswith("xn--"):
        return label
    try:
        letters = label[4:].encode("ascii").decode("punycode").lower()
    except (UnicodeError, ValueError):
        return label
    # only letters, digits, marks and hyphens: never a dot, slash or `@` that would change the URL;
    # and some not ASCII (`xn--abc-` is no name, though Punycode reads it `abc`)
    named = all(ch.isalnum() or ch == "-" or unicodedata.category(ch)[0] == "M" for ch in letters)
    return letters if letters and not letters.isascii() and named else label


_ENCODED_SLASH = re.compile("%2f", re.IGNORECASE)
_BYTES = "surrogateescape"
"""How an escape of a byte that is no UTF-8 (`%E9`, a Latin-1 `é`) is decoded and encoded again: as
that byte, not as U+FFFD (which made `/caf%E9` and `/caf%E8` one page)."""


def encoded_path(path: str, safe: str = "") -> str:
    """`path` percent-encoded one way however it was written, as a client sends it: `/dócs/`,
    `/d%C3%B3cs/` and `/d%c3%b3cs/` alike, `/my page` as `/my%20page`; `safe`, more characters
    left as they are (a glob's `?[]`). A `%2F` is a slash inside a segment (`/a%2Fb` is one
    segment, `/a/b` two): it stays encoded. An escaped byte that is no UTF-8 (`%e9`) stays that
    byte (`%E9`)."""
    parts = _ENCODED_SLASH.split(path)
    safe = "/:@!$&'()*+,;=-._~%" + safe
    return "%2F".join(quote(unquote(part, errors=_BYTES), safe=safe, errors=_BYTES) for part in parts)


def _path(path: str) -> str:
    path = encoded_path(_SESSION_IN_PATH.sub("", path) if ";" in path else path)
    if "/." in path:  # `/a/./b`, `/a/../b` (RFC 3986's dot segments; the trailing slash kept for now)
        path = posixpath.normpath(path) + ("/" if path.endswith("/") else "")
    if len(path) > 1 and path.endswith("/"):
        path = path.rstrip("/") or "/"
    return path or "/"


def _pairs(query: str) -> list[tuple[str, str]]:
    """`query`'s names and values, decoded (an escaped byte that is no UTF-8 as that byte: `_BYTES`)."""
    return parse_qsl(query, keep_blank_values=True, errors=_BYTES)


def _encoded(pairs: list[tuple[str, str]]) -> str:
    return urlencode(pairs, errors=_BYTES)


def _query(query: str) -> str:
    return _encoded(sorted((k, v) for k, v in _pairs(query) if not is_tracking_param(k)))


def canonical_url(url: str) -> str:
    """The URL with its case, port, fragment, tracking parameters and trailing slash normalized.

    A URL that cannot be parsed comes back stripped of whitespace, unchanged otherwise (one with a
    character that is no text too, a lone surrogate: its path could not be percent-encoded).
    """
    text = url.strip()
    try:
        text.encode()
        parts = urlsplit(text)
        port = parts.port
    except ValueError:  # UnicodeEncodeError is one
        return text
    scheme = parts.scheme.lower()
    if not parts.hostname or scheme not in ("http", "https"):
        return text
    netloc = canonical_host(parts.hostname)
    if ":" in netloc:  # IPv6 literal
        netloc = f"[{netloc}]"
    if port is not None and port != DEFAULT_PORTS.get(scheme):
        netloc = f"{netloc}:{port}"
    return urlunsplit((scheme, netloc, _path(parts.path), _query(parts.query), ""))


_EDITION_LABELS = frozenset(("m", "mobile", "amp"))  # a host label that names an edition, not a site
_REDDIT_HOSTS = frozenset(("old.reddit.com", "new.reddit.com", "np.reddit.com"))
_YOUTUBE_SHARE = frozenset(("feature", "si"))


def dedup_key(url: str) -> str:
    """The merge key of a URL: its canonical form without the scheme (http and https merge), read
    as the page it is an edition of (see the module's note)."""
    canonical = canonical_url(_from_amp_cache(url.strip()))
    try:
        parts = urlsplit(canonical)
    except ValueError:
        return canonical
    if not parts.hostname or not parts.scheme:
        return canonical
    host, path, query = edition_host(parts.netloc), parts.path, parts.query
    if host == "youtu.be" and path.count("/") == 1 and len(path) > 1:
        host, path, query = "youtube.com", "/watch", _query(f"v={path[1:]}&{query}")
    if path.endswith("/amp") and len(path) > 4:
        path = path[:-4] or "/"
    dropped = _YOUTUBE_SHARE | {"amp"} if host == "youtube.com" else {"amp"}
    query = _encoded([(k, v) for k, v in _pairs(query) if k not in dropped])
    return f"{host}{path}" + (f"?{query}" if query else "")


def edition_host(host: str) -> str:
    """The host of the site `host` (canonical: `canonical_host`) is an edition of: without a label
    naming a mobile or AMP edition (`en.m.wikipedia.org`: `en.wikipedia.org`), and old or new Reddit
    as `reddit.com`. The merge key reads pages so, and a search's `--site` both the site and each
    result's host."""
    labels = host.split(".")
    if any(label in _EDITION_LABELS for label in labels[:-2]):  # (rare: the suffix list is read only then)
        named = len(labels) - _site_labels(host)  # the labels before the site's registered name
        labels = [label for i, label in enumerate(labels) if not (label in _EDITION_LABELS and i < named)]
    kept = ".".join(labels)
    return "reddit.com" if kept in _REDDIT_HOSTS else kept


def _site_labels(host: str) -> int:
    """The labels of the name `host`'s site is registered under (`example.co.uk`: 3; `amp.github.io`,
    a user's site under a public suffix: 3), by the Public Suffix List; 2 for a name it cannot read."""
    from tld import get_tld  # (the list takes 80 ms to load: a host with an edition's label only)

    found = get_tld(host, fix_protocol=True, fail_silently=True, as_object=True)
    return len(found.fld.split(".")) if found is not None and not isinstance(found, str) else 2


_GOOGLE = re.compile(r"(?:www\.)?google\.(?:com?\.)?[a-z]{2,3}")
"""Google's own hosts (`www.google.com`, `google.co.uk`, `www.google.de`), whose `/amp/` viewer shows
an AMP page under Google's address (`https://www.google.com/amp/s/site.com/a`)."""


def _from_amp_cache(url: str) -> str:
    """The page a Google AMP cache URL (`https://site-com.cdn.ampproject.org/c/s/site.com/a`) or
    Google's AMP viewer (`https://www.google.com/amp/s/site.com/a`) serves."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return url
    host = parts.hostname or ""
    kind, _, rest = parts.path.lstrip("/").partition("/")  # `c` (page), `v` (viewer); then `s` for https
    if host.endswith(".cdn.ampproject.org"):
        kinds = ("c", "v")
    elif _GOOGLE.fullmatch(host):
        kinds = ("amp",)
    else:
        return url
    if kind not in kinds or not rest:
        return url
    scheme = "https" if rest.startswith("s/") else "http"
    rest = rest[2:] if rest.startswith("s/") else rest
    return f"{scheme}://{rest}" + (f"?{parts.query}" if parts.query else "")
