"""A page's own robots rules: `<meta name="robots">` and the `X-Robots-Tag` response header.

Of their directives, the two a crawl owes a site are kept: `nofollow` (do not follow the page's
links) and `noindex` (do not put the page in an index); `none` is both. A rule for a named crawler
applies to webferret when it names webferret (`<meta name="webferret">`, `X-Robots-Tag: webferret:
nofollow`); a rule naming another crawler (`googlebot`) does not. A page's directives are kept in
its `meta["robots"]` (and so in the store), read back by `page_directives`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from webferret.models import Page

AGENT = "webferret"
"""The crawler name a named rule is matched against (robots.txt's product token)."""
KEPT = ("noindex", "nofollow")
"""The directives kept, in the order they are listed."""
META_NAMES = frozenset(("robots", AGENT))
"""The `<meta name>` values whose content is a rule for webferret."""
_ALIASES = {"none": ("noindex", "nofollow"), "noindex": ("noindex",), "nofollow": ("nofollow",)}
_NAMED = re.compile(r"\s*([A-Za-z][\w.-]*)\s*:\s*(.*)", re.S)
"""A header rule naming the crawler it is for: `googlebot: noindex` (or a directive with a value,
`max-snippet: 20`, `unavailable_after: ...`, told apart by its name)."""
_WITH_VALUES = frozenset(("max-snippet", "max-image-preview", "max-video-preview", "unavailable_after"))


def markup_directives(tree: Any) -> list[str]:
    """The directives of a parsed HTML page's robots `<meta>` elements (those `META_NAMES` name),
    together."""
    found: set[str] = set()
    for meta in tree.iter("meta"):
        if (meta.get("name") or "").strip().lower() in META_NAMES:
            for token in (meta.get("content") or "").split(","):
                found.update(_ALIASES.get(token.strip().lower(), ()))
    return [name for name in KEPT if name in found]


def header_directives(value: str | Iterable[str] | None) -> list[str]:
    """The directives of an `X-Robots-Tag` header (one value, or its lines apart) that apply to
    webferret: those for every crawler and those naming webferret (a crawler's name applies to the
    directives after it, up to the next name or the end of its line: `googlebot: noindex` then a
    line `nofollow` is a `nofollow` for every crawler)."""
    found: set[str] = set()
    for line in [value or ""] if isinstance(value, str) or value is None else value:
        agent: str | None = None
        for token in line.split(","):
            named = _NAMED.fullmatch(token)
            if named and named.group(1).lower() not in _WITH_VALUES:
                agent, token = named.group(1).lower(), named.group(2)
            if agent is None or agent == AGENT:
                found.update(_ALIASES.get(token.strip().lower(), ()))
    return [name for name in KEPT if name in found]


def header_lines(headers: Any) -> list[str]:
    """The `X-Robots-Tag` lines of a response's `headers`, each apart where the tier kept them so
    (httpx's headers list them; the other tiers' headers join them with commas, read as one line)."""
    if hasattr(headers, "get_list"):
        return list(headers.get_list("x-robots-tag"))
    value = headers.get("x-robots-tag")
    return [value] if value else []


def page_directives(page: Page | Any) -> frozenset[str]:
    """The robots directives `page` carries (`meta["robots"]`: its markup's and its header's)."""
    said = page.meta.get("robots") if isinstance(page.meta, dict) else None
    return frozenset(name for name in said or () if name in KEPT)


def combined(*lists: Iterable[str]) -> list[str]:
    """The directives of `lists` together, each once, in `KEPT`'s order."""
    found = {name for listed in lists for name in listed}
    return [name for name in KEPT if name in found]
