"""Tables on a PDF page: lines whose runs of text stand in columns, row after row.

A PDF draws a table's cells as runs of text placed apart on one line; read as text, each row is a line
of words and the rows run together into one paragraph (`Name Age City Alice 30 Paris`). Lines are a
table's rows when at least `TABLE_ROWS` of them, one below the other, each hold the same number (two or
more) of runs, and the runs stand in columns: in each column the cells under the first row start, end or
are centred at one place (numbers set flush right start apart), and the first row's cell, a header often
set otherwise, lies over them. Not a table: columns of running text set side by side (a page of two
columns drawn line by line, lines numbered in the margin), whose cells are long or go on from the line
above in lower case; a list, whose marks (bullets, numbers with or without a dot) are the first of two
columns (and a list under a table whose first column holds no marks is no row of it, nor its last item
over such a table its header); lines broken by a word in another font, whose runs start wherever their
words do; justified lines drawn word by word,
whose cells stand a word space apart; a table of contents, whose rows end with page numbers in order; a
form, whose labels end with a colon. A run that starts where the one before it did goes on its cell (a
word in bold in a cell's paragraph). A row below the first may leave cells empty: its runs go to the
columns they fall in; so may a header (an empty corner), on the line above the rows. A table is written
as a GFM table, its first row the header. A row's cells may wrap: the lines drawn after the one that
opens it that leave its first column empty, a line's spacing from its others, go on its cells (each
cell's lines read from the top down).
"""

from __future__ import annotations

import math
import re
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
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
WORD_GAP = 0.75
"""Cells this many times the font size apart or closer (their median) are words of running text drawn
one by one (justified lines), not a table's: its columns stand a gutter apart (a word space: ~0.3)."""
WRAP_GAP = 1.5
"""A line this many times its font size or less from a row's lines, leaving its first column empty,
goes on the row's cells (they wrap)."""
SAME_PLACE = 0.5
"""Runs that start within this many points of each other start at one place."""
_LETTERS = re.compile(r"[^\W\d_]")
_ESCAPED = re.compile(r"\\([\\|])")
_MARK = re.compile(r"(?:[•▪◦‣●■–—*-]|\(?(?:\d{1,3}|[a-zA-Z]|[ivx]{1,5}|[IVX]{1,5})[.)]?)")


@dataclass(frozen=True)
class Cell:
    left: float
    right: float
    """Where its text ends, as a guess (`_cell`)."""
    text: str
    size: float


Row = list[Cell | None]
"""A table's row: a cell for each column, None where it is empty."""


def tables(lines: Sequence[Line]) -> dict[int, tuple[list[Row], int]]:
    """The tables among `lines` (see the module): each by the line it starts at, as its rows and how
    many lines they take (a row whose cells wrap takes several)."""
    found: dict[int, tuple[list[Row], int]] = {}
    start = end = 0
    while start < len(lines):
        rows, used = _rows(lines, start)
        if not _table(rows):
            start += used if len(rows) >= TABLE_ROWS else 1  # (lines in columns of prose start none)
            continue
        header = _header_above(lines, start, rows) if start > end else None
        if header and _table([header, *rows]):
            found[start - 1] = ([header, *rows], used + 1)
        else:
            found[start] = (rows, used)
        start = end = start + used
    return found


def _table(rows: list[Row]) -> bool:
    if len(rows) < TABLE_ROWS or _contents(rows) or _form(rows):
        return False
    return all(_column_of_cells(rows, column) for column in range(len(rows[0]))) and _apart(rows)


def _form(rows: list[Row]) -> bool:
    """Whether the rows are a form's fields, not a table: two columns, each field's label (the first
    row's too) ending with a colon (`Name:` `Jo Ferret`)."""
    return len(rows[0]) == 2 and all(row[0] is not None and row[0].text.endswith(":") for row in rows)


def _contents(rows: list[Row]) -> bool:
    """Whether the rows are a table of contents, not a table: each, the first too, names a part in
    words (after its number, maybe) and ends with its page number, the numbers in order (a table's
    rows hold other numbers between: `Q1 | 10 | 20 | 5`)."""
    names = [" ".join(cell.text for cell in row[:-1] if cell) for row in rows]
    between = [cell.text for row in rows for cell in row[1:-1] if cell]
    pages = [row[-1].text if row[-1] else "" for row in rows]
    if not all(_LETTERS.search(name) for name in names) or not all(page.isdigit() for page in pages):
        return False
    if not all(_LETTERS.search(text) for text in between):
        return False
    numbers = [int(page) for page in pages]
    return numbers == sorted(numbers)


