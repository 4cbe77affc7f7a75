"""Section headings that a selection left out while keeping the section under them.

trafilatura drops a heading that is mostly a link ("1. <a>Harvard Business School</a>"), and some that
sit apart from their section in the page's layout (the numbered steps of a guide), while it keeps the
paragraphs under them; a reader then meets sections without their titles. A heading is given back when
the block right after it on the page is kept, is the page's only block of its text, and sits in the
place of the page's template where other kept blocks sit (not a lone teaser under a "related" title).
A heading that is all a link to itself (its permalink, `<h2 id="part"><a href="#part">`) is no teaser's
title.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from lxml import html

from webferret.extract.blocks import Block
from webferret.extract.features import normalize

TAGS = ("h2", "h3", "h4", "h5", "h6")  # not h1: the page's title, which the page header gives
WORDS = (2, 25)  # a heading of fewer words is a widget's label ("Share", "Trending")
LINKED = 0.95  # a heading all of whose text is a link is a teaser's title
SAME_PLACE = 2  # kept blocks in the place (`Block.signature`) of the block after the heading
ANCHORS = True
"""False: a heading that is all its own permalink counts as a teaser's title too (the rule before the
twenty-fourth round, which bench/oof_pipeline.py measures as a variant)."""


def lost_headings(
    blocks: Sequence[Block], texts: Sequence[str], kept: Sequence[bool], title: str
) -> list[int]:
    """The indexes of the headings among `blocks` (a page's, in document order; `texts` their normalized
    texts) to keep with the block after them, of those `kept` leaves out. Neither the page's title
    (`title`, normalized: the page header gives it) nor a heading the page repeats as a heading (each
    post's "Re: ..." in a forum; a table of contents repeats them all as links) goes back."""
    low, high = WORDS
    wanted = [
        i
        for i, block in enumerate(blocks[:-1])
        if not kept[i]
        and kept[i + 1]
        and block.element.tag in TAGS
        and low <= len(block.text.split()) <= high
        and not _teaser(block)
    ]
    if not wanted:
        return wanted
    seen = Counter(texts)
    headings = Counter(text for block, text in zip(blocks, texts, strict=True) if block.element.tag in TAGS)
    places = Counter(block.signature for block, keep in zip(blocks, kept, strict=True) if keep)
    return [
        i
        for i in wanted
        if seen[texts[i + 1]] == 1
        and headings[texts[i]] == 1
        and texts[i] not in title
        and places[blocks[i + 1].signature] >= SAME_PLACE
    ]


def _teaser(block: Block) -> bool:
    """Whether a heading is a teaser's title: (nearly) all its text is a link, other than the heading's
    own permalink (`<h2 id="part"><a href="#part">`: a link to the heading itself, or to its section)."""
    if block.link_chars < LINKED * max(len(block.text), 1):
        return False
    if not ANCHORS:
        return True
    heading = block.element
    parent = heading.getparent()
    own = {node.get("id") for node in heading.iter()} | {None if parent is None else parent.get("id")}
    own.discard(None)
    targets = [(link.get("href") or "").strip() for link in heading.iter("a")]
    # no link inside: the link is around the heading (a teaser card's)
    return not targets or any(not t.startswith("#") or t[1:] not in own for t in targets)


def page_title(tree: html.HtmlElement) -> str:
    """The normalized text of the page's `<title>` ("" when it has none)."""
    return normalize(tree.findtext(".//title") or "")
