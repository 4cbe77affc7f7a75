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


@pytest.mark.parametrize("account", ["Windows User", "Owner", "user", "Administrator", "admin"])
def test_a_computer_s_account_as_the_author_is_no_byline(account: str) -> None:
    """Word fills /Author with the account of the computer it ran on ("Windows User", "Owner"): no
    writer's name, so no byline."""
    writer = PdfWriter(
        clone_from=PdfReader(io.BytesIO(pdf_drawing(_cells(700, (72, "Weir Counts"), size=18))))
    )
    writer.add_metadata({"/Author": account})
    body = io.BytesIO()
    writer.write(body)
    read = extract_document(
        body.getvalue(), url=None, content_type="application/pdf", options=ExtractOptions()
    )
    assert read.byline is None


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


XMP = """<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xmp="http://ns.adobe.com/xap/1.0/">
<dc:title><rdf:Alt><rdf:li xml:lang="x-default">Salmon Counts of the Tay</rdf:li></rdf:Alt></dc:title>
<dc:creator><rdf:Seq><rdf:li>Ada Weir</rdf:li><rdf:li>Tom Ness</rdf:li></rdf:Seq></dc:creator>
<xmp:CreateDate>2024-03-05T12:00:00+01:00</xmp:CreateDate>
<xmp:ModifyDate>2024-04-01T09:30:00Z</xmp:ModifyDate>
</rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>"""


def test_a_pdf_2_s_title_author_and_dates_come_from_its_xmp_metadata() -> None:
    """PDF 2.0 deprecates the Info dictionary: a PDF that states its title, authors and dates in its
    XMP packet alone was titled by its first line, with no author and no dates."""
    read = _with_xmp(XMP)
    assert (read.title, read.byline) == ("Salmon Counts of the Tay", "Ada Weir, Tom Ness")
    assert (read.published, read.modified) == ("2024-03-05", "2024-04-01")


def test_an_xmp_packet_s_damaged_date_keeps_its_other_fields_and_a_date_is_the_day_it_writes() -> None:
    """A `ModifyDate` written as a PDF date (`D:20240401`), which pypdf refuses, lost the packet's
    title, authors and dates, all of them; and a date was read in UTC, `2024-03-05T00:30:00+01:00`
    as March 4, where the Info dictionary's is the day the document writes."""
    packet = XMP.replace("2024-04-01T09:30:00Z", "D:20240401093000Z").replace(
        "12:00:00+01:00", "00:30:00+01:00"
    )
    read = _with_xmp(packet)
    assert (read.title, read.byline) == ("Salmon Counts of the Tay", "Ada Weir, Tom Ness")
    assert (read.published, read.modified) == ("2024-03-05", "2024-04-01")


def _with_xmp(packet_text: str) -> Extracted:
    """A one-line PDF ("Weir Counts") whose metadata is the XMP packet `packet_text` alone, read."""
    from pypdf.generic import NameObject, StreamObject

    writer = PdfWriter(
        clone_from=PdfReader(io.BytesIO(pdf_drawing(_cells(700, (72, "Weir Counts"), size=18))))
    )
    packet = StreamObject()
    packet.set_data(packet_text.encode())
    packet.update({NameObject("/Type"): NameObject("/Metadata"), NameObject("/Subtype"): NameObject("/XML")})
    writer._root_object[NameObject("/Metadata")] = writer._add_object(packet)
    body = io.BytesIO()
    writer.write(body)
    return extract_document(
        body.getvalue(), url=None, content_type="application/pdf", options=ExtractOptions()
    )
