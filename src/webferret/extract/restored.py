"""What trafilatura's copy of the main content lost, taken back from the page.

trafilatura writes its own XML of the blocks it keeps, and some of what the page said is not in it:
- a table's spanning cells: it gives such a cell once and pads the rows (or columns) it spanned
  with empty cells, so the Markdown said `| | Sea trout | 1 Feb |` where the page meant
  `| Tay | Sea trout | 1 Feb |`;
- the number an ordered list starts at (`<ol start="5">`): its steps were renumbered from 1;
- a list in a table cell (`<td><ul><li>10 users</li>...`): it left the cell empty, so a plan's
  features or a parameter's allowed values were lost;
- a heading, when it recovers a page's text paragraph by paragraph: `<h2>Why it matters</h2>` came out
  a paragraph (`<p>`), and a guide of 37 sections read as one run of text.
Each is put back where the kept block holds exactly the page's text (a table that lost its cells'
lists: the rest of the page's text, row by row).
"""

from __future__ import annotations

from collections.abc import Iterator
from copy import deepcopy

from lxml import etree

from webferret.extract.cells import cell_texts
from webferret.extract.codeblocks import tag_name
from webferret.extract.markdown import cell_span

SPANS = True  # bench switch: off leaves trafilatura's tables as it gives them, their spans lost
STARTS = True  # bench switch: off numbers trafilatura's ordered lists from 1
CELL_LISTS = True  # bench switch: off leaves trafilatura's tables without the lists of their cells
HEADINGS = True  # bench switch: off leaves the headings trafilatura made paragraphs as paragraphs
_HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")
_LISTS = ("ul", "ol", "dl")


def restore_spans(root: etree._Element, page: etree._Element) -> None:
    """Put back, in place of each table of `root` that holds exactly the cell texts of a `page` table
    with cells spanning rows or columns, that table."""
    if not SPANS:
        return
    spanned = [
        (held, table)
        for table in page.iter("table")
        if any(_spans(cell) for cell in table.iter("td", "th"))
        for held in _held(table)
    ]
    if not spanned:
        return
    for table in list(root.iter("table")):
        if any(_spans(cell) for cell in table.iter("td", "th", "cell")):
            continue  # the page's own already
        texts = cell_texts(table.iter("td", "th", "cell"))
        _put_back(table, next((found for held, found in spanned if held == texts), None))


def _held(table: etree._Element) -> list[tuple[str, ...]]:
    """The cell texts trafilatura's copy of a page's `table` may hold: its cells', and, where it has
    a caption, the caption's before them (trafilatura gives a caption as a first row's cell)."""
    cells = cell_texts(table.iter("td", "th"))
    captions = cell_texts(caption for caption in table.iter("caption") if _owner(caption) is table)
    return [cells, captions + cells] if captions else [cells]


def restore_cell_lists(root: etree._Element, page: etree._Element) -> None:
    """Put back, in place of each table of `root` (trafilatura's) whose rows say, word for word, what
    the rows of a `page` table with lists in its cells say less those lists, that table."""
    if not CELL_LISTS:
        return
    listed = [
        (_row_texts(table, bare=True), table)
        for table in page.iter("table")
        if any(_owner(node) is table for node in table.iter(*_LISTS))
    ]
    if not listed:
        return
    for table in list(root.iter("table")):
        if next(table.iter("td", "th"), None) is not None:
            continue  # the page's own already
        kept = _row_texts(table, bare=False)
        _put_back(table, next((found for bare, found in listed if bare == kept), None))


def _put_back(table: etree._Element, source: etree._Element | None) -> None:
    """Replace trafilatura's `table` with a copy of the page's `source` table (when there is one)."""
    parent = table.getparent()
    if source is not None and parent is not None:
        copy = deepcopy(source)
        copy.tail = table.tail
        parent.replace(table, copy)


def _row_texts(table: etree._Element, *, bare: bool) -> list[str]:
    """The words of each of a table's own rows that has any (`bare`: less the lists in its cells)."""
    rows = []
    for row in table.iter("tr", "row"):
        if _owner(row) is not table:
            continue
        cells = (" ".join(_texts(cell, bare)) for cell in row if tag_name(cell) in ("td", "th", "cell"))
        if words := " ".join(" ".join(cells).split()):
            rows.append(words)
    return rows


def _texts(node: etree._Element, bare: bool) -> Iterator[str]:
    """The text of `node` and its descendants (`bare`: less the lists in it)."""
    yield node.text or ""
    for child in node:
        if isinstance(child.tag, str) and not (bare and tag_name(child) in _LISTS):
            yield from _texts(child, bare)
        yield child.tail or ""


def _owner(node: etree._Element) -> etree._Element | None:
    """The table `node` sits in (the nearest)."""
    return next((up for up in node.iterancestors() if tag_name(up) == "table"), None)


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


def restore_headings(root: etree._Element, page: etree._Element) -> None:
    """Make each paragraph of `root` (trafilatura's) whose whole text is that of a `page` heading, and of
    no `page` paragraph, that heading again (`<head rend="h2">`), unless `root` holds it as a heading."""
    if not HEADINGS:
        return
    levels: dict[str, str | None] = {}
    for heading in page.iter(*_HEADINGS):
        if text := _words(heading):
            levels[text] = heading.tag if levels.get(text, heading.tag) == heading.tag else None
    if not levels:
        return
    for paragraph in page.iter("p"):
        levels.pop(_words(paragraph), None)
    for head in root.iter("head", *_HEADINGS):
        levels.pop(_words(head), None)
    for paragraph in root.iter("p"):
        level = levels.get(_words(paragraph)) if levels else None
        if level is not None:
            paragraph.tag = "head"
            paragraph.attrib.clear()
            paragraph.set("rend", level)


def _words(node: etree._Element) -> str:
    return " ".join("".join(node.itertext()).split())
