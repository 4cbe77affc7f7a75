"""The page's title, when the main content opens with it, left out of the content.

Most articles repeat their headline as the first line of the main content (an `<h1>`, or trafilatura's
first paragraph). The page's title is already its own field (`title`), and each face shows it above the
body; in the body it is said twice, and a reader that joins title and content (an agent's context, an
index) reads it twice. Readability leaves out a heading that repeats the title for the same reason, and
the ground truths of both extraction benchmarks leave the headline out (in the article set 1 truth of
the 39 whose extraction opened with the title has it).

The opening block goes when its words are the words of the title (as the metadata has it, or as
`<title>` has it), or, three words or more, open or close the `<title>` ("Headline | Site"). A block
that is the whole content stays: a page whose content is its title keeps it.
"""

from __future__ import annotations

from lxml import etree

from webferret.extract.blocks import drop_keep_tail, holds_text
from webferret.extract.features import normalize

_INLINE = frozenset(
    (
        *("a", "span", "b", "strong", "i", "em", "hi", "ref", "font", "u", "small", "mark"),
        *("code", "kbd", "samp", "var", "tt", "abbr", "cite", "q", "time", "data", "sub", "sup"),
        *("s", "del", "ins", "bdi"),
    )
)
"""An opening text's element that is part of a larger block (the heading's link, its bold, the name in
`code` a sentence opens with: "`useState` is a React Hook...")."""
PART_WORDS = 3
"""At least, in an opening that is only part of `<title>`."""
TITLE_CHARS = 500
"""At most, in an opening that may repeat a title (a longer one is not read whole)."""


def _opening(element: etree._Element) -> etree._Element | None:
    """The block that holds `element`'s first text: the first element with text of its own, or the
    block that element is inline in."""
    for node in element.iter():
        if isinstance(node.tag, str) and (node.text or "").strip():
            while node.tag in _INLINE and node is not element and node.getparent() is not None:
                node = node.getparent()
            return node
    return None


def _more_after(block: etree._Element, element: etree._Element) -> bool:
    """Whether `element` holds text after `block` (the block inside it)."""
    node = block
    while node is not element and node is not None:
        if (node.tail or "").strip():
            return True
        for sibling in node.itersiblings():
            if isinstance(sibling.tag, str) and holds_text(sibling):
                return True
        node = node.getparent()
    return False


def _short_text(block: etree._Element) -> str | None:
    """`block`'s text, or None when it is longer than `TITLE_CHARS`."""
    pieces, size = [], 0
    for piece in block.itertext():
        size += len(piece)
        if size > TITLE_CHARS:
            return None
        pieces.append(piece)
    return "".join(pieces)


def _repeats(words: list[str], title: str | None, whole_only: bool) -> bool:
    known = normalize(title or "").split()
    if not known or not words:
        return False
    if words == known:
        return True
    n = len(words)
    part = n >= PART_WORDS and n < len(known) and (known[:n] == words or known[-n:] == words)
    return part and not whole_only


def drop_title(element: etree._Element, title: str | None, head_title: str | None) -> bool:
    """`element` (the main content) less an opening block that repeats the page's `title` (the
    metadata's) or its `head_title` (`<title>`'s text), in place; whether it had one."""
    block = _opening(element)
    text = None if block is None else _short_text(block)
    if block is None or text is None:
        return False
    words = normalize(text).split()
    if not (_repeats(words, title, True) or _repeats(words, head_title, False)):
        return False
    parent = block.getparent()
    if parent is None or not _more_after(block, element):
        return False
    drop_keep_tail(block, parent)
    return True
