"""A page's site as its title and its address name it: `Headline | Site` -> `Headline` (the site named
by the page or by its host), and whether an address is the site's home page."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from webferret.net.canonical import strip_tracking

_NOT_ALNUM = re.compile(r"[\W_]+")
_TITLE_SEPARATORS = (" | ", " - ", " – ", " — ", " :: ", " · ", " • ", " » ")


# the document a server answers for a folder's own address: `/index.html` is `/`
INDEX_DOCUMENT = re.compile(r"/(?:index|default)\.(?:html?|php|aspx?|jsp)$", re.I)


def strip_site(title: str | None, site: str | None, url: str | None = None) -> str | None:
    """`Headline | Site` -> `Headline`: the site named by the page (letters and digits compared, so
    `Al Bawaba` is `Al-Bawaba`; a name that begins the site's, so `Inexhibit` is `Inexhibit magazine`)
    or by the URL's host (`Accruent` on www.accruent.com). `Site | Headline` -> `Headline` only for the
    page's own site name, exactly (a home page's `Brand - tagline` keeps its brand). A home page's
    title is left whole: there the site is what the page is about (`Acme Widgets — since 1950`). A
    name a template wrote twice goes twice (`Best Exhibitions – Artlyst - Artlyst`)."""
    if not title or home_page(url):
        return title
    names = [name for name in (squeezed(site), _host_label(url)) if name]
    for _ in range(_SITE_REPEATS):
        cut = _site_stripped(title, site, names)
        if cut is None:
            break
        title = cut
    return title


_SITE_REPEATS = 3
"""Times, at most, a site's name is cut from one title."""


def _site_stripped(title: str, site: str | None, names: list[str]) -> str | None:
    """The title without its site's name once (`strip_site`), or None when it names no site."""
    for sep in _TITLE_SEPARATORS:
        head = _site_cut(title, sep, names)
        if head:
            return head
        if site and title.startswith(site + sep) and title[len(site + sep) :].strip():
            return title[len(site + sep) :].strip()
    return None


def _site_cut(title: str, sep: str, names: list[str]) -> str | None:
    """The title before the `sep` that begins its site's name: the last part (`| Al Bawaba`, or one that
    begins with the name and a few words more, `| EcoFlow ZA`, `- Nintendo - Official Site`), else
    the last parts together when the name holds the separator itself (`- BBK Marketing - BlackBoxKey`),
    up to `_SITE_PARTS` of them: a title of thousands of parts is read in one pass, not once a part."""
    head, found, tail = title.rpartition(sep)
    for _ in range(_SITE_PARTS):
        if not (found and head.strip()):
            break
        if _names_site(tail, names) or _brand_first(tail, names):
            return head.strip()
        head, found, part = head.rpartition(sep)
        tail = f"{part}{sep}{tail}"
    return None


_SITE_PARTS = 4
"""The last parts of a title, at most, that can name its site together (`BBK Marketing - BlackBoxKey`)."""


def _brand_first(part: str, names: list[str]) -> bool:
    """Whether a title's last part is the site's name and a few words more (`EcoFlow ZA`, `Nexxis USA`,
    `Bridgestone Tires`, `Nintendo - Official Site`): the name ends where a word does, so a word that
    only begins with it (`Timeline of events` on time.com, `Applesauce recipes` on apple.com) is the
    page's own."""
    if len(part.split()) > _BRAND_WORDS:
        return False
    letters = squeezed(part)  # compared first: a pattern is built only for a name the part begins with
    return any(len(name) >= 4 and letters.startswith(name) and _begins_with(part, name) for name in names)


def _begins_with(text: str, name: str) -> bool:
    """Whether `text` begins with `name` (a squeezed name: letters and digits compared) and a word
    ends where the name does ("Doom9's Forum" begins with doom9, "Timeline" not with time)."""
    spaced = _NON_ALNUM_RUN.join(map(re.escape, name))
    return re.match(f"{_NON_ALNUM_RUN}{spaced}(?![^\\W_])", text, re.I) is not None


_NON_ALNUM_RUN = r"[\W_]*"


_BRAND_WORDS = 4
"""At most this many words in a title's last part that begins with the site's name and names the site."""


def home_page(url: str | None) -> bool:
    """Whether `url` is a site's home page: a host, and no path or query but tracking parameters
    (`/?srsltid=...` of a shop's home page found through Google, `/?utm_source=...`; a page read from
    standard input, with no URL, is none). Its index document, `/index.html`, `/index.php`, is it too."""
    parts = urlsplit(strip_tracking(url)) if url else None
    return (
        parts is not None
        and bool(parts.hostname)
        and INDEX_DOCUMENT.sub("/", parts.path) in ("", "/")
        and not parts.query
    )


def _names_site(part: str, names: list[str]) -> bool:
    letters = squeezed(part)
    return len(letters) > 2 and any(name.startswith(letters) for name in names)


def squeezed(text: str | None) -> str:
    return _NOT_ALNUM.sub("", text.lower()) if text else ""


def _host_label(url: str | None) -> str:
    """The host's main label: `accruent` for www.accruent.com (the label before the public suffix,
    taken as the last one or two labels); on a host that gives each user's site a name of its own
    (`_HOSTING`), that name: `mylib` for mylib.readthedocs.io, whose Sphinx titles end in
    "— MyLib 2.1 documentation"."""
    host = urlsplit(url).hostname if url else None
    if not host:
        return ""
    labels = [label for label in host.split(".") if label not in ("www", "m")]
    if len(labels) >= 3 and ".".join(labels[-2:]) in _HOSTING:
        return labels[-3]
    if len(labels) >= 3 and len(labels[-2]) <= 3:  # example.co.uk, example.com.br
        return labels[-3]
    return labels[-2] if len(labels) >= 2 else ""


_HOSTING = frozenset((
    "readthedocs.io", "github.io", "gitlab.io", "netlify.app", "vercel.app", "pages.dev", "web.app",
    "blogspot.com", "wordpress.com", "substack.com", "ghost.io", "hashnode.dev", "bearblog.dev",
    "gitbook.io", "herokuapp.com", "tumblr.com", "neocities.org", "codeberg.page",
))  # fmt: skip
"""Hosts whose sites are their users' (the Public Suffix List's private part, its common blog and
documentation hosts): the label before is the site's own name."""
