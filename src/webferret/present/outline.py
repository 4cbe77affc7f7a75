"""A stored document's outline: its headings, each with the page `open` shows it on.

An agent paging through a long document reads the outline first (a few hundred tokens) and then
only the pages of the sections it needs. Headings are the Markdown reading's ATX headings outside
code blocks, or an HTML reading's `<h1>`..`<h6>`; a plain-text reading has none. Page numbers are
those of `paginate` at the same page size, so `open --page K` shows the heading named on page K.
"""

from __future__ import annotations

import html
import re
from bisect import bisect_right
from collections.abc import Iterator, Mapping, Sequence
from itertools import accumulate
from typing import Any

from webferret.models import Page
from webferret.present.paging import fence_after, paginate
from webferret.store.types import DocumentOutline, Heading
from webferret.tokens import estimate_tokens

_QUOTED = re.compile(r"^(?: {0,3}> ?)+")  # a block quote's marks: its headings are the document's too
_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))??(?:[ \t]+#+)?[ \t]*$")
_HTML_HEADING = re.compile(r"<h([1-6])\b[^>]*>(.*?)</h\1\s*>", re.IGNORECASE | re.DOTALL)
_TAG = re.compile(r"<[^>]*>")
_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_MARKS = re.compile(r"\*\*|~~|`")
_EMPHASIS = re.compile(r"(?<![\w*\\])\*(?=\S)(.+?)(?<=[^\s\\])\*(?![\w*])")
_ESCAPED = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|<>~])")
_SPACE = re.compile(r"\s+")
TITLE_CHARS = 200


def headings_of(content: str, fmt: str = "markdown") -> list[tuple[int, int, str]]:
    """(offset, level, title) of each heading of `content`, in document order."""
    return list(iter_headings(content, fmt))


def iter_headings(content: str, fmt: str = "markdown") -> Iterator[tuple[int, int, str]]:
    """`headings_of`, one heading at a time, for a caller that needs only the first few."""
    if fmt == "text":
        return
    if fmt == "html":
        for m in _HTML_HEADING.finditer(content):
            title = _clean(html.unescape(_TAG.sub(" ", m.group(2))))
            if title:
                yield m.start(), int(m.group(1)), title
        return
    fence: str | None = None
    offset = 0
    for line in content.splitlines(keepends=True):
        bare = _QUOTED.sub("", line)
        inside = fence is not None
        fence = fence_after(fence, bare)
        match = None if inside or fence is not None else _ATX.match(bare.rstrip("\r\n"))
        title = _clean(match.group(2) or "") if match else ""
        if match and title:
            yield offset, len(match.group(1)), title
        offset += len(line)


def _clean(title: str) -> str:
    """A heading's words: links as their text, no emphasis marks or escapes, one line."""
    title = _ESCAPED.sub(r"\1", _EMPHASIS.sub(r"\1", _MARKS.sub("", _LINK.sub(r"\1", title))))
    title = _SPACE.sub(" ", title).strip()
    return title if len(title) <= TITLE_CHARS else title[: TITLE_CHARS - 1].rstrip() + "…"


def outline_of(page: Page, page_tokens: int) -> DocumentOutline:
    """The headings of a stored page's content with their pages at `page_tokens` tokens a page, and
    each section's size (its subsections included) in tokens."""
    content = page.content
    pieces = paginate(content, page_tokens)
    starts = list(accumulate((len(piece) for piece in pieces[:-1]), initial=0))
    found = headings_of(content, page.format)
    headings = [
        Heading(
            level=level,
            title=title,
            page=bisect_right(starts, offset),
            tokens=estimate_tokens(content[offset:end]),
        )
        for (offset, level, title), end in zip(found, _section_ends(found, len(content)), strict=True)
    ]
    return DocumentOutline(
        handle=page.handle or "",
        url=page.final_url or page.url,
        title=page.title,
        pages=len(pieces),
        page_tokens=page_tokens,
        tokens=estimate_tokens(content),
        format=page.format,
        fetched_at=page.fetched_at,
        headings=headings,
    )


def _section_ends(found: Sequence[tuple[int, int, str]], length: int) -> list[int]:
    """Where each heading's section ends: at the next heading of its level or above, else at
    `length`. One pass from the end, keeping the headings after this one that could end a section
    before it (a deeper one is hidden by any heading before it that is not deeper)."""
    ends: list[int] = []
    later: list[tuple[int, int]] = []  # (level, offset), nearest last
    for offset, level, _ in reversed(found):
        while later and later[-1][0] > level:
            later.pop()
        ends.append(later[-1][1] if later else length)
        later.append((level, offset))
    return ends[::-1]


def outline_table(
    headings: Sequence[Mapping[str, Any]], most: int | None = None, total: int | None = None
) -> list[str]:
    """The headings (`Heading` as JSON) as aligned lines: page, tokens, the title indented by its
    level. With `most`, the deepest levels are left out until the rest fit; the room left is then
    given to the subsections of the largest sections, whole; a last line says how many headings
    are not shown (`total`: how many the document has, when `headings` were cut already)."""
    shown = list(headings) if most is None else shown_headings(headings, most)
    total = len(headings) if total is None else total
    if not shown:
        return ["(no headings)"]
    top = min(int(heading["level"]) for heading in shown)
    lines = ["page  tokens  heading"]
    for heading in shown:
        indent = "  " * (int(heading["level"]) - top)
        lines.append(f"{heading['page']:>4}  {heading['tokens']:>6}  {indent}{heading['title']}")
    if len(shown) < total:
        lines.append(f"({total - len(shown)} more headings not shown: subsections first)")
    return lines


def shown_headings(headings: Sequence[Mapping[str, Any]], most: int) -> list[Mapping[str, Any]]:
    """At most `most` of `headings`, in document order: every heading of the levels that fit whole,
    then the next level's headings section by section, the sections with the most tokens first."""
    levels = sorted({int(heading["level"]) for heading in headings})
    kept = levels
    while len(kept) > 1 and sum(int(h["level"]) in kept for h in headings) > most:
        kept = kept[:-1]
    chosen = {i for i, heading in enumerate(headings) if int(heading["level"]) in kept}
    if len(chosen) >= most or kept == levels:
        return [headings[i] for i in sorted(chosen)[:most]]
    below = levels[len(kept)]
    groups: dict[int, list[int]] = {}  # the nearest kept heading before them -> the next level's
    parent = -1
    for i, heading in enumerate(headings):
        if i in chosen:
            parent = i
        elif int(heading["level"]) == below:
            groups.setdefault(parent, []).append(i)
    room = most - len(chosen)
    for members in sorted(groups.values(), key=lambda m: -sum(int(headings[i]["tokens"]) for i in m)):
        if len(members) <= room:
            chosen.update(members)
            room -= len(members)
    return [headings[i] for i in sorted(chosen)]
