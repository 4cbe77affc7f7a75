"""Spreadsheets (.xlsx) read as a table per sheet (`extract.sheetfile`)."""

from __future__ import annotations

import io
import json
import re
import zipfile
from collections.abc import Callable
from datetime import date, datetime
from pathlib import Path

import openpyxl
import pytest
from rezip import after_declaration, rezipped
from simweb import SimWeb

from webferret.cli import main
from webferret.extract import sheets
from webferret.extract.document import extract_document
from webferret.extract.sheetfile import XLSX_TYPE
from webferret.extract.types import Extracted, ExtractOptions
from webferret.extract.zipped import office_kind
from webferret.models import ErrorCode, FerretError


def workbook(*, empty: bool = False) -> bytes:
    """A real .xlsx as openpyxl writes it: two sheets with cells, one without."""
    book = openpyxl.Workbook()
    rivers = book.active
    rivers.title = "Rivers"
    if not empty:
        rivers.append(["River", None, "Opens", "Fish", "Open?"])
        rivers.append(["Tay", None, date(2025, 5, 1), 412, True])
        rivers.append([])
        rivers.append(["Dee | North", None, datetime(2025, 6, 1, 9, 30), 3.5, False])
        notes = book.create_sheet("Notes")
        notes["B2"] = "Counted at dawn"
    book.create_sheet("Blank")
    book.properties.title = "Salmon counts"
    book.properties.creator = "Ada Burrow"
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def read(body: bytes, content_type: str | None = XLSX_TYPE, **options: object) -> Extracted:
    return extract_document(
        body,
        url="https://burrow.example/counts.xlsx",
        content_type=content_type,
        options=ExtractOptions(**options),
    )


def test_every_sheet_is_a_table_under_its_name() -> None:
    page = read(workbook())
    assert page.content == (
        "## Rivers\n\n| River | Opens | Fish | Open? |\n|---|---|---|---|\n"
        "| Tay | 2025-05-01 | 412 | TRUE |\n"
        "| Dee \\| North | 2025-06-01 09:30:00 | 3.5 | FALSE |\n\n## Notes\n\n| Counted at dawn |\n|---|\n"
    )
    assert (page.title, page.byline, page.content_type, page.page_type) == (
        "Salmon counts",
        "Ada Burrow",
        XLSX_TYPE,
        "other",
    )
    assert page.extra["sheets"] == [
        {"name": "Rivers", "rows": 3, "columns": 4},
        {"name": "Notes", "rows": 1, "columns": 1},
    ]
    text = read(workbook(), format="text").content
    assert text.startswith("Rivers\n\nRiver\tOpens\tFish\tOpen?\nTay\t2025-05-01\t412\tTRUE\n")


def test_a_formula_the_file_holds_no_value_of_is_shown_as_its_formula() -> None:
    """A workbook a program wrote (openpyxl here) holds its formulas without their values: such a
    cell was shown empty, the row's total silently lost. A value the file holds is still shown."""
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Counts"
    for row in (["River", "Fish"], ["Tay", 412], ["Dee", 35], ["Total", "=SUM(B2:B3)"]):
        sheet.append(row)
    out = io.BytesIO()
    book.save(out)
    page = read(out.getvalue())
    assert page.content.endswith("| Dee | 35 |\n| Total | =SUM(B2:B3) |\n")
    computed = rezipped(
        out.getvalue(), "xl/worksheets/sheet1.xml", lambda data: data.replace(b"<v></v>", b"<v>447</v>")
    )
    assert read(computed).content.endswith("| Total | 447 |\n")


@pytest.mark.parametrize("core", [None, b"<cp:coreProperties xmlns:cp='x'/>"])
def test_a_workbook_that_states_no_dates_has_none(core: bytes | None) -> None:
    """openpyxl dates a workbook whose properties state no dates (or that has none) today: such a
    file was published and changed the day it was read."""
    source = zipfile.ZipFile(io.BytesIO(workbook()))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for item in source.infolist():
            if item.filename != "docProps/core.xml":
                archive.writestr(item, source.read(item))
            elif core is not None:
                archive.writestr(item, core)
    page = read(out.getvalue())
    assert (page.title, page.byline, page.published, page.modified) == ("counts.xlsx", None, None, None)


def _created(day: bytes) -> Callable[[bytes], bytes]:
    return lambda data: re.sub(rb"(<dcterms:created[^>]*>)[^<]*", rb"\g<1>" + day, data)


@pytest.mark.parametrize(
    ("change", "published", "byline"),
    [
        (_created(b"2024-01-01"), "2024-01-01", "Ada Burrow"),
        (_created(b"01/02/2024"), None, "Ada Burrow"),
        (lambda data: data[:-20], None, None),  # a damaged part
    ],
)
def test_properties_openpyxl_cannot_parse_lose_only_themselves(
    change: Callable[[bytes], bytes], published: str | None, byline: str | None
) -> None:
    """openpyxl reads a workbook's properties as it opens it, and refused the whole workbook for one
    it cannot parse: a creation date of a day without its time (`2024-01-01`, which W3CDTF allows),
    a date in another form, a damaged part. Its sheets are read, and its other properties."""
    page = read(rezipped(workbook(), "docProps/core.xml", change))
    assert page.content.startswith("## Rivers\n\n| River | Opens | Fish | Open? |\n")
    assert (page.published, page.byline) == (published, byline)


