"""Table cells that lost their table.

trafilatura keeps a table that sits inside a list item as its bare cells: `<item>… <th>Resolution</th>
<td>Up to 2K</td><th>Field of View</th><td>152°</td>…</item>`, with no row or table around them. Read
as inline text they run together ("ResolutionUp to 2KField of View…"). `regroup` puts each run of such
cells back into a table: the page's own table when one holds the same text (trafilatura leaves out
its empty cells, so only the page knows the rows), else a table guessed from the cells: a row per
heading cell and the cells after it (a spec sheet's `th`/`td` pairs), or, when the run opens with a
row of headings, rows as wide as that row.
"""

from __future__ import annotations

from collections.abc import Iterable
from copy import deepcopy

from lxml import etree

from webferret.extract.codeblocks import tag_name
from webferret.extract.markdown import heading_cell

REGROUP = True  # bench switch: off renders stray cells inline, as before

_CELLS = frozenset(("td", "th", "cell"))
_ROWS = frozenset(("tr", "row"))


def regroup(root: etree._Element, page: etree._Element) -> None:
    """Put each run of two or more cells outside a row of `root` back in a table (`page`: the page
    the cells came from)."""
    if not REGROUP:
        return
    parents = {cell.getparent() for cell in root.iter(*_CELLS)}
    runs = [
        run
        for parent in parents
        if parent is not None and tag_name(parent) not in _ROWS
        for run in _runs(parent)
        if len(run) > 1
    ]
    if not runs:
        return
    tables = [(cell_texts(table.iter("td", "th")), table) for table in page.iter("table")]
    for run in runs:
        if (table := _source(cell_texts(run), tables)) is not None:
            _replace(run, deepcopy(table))
        else:
            _wrap(run)


def _source(
    texts: tuple[str, ...], tables: list[tuple[tuple[str, ...], etree._Element]]
) -> etree._Element | None:
    """The page's table whose cells hold `texts` in order, with at most as many other cells again
    (trafilatura also moves a cell of an image and a word out of its table)."""
    for held, table in tables:
        if len(texts) <= len(held) <= 2 * len(texts) and texts[0] in held:
            rest = iter(held)
            if all(text in rest for text in texts):  # `texts` a subsequence of `held`
                return table
    return None


def cell_texts(cells: Iterable[etree._Element]) -> tuple[str, ...]:
    """The text of each cell (or list item) that has any, spaces made one."""
    return tuple(text for cell in cells if (text := " ".join("".join(cell.itertext()).split())))


def _runs(parent: etree._Element) -> list[list[etree._Element]]:
    """The runs of cells among `parent`'s children: cells with nothing but space between them."""
    runs: list[list[etree._Element]] = []
    run: list[etree._Element] = []
    for child in parent:
        if tag_name(child) in _CELLS:
            run.append(child)
            if (child.tail or "").strip():
                runs.append(run)
                run = []
        elif isinstance(child.tag, str) or (child.tail or "").strip():
            runs.append(run)
            run = []
    runs.append(run)
    return [run for run in runs if run]


def _rows(run: list[etree._Element]) -> list[list[etree._Element]]:
    """`run` cut into rows: as wide as an opening row of headings, else at each heading after a data
    cell."""
    width = next((i for i, cell in enumerate(run) if not heading_cell(cell)), len(run))
    if 1 < width < len(run):
        return [run[i : i + width] for i in range(0, len(run), width)]
    rows: list[list[etree._Element]] = [[]]
    for cell in run:
        if heading_cell(cell) and rows[-1] and not heading_cell(rows[-1][-1]):
            rows.append([])
        rows[-1].append(cell)
    return rows


def _replace(run: list[etree._Element], table: etree._Element) -> None:
    """`table` where the cells of `run` stood."""
    parent = run[0].getparent()
    assert parent is not None
    parent.insert(parent.index(run[0]), table)
    table.tail = run[-1].tail
    for cell in run:
        parent.remove(cell)


def _wrap(run: list[etree._Element]) -> None:
    """Put the cells of `run` into a new table where the first one stood."""
    parent = run[0].getparent()
    assert parent is not None
    table = parent.makeelement("table", {})
    _replace(run, table)
    for cells in _rows(run):
        row = table.makeelement("tr", {})
        table.append(row)
        row.extend(cells)
