"""The destination of a click-tracking redirect link, read from the link itself.

Affiliate networks, mail scanners and sites' own "leaving this site" pages wrap the address a link
leads to in one of theirs (`https://www.google.com/url?q=https://x.org/`, `https://www.avantlink.com/
click.php?...&url=https%3A%2F%2Fwww.rei.com%2F...`, `https://nam04.safelinks.protection.outlook.com/
?url=...`): a reader sees the redirector, not where the link goes. Such a link is told by its form: a
query parameter named as a destination (`url`, `u`, `q`, `dest`, ...) that holds an absolute http(s)
address on another host, on a path or a host named for redirecting (`click`, `redirect`, `out`,
`linkfilter`, `l.php`, `safelinks`...). A link to a service that takes an address (a share button's
`sharer.php?u=`, a validator's `check?uri=`) is no redirect and stays as it is.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, unquote, urlsplit

DESTINATION_PARAMS = frozenset((
    "url", "u", "q", "dest", "destination", "target", "to", "redirect", "redirect_url", "redirecturl",
    "goto", "link", "out", "murl", "adurl",
))  # fmt: skip
REDIRECT_WORDS = frozenset((
    "click", "clicks", "redirect", "redir", "redirector", "linkfilter", "out", "outbound", "go", "goto",
    "away", "exit", "url", "l", "links", "track", "tracking", "safelinks", "lnk",
))  # fmt: skip
"""Words of a redirector's path (`/click.php`, `/url`, `/linkfilter/`, Facebook's `/l.php`) or labels of
its host before the site's own name (`clicks.example.com`, `nam04.safelinks.protection.outlook.com`)."""
DEPTH = 3
"""Redirectors read through at most, one inside another (an affiliate's link inside a scanner's)."""
_WORD = re.compile(r"[a-z]+")


def unwrap_redirect(url: str) -> str:
    """Where a click-tracking redirect `url` leads (read through up to `DEPTH` of them); any other URL
    as it is."""
    for _ in range(DEPTH):
        target = _destination(url)
        if target is None:
            break
        url = target
    return url


def _destination(url: str) -> str | None:
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    if not parts.query or not _named_for_redirecting(parts.path, parts.hostname or ""):
        return None
    for name, value in parse_qsl(parts.query):
        if name.lower() not in DESTINATION_PARAMS:
            continue
        target = value if value.startswith(("http://", "https://")) else unquote(value)
        if not target.startswith(("http://", "https://")):
            continue
        try:
            host = urlsplit(target).hostname
        except ValueError:
            continue
        if host and host != parts.hostname:
            return target
    return None


def _named_for_redirecting(path: str, host: str) -> bool:
    labels = set(host.split(".")[:-2])
    return bool((labels | set(_WORD.findall(path.lower()))) & REDIRECT_WORDS)
