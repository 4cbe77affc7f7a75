"""Tables on a PDF page: lines whose runs of text stand in columns, row after row.

A PDF draws a table's cells as runs of text placed apart on one line; read as text, each row is a
line of words and the rows run together into one paragraph (`Name Age City Alice 30 Paris`). Lines
are a table's rows when at least `TABLE_ROWS` of them, one below the other, each hold the same number
(two or more) of runs, and the runs stand in columns: in each column the cells under the first row
start, end or are centred at one place (numbers set flush right start apart), and the first row's
cell, a header often set otherwise, lies over them. Not a table: columns of running text set side by
side (a page of two columns drawn line by line, lines numbered in the margin), whose cells are long
or go on from the line above in lower case; a list, whose marks (bullets, numbers with or without a
dot) are the first of two columns; lines broken by a word in another font, whose runs start wherever
their words do. A table is written as a GFM table, its first row the header.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Sequence
from typing import TYPE_CHECKING

from webferret.extract.markdown import gfm_cell, gfm_table

if TYPE_CHECKING:
    from webferret.extract.pdflayout import Line

TABLE_ROWS = 3
"""The fewest lines that make a table (two lines may line up by chance)."""
ALIGNED = 2.0
"""A column's cells start, end or are centred within this many times the font size of each other."""
LETTER_WIDTH = 0.5
"""A letter's width as a share of the font size, on average (Helvetica's lower case: 0.5)."""
ROW_GAP = 3.0
"""A row this many times the font size or less below the one before it (further: another block)."""
CELL_CHARS = 40
"""A column whose cells are longer than this (their median) is running text, not a table's."""
PROSE_CHARS = 20
"""A column whose cells are longer than this and mostly open in lower case is lines of running text."""
_ESCAPED = re.compile(r"\\([\\|])")
_MARK = re.compile(r"(?:[•▪◦‣●■–—*-]|\(?\d{1,3}[.)]?|\(?[a-z][.)])")


def tables(lines: Sequence[Line]) -> dict[int, int]:
    """The tables among `lines` (see the module): where each starts, and how many rows it has."""
    found: dict[int, int] = {}
    start = 0
    while start < len(lines):
        end = _rows_end(lines, start)
        rows = lines[start:end]
        if len(rows) >= TABLE_ROWS and all(
            _column_of_cells(rows, column) for column in range(len(rows[0].cells))
        ):
            found[start] = len(rows)
        start = end if len(rows) >= TABLE_ROWS else start + 1  # (lines in columns of prose start none)
    return found


def _rows_end(lines: Sequence[Line], start: int) -> int:
    """Where the lines from `start` on stop standing in columns under it (`start + 1`: they do not)."""
    columns = len(lines[start].cells)
    end = start + 1
    if columns < 2:
        return end
    while (
        end < len(lines) and _below(lines[end - 1], lines[end], columns) and _aligned(lines[start : end + 1])
    ):
        end += 1
    return end


def _below(above: Line, line: Line, columns: int) -> bool:
    """Whether `line` may be the next row under `above`: as many cells, at most `ROW_GAP` lines below."""
    return len(line.cells) == columns and 0 < above.y - line.y <= ROW_GAP * max(above.size, line.size)


def _aligned(rows: Sequence[Line]) -> bool:
    """Whether the rows' cells stand in columns: in each, the cells below the first row start, end or
    are centred within `ALIGNED` font sizes of each other (their ends and centres as `_width` guesses
    them), and the first row's cell (a header, often set otherwise) overlaps them; each column's
    cells start left of all the next column's."""
    head, *body = rows
    size = max(row.size for row in rows)
    for column in range(len(head.cells)):
        spans = [_span(row, column) for row in body]
        lefts, rights = [left for left, _ in spans], [right for _, right in spans]
        centres = [(left + right) / 2 for left, right in spans]
        if min(max(edges) - min(edges) for edges in (lefts, rights, centres)) > ALIGNED * size:
            return False
        left, right = _span(head, column)
        if right <= min(lefts) or left >= max(rights):
            return False
    return all(
        max(row.cells[column][0] for row in rows) < min(row.cells[column + 1][0] for row in rows)
        for column in range(len(head.cells) - 1)
    )


def _span(row: Line, column: int) -> tuple[float, float]:
    x, text = row.cells[column]
    return x, x + _width(text, row.size)


def _width(text: str, size: float) -> float:
    """How wide `text` is drawn, as a guess: pypdf does not say (a letter of a text font is about half
    as wide as the font is large)."""
    return LETTER_WIDTH * size * len(text)


def _column_of_cells(rows: Sequence[Line], column: int) -> bool:
    """Whether a column holds a table's cells: short ones, not lines of running text (most of them
    going on from the one above in lower case), not a list's marks (the first of two columns all
    bullets or numbers)."""
    cells = [row.cells[column][1] for row in rows]
    length = statistics.median(len(cell) for cell in cells)
    going_on = sum(cell[:1].islower() for cell in cells[1:]) > (len(cells) - 1) / 2
    if length > CELL_CHARS or (going_on and length > PROSE_CHARS):
        return False
    listed = column == 0 and len(rows[0].cells) == 2  # a list's numbers may have no dot
    return not (listed and all(_MARK.fullmatch(cell) for cell in cells))


def table_markdown(rows: Sequence[Line]) -> str:
    """The rows as a GFM table, the first the header."""
    head, *body = [[gfm_cell(text) for _, text in row.cells] for row in rows]
    return gfm_table(head, body)


def table_text(markdown: str) -> str:
    """A GFM table (as `table_markdown` writes it) as plain text: its rows' cells between bars, no rule."""
    rows = markdown.split("\n")
    return "\n".join(_ESCAPED.sub(r"\1", row[2:-2]) for row in rows[:1] + rows[2:])
