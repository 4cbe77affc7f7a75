"""The path of a URL as it is requested and as a server reads it.

A client resolves a path's dot segments before it sends it (RFC 3986: `/docs/../admin/` is sent as
`/admin/`), and servers merge runs of slashes (`//private` is `/private`). Whatever judges a URL by
its path (a crawl's scope and globs, robots.txt, a page's handle) judges that path, or `..` takes a
URL past the rule.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath
from urllib.parse import quote, unquote, urlsplit, urlunsplit

_SLASHES = re.compile(r"/{2,}")
_UNSENT = re.compile(r"%[0-9A-Fa-f]{2}|[^A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]")
"""An escape, or a character RFC 3986 lets no URL hold (a letter not ASCII, a space, `"<>\\^`{|}`)."""


def percent_encoded(text: str) -> str:
    """A path or query as a client sends it: a character no URL may hold encoded in UTF-8 (`café`
    is `caf%C3%A9`, `a b` is `a%20b`), the hex of every escape in capitals (RFC 3986 6.2.2.1:
    `%c3%a9` is `%C3%A9`), the rest as it is (a reserved character and its escape are not one: `&`,
    `%26`). So the two ways an address is written, as a browser shows it and as it copies it, are
    one page."""
    return _UNSENT.sub(
        lambda found: found[0].upper() if found[0][0] == "%" else quote(found[0], safe=""), text
    )


def without_dot_segments(path: str) -> str:
    """`path` with RFC 3986's dot segments resolved (`/a/./b`, `/a/x/../b` are `/a/b`), as a
    client sends it: one page, one handle."""
    if "/." not in path and "%2e" not in path.lower():
        return path
    segments = path.split("/")
    kept: list[str] = []
    for segment in segments[1:]:
        dots = segment.lower().replace("%2e", ".")  # `%2e` is a dot, as a client reads it
        if dots == "..":
            if kept:
                kept.pop()
        elif dots != ".":
            kept.append(segment)
    folder = segments[-1].lower().replace("%2e", ".") in (".", "..") and bool(kept)  # `/a/b/..`: `/a/`
    return "/" + "/".join(kept) + ("/" if folder else "")


def as_requested(url: str, merged: bool = False) -> str:
    """`url` with its path's dot segments resolved, as an HTTP client requests it
    (`https://x.org/docs/../admin/` is `https://x.org/admin/`); with `merged`, its runs of slashes
    one too, as a server reads it (what robots.txt judges)."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return url
    path = without_dot_segments(_SLASHES.sub("/", parts.path) if merged else parts.path)
    return url if path == parts.path else urlunsplit(parts._replace(path=path))


def file_name(url: str | None) -> str | None:
    """The last segment of `url`'s path, decoded (`/docs/Guide%201.pdf`: `Guide 1.pdf`), or None
    (a path ending in `/`, or standard input's `-`). A title, so on one line: a line break or tab
    in the name (`a%0Ab.txt`, a local file's name) is a space."""
    name = " ".join(PurePosixPath(unquote(urlsplit(url or "").path)).name.split())
    return name if name and name != "-" else None
