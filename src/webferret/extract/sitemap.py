"""XML sitemaps (sitemaps.org) as a list of the pages they name: a line per URL with its date of
change, and every URL in `links`, so an agent can pick what to read without wading through XML.

A `urlset` lists pages; a `sitemapindex` lists further sitemaps (each line says so). Told by the root
element (`sniff.xml_root`), whatever type the file is served as; read with lxml, no entity or network
access; a sitemap that does not parse is left to the XML view. An ampersand a sitemap's URL writes
bare (`?a=1&b=2`, a common slip of sitemap generators) is read as the `&` it means.
"""

from __future__ import annotations

import re

from lxml import etree

from webferret.extract.dates import iso_date
from webferret.extract.types import Extracted, ExtractOptions
from webferret.extract.words import count_words
from webferret.models import Link
from webferret.net.urlpath import file_name
from webferret.remote_text import url_without_blanks

_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, recover=True, huge_tree=True)
_STRICT = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=True)
_BARE_AMPERSAND = re.compile(rb"&(?!(?:[A-Za-z_][\w.-]*+|#[0-9]++|#x[0-9A-Fa-f]++);)")
"""An ampersand that starts no entity or character reference."""


def extract_sitemap(body: bytes, url: str | None, options: ExtractOptions) -> Extracted | None:
    """The sitemap in `body` as a list, or None when it holds no URL to list."""
    try:
        root = _root(body)
    except (etree.XMLSyntaxError, ValueError):
        return None
    if root is None:
        return None
    index = etree.QName(root).localname == "sitemapindex"
    entries = [_entry(node) for node in root if _local(node) in ("url", "sitemap")]
    entries = [(loc, day) for loc, day in entries if loc.lower().startswith(("http://", "https://"))]
    return _listed(entries, index, url, options)


TEXT_SITEMAP_LINE = re.compile(r"https?://\S+", re.IGNORECASE)


def extract_text_sitemap(text: str, url: str | None, options: ExtractOptions) -> Extracted | None:
    """A text sitemap (sitemaps.org: one absolute URL a line, nothing else; robots.txt may name one,
    `Sitemap: https://site/sitemap.txt`) as the list of pages it is, or None for any other text."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if not lines or not all(TEXT_SITEMAP_LINE.fullmatch(line) for line in lines):
        return None
    return _listed([(url_without_blanks(line), None) for line in lines], False, url, options, "text/plain")


def _listed(
    entries: list[tuple[str, str | None]],
    index: bool,
    url: str | None,
    options: ExtractOptions,
    content_type: str = "application/xml",
) -> Extracted | None:
    """A sitemap's `entries` (location, date of change) as its list: pages, or (`index`) sitemaps."""
    if not entries:
        return None
    what = ("sitemap" if index else "page") + ("s" if len(entries) != 1 else "")
    lines = [f"{len(entries)} {what}" + (" (each a sitemap of its own)" if index else "") + ":", ""]
    lines += [f"- {loc}" + (f" · {day}" if day else "") for loc, day in entries]
    text = "\n".join(lines) + "\n"
    if options.format == "text":
        text = text.replace("\n- ", "\n")
    kind = "sitemapindex" if index else "urlset"
    return Extracted(
        content_type=content_type,
        title=file_name(url) or "sitemap",
        page_type="listing",
        format="text" if options.format == "text" else "markdown",
        content=text,
        word_count=count_words(text),
        links=[Link(url=loc, text="", in_main=True) for loc, _ in entries],
        extra={"sitemap": kind, "entries": len(entries)},
    )


def _root(body: bytes) -> etree._Element | None:
    """The root of the XML in `body`; XML that is not well-formed is read leniently, its bare
    ampersands escaped first: read leniently as they are, `&b=2` was dropped as an unknown entity,
    and every entity after it too (`&amp;` lost its `&`), so the URLs listed were not the site's."""
    try:
        return etree.fromstring(body, _STRICT)
    except etree.XMLSyntaxError:
        return etree.fromstring(_escaped(body), _PARSER)


def _escaped(body: bytes) -> bytes:
    """`body` with its bare ampersands escaped, outside CDATA sections (kept as they are). Each
    section's end is looked for once: an unclosed one runs to the end of the file (a pattern that
    looked for the end from each of 16,000 unclosed starts took 8 s)."""
    parts: list[bytes] = []
    at = 0
    while (start := body.find(b"<![CDATA[", at)) >= 0:
        end = body.find(b"]]>", start)
        end = len(body) if end < 0 else end + 3
        parts += [_BARE_AMPERSAND.sub(b"&amp;", body[at:start]), body[start:end]]
        at = end
    return b"".join([*parts, _BARE_AMPERSAND.sub(b"&amp;", body[at:])])


def _local(node: etree._Element) -> str:
    return etree.QName(node).localname if isinstance(node.tag, str) else ""


def _entry(node: etree._Element) -> tuple[str, str | None]:
    """A `url` or `sitemap` element's location and its date of change (YYYY-MM-DD)."""
    loc, day = "", None
    for child in node:
        name = _local(child)
        if name == "loc":
            loc = url_without_blanks(" ".join((child.text or "").split()))
        elif name == "lastmod":
            day = iso_date((child.text or "").strip()[:10])
    return loc, day
