"""A footnote's way back to where it is cited (`<a href="#fnref:1">↩</a>`, Markdown renderers' and
Wikipedia's), dropped before the main content is chosen: a list of notes, each ending in a link, read
as a list of links to trafilatura, which dropped the notes whole, and the arrow means nothing read as
text anyway. The note keeps its words and its own links.
"""

from __future__ import annotations

import re

from lxml import html

from webferret.extract import hints

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
