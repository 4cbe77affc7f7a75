"""What an `allow_hosts` entry may be: a host name or IP address as URLs write it, nothing more;
what an `allowed_domains` or `blocked_domains` entry may be: a domain; and what a `--site` filter
is: the host of whatever the user wrote.

An entry is matched against the host of a URL exactly as written (see `webferret.net.policy`), so
`127.0.0.1:8800`, `http://127.0.0.1/` or `example.org/docs` would never match anything: they are
refused at start with what to write instead, rather than exempting nothing silently.
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

from webferret.net.canonical import canonical_host


def allow_host_entry(text: str) -> str:
    """`text` itself when it is a bare host or IP; else `ValueError` saying what to write."""
    host = text.strip()
    if not host or any(char.isspace() for char in host):  # `--allow-host "$UNSET"`, two words
        raise ValueError(f"expected a host name or IP address (got {text!r})")
    _no_url(text, host, "a host name or IP address")
    if "*" in host or "?" in host:
        raise ValueError(
            f"expected a host name or IP address, not a pattern (got {text!r}): each allowed host is "
            "named whole, or all private hosts are allowed with allow_private_hosts"
        )
    bracketed_port = host.startswith("[") and "]:" in host
    if bracketed_port or host.count(":") == 1:
        bare = host.rsplit(":", 1)[0]
        raise ValueError(
            f"expected a host without a port: it is allowed on every port (got {text!r}; write {bare!r})"
        )
    unbracketed = host[1:-1] if host.startswith("[") and host.endswith("]") else host  # `[::1]`
    _no_stray_character(text, unbracketed, "a host name or IP address")
    return text


def domain_entry(text: str) -> str:
    """`text` itself when it names a domain as `allowed_domains` and `blocked_domains` take it
    (`example.org`, `*.example.org`); else `ValueError` saying what to write. A URL, a path or a
    port is matched against no host: a blocked domain written so would block nothing."""
    domain = text.strip()
    _no_url(text, domain, "a domain")
    if "@" in domain or any(char.isspace() for char in domain):
        raise ValueError(f"expected a domain such as example.org (got {text!r})")
    if domain.count(":") == 1:
        bare = domain.split(":", 1)[0]
        raise ValueError(
            f"expected a domain without a port: it covers every port (got {text!r}; write {bare!r})"
        )
    _no_stray_character(text, domain.lstrip("*"), "a domain such as example.org")  # `*.example.org`
    return text


def _no_stray_character(text: str, entry: str, what: str) -> None:
    """`ValueError` when `entry` holds a character no host name has: `["a.example"]` (a JSON list)
    or `a.example;b.example` is matched against no host, and would allow or block nothing."""
    stray = next((char for char in entry if char in _NOT_IN_HOSTS), None)
    if stray is not None:
        raise ValueError(
            f"expected {what} (got {text!r}: {stray!r} is in no host name; several are written "
            "separated by commas, a.example,b.example)"
        )


def _no_url(text: str, entry: str, what: str) -> None:
    """`ValueError` naming the host to write when `entry` (`text` stripped) is a URL or a path."""
    if "://" in entry or "/" in entry:
        bare = entry.split("://", 1)[-1].split("/", 1)[0]
        raise ValueError(f"expected {what}, not a URL or path (got {text!r}; write {bare!r})")


def no_proxy_entry(text: str) -> str:
    """`text` itself when `no_proxy` can match it (`*`, a domain, an IP address or network such as
    `10.0.0.0/8`); else `ValueError` saying what to write, as a URL, a port or a bad network would
    match no request, and each would go through the proxy."""
    entry = text.strip()
    if entry == "*" or not entry:
        return text
    try:
        ipaddress.ip_address(entry.split("/", 1)[0].strip("[]"))  # `::1` has colons and no port
    except ValueError:
        return domain_entry(text)
    try:
        ipaddress.ip_network(entry.strip("[]"), strict=False)
    except ValueError as exc:
        raise ValueError(
            f"expected an address or a network such as 10.0.0.0/8 (got {text!r}: {exc})"
        ) from None
    return text


_NOT_IN_HOSTS = frozenset("\"'<>\\^`{|}@?#%,;=*!()[]")


def site_host(text: str) -> str:
    """The host a `--site` filter keeps: `example.org` as written (lower case), an IP address (an
    IPv6 one with or without brackets), or the host of `https://example.org/docs` or
    `example.org:8080`; `ValueError` for anything else. A dot before it (`.edu`) or after it is
    dropped, and a `www.` before a domain, as the merging of results and the store's handles drop
    it: `www.github.com` keeps `github.com` and its subdomains. The query's operator written as the
    filter (`site:example.org`, as a model writes it) is its host; a port that is no number
    (`javascript:alert(1)`'s) names no host."""
    written = text.strip()
    if written[:5].lower() == "site:" and not written[5:].isdigit():  # (`site:8080` is a host's port)
        written = written[5:].strip()
    try:
        return str(ipaddress.IPv6Address(written))  # `::1`, which a URL writes `[::1]`
    except ValueError:
        pass
    target = written if "://" in written else f"http://{written}"
    try:
        parts = urlsplit(target)
        host = parts.hostname or ""
        parts.port  # noqa: B018  (a port that is no number raises)
    except ValueError:
        host = ""
    host = host.strip(".")  # `.edu` (as search engines take `site:.edu`) is `edu`; `x.org.` is `x.org`
    if "@" in written or any(char.isspace() for char in written):  # a user name, a second word
        host = ""
    try:
        host.encode()
    except UnicodeEncodeError:  # a lone surrogate (an undecodable argv byte) is in no host name
        host = ""
    if not host or any(char in _NOT_IN_HOSTS for char in host):
        raise ValueError(f"expected a host name such as example.org (got {text!r})")
    return canonical_host(host)