def test_a_sheet_the_workbook_names_again_and_again_is_read_once() -> None:
    """A workbook of a few KB that names one sheet's part a hundred times (each under its own name)
    had it read a hundred times: fifty names of a 2,000-row sheet gave 11 MB of Markdown."""

    def named_again(data: bytes) -> bytes:
        sheet = re.search(rb"<sheet [^>]*/>", data).group()
        again = b"".join(sheet.replace(b'name="Rivers"', b'name="Copy %d"' % n) for n in range(100))
        return data.replace(sheet, sheet + again)

    page = read(rezipped(workbook(), "xl/workbook.xml", named_again))
    assert [sheet["name"] for sheet in page.extra["sheets"]] == ["Rivers", "Notes"]


def test_one_long_string_shown_in_every_cell_is_too_large(monkeypatch: pytest.MonkeyPatch) -> None:
    """A .xlsx keeps a text once (its shared strings) and each cell points to it: a 19 KB file of one
    108 KB string in 4,000 cells gave 432 MB of Markdown and held 6 GB. What the cells show is
    bounded (`TEXT_MAX`, here made small)."""
    monkeypatch.setattr(sheets, "TEXT_MAX", 50_000)
    book = openpyxl.Workbook()
    for _ in range(60):
        book.active.append(["Ferrets dig burrows under the shed. " * 30])  # 1,080 characters
    out = io.BytesIO()
    book.save(out)
    with pytest.raises(FerretError) as caught:
        read(out.getvalue())
    assert caught.value.code == ErrorCode.TOO_LARGE
    assert caught.value.message.endswith("shows more characters in its cells than 50,000")
    assert read(workbook()).content.startswith("## Rivers")  # a workbook within it is read


def test_a_sheet_that_claims_the_whole_grid_is_read_to_its_cells() -> None:
    def whole_grid(data: bytes) -> bytes:
        assert b'<dimension ref="A1:E4"/>' in data
        return data.replace(b'<dimension ref="A1:E4"/>', b'<dimension ref="A1:XFD1048576"/>')

    grid = rezipped(workbook(), "xl/worksheets/sheet1.xml", whole_grid)
    assert read(grid).extra["sheets"][0] == {"name": "Rivers", "rows": 3, "columns": 4}


def test_entities_in_a_sheet_are_refused_not_expanded() -> None:
    laughs = b'<!DOCTYPE x [<!ENTITY a "ha"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>'
    with pytest.raises(FerretError) as caught:
        read(rezipped(workbook(), "xl/worksheets/sheet1.xml", after_declaration(laughs)))
    assert (
        caught.value.code == ErrorCode.UNSUPPORTED_CONTENT
        and "counts.xlsx cannot be read" in caught.value.message
    )


@pytest.mark.parametrize("content_type", ["application/octet-stream", "application/zip", None])
def test_a_spreadsheet_is_told_by_its_parts_whatever_its_type(content_type: str | None) -> None:
    assert office_kind(workbook()) == "xlsx" and read(workbook(), content_type).title == "Salmon counts"


def test_a_workbook_without_a_filled_cell_is_empty_content() -> None:
    with pytest.raises(FerretError) as caught:
        read(workbook(empty=True))
    assert (
        caught.value.code == ErrorCode.EMPTY_CONTENT
        and "counts.xlsx has no filled cell" in caught.value.message
    )


def test_fetch_reads_a_spreadsheet(
    simweb: SimWeb, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = simweb.add("/counts.xlsx", workbook(), headers={"Content-Type": XLSX_TYPE})
    assert main(["fetch", url, "--json", "--home", str(tmp_path), "--allow-host", "127.0.0.1"]) == 0
    page = json.loads(capsys.readouterr().out)["data"]["pages"][0]
    assert (
        page["ok"]
        and page["title"] == "Salmon counts"
        and page["content"].startswith("## Rivers\n\n| River |")
    )


def test_a_percentage_reads_as_the_sheet_shows_it(simweb: SimWeb, capsys: pytest.CaptureFixture[str]) -> None:
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(["River", "Share", "Change", "Fish"])
    sheet.append(["Tay", 0.25, 0.0125, 412])
    sheet.append(["Dee", 0.125, -0.5, 3.5])
    for row in (2, 3):
        sheet[f"B{row}"].number_format = "0%"
        sheet[f"C{row}"].number_format = "0.00%;[Red]-0.00%"
    out = io.BytesIO()
    book.save(out)
    url = simweb.add("/shares.xlsx", out.getvalue(), headers={"Content-Type": XLSX_TYPE})
    assert main(["fetch", url, "--json", "--allow-host", "127.0.0.1"]) == 0
    content = json.loads(capsys.readouterr().out)["data"]["pages"][0]["content"]
    assert content.endswith("| Tay | 25% | 1.25% | 412 |\n| Dee | 13% | -50.00% | 3.5 |\n")


def test_rows_of_a_cell_in_the_last_column_are_too_large(
    simweb: SimWeb, capsys: pytest.CaptureFixture[str]
) -> None:
    """openpyxl gives each row every cell up to its last: 700 rows of one cell in column XFD are
    eleven million empty cells to read (a few KB of such rows, hours)."""
    rows = "".join(
        f'<row r="{n}"><c r="XFD{n}" t="inlineStr"><is><t>x</t></is></c></row>' for n in range(1, 701)
    )
    sheet = (
        '<?xml version="1.0" encoding="UTF-8"?>'
        f'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>{rows}</sheetData></worksheet>'
    ).encode()
    body = rezipped(workbook(), "xl/worksheets/sheet1.xml", lambda _: sheet)
    url = simweb.add("/wide.xlsx", body, headers={"Content-Type": XLSX_TYPE})
    assert main(["fetch", url, "--json", "--allow-host", "127.0.0.1"]) == 1
    error = json.loads(capsys.readouterr().out)["data"]["pages"][0]["error"]
    said = "has more empty cells in its rows than 10,000,000"
    assert error["code"] == "too_large" and said in error["message"]
