"""Tables read from data files (spreadsheets, CSV and TSV): their filled cells, written as a Markdown
table whose header is the first row, or as tab-separated rows."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from webferret.extract.markdown import gfm_cell, gfm_table
from webferret.extract.types import Extracted, ExtractOptions
from webferret.extract.words import count_words
from webferret.models import ErrorCode, FerretError

Rows = list[list[str]]


class CellBudget:
    """The cells a document may still make its reader write out that it does not hold one by one (a
    repeated row or cell, the empty cells before a row's last): past `most`, `too_large`, saying
    `{what} {said} {most:,}`. A file of a few KB can ask for billions."""

    def __init__(self, what: str, most: int, said: str) -> None:
        self.what, self.most, self.said = what, most, said
        self.left = most

    def spend(self, cells: int) -> None:
        self.left -= cells
        if self.left < 0:
            raise FerretError(ErrorCode.TOO_LARGE, f"{self.what} {self.said} {self.most:,}")


TEXT_MAX = 16 * 1024 * 1024
"""The most characters a workbook's cells may show in all: past them it is `too_large`. A few KB of
file can show gigabytes: one long shared string in every cell of a .xlsx, one long cell repeated
down and across an .ods (a 1.7 KB file gave 270 MB of Markdown)."""


def text_budget(what: str) -> CellBudget:
    """The characters (`TEXT_MAX`) the cells of the workbook `what` names may show."""
    return CellBudget(what, TEXT_MAX, "shows more characters in its cells than")


def filled(rows: Iterable[Sequence[str]], text: CellBudget | None = None) -> Rows:
    """The rows with a filled cell, each as wide as the widest, the columns with no filled cell left out.
    Only filled cells are kept until the columns are chosen: one row far wider than the others (a
    CSV line of 200,000 commas) does not widen every row. `text`: what the cells' characters spend."""
    kept = []
    for row in rows:
        cells = {column: cell for column, cell in enumerate(row) if cell}
        if cells and text is not None:
            text.spend(sum(map(len, cells.values())))
        if cells:
            kept.append(cells)
    used = sorted(set().union(*kept))
    return [[row.get(column, "") for column in used] for row in kept]


def table(rows: Rows, text: bool = False) -> str:
    """`rows` as a GFM table (its first row the header), or with `text` as tab-separated lines."""
    if text:
        return "\n".join("\t".join(row) for row in rows)
    head, *body = [[gfm_cell(cell) for cell in row] for row in rows]
    return gfm_table(head, body)


def sheet(name: str, rows: Rows, text: bool = False) -> str:
    """One sheet of a workbook: its name as a heading (a line of its own in text), then its table."""
    return f"{name}\n\n{table(rows, True)}" if text else f"## {name}\n\n{table(rows)}"


def workbook(
    sheets: Sequence[tuple[str, Rows]],
    options: ExtractOptions,
    *,
    what: str,
    content_type: str,
    fields: dict[str, Any],
    document: str,
) -> Extracted:
    """A workbook's sheets with a filled cell, each under its name (`sheet`), with `fields` (title,
    byline, dates...); `meta.extract.sheets` names each with its rows and columns. `empty_content`
    naming `what` when no sheet has a filled cell."""
    kept = [(name, rows) for name, rows in sheets if rows]
    if not kept:
        raise FerretError(ErrorCode.EMPTY_CONTENT, f"{what} has no filled cell")
    text = options.format == "text"
    content = "\n\n".join(sheet(name, rows, text) for name, rows in kept)
    return Extracted(
        content_type=content_type,
        **fields,
        page_type="other",
        format="text" if text else "markdown",
        content=content + "\n",
        word_count=count_words(content),
        extra={
            "document": document,
            "sheets": [{"name": name, "rows": len(rows), "columns": len(rows[0])} for name, rows in kept],
        },
    )
