"""A site's links to its other stories, set between an article's paragraphs, left out.

News sites and blogs break an article's text with one-line pointers to their other pages: "READ MORE:
China plague outbreak confirmed", "Related: The 15 Weirdest Galaxies in Our Universe", "Also on rt.com
...". Each is a label and a link to another page, and reads as a stray sentence in the middle of the
story. A paragraph goes when it opens with such a label (`_LABEL`) and what follows the label is the
text of one of the page's links: a label alone ("See also:", over the list it names) and a sentence
that only starts with "More" stay. A paragraph that is a link and all capitals is another story's
headline, shouted the way some news sites set them between paragraphs (`SHOUTED_WORDS`).
"""

from __future__ import annotations

import re

from lxml import etree

from webferret.extract.blocks import drop_keep_tail

_LABEL = re.compile(
    r"\s*(?:read more|related(?: articles?| stories| posts?)?|see also|also read|read also|more|recommended"
    r"|also on [\w.]+|more from [\w.' ]{1,30}|don't miss|watch|listen)\s*(?P<mark>[:>|\-\u2013\u2014]?)\s*",
    re.I,
)
_PARAGRAPHS = ("p",)
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
            opening += piece
            if len(opening) >= OPENING_CHARS:
                break
    return _LABEL.match(opening) is not None or opening.isupper()


def _words(text: str) -> str:
    return " ".join(text.split()).casefold()


def drop_promos(element: etree._Element, page: etree._Element) -> None:
    """`element` (the main content) less its paragraphs that point to the site's other pages, in place.
    What follows a paragraph's label is a link when it is the text of a link of the `page`, or the label
    and it are (the main content may have lost the link itself: trafilatura drops a link that holds only
    formatting)."""
    found: list[tuple[etree._Element, tuple[str, ...]]] = []
    for paragraph in element.iter(*_PARAGRAPHS):
        if not _may_point(paragraph):
            continue
        text = "".join(paragraph.itertext())
        label = _LABEL.match(text)
        if label is not None and text[label.end() :].strip():
            # the link after the mark ("Related: ..."), or label and all one link ("Also on rt.com ...")
            rest = (_words(text[label.end() :]),) if label.group("mark") else ()
            found.append((paragraph, (*rest, _words(text))))
        elif text.isupper() and len(text.split()) >= SHOUTED_WORDS:
            found.append((paragraph, (_words(text),)))
    if not found:
        return
    links = {_words("".join(link.itertext())) for link in page.iter("a")}
    for paragraph, texts in found:
        parent = paragraph.getparent()
        if parent is not None and any(text.rstrip(".").strip() in links for text in texts):
            drop_keep_tail(paragraph, parent)
