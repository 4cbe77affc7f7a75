"""Newsletter sign-up boxes, left out of the main content.

A sign-up box sits in the article's column and reads as a few lines of text: the newsletter's name,
what it brings, and the messages its script shows after the click ("Thanks for signing up!", "Sorry!
There was an error processing your subscription."), all in the page and kept out of sight by its CSS.
Main-content extraction keeps them when they sit among the paragraphs. The box is known by its field
for an e-mail address and by its container's name (`newsletter`, `subscribe`, `signup`, `opt-in`): the
outermost such container within `LEVELS` of the field that holds at most `WORDS` words. Over both
benchmark sets, 20 pages kept 64 lines of such boxes; 5 of them are in a ground truth.

The box stays in the page while the main content is chosen (the block classifier learned the pages
with their boxes), and the paragraphs and headings of the main content that are lines of a box go
after (`drop_lines`).
"""

from __future__ import annotations

import re

from lxml import etree, html

from webferret.extract.blocks import drop_keep_tail
from webferret.extract.words import count_words

_FIELDS = etree.XPath('//input[@type="email" or contains(translate(@name, "EMAIL", "email"), "email")]')
_NAMES = re.compile(r"newsletter|subscri|signup|sign-up|opt-?in", re.I)
_HINT = re.compile(r"""<input[^>]+(?:type=["']?email|name=["'][^"']*mail)""", re.I)
"""The field `_FIELDS` finds, in the HTML text (`box_lines` is not run otherwise)."""
LEVELS = 10
"""At most, from the e-mail field up to its box."""
WORDS = 120
"""At most, in a box: a larger container is the page's column or its footer, not the box."""
_LINES = ("p", "head", "h1", "h2", "h3", "h4", "h5", "h6", "li", "item")
"""The main content's elements that may be a box's line (HTML's and trafilatura's)."""


def has_signup(text: str) -> bool:
    """Whether the HTML text `text` may hold a sign-up box (a cheap look before `box_lines`)."""
    return _HINT.search(text) is not None


def _box(field: etree._Element) -> etree._Element | None:
    node, box = field, None
    for _ in range(LEVELS):
        node = node.getparent()
        if node is None or node.tag in ("body", "html"):
            break
        if _NAMES.search(f"{node.get('class') or ''} {node.get('id') or ''}"):
            if count_words(node.text_content()) > WORDS:
                break
            box = node
    return box


def box_lines(tree: html.HtmlElement) -> set[str]:
    """The lines of `tree`'s sign-up boxes: each text of a box, its spaces collapsed."""
    lines: set[str] = set()
    for box in {box for box in map(_box, _FIELDS(tree)) if box is not None}:
        lines.update(" ".join(text.split()) for text in box.itertext())
    lines.discard("")
    return lines


def line_nodes(element: etree._Element, lines: set[str]) -> list[etree._Element]:
    """The paragraphs, headings and items of `element` (the main content) whose whole text is one of
    `lines`, outermost first in document order (one inside another is listed too)."""
    return [node for node in element.iter(*_LINES) if " ".join("".join(node.itertext()).split()) in lines]


def drop_lines(element: etree._Element, lines: set[str]) -> None:
    """`element` (the main content) less its paragraphs, headings and items whose whole text is one of
    the `lines` of a box the page keeps out of sight (a sign-up box's, or a closed modal's:
    `dialogs.drop_modal_lines`), in place."""
    for node in line_nodes(element, lines):
        parent = node.getparent()
        if parent is not None:
            drop_keep_tail(node, parent)
