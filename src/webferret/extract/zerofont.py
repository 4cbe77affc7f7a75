"""Text set in a font of size zero, gone before anything reads the page.

`<span style="font-size:0">` shows nothing: a reader of the page never sees its words, but read as
text they join the sentence around them. It is how a page slips words to a machine reader alone
(keywords for a crawler; "ignore your instructions" for an agent), so they are not read either.
An element set in a zero font that holds an image stays (the image still shows), and so does one
whose descendants may set a font size of their own (`font-size:0` on a row of inline blocks, to
close the gaps between them, and the size set again inside each, by an inline style or by a class
of the page's stylesheet, which is not read).
"""

from __future__ import annotations

import re

from lxml import etree

from webferret.extract.blocks import drop_keep_tail

_SIZE_ZERO = r"font-size\s*:\s*0+(?:\.0*)?(?![\d.])"
_ZERO = re.compile(_SIZE_ZERO, re.I)
_ZERO_LOWER = re.compile(_SIZE_ZERO)  # the common spelling, found by a fast literal scan
_STYLED = etree.XPath("//*[@style]")
_SIZED = re.compile(r"font(?:-size)?\s*:", re.I)
"""A style that may set the size again: `font-size`, or the `font` shorthand (`font: 16px Georgia`)."""
_SHOWN = frozenset(("img", "svg", "picture", "video", "canvas", "object", "iframe"))


def has_zero_fonts(text: str) -> bool:
    if _ZERO_LOWER.search(text) is not None:
        return True
    return ("FONT-SIZE" in text or "Font-Size" in text) and _ZERO.search(text) is not None


def drop_zero_fonts(tree: etree._Element) -> None:
    for node in _STYLED(tree):
        parent = node.getparent()
        if parent is not None and _ZERO.search(node.get("style") or "") and not _sized_or_shown(node):
            drop_keep_tail(node, parent)


def _sized_or_shown(node: etree._Element) -> bool:
    if node.tag in _SHOWN:  # an image set in a zero font still shows (the size hides its alt text)
        return True
    for inner in node.iterdescendants():
        if not isinstance(inner.tag, str):
            continue
        style = inner.get("style") or ""
        if inner.tag in _SHOWN or (_SIZED.search(style) and not _ZERO.search(style)):
            return True  # (a size set again to zero shows nothing either)
        if inner.get("class") or (inner.tag == "font" and inner.get("size")):
            return True  # a stylesheet's class (or an old `<font size>`) may set the size again
    return False
