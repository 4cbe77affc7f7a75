"""Text as lxml takes it back.

libxml2 reads control characters in a page's text (a code block's vertical tab, say), but lxml refuses
to write such text back into the tree: a step that joins or rewrites a text node (`inlinequotes`,
`tablefoot`) would fail the whole page's extraction.
"""

from __future__ import annotations

_CONTROL = "".join(map(chr, [*range(9), 11, 12, *range(14, 32)]))
_UNWRITABLE = str.maketrans(dict.fromkeys(_CONTROL))


def writable(text: str) -> str:
    """`text` without the control characters lxml refuses."""
    return text.translate(_UNWRITABLE)
