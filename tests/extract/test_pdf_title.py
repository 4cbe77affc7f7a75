"""A PDF's title and author when its metadata names none (`extract.pdftitle`)."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader, PdfWriter
from test_pdf_layout import _cells, pdf_drawing
from test_pdf_tables import TERMS

from webferret.extract.document import extract_document
from webferret.extract.types import Extracted, ExtractOptions


def test_a_table_opening_the_first_page_gives_no_title() -> None:
    """A PDF without a title in its metadata took the first line of its first page: a table's header
    (`Term Meaning Year`), or the line after the table."""
    rows = [_cells(700 - 16 * n, *zip((72, 200, 420), row, strict=True)) for n, row in enumerate(TERMS)]
    after = _cells(620, (72, "Counted at the weirs"))
    read = extract_document(
        pdf_drawing(" ".join([*rows, after])),
        url="http://127.0.0.1/reports/terms.pdf",
        content_type="application/pdf",
        options=ExtractOptions(),
    )
    assert read.title == "terms.pdf"


def test_reportlabs_placeholder_title_and_author_are_none() -> None:
    """ReportLab writes `(anonymous)` as the title and author of a PDF its maker named not: it was the
    title (`# (anonymous)`) and the byline (`by (anonymous)`)."""
    writer = PdfWriter(
        clone_from=PdfReader(io.BytesIO(pdf_drawing(_cells(700, (72, "Weir Counts"), size=18))))
    )
    writer.add_metadata({"/Title": "(anonymous)", "/Author": "(anonymous)", "/Subject": "(unspecified)"})
    body = io.BytesIO()
    writer.write(body)
    read = extract_document(
        body.getvalue(), url=None, content_type="application/pdf", options=ExtractOptions()
    )
    assert (read.title, read.byline) == ("Weir Counts", None)


@pytest.mark.parametrize(
    "placeholder", ["notes.html", "burrow.example/reports/weirs?year=2024", "about:blank"]
)
def test_chromes_title_of_a_page_without_one_is_none(placeholder: str) -> None:
    """Chrome's `Save as PDF` of a page without a `<title>` names the PDF by the file's name or the
    page's address (`burrow.example/reports/weirs?year=2024`): it was the title, not the page's
    heading."""
    assert _titled("Weir Counts", placeholder).title == "Weir Counts"


def _titled(heading: str, title: str) -> Extracted:
    """A one-page PDF whose page opens with `heading` and whose metadata says `title`, read."""
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf_drawing(_cells(700, (72, heading), size=18)))))
    writer.add_metadata({"/Title": title})
    body = io.BytesIO()
    writer.write(body)
    return extract_document(
        body.getvalue(), url=None, content_type="application/pdf", options=ExtractOptions()
    )


@pytest.mark.parametrize("title", ["Node.js/Express", "Vue.js/Nuxt in Practice", "ASP.NET/MVC"])
def test_a_title_naming_a_library_and_its_framework_is_the_title(title: str) -> None:
    """Chrome's title of a page without one is its address, whose host it writes in lower case: a
    title such as `Node.js/Express` was taken for one and left out (the page's first line instead)."""
    assert _titled("Weir Counts", title).title == title