def _apart(rows: list[Row]) -> bool:
    """Whether the rows' cells stand apart as a table's do, not a word space from each other as the
    words of lines of text drawn one by one (a justified line's words each placed on their own)."""
    gaps = [
        (after.left - before.right) / before.size
        for row in rows
        for before, after in pairwise([cell for cell in row if cell])
    ]
    return statistics.median(gaps) > WORD_GAP


def _header_above(lines: Sequence[Line], start: int, rows: list[Row]) -> Row | None:
    """The table's header on the line above its first row, where it has fewer cells than the rows (an
    empty corner over a column of names), as a row: its two or more runs in the columns they fall in;
    None if there is none (a list's item, its mark over a first column that holds none, is none)."""
    above, first = lines[start - 1], lines[start]
    if len(_cells(above)) >= len(rows[0]) or not 0 < above.y - first.y <= ROW_GAP * max(
        above.size, first.size
    ):
        return None
    header = _placed(above, rows)
    if header is None or _list_item(header, [header, *rows]):  # a list's last item over the table
        return None
    return header if _aligned([header, *rows], max(above.size, first.size)) else None


def _rows(lines: Sequence[Line], start: int) -> tuple[list[Row], int]:
    """The lines from `start` on that stand in columns under it, as rows (only it: they do not), and
    how many lines they take. A row's cells may wrap: the lines drawn after the one that opens it (in
    its first column) that leave that column empty, a line's spacing from its others, go on it."""
    rows: list[Row] = [list(_cells(lines[start]))]
    at, bottom = start + 1, lines[start]
    while len(rows[0]) >= 2 and at < len(lines):
        row, drawn = _wrapped(lines, at, rows)
        top = max(lines[at : at + drawn], key=lambda line: line.y)
        size = max(bottom.size, top.size)
        if row is None or not 0 < bottom.y - top.y <= ROW_GAP * size:
            break
        if _list_item(row, rows) or not _aligned([*rows, row], size):
            break
        rows.append(row)
        bottom = min(lines[at : at + drawn], key=lambda line: line.y)
        at += drawn
    return rows, at - start


def _wrapped(lines: Sequence[Line], at: int, rows: list[Row]) -> tuple[Row | None, int]:
    """The row that opens at line `at` in the columns of `rows`, with the lines after it that go on its
    cells (see `_rows`), and how many lines it takes; None if the lines do not fit the columns."""
    first = _cells(lines[at])
    opening = _placed(lines[at], rows)
    if opening is None and not (len(first) == 1 and _meets(first[0], [row[0] for row in rows if row[0]])):
        return None, 1
    parts: list[list[tuple[float, Cell]]] = [[] for _ in rows[0]]
    for column, cell in enumerate(opening or first):
        if cell:
            parts[column].append((lines[at].y, cell))
    drawn = 1
    for line in lines[at + 1 :]:
        near = min(abs(line.y - y) for part in parts for y, _ in part)
        sofar = [*rows, [_joined(part) if part else None for part in parts]]
        columns = [_under(cell, sofar) or _column(cell, sofar, 1) for cell in _cells(line)]
        if near > WRAP_GAP * line.size or None in columns:
            break
        for column, cell in zip(columns, _cells(line), strict=True):
            parts[column or 0].append((line.y, cell))
        drawn += 1
    row = [_joined(part) if part else None for part in parts]
    return (row, drawn) if sum(cell is not None for cell in row) >= 2 else (None, 1)


def _under(cell: Cell, rows: list[Row]) -> int | None:
    """The column after the first that a wrapped cell's line `cell` goes on: the last that starts left
    of it (give or take `ALIGNED` font sizes; a cell's guessed end may pass the next column's start),
    or None if only the first does (then the first after it whose cells it meets: a centred header)."""
    starts = [
        min((row[column].left for row in rows if row[column]), default=math.inf)
        for column in range(len(rows[0]))
    ]
    fitting = [column for column, start in enumerate(starts) if start <= cell.left + ALIGNED * cell.size]
    return fitting[-1] if fitting and fitting[-1] > 0 else None


def _column(cell: Cell, rows: list[Row], first: int) -> int | None:
    """The first column from `first` on whose cells `cell` meets, or None."""
    for column in range(first, len(rows[0])):
        if _meets(cell, [row[column] for row in rows if row[column]]):
            return column
    return None


def _joined(part: list[tuple[float, Cell]]) -> Cell:
    """A cell's lines (each with its height) as one cell: their text from the top down, its width
    the widest line's."""
    cells = [cell for _, cell in sorted(part, key=lambda placed: -placed[0])]
    left, right = min(cell.left for cell in cells), max(cell.right for cell in cells)
    return Cell(left, right, " ".join(cell.text for cell in cells), cells[0].size)


