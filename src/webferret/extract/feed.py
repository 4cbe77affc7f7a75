"""RSS and Atom feeds as a listing: the feed's title and description, then each entry as a heading
that links to it, with its date and author and its summary as text.

A feed is told by its root element (`rss`, Atom's `feed`, RSS 1.0's `rdf:RDF`), whatever type it was
served as (feeds come as text/xml, application/rss+xml, text/html, text/plain). feedparser reads it,
the broken ones included; it is given the bytes (never a URL or a path, which it would open itself).
"""

from __future__ import annotations

import io
import re
import time
from collections.abc import Mapping, Sequence
from typing import Any

from webferret.extract.markdown import link_target
from webferret.extract.types import Extracted, ExtractOptions
from webferret.extract.words import count_words
from webferret.fetch.sniff import mime_of
from webferret.models import ErrorCode, FerretError, Link
from webferret.remote_text import url_without_blanks

_SPACE = re.compile(r"\s+")
_BLOCK_END = re.compile(r"<(?:br|hr|/p|/div|/li|/h[1-6]|/tr|/td|/th|/blockquote|/pre)\b[^>]*>", re.IGNORECASE)


def extract_feed(
    body: bytes, url: str | None, content_type: str | None, options: ExtractOptions
) -> Extracted | None:
    """The feed in `body` as a listing, or None when feedparser finds neither a title nor an entry;
    `FerretError` (`empty_content`) for a feed without entries."""
    import feedparser

    headers = {"content-type": content_type or "application/xml"}
    if url:
        headers["content-location"] = url  # relative links are made absolute against it
    parsed = feedparser.parse(io.BytesIO(body), response_headers=headers, sanitize_html=False)
    version = str(parsed.get("version") or "")
    served = _declared(content_type, version)
    return listing(parsed.feed, parsed.entries, version or "unknown", url, served, options)


def listing(
    feed: Mapping[str, Any],
    entries: Sequence[Mapping[str, Any]],
    version: str,
    url: str | None,
    content_type: str,
    options: ExtractOptions,
) -> Extracted | None:
    """A feed as a listing, read from its fields as feedparser names them (`title`, `subtitle`,
    `link`, an entry's `summary`, `content`, `published_parsed`, `author`...), or None when it has
    neither a title nor an entry; `FerretError` (`empty_content`) for a feed without entries."""
    shown = ("title", "link", "summary", "content")  # an entry with none of them has nothing to list
    entries = [entry for entry in entries if any(entry.get(key) for key in shown)]
    title = _text(feed.get("title"))
    if not title and not entries:
        return None  # not a feed after all (an XML document whose root is called `feed`): shown as XML
    if not entries:
        where = url or "input"
        raise FerretError(ErrorCode.EMPTY_CONTENT, f"the feed at {where} ({title}) has no entries")
    about = _text(feed.get("subtitle"))
    markdown: list[str] = [about] if about else []  # the title is the page's (left out, as an HTML page's)
    plain, links = list(markdown), []
    for entry in entries:
        heading, line, summary, link = _entry(entry)
        markdown.append(f"## [{_bracketed(heading)}]({link_target(link)})" if link else f"## {heading}")
        plain.append(heading)
        if link:
            links.append(Link(url=link, text=heading, in_main=True))
        for part in (line, summary):
            if part:
                markdown.append(part)
                plain.append(part)
    extra: dict[str, object] = {"feed": version, "entries": len(entries)}
    if title:
        extra["title_left_out"] = True  # the views put it back (`--quiet`) or show it above the body
    text = "\n\n".join(plain) + "\n" if plain else ""
    return Extracted(
        content_type=content_type,
        title=title or None,
        site_name=title or None,
        description=about or None,
        language=_text(feed.get("language")) or None,
        modified=_day(feed.get("updated_parsed")),
        canonical_url=feed.get("link") or None,
        image=(feed.get("image") or {}).get("href") or None,
        page_type="listing",
        format="text" if options.format == "text" else "markdown",  # `--format html` is for HTML pages
        content=text if options.format == "text" or not markdown else "\n\n".join(markdown) + "\n",
        word_count=count_words(text),
        links=links,
        extra=extra,
    )


def _entry(entry: Mapping[str, Any]) -> tuple[str, str, str, str | None]:
    """An entry's heading, its date and author line, its summary as text, and its link."""
    summary = _text(entry.get("summary"))
    if not summary and entry.get("content"):
        summary = _text(entry["content"][0].get("value"))
    heading = _text(entry.get("title"))
    if not heading:  # an untitled entry is headed by its first words (the whole of a short summary)
        heading = _first_words(summary) or "(untitled)"
        summary = "" if heading == summary else summary
    day = _day(entry.get("published_parsed") or entry.get("updated_parsed"))
    author = _author(entry)
    line = " · ".join(part for part in (day, f"by {author}" if author else None) if part)
    link = url_without_blanks(entry.get("link") or "")  # shown in listings: no control nor hidden mark
    return heading, line, summary, link if link.lower().startswith(("http://", "https://")) else None


def _author(entry: Mapping[str, Any]) -> str:
    """An entry's author by name: RSS 2.0 writes `<author>` as an address with the name after it
    (`jane@example.com (Jane Porter)`); the address only when it names no one. (feedparser's own
    split, `author_detail`, cuts addresses of long top-level domains: `ple (Ada` of `.example`.)"""
    author = _text(entry.get("author"))
    named = _ADDRESS_AND_NAME.fullmatch(author)
    return named.group(1).strip() if named else author


_ADDRESS_AND_NAME = re.compile(r"[^\s@()]+@[^\s@()]+\s*\((.*\w.*)\)")


def _text(value: object) -> str:
    """A feed field as one line of text: markup and entities read, whitespace collapsed."""
    if not isinstance(value, str) or not value.strip():
        return ""
    if "<" in value or "&" in value:
        import lxml.html

        try:
            spaced = _BLOCK_END.sub(r"\g<0> ", value)  # paragraphs' words do not run together
            root = lxml.html.fragment_fromstring(spaced, create_parent="div")
            for code in list(root.iter("script", "style", "template")):  # not words of the entry
                code.drop_tree()
            value = root.text_content()
        except Exception:  # not markup after all (a "<" in a title): keep the text as it came
            pass
    return _SPACE.sub(" ", value).strip()


def _first_words(text: str, most: int = 12) -> str:
    words = text.split()
    return " ".join(words[:most]) + (" ..." if len(words) > most else "")


def _bracketed(text: str) -> str:
    """`text` safe inside a Markdown link's brackets."""
    return text.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")


def _declared(content_type: str | None, version: str) -> str:
    """The type the feed was served as when it says XML, else the one its kind has."""
    mime = mime_of(content_type)
    if "xml" in mime:
        return mime
    return "application/atom+xml" if version.startswith("atom") else "application/rss+xml"


def _day(parsed: time.struct_time | None) -> str | None:
    """feedparser's parsed date (UTC) as YYYY-MM-DD."""
    return time.strftime("%Y-%m-%d", parsed) if parsed else None
