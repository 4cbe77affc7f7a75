"""URL canonicalization, so the same page found by two engines merges into one result.

`canonical_url` keeps a URL usable (scheme kept); `dedup_key` is the merge key (scheme-free).
Both drop what never changes the page: fragments, default ports, tracking parameters,
a trailing slash, the host's case and its `www.` prefix.
"""

from __future__ import annotations

from urllib.parse import parse_qsl, quote, unquote, urlencode, urlsplit, urlunsplit

TRACKING_PREFIXES = ("utm_", "pk_", "mtm_", "__hs", "_hs")
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
    }
)
DEFAULT_PORTS = {"http": 80, "https": 443}


def is_tracking_param(name: str) -> bool:
    lowered = name.lower()
    return lowered in TRACKING_PARAMS or lowered.startswith(TRACKING_PREFIXES)


def strip_tracking(url: str) -> str:
    """`url` without tracking parameters (utm_*, fbclid, ref_src, ...); the rest exactly as it was."""
    parts = urlsplit(url)
    if not parts.query:
        return url
    pairs = parts.query.split("&")
    kept = [pair for pair in pairs if pair and not is_tracking_param(unquote(pair.split("=", 1)[0]))]
    if len(kept) == len(pairs):
        return url
    return urlunsplit(parts._replace(query="&".join(kept)))


def _host(hostname: str) -> str:
    host = hostname.lower().rstrip(".")
    return host[4:] if host.startswith("www.") and host.count(".") >= 2 else host


def _path(path: str) -> str:
    path = quote(unquote(path), safe="/:@!$&'()*+,;=-._~%")
    if len(path) > 1 and path.endswith("/"):
        path = path.rstrip("/") or "/"
    return path or "/"


def _query(query: str) -> str:
    pairs = [(k, v) for k, v in parse_qsl(query, keep_blank_values=True) if not is_tracking_param(k)]
    return urlencode(sorted(pairs), doseq=True)


def canonical_url(url: str) -> str:
    """The URL with its case, port, fragment, tracking parameters and trailing slash normalized.

    A URL that cannot be parsed comes back stripped of whitespace, unchanged otherwise.
    """
    text = url.strip()
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        return text
    scheme = parts.scheme.lower()
    if not parts.hostname or scheme not in ("http", "https"):
        return text
    netloc = _host(parts.hostname)
    if ":" in netloc:  # IPv6 literal
        netloc = f"[{netloc}]"
    if port is not None and port != DEFAULT_PORTS.get(scheme):
        netloc = f"{netloc}:{port}"
    return urlunsplit((scheme, netloc, _path(parts.path), _query(parts.query), ""))


def dedup_key(url: str) -> str:
    """The merge key of a URL: its canonical form without the scheme (http and https merge)."""
    canonical = canonical_url(url)
    _, sep, rest = canonical.partition("://")
    return rest if sep else canonical
