"""A table's footer put after its body, where the browser shows it, once, right after parsing.

HTML lets a table write its `<tfoot>` before its `<tbody>` (HTML 4 required it there), and the browser
draws it at the bottom whatever its place. Read in the order of the markup, the totals row ("Total |
30") came first, above the rows it sums, as the table's first row of data.
"""

from __future__ import annotations

from lxml import html

from webferret.extract import hints
from webferret.extract.writable import writable

_TFOOT = hints.word("<tfoot")


def has_footers(page: str) -> bool:
    return hints.holds(page, _TFOOT)


def place_footers(tree: html.HtmlElement) -> None:
    """Move, in place, each `<tfoot>` that rows of its table follow to its table's end."""
    for foot in list(tree.iter("tfoot")):
        table = foot.getparent()
        if table is None or table.tag != "table":
            continue
        if any(sibling.tag in ("tbody", "tr") for sibling in foot.itersiblings()):
            tail, foot.tail = foot.tail, None
            previous = foot.getprevious()
            if tail and previous is not None:
                previous.tail = writable((previous.tail or "") + tail)
            table.append(foot)