def _list_item(row: Row, rows: list[Row]) -> bool:
    """Whether `row` is the first item of a list under the table, not its row: it opens with a list's
    mark (a bullet, a number), and the first column's cells below the header hold none (a table may
    number its rows, from the first on)."""
    first, body = row[0], [cell.text for above in rows[1:] if (cell := above[0])]
    if first is None or not body or not _MARK.fullmatch(first.text):
        return False
    return not any(_MARK.fullmatch(cell) for cell in body)


def _cells(line: Line) -> list[Cell]:
    """A line's runs as cells: where each starts, and where it ends as a guess (pypdf does not say: a
    letter of a text font is about half as wide as the font is large). A run that pypdf says starts
    where the one before it did goes on its cell: it did not move on within one text object (a
    cell's word in bold, its note's superscript mark, as ReportLab draws a cell's paragraph)."""
    cells: list[Cell] = []
    for x, text in line.cells:
        if cells and abs(x - cells[-1].left) < SAME_PLACE:
            text = f"{cells[-1].text} {text}"
            x = cells.pop().left
        cells.append(Cell(x, x + guessed_width(text, line.size), text, line.size))
    return cells


def _placed(line: Line, rows: list[Row]) -> Row | None:
    """`line`'s runs in the columns of `rows`: one each, or (two or more runs) each in the next column
    it falls in (its span meets the column's cells'), the rest empty; None if they do not fit."""
    cells = _cells(line)
    columns = len(rows[0])
    if len(cells) == columns:
        return list(cells)
    if not 2 <= len(cells) < columns:
        return None
    row: Row = [None] * columns
    column = 0
    for cell in cells:
        while column < columns and not _meets(cell, [above[column] for above in rows if above[column]]):
            column += 1
        if column == columns:
            return None
        row[column] = cell
        column += 1
    return row


def _meets(cell: Cell, others: list[Cell]) -> bool:
    return cell.left < max(other.right for other in others) and cell.right > min(
        other.left for other in others
    )


def _aligned(rows: list[Row], size: float) -> bool:
    """Whether the rows' cells stand in columns: in each, the cells below the first row start, end or
    are centred within `ALIGNED` font sizes of each other, and the first row's cell (a header, often
    set otherwise) overlaps them; each column's cells start left of all the next column's."""
    head, *body = rows
    starts: list[list[float]] = []  # where each column's cells start (its header's at least)
    for column, top in enumerate(head):
        cells = [cell for row in body if (cell := row[column])]
        if cells:
            spreads = (
                _spread([cell.left for cell in cells]),
                _spread([cell.right for cell in cells]),
                _spread([(cell.left + cell.right) / 2 for cell in cells]),
            )
            if min(spreads) > ALIGNED * size or (top is not None and not _meets(top, cells)):
                return False
        starts.append([cell.left for row in rows if (cell := row[column])])
    return all(max(before) < min(after) for before, after in pairwise(starts))


def _spread(edges: list[float]) -> float:
    return max(edges) - min(edges)


def _column_of_cells(rows: list[Row], column: int) -> bool:
    """Whether a column holds a table's cells: short ones, not lines of running text (most of them
    words going on from the one above in lower case; a cell of one word, `configuration_timeout`, is
    a name), not a list's marks (the first of two columns all
    bullets or numbers); and some row below the header fills it (a list's items under a table's
    last row fill two of its three columns)."""
    if not any(row[column] for row in rows[1:]):
        return False
    placed = [cell for row in rows if (cell := row[column])]
    cells = [cell.text for cell in placed]
    length = statistics.median(_line_chars(cell) for cell in placed) if cells else 0
    going_on = sum(cell[:1].islower() and " " in cell for cell in cells[1:]) > (len(cells) - 1) / 2
    if length > CELL_CHARS or (going_on and length > PROSE_CHARS):
        return False
    listed = column == 0 and len(rows[0]) == 2  # a list's numbers may have no dot
    return not (listed and all(_MARK.fullmatch(cell) for cell in cells))


def guessed_width(text: str, size: float) -> float:
    """How wide `text` set at `size` is drawn, as a guess (pypdf does not say): `LETTER_WIDTH` a letter."""
    return LETTER_WIDTH * size * len(text)


def _line_chars(cell: Cell) -> float:
    """How many letters a cell's line holds (its widest line's, where it wraps)."""
    return (cell.right - cell.left) / (LETTER_WIDTH * cell.size)


def table_markdown(rows: list[Row]) -> str:
    """The rows as a GFM table, the first the header."""
    head, *body = [[gfm_cell(cell.text) if cell else "" for cell in row] for row in rows]
    return gfm_table(head, body)


def table_text(markdown: str) -> str:
    """A GFM table (as `table_markdown` writes it) as plain text: its rows' cells between bars, no rule."""
    rows = markdown.split("\n")
    return "\n".join(_ESCAPED.sub(r"\1", row[2:-2]) for row in rows[:1] + rows[2:])
