"""A page's outgoing links: absolute URL, anchor text, and whether they sit in the main content."""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from urllib.parse import urldefrag, urlsplit

from lxml import etree, html

from webferret.models import Link
from webferret.net.joined import join_url
from webferret.remote_text import url_without_blanks

_SCHEMES = ("http://", "https://")
LINK_SCHEMES = frozenset(("http", "https", "mailto", "tel"))
"""The schemes a link or image of clean HTML may have (or none: a fragment, or a page without a base)."""
_SCHEME = re.compile(r"([a-z][a-z0-9+.-]*):", re.IGNORECASE)
_URL_IGNORED = re.compile(r"[\t\n\r]")
_C0_OR_SPACE = "".join(map(chr, range(0x21)))  # what a browser strips around a URL


def link_scheme(target: str) -> str | None:
    """The scheme of a link's or image's target as a browser reads it, lower-cased: tabs and line
    breaks removed, controls and spaces around it stripped (`" JaVa\tScript:x"` is `javascript`); None
    for a relative one (a colon after its path, `#sec:intro`, `notes.html?q=kind:hob`, is no scheme)."""
    scheme = _SCHEME.match(_URL_IGNORED.sub("", target).strip(_C0_OR_SPACE))
    return scheme.group(1).lower() if scheme else None


MAX_LINK_URL = 2048
"""A link whose URL is longer is not listed (a tracking blob no reader follows; forty of them would
flood a links listing)."""
# what urljoin and urldefrag would rewrite or check in an absolute URL: a query, fragment or parameters
# (an empty one is dropped), tabs and line breaks (removed), brackets (an IPv6 host is validated),
# spaces and other controls (percent-encoded, as a browser sends them: an ESC or a backspace kept
# would drive the terminal that shows a links listing), backslashes (slashes to a browser: `net.joined`)
_REWRITTEN = re.compile(r"[?#;\[\]\\\x00-\x20\x7f]")


@functools.lru_cache(maxsize=8192)
def absolute(href: str | None, base: str | None) -> str | None:
    """An absolute http(s) URL without its fragment, or None for script, mail and anchor links."""
    href = (href or "").strip()
    if not href or href.startswith(("#", "javascript:", "mailto:", "tel:", "data:")):
        return None
    if _already_absolute(href):
        return href
    origin = _origin(base) if href[:1] == "/" else None
    if origin is not None and _plain_path(href):
        return origin + href
    try:
        url = urldefrag(join_url(base or "", href)).url
    except ValueError:
        return None
    scheme, _, rest = url.partition("://")  # its scheme as a browser reads it: `HTTP://` is http
    return url_without_blanks(f"{scheme.lower()}://{rest}") if scheme.lower() in ("http", "https") else None


def _already_absolute(href: str) -> bool:
    """An ASCII http(s) URL with a host, no blank and nothing urljoin would rewrite: joined, it is
    itself."""
    host_at = 7 if href.startswith("http://") else 8 if href.startswith("https://") else 0
    return (
        host_at > 0
        and len(href) > host_at
        and href[host_at] != "/"
        and href.isascii()
        and _REWRITTEN.search(href) is None
    )


@functools.lru_cache(maxsize=64)
def _origin(base: str | None) -> str | None:
    """`scheme://host` of an http(s) base URL, as urljoin takes them from it; None for any other base."""
    try:
        parts = urlsplit(base or "")
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return None
    return f"{parts.scheme}://{parts.netloc}"


def _plain_path(href: str) -> bool:
    """An ASCII root-relative path that urljoin keeps as it is: no query, fragment, parameters, empty
    or dot segments, nor what it removes (tabs, line breaks); joined to an http(s) base it follows the
    base's `scheme://host`."""
    return (
        href[:1] == "/"
        and "//" not in href
        and "/." not in href
        and href.isascii()
        and _REWRITTEN.search(href) is None
    )


def main_targets(main: etree._Element | None, base: str | None) -> dict[str, str]:
    """Absolute targets of the links inside the main content (HTML `a href` or trafilatura `ref
    target`), each with its words there (the first link to it that has some; else "")."""
    if main is None:
        return {}
    found: dict[str, str] = {}
    for node in main.iter("a", "ref"):
        url = absolute(node.get("href") or node.get("target"), base)
        if url and not found.get(url):
            found[url] = " ".join("".join(node.itertext()).split())
    return found


def page_links(tree: html.HtmlElement, base: str | None, in_main: Mapping[str, str]) -> list[Link]:
    """Every distinct outgoing link of the page: those of the main content first, then the others,
    each in document order (so a capped list keeps the links a reader of the content follows, not
    the site's menus, which come first in most pages). A link of the main content (`in_main`: URL
    to its words there) has its words there, not a menu's."""
    links: list[Link] = []
    seen: dict[str, int] = {}  # URL -> its place in `links`
    for node in tree.iter("a"):
        url = absolute(node.get("href"), base)
        if url is None or len(url) > MAX_LINK_URL:
            continue
        nofollow = "nofollow" in (node.get("rel") or "").lower().split()
        if url in seen:  # a later link to it: one a crawler may follow, or the words a bare icon had not
            first, update = links[seen[url]], dict[str, object]()
            if first.nofollow and not nofollow:
                update["nofollow"] = False
            if not first.text and (text := _words(node, url, in_main)):
                update["text"] = Link(url=url, text=text).text
            if update:
                links[seen[url]] = first.model_copy(update=update)
            continue
        seen[url] = len(links)
        text = _words(node, url, in_main)  # (clipped by `Link`)
        links.append(Link(url=url, text=text, in_main=url in in_main, nofollow=nofollow))
    return sorted(links, key=lambda link: not link.in_main)  # stable: document order within each


def _words(node: html.HtmlElement, url: str, in_main: Mapping[str, str]) -> str:
    """The words a link is named by: its words in the main content, else its own, its title, or its
    image's alt text."""
    return (
        in_main.get(url)
        or " ".join(node.text_content().split())
        or (node.get("title") or "").strip()
        or _image_alt(node)
    )


def _image_alt(node: html.HtmlElement) -> str:
    """The alt text of the first image of a link that has no words of its own (a logo, a figure)."""
    for image in node.iter("img"):
        alt = " ".join((image.get("alt") or "").split())
        if alt:
            return alt
    return ""
