"""CSV and TSV files as the table they are: a GitHub-flavoured Markdown table, its first row the header.

A file is read as a table when its type says so (`text/csv` and its older names, `text/tab-separated-values`,
and `application/vnd.ms-excel`, which download scripts send a CSV export as) or its name does (`.csv`,
`.tsv`, `.tab`). The separator is the one its first lines use (`,`, `;`, a tab or `|`:
many European exports separate with `;`), quoted fields may hold separators and line breaks, rows
are as wide as the widest, and empty rows and columns are left out. A file that does not read as a
table of two columns or more (a single column, a parse error) stays text. `--format text` gives the
rows tab-separated.
"""

from __future__ import annotations

import csv
import io
from pathlib import PurePosixPath
from urllib.parse import unquote, urlsplit

from webferret.extract.sheets import Rows, filled, table
from webferret.extract.types import Extracted, ExtractOptions
from webferret.extract.words import count_words
from webferret.net.urlpath import file_name

TYPES = {
    "text/csv": ",",
    "application/csv": ",",
    "text/comma-separated-values": ",",
    "text/x-csv": ",",
    "application/x-csv": ",",
    "application/vnd.ms-excel": ",",  # what download scripts label a CSV export (its text: no .xls file)
    "text/tab-separated-values": "\t",
}
SUFFIXES = {".csv": ",", ".tsv": "\t", ".tab": "\t"}
SEPARATORS = ",;\t|"
SNIFFED = 64 * 1024
"""How much of the file's start shows its separator."""


def separator_for(url: str | None, mime: str) -> str | None:
    """The separator the file's type or name implies, or None when it is no delimited file."""
    if mime in TYPES:
        return TYPES[mime]
    return SUFFIXES.get(PurePosixPath(unquote(urlsplit(url or "").path)).suffix.lower())


def extract_delimited(
    text: str, separator: str, mime: str, url: str | None, options: ExtractOptions
) -> Extracted | None:
    """The table in `text`, or None when it does not read as one (the caller shows it as text)."""
    rows = _rows(text, _sniffed(text, separator))
    if rows is None or len(rows[0]) < 2:
        return None
    content = table(rows, options.format == "text")
    return Extracted(
        content_type=mime or ("text/tab-separated-values" if separator == "\t" else "text/csv"),
        title=file_name(url),
        page_type="other",
        format="text" if options.format == "text" else "markdown",
        content=content + "\n",
        word_count=count_words("\n".join(" ".join(row) for row in rows)),
        extra={"document": "csv", "rows": len(rows), "columns": len(rows[0])},
    )


def _sniffed(text: str, implied: str) -> str:
    """The separator the file's first lines use, else the one its type or name implies."""
    sample = text[:SNIFFED]
    cut = sample.rfind("\n")
    try:
        return csv.Sniffer().sniff(sample[:cut] if cut > 0 else sample, delimiters=SEPARATORS).delimiter
    except csv.Error:
        return implied


def _rows(text: str, separator: str) -> Rows | None:
    """The filled rows, each cell on one line (`sheets.filled`)."""
    try:
        parsed = [
            [" ".join(cell.split()) for cell in row]
            for row in csv.reader(io.StringIO(text, newline=""), delimiter=separator)
        ]
    except csv.Error:  # a field past the csv module's limit, a NUL: not a table to show
        return None
    return filled(parsed) or None
