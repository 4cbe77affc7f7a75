"""Text as lxml takes it back.

libxml2 reads control characters in a page's text (a code block's vertical tab, say), but lxml refuses
to write such text back into the tree: a step that joins or rewrites a text node (`inlinequotes`,
`tablefoot`, `footnotes`), or unwraps an element (lxml's `drop_tag` joins its text to what stands
before it: `unwrap.times_in_sentences`), would fail the whole page's extraction.
"""

from __future__ import annotations

from lxml import etree

_CONTROL = "".join(map(chr, [*range(9), 11, 12, *range(14, 32)]))
_UNWRITABLE = str.maketrans(dict.fromkeys(_CONTROL))


def writable(text: str) -> str:
    """`text` without the control characters lxml refuses."""
    return text.translate(_UNWRITABLE)


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
