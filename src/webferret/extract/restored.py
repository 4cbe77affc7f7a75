"""What trafilatura's copy of the main content lost, taken back from the page.

trafilatura writes its own XML of the blocks it keeps, and some of what the page said is not in it:
- a table's spanning cells: it gives such a cell once and pads the rows (or columns) it spanned
  with empty cells, so the Markdown said `| | Sea trout | 1 Feb |` where the page meant
  `| Tay | Sea trout | 1 Feb |`;
- the number an ordered list starts at (`<ol start="5">`): its steps were renumbered from 1.
Each is put back where the kept block holds exactly the page's text.
"""

from __future__ import annotations

from copy import deepcopy

from lxml import etree

from webferret.extract.cells import cell_texts
from webferret.extract.markdown import cell_span

SPANS = True  # bench switch: off leaves trafilatura's tables as it gives them, their spans lost
STARTS = True  # bench switch: off numbers trafilatura's ordered lists from 1


def restore_spans(root: etree._Element, page: etree._Element) -> None:
    """Put back, in place of each table of `root` that holds exactly the cell texts of a `page` table
    with cells spanning rows or columns, that table."""
    if not SPANS:
        return
    spanned = [
        (cell_texts(table.iter("td", "th")), table)
        for table in page.iter("table")
        if any(_spans(cell) for cell in table.iter("td", "th"))
    ]
    if not spanned:
        return
    for table in list(root.iter("table")):
        if any(_spans(cell) for cell in table.iter("td", "th", "cell")):
            continue  # the page's own already
        texts = cell_texts(table.iter("td", "th", "cell"))
        source = next((found for held, found in spanned if held == texts), None)
        parent = table.getparent()
        if source is not None and parent is not None:
            copy = deepcopy(source)
            copy.tail = table.tail
            parent.replace(table, copy)


def restore_starts(root: etree._Element, page: etree._Element) -> None:
    """Give each ordered list of `root` (trafilatura's `<list rend="ol">`) with no `start` the `start`
    of the `page` list whose items hold the same texts."""
    if not STARTS:
        return
    started = {
        cell_texts(item for item in listing if item.tag == "li"): start
        for listing in page.iter("ol")
        if (start := (listing.get("start") or "").strip()).isdigit() and start != "1"
    }
    if not started:
        return
    for listing in root.iter("list", "ol"):
        if listing.get("start") is not None or not (listing.get("rend") or listing.tag).startswith("ol"):
            continue
        start = started.get(cell_texts(item for item in listing if item.tag in ("item", "li")))
        if start is not None:
            listing.set("start", start)


def _spans(cell: etree._Element) -> bool:
    """Whether a cell spans rows or columns, as the renderer reads its spans (`cell_span`)."""
    return cell_span(cell, "rowspan") > 1 or cell_span(cell, "colspan") > 1
