"""What an `allow_hosts` entry may be: a host name or IP address as URLs write it, nothing more.

An entry is matched against the host of a URL exactly as written (see `webferret.net.policy`), so
`127.0.0.1:8800`, `http://127.0.0.1/` or `example.org/docs` would never match anything: they are
refused at start with what to write instead, rather than exempting nothing silently.
"""

from __future__ import annotations


def allow_host_entry(text: str) -> str:
    """`text` itself when it is a bare host or IP; else `ValueError` saying what to write."""
    host = text.strip()
    if "://" in host or "/" in host:
        bare = host.split("://", 1)[-1].split("/", 1)[0]
        raise ValueError(
            f"expected a host name or IP address, not a URL or path (got {text!r}; write {bare!r})"
        )
    bracketed_port = host.startswith("[") and "]:" in host
    if bracketed_port or host.count(":") == 1:
        bare = host.rsplit(":", 1)[0]
        raise ValueError(
            f"expected a host without a port: it is allowed on every port (got {text!r}; write {bare!r})"
        )
    return text
