"""Spreadsheets (.xlsx) as Markdown: a section per sheet under its name, its cells as a table whose
header is its first row, each cell as the sheet last showed it (the value its formula computed, a date
as a date, a percentage as one; a formula the file holds no value of, as its formula), with title,
author and dates from the workbook's properties.

Read with openpyxl in read-only mode, every sheet's own size read from its rows (a sheet that claims the
whole grid is not padded to it); empty rows and columns are left out. openpyxl parses through
defusedxml (a doctype or entity is refused), and a file whose parts unpack too far is refused before
it is read (`zipped`).
"""

from __future__ import annotations

import io
import math
import re
import warnings
import zipfile
from collections.abc import Iterable, Iterator
from datetime import date, datetime, time
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from itertools import repeat
from typing import Any

from webferret.extract import zipped
from webferret.extract.sheets import CellBudget, filled, text_budget, workbook
from webferret.extract.types import Extracted, ExtractOptions
from webferret.models import FerretError
from webferret.net.urlpath import file_name

warnings.filterwarnings("ignore", module="openpyxl")  # a style it does not know, a data validation: not ours
XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def extract_xlsx(body: bytes, url: str | None, options: ExtractOptions) -> Extracted:
    """Every sheet of the workbook in `body` with its cells; `FerretError` says why not."""
    what = f"the spreadsheet at {url or 'input'}"
    archive = zipped.checked(body, what)
    try:
        book = _opened(body, data_only=True)
        written = (  # the formulas, for the cells whose value the file does not hold
            _opened(body, data_only=False) if _uncached(archive) else None
        )
    except Exception as exc:  # a damaged part: openpyxl raises many kinds
        raise zipped.unreadable(what, exc) from None
    try:
        empty = CellBudget(what, EMPTY_CELLS_MAX, "has more empty cells in its rows than")
        shown = text_budget(what)
        formulas = written.worksheets if written is not None else [None] * len(book.worksheets)
        sheets = [
            (sheet.title, filled(_cells(sheet, empty, formula), shown))
            for sheet, formula in _each_part_once(zip(book.worksheets, formulas, strict=True))
        ]
    except FerretError:
        raise
    except Exception as exc:
        raise zipped.unreadable(what, exc) from None
    finally:
        book.close()
        if written is not None:
            written.close()
    fields = zipped.described(archive, file_name(url))  # (openpyxl dates a file that says none today)
    return workbook(sheets, options, what=what, content_type=XLSX_TYPE, fields=fields, document="xlsx")


def _opened(body: bytes, *, data_only: bool) -> Any:
    """The workbook in `body` as openpyxl reads it in read-only mode, but for its document properties:
    `zipped.described` reads those, each field on its own, where openpyxl refused the whole workbook
    for one it cannot parse (a creation date of a day without its time, `2024-01-01`, as W3CDTF
    allows; a custom property's damaged value)."""
    from openpyxl.reader.excel import ExcelReader

    class Reader(ExcelReader):
        def read_properties(self) -> None:
            """Not read: see `_opened`."""

        def read_custom(self) -> None:
            """Not read: see `_opened`."""

    reader = Reader(io.BytesIO(body), read_only=True, data_only=data_only)
    reader.read()
    return reader.wb


EMPTY_CELLS_MAX = 10_000_000
"""The most empty cells read in a workbook's rows (openpyxl gives a row every cell
up to its last): past them it is `too_large`. A row's one cell in the last column is 16,383 empty
ones before it, and a few KB of such rows would be read for hours."""


def _each_part_once(sheets: Iterable[tuple[Any, Any]]) -> Iterator[tuple[Any, Any]]:
    """The workbook's sheets (with their formulas' twins), each part once: a workbook of a few KB
    that names one sheet's part a thousand times had it read as often (50 names, 11 MB of Markdown)."""
    seen: set[str] = set()
    for sheet, formulas in sheets:
        part = getattr(sheet, "_worksheet_path", None) or sheet.title  # (openpyxl's read-only sheet)
        if part not in seen:
            seen.add(part)
            yield sheet, formulas


_UNCACHED = re.compile(
    rb"""<(?:\w+:)?c\b(?:(?!\bt="str")[^>])*>\s*                         # a cell, not of a text result
    (?:<(?:\w+:)?f\b[^>]*/>|<(?:\w+:)?f\b[^>]*>[^<]*</(?:\w+:)?f>)\s*  # its formula
    (?:<(?:\w+:)?v\s*/>|<(?:\w+:)?v>\s*</(?:\w+:)?v>)?\s*</(?:\w+:)?c>  # no value, or an empty one""",
    re.VERBOSE,
)
"""A cell that holds its formula and no value (`<c><f>SUM(B2:B3)</f><v></v></c>`): a workbook a
program wrote (openpyxl, a report's export), never opened in a spreadsheet that computes it. (A
formula whose result is empty text holds an empty value too, in a cell of type `str`.)"""


def _uncached(archive: zipfile.ZipFile) -> bool:
    """Whether a sheet of the workbook holds a formula without its value."""
    sheets = (name for name in archive.namelist() if name.startswith("xl/worksheets/"))
    return any(_UNCACHED.search(archive.read(name)) for name in sheets if name.endswith(".xml"))


def _cells(sheet: Any, empty: CellBudget, formulas: Any = None) -> Iterator[list[str]]:
    """A sheet's rows as text, each cell as the sheet shows it (`sheets.filled` keeps the filled ones);
    a cell the file holds no value of as its formula (`=SUM(B2:B3)`), from the same sheet read for
    its `formulas`, when given."""
    sheet.reset_dimensions()  # its claimed size may be the whole grid: read the rows it has
    if formulas is not None:
        formulas.reset_dimensions()
    written = formulas.iter_rows() if formulas is not None else repeat(())
    for row, as_written in zip(sheet.iter_rows(), written, strict=False):  # (rows alike: one XML)
        shown = [_shown(cell.value, cell.number_format) for cell in row]
        for at, cell in enumerate(as_written):
            value = cell.value
            if at < len(shown) and not shown[at] and isinstance(value, str) and value.startswith("="):
                shown[at] = " ".join(value.split())
        empty.spend(shown.count(""))
        yield shown


def _shown(value: object, number_format: str | None = None) -> str:
    """A cell's value as the sheet shows it, on one line (a fraction formatted as a percentage as one)."""
    if value is None:
        return ""
    if isinstance(value, int | float) and not isinstance(value, bool) and _percent(number_format):
        return _as_percent(value, number_format or "")
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, datetime):
        return value.date().isoformat() if value.time() == time() else value.isoformat(sep=" ")
    if isinstance(value, date | time):
        return value.isoformat()
    if isinstance(value, float):
        return f"{value:.15g}"
    return " ".join(str(value).split())


def _percent(number_format: str | None) -> bool:
    """Whether a number format shows its number as a percentage (`0%`, `0.00%`; not a quoted "%")."""
    section = re.sub(r'"[^"]*"|\\.', "", (number_format or "").split(";")[0])
    return "%" in section


def _as_percent(value: float, number_format: str) -> str:
    """`value` as its percentage, with the decimals its format asks for (`0.0%`: 12.5%)."""
    decimals = re.search(r"\.(0+)", number_format.split(";")[0])
    step = Decimal(1).scaleb(-len(decimals.group(1))) if decimals else Decimal(1)
    if not math.isfinite(value):
        return f"{value:.15g}"
    try:
        return f"{Decimal(repr(value * 100)).quantize(step, ROUND_HALF_UP)}%"  # half up, as Excel rounds
    except InvalidOperation:  # past what a percentage shows (1e300, NaN): the number itself
        return f"{value:.15g}"
