"""Text as lxml takes it back.

libxml2 reads control characters in a page's text (a code block's vertical tab, say), but lxml refuses
to write such text back into the tree: a step that joins or rewrites a text node (`inlinequotes`,
`tablefoot`, `footnotes`), or unwraps an element (lxml's `drop_tag` joins its text to what stands
before it: `unwrap.times_in_sentences`), would fail the whole page's extraction. trafilatura's own
steps refuse it alike, and its choice of a page's main content was lost (a list whose item held a bell
was left out whole): a page's HTML is read without them (`writable_markup`).
"""

from __future__ import annotations

import re

from lxml import etree

from webferret.models import printable

_CONTROL = "".join(map(chr, [*range(9), 11, 12, *range(14, 32)]))
_UNWRITABLE = str.maketrans(dict.fromkeys(_CONTROL))
_CONTROL_REFERENCE = re.compile(
    r"&#(?:0*(?:[0-8]|1[124-9]|2[0-9]|3[01])(?![0-9])|[xX]0*(?:[0-8bcefBCEF]|1[0-9a-fA-F])(?![0-9a-fA-F]));?"
)
"""A character reference to one of them (`&#7;`, `&#x1b;`), which the parser turns into the character."""


def writable(text: str) -> str:
    """`text` without the control characters lxml refuses."""
    return text.translate(_UNWRITABLE)


def writable_markup(markup: str) -> str:
    """A page's HTML without the control characters lxml refuses, written or referred to (`&#7;`):
    as `models.printable` leaves a page's text (a terminal's escape sequence taken out whole), its
    line ends first made line feeds, as an HTML parser makes them (a lone CR is one)."""
    lines = markup.replace("\r\n", "\n").replace("\r", "\n") if "\r" in markup else markup
    cleaned = printable(lines) or ""
    return _CONTROL_REFERENCE.sub("", cleaned) if "&#" in cleaned else cleaned


def drop_tag(element: etree._Element) -> None:
    """Remove `element`, keeping its text, children and tail in its place (lxml's `drop_tag`), the
    text joined without the control characters lxml refuses."""
    parent = element.getparent()
    if parent is None:
        return
    previous = element.getprevious()
    joined = [element.text or "", element.tail or ""] if len(element) == 0 else [element.text or ""]
    if len(element):
        last = element[-1]
        last.tail = writable((last.tail or "") + (element.tail or ""))
    if previous is None:
        parent.text = writable((parent.text or "") + "".join(joined))
    else:
        previous.tail = writable((previous.tail or "") + "".join(joined))
    at = parent.index(element)
    parent[at : at + 1] = list(element)
