"""Footnotes as a page shows them, set before the main content is chosen.

- A footnote's way back to where it is cited (`<a href="#fnref:1">↩</a>`, Markdown renderers' and
  Wikipedia's) is dropped: a list of notes, each ending in a link, read as a list of links to
  trafilatura, which dropped the notes whole, and the arrow means nothing read as text anyway. The
  note keeps its words and its own links.
- A citation's mark, a link set in superscript (`<sup><a href="#fn:3">3</a></sup>`), becomes a
  superscript inside its link (`<a href="#fn:3"><sup>3</sup></a>`): trafilatura dropped the
  superscript of the first shape at a paragraph's end, and "meat.3" read as a number of the sentence
  (`meat.³` with it: `superscripts`).
"""

from __future__ import annotations

import re

from lxml import html

from webferret.extract import hints
from webferret.extract.superscripts import shifted
from webferret.extract.writable import writable

_HINTS = (hints.word("↩"), hints.word("backref"), hints.word("reversefootnote"), hints.word("fnref"))
"""In the HTML of every page with such a link (the tree is not searched otherwise)."""
_BACK_NAMES = re.compile(r"(?i)backref|reversefootnote|footnote-back")
_ARROWS = re.compile(r"[\s↩↑^⏎\ufe0e\ufe0f]+")  # (a variation selector asks for the arrow as text)


def has_backlinks(text: str) -> bool:
    """Whether the page's HTML `text` may hold a footnote's link back."""
    return hints.holds_any(text, _HINTS)


def drop_backlinks(tree: html.HtmlElement) -> None:
    """Drop from `tree` each in-page link that shows only a return arrow, or is named a footnote's
    way back, with its arrow; what follows it stays."""
    for link in list(tree.iter("a")):
        if not (link.get("href") or "").strip().startswith("#"):
            continue
        shown = "".join(link.itertext())
        if _ARROWS.fullmatch(shown) or (_BACK_NAMES.search(link.get("class") or "") and len(shown) < 8):
            link.drop_tree()  # (its tail stays)


_SUP = hints.word("<sup")


def has_citation_marks(text: str) -> bool:
    """Whether the page's HTML `text` may hold a link set in superscript."""
    return hints.holds(text, _SUP)


def raise_citation_marks(tree: html.HtmlElement) -> None:
    """Put each `<sup>` of `tree` that holds one link and nothing else, a mark of digits, inside that
    link."""
    for sup in list(tree.iter("sup")):
        link = sup[0] if len(sup) == 1 else None
        parent = sup.getparent()
        if link is None or link.tag != "a" or parent is None:
            continue
        if (sup.text or "").strip() or (link.tail or "").strip():
            continue
        shown = "".join(link.itertext())
        if shifted(shown, raised=True) == shown:  # a mark of digits alone (Wikipedia's `[2]` is none)
            continue
        after = sup.tail
        sup.remove(link)
        sup.text, link.text = writable(link.text or "") or None, None
        for child in list(link):
            sup.append(child)
        parent.replace(sup, link)
        link.append(sup)
        sup.tail, link.tail = None, writable(after or "") or None
