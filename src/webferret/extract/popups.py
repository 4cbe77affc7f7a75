"""Hover cards and tooltips in running text, gone before anything reads the page.

A news site shows a card over a person's name when the pointer rests on it: their photo, their name
again and links to the latest stories about them. In the HTML the card sits inside the paragraph,
right after the name, and the page's CSS keeps it out of sight. Read as text, the sentence becomes
"threatened to kill Rep. Ilhan OmarIlhan OmarHillicon Valley: Progressives oppose funding bill ...
(D-Minn.)". Glossary terms with their definition in a bubble, the share menus of a quote and the
"Join 89 other subscribers" box of a blog's action bar are the same: text the reader meets only on
hovering, inside a paragraph, a list item or a table cell.

Such a box is told by its class (`tooltip`, `popover` or `rollover`, in any spelling of a class
name) and by what it holds: at least `WORDS` words, and no smaller box of its own (a card inside a
card's wrapper goes, the wrapper and the name it hangs on stay). What the pointer rests on,
its trigger, is never the box: a link, or an element whose class says `trigger`, stays. Over both
benchmark sets, 181 such boxes in 22 pages, 1 of them in a ground truth.
"""

from __future__ import annotations

import re

from lxml import etree, html

from webferret.extract import hints
from webferret.extract.blocks import drop_keep_tail
from webferret.extract.words import count_words

_NAME = re.compile(r"tooltip|popover|rollover", re.I)
_PARTS = (hints.word("ooltip"), hints.word("opover"), hints.word("ollover"))
"""What every class name `_NAME` matches holds, in either case of its first letter."""
_WINDOW = 2000
"""Characters read back from such a word for the attribute it sits in (far more than a class value)."""
_FOUND = etree.XPath("//*[@class][" + " or ".join(f"contains(@class, '{part}')" for part in _PARTS) + "]")
_RUNNING = frozenset(("p", "li", "td", "dd", "blockquote"))
"""Where a box hangs off a word: running text."""
WORDS = 4
"""At least, in a box: a shorter one is a trigger's label ("expandable", a user's initials)."""


def has_popups(text: str) -> bool:
    """Whether the HTML text `text` may hold a hover box (a cheap look before `drop_popups`): a class
    attribute whose value holds one of `_PARTS` (in the HTML of every page with such a box; the words
    alone are in the scripts and styles of many pages without one)."""
    if not hints.holds_any(text, _PARTS):
        return False
    for part in _PARTS:
        at = text.find(part)
        while at >= 0:
            if _in_class(text, at):
                return True
            at = text.find(part, at + 1)
    return False


def _in_class(text: str, at: int) -> bool:
    """Whether position `at` of the HTML text is inside a class attribute's value: `class=`, a quote
    or none, then no quote nor `>` up to it. Read back from the word, so a page's escaped markup (a
    script's JSON holding `class=` a thousand times between two quotes) costs a few searches, where a
    pattern run forward from each `class=` read to the end of that stretch every time."""
    start = max(0, at - _WINDOW)
    edge = max(text.rfind('"', start, at), text.rfind("'", start, at), text.rfind(">", start, at))
    if edge >= 6 and text[edge] != ">" and text.startswith("class=", edge - 6):
        return True  # class="...word
    return text.find("class=", max(edge + 1, start), at) >= 0  # class=...word, unquoted


def _is_box(node: html.HtmlElement) -> bool:
    """Whether `node`'s class names a hover box, and it is not what the pointer rests on."""
    names = node.get("class") or ""
    return node.tag != "a" and _NAME.search(names) is not None and "trigger" not in names.lower()


def drop_popups(tree: html.HtmlElement) -> None:
    """The hover boxes of `tree`'s running text removed, in place (the text after each kept)."""
    boxes = [node for node in _FOUND(tree) if _is_box(node)]
    inner = set(boxes)
    for node in boxes:  # a box that holds another box is its wrapper: the inner one goes
        for ancestor in node.iterancestors():
            inner.discard(ancestor)
    for node in boxes:
        parent = node.getparent()
        if (
            node in inner
            and parent is not None
            and any(ancestor.tag in _RUNNING for ancestor in node.iterancestors())
            and count_words(node.text_content()) >= WORDS
        ):
            drop_keep_tail(node, parent)
