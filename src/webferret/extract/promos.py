"""A site's links to its other stories, set between an article's paragraphs, left out.

News sites and blogs break an article's text with one-line pointers to their other pages: "READ MORE:
China plague outbreak confirmed", "Related: The 15 Weirdest Galaxies in Our Universe", "Also on rt.com
...". Each is a label and a link to another page, and reads as a stray sentence in the middle of the
story. A paragraph goes when it opens with such a label (`_LABEL`) and what follows the label is the
text of one of the page's links: a label alone ("See also:", over the list it names) and a sentence
that only starts with "More" stay. A paragraph that is a link and all capitals is another story's
headline, shouted the way some news sites set them between paragraphs (`SHOUTED_WORDS`). A line of the
page's tags or filing ("Tags: tides, moon", "Filed under: Science") is the site's index of the page,
not its text (`tag_line`).
"""

from __future__ import annotations

import re

from lxml import etree

from webferret.extract.blocks import drop_keep_tail
from webferret.extract.words import count_words

_LABELS = (
    r"read more|related(?: articles?| stories| posts?)?|see also|also read|read also|recommended"
    r"|also on [\w.]+|more from [\w.' ]{1,30}|more|don't miss|watch|listen"
)
_LABEL = re.compile(rf"\s*(?:{_LABELS})\s*[:>|\-\u2013\u2014]\s*", re.I)
"""A label and its mark ("Related: ", "READ MORE - ")."""
_BARE_LABEL = re.compile(rf"\s*(?:{_LABELS})\b", re.I)
"""A label with or without its mark ("Also on rt.com" over a title in one link)."""
_PARAGRAPHS = ("p",)
_TAG_LINE = re.compile(r"(?i)\s*(?:(?:tags|tagged(?: with)?|filed under)\s*:|tags\s)")
TAG_WORDS = 40
"""At most, in a line of tags."""
TAG_ITEM_WORDS = 6
"""At most, in each comma-separated item of a line of tags without a colon."""
OPENING_CHARS = 48
"""Enough of a paragraph's opening to hold any label with its mark."""
SHOUTED_WORDS = 4
"""At least, in a paragraph in capitals that is a link ("SEAN SPICER ELIMINATED FROM 'DANCING WITH THE
STARS'"): another story's headline."""


def _may_point(paragraph: etree._Element) -> bool:
    """Whether a paragraph's opening (`OPENING_CHARS`) may be a label's, or all capitals (a cheap look
    before its whole text is read)."""
    opening = paragraph.text or ""
    if len(opening) < OPENING_CHARS:  # else the paragraph's own text holds it (most do)
        opening = ""
        for piece in paragraph.itertext():
            opening += piece + " "  # "Tags<br>a, b": a line break is a space
            if len(opening) >= OPENING_CHARS:
                break
    return _BARE_LABEL.match(opening) is not None or opening.isupper() or _TAG_LINE.match(opening) is not None


def tag_line(text: str) -> bool:
    """Whether a paragraph lists the page's tags or filing (`_TAG_LINE`): "Tags: ..." or "Filed under:
    ...", or "Tags" then a list of short comma-separated items."""
    match = _TAG_LINE.match(text)
    if match is None or count_words(text) > TAG_WORDS:
        return False
    if match.group().rstrip().endswith(":"):
        return True
    items = text.split(",")
    return len(items) > 1 and all(len(item.split()) <= TAG_ITEM_WORDS for item in items)


def _words(text: str) -> str:
    return " ".join(text.split()).casefold()


def drop_promos(element: etree._Element, page: etree._Element) -> None:
    """`element` (the main content) less its paragraphs that point to the site's other pages, in place.
    What follows a paragraph's label is a link when it is the text of a link of the `page`, or the label
    and it are (the main content may have lost the link itself: trafilatura drops a link that holds only
    formatting)."""
    found: list[tuple[etree._Element, tuple[str, ...]]] = []
    tagged: list[etree._Element] = []
    for paragraph in element.iter(*_PARAGRAPHS):
        if not _may_point(paragraph):
            continue
        pieces = list(paragraph.itertext())
        if tag_line(" ".join(pieces)):  # "Tags<br>a, b": a line break is a space
            tagged.append(paragraph)
            continue
        text = "".join(pieces)
        label = _LABEL.match(text)
        if label is not None and text[label.end() :].strip():  # the link after the mark, or all one link
            found.append((paragraph, (_words(text[label.end() :]), _words(text))))
        elif _BARE_LABEL.match(text) is not None or (text.isupper() and len(text.split()) >= SHOUTED_WORDS):
            found.append((paragraph, (_words(text),)))  # all one link: "Also on rt.com ...", a shouted title
    links = {_words("".join(link.itertext())) for link in page.iter("a")} if found else set()
    gone = tagged + [
        paragraph for paragraph, texts in found if any(t.rstrip(".").strip() in links for t in texts)
    ]
    for paragraph in gone:
        parent = paragraph.getparent()
        if parent is not None:
            drop_keep_tail(paragraph, parent)
