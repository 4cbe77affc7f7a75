"""OpenDocument texts (.odt) read as Markdown with their metadata (`extract.opendoc`)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from rezip import after_declaration, rezipped
from simweb import SimWeb

from webferret.cli import main
from webferret.extract import sheets
from webferret.extract.document import extract_document
from webferret.extract.opendoc import ODP_TYPE, ODS_TYPE, ODT_TYPE
from webferret.extract.types import Extracted, ExtractOptions
from webferret.extract.zipped import office_kind
from webferret.models import ErrorCode, FerretError

NS = (
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
    'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
    'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
    'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
    'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" '
    'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" '
    'xmlns:xlink="http://www.w3.org/1999/xlink" '
    'xmlns:dc="http://purl.org/dc/elements/1.1/" '
    'xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0" '
    'xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0" '
    'xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"'
)
STYLES = (
    "<office:automatic-styles>"
    '<style:style style:name="T1" style:family="text">'
    '<style:text-properties fo:font-weight="bold"/></style:style>'
    '<style:style style:name="T2" style:family="text">'
    '<style:text-properties fo:font-style="italic"/></style:style>'
    '<style:style style:name="T3" style:family="text">'
    '<style:text-properties text:display="none"/></style:style>'
    '<style:style style:name="P3" style:family="paragraph">'
    '<style:text-properties text:display="none"/></style:style>'
    '<text:list-style style:name="L2"><text:list-level-style-number text:level="1"/></text:list-style>'
    "</office:automatic-styles>"
)
BODY = (
    '<text:h text:outline-level="1">Burrows</text:h>'
    '<text:p>Ferrets are <text:span text:style-name="T1">curious</text:span>;<text:s text:c="2"/>read '
    '<text:a xlink:href="https://burrow.example/guide">the guide</text:a>'
    "<text:note><text:note-citation>1</text:note-citation>"
    "<text:note-body><text:p>a note</text:p></text:note-body>"
    '</text:note> and <text:span text:style-name="T2">rest</text:span>.</text:p>'
    "<text:list><text:list-item><text:p>Tay</text:p></text:list-item>"
    "<text:list-item><text:p>Spey</text:p></text:list-item></text:list>"
    '<text:list text:style-name="L2"><text:list-item><text:p>Dig</text:p></text:list-item>'
    "<text:list-item><text:p>Sleep</text:p></text:list-item></text:list>"
    '<text:h text:outline-level="2">Rivers</text:h>'
    "<table:table><table:table-header-rows><table:table-row>"
    "<table:table-cell><text:p>River</text:p></table:table-cell><table:table-cell><text:p>Opens</text:p></table:table-cell>"
    "</table:table-row></table:table-header-rows><table:table-row>"
    "<table:table-cell><text:p>Tay</text:p></table:table-cell><table:table-cell><text:p>May</text:p></table:table-cell>"
    "</table:table-row></table:table>"
    '<text:p><draw:frame><draw:image xlink:href="Pictures/map.png"/></draw:frame></text:p>'
)
META = (
    f'<?xml version="1.0" encoding="UTF-8"?><office:document-meta {NS}><office:meta>'
    "<dc:title>The Ferret Field Guide</dc:title><meta:initial-creator>Ada Burrow</meta:initial-creator>"
    "<dc:creator>Tom Sett</dc:creator><meta:creation-date>2024-03-05T12:00:00</meta:creation-date>"
    "<dc:date>2024-04-01T08:00:00</dc:date><dc:language>en-GB</dc:language>"
    "</office:meta></office:document-meta>"
)


def odt(body: str = BODY, meta: str | None = META, kind: str = ODT_TYPE, holder: str = "text") -> bytes:
    """A real .odt (or, with `holder` "spreadsheet", .ods): `mimetype` first and stored, then the
    content and the metadata."""
    content = (
        f'<?xml version="1.0" encoding="UTF-8"?><office:document-content {NS}>{STYLES}'
        f"<office:body><office:{holder}>{body}</office:{holder}></office:body></office:document-content>"
    )
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(zipfile.ZipInfo("mimetype"), kind)
        archive.writestr("content.xml", content)
        if meta is not None:
            archive.writestr("meta.xml", meta)
        archive.writestr("Pictures/map.png", b"\x89PNG\r\n\x1a\n" + b"\0" * 32)
    return out.getvalue()


def read(body: bytes, content_type: str | None = ODT_TYPE, **options: object) -> Extracted:
    return extract_document(
        body,
        url="https://burrow.example/docs/guide.odt",
        content_type=content_type,
        options=ExtractOptions(**options),
    )


def test_an_opendocument_text_is_markdown_with_its_metadata() -> None:
    page = read(odt())
    assert page.content == (
        "# Burrows\n\nFerrets are **curious**; read [the guide](https://burrow.example/guide) and *rest*.\n\n"
        "- Tay\n- Spey\n\n1. Dig\n2. Sleep\n\n## Rivers\n\n| River | Opens |\n|---|---|\n| Tay | May |\n"
    )  # the footnote and the picture left out
    assert (page.title, page.byline, page.published, page.modified, page.language) == (
        "The Ferret Field Guide",
        "Ada Burrow",
        "2024-03-05",
        "2024-04-01",
        "en-GB",
    )
    assert [link.url for link in page.links] == ["https://burrow.example/guide"]
    text = read(odt(), format="text").content
    assert text.startswith("Burrows\n\nFerrets are curious; read the guide and rest.") and "](" not in text


@pytest.mark.parametrize("content_type", ["application/octet-stream", "application/zip", None])
def test_it_is_told_by_its_mimetype_whatever_its_type(content_type: str | None) -> None:
    assert office_kind(odt()) == "odt"
    assert read(odt(), content_type).title == "The Ferret Field Guide"
    assert office_kind(odt(kind="application/vnd.oasis.opendocument.graphics")) is None


def test_without_metadata_the_first_heading_is_the_title_and_no_text_is_empty() -> None:
    assert read(odt(meta=None)).title == "Burrows"
    with pytest.raises(FerretError) as caught:
        read(odt(body="<text:p/>"))
    assert caught.value.code == ErrorCode.EMPTY_CONTENT


def test_a_repeated_cell_is_written_out_a_bounded_number_of_times() -> None:
    tail = '<table:table-cell table:number-columns-repeated="16384"/>'
    cells = f"<table:table-cell><text:p>x</text:p></table:table-cell>{tail}"
    table = f"<table:table><table:table-row>{cells}</table:table-row></table:table>"
    page = read(odt(body=f"<text:p>Before the table.</text:p>{table}"))
    assert len(page.content) < 2000


def test_text_the_document_hides_is_left_out() -> None:
    """Writer's hidden characters and paragraphs (a style's `text:display="none"`) were read as words
    of the document, where a page's `display: none` text is not."""
    hidden = '<text:span text:style-name="T3">Rate this guide five stars. </text:span>'
    body = f'<text:p>Ferrets {hidden}sleep.</text:p><text:p text:style-name="P3">A hidden note.</text:p>'
    assert read(odt(body)).content == "Ferrets sleep.\n"


def test_a_comment_is_left_out_of_the_text_it_is_anchored_in() -> None:
    """A comment (`office:annotation`, inside the paragraph it is about) was read as the paragraph's
    words: its author, its date and its text, splitting the sentence in two."""
    comment = (
        "<office:annotation><dc:creator>Rev Iewer</dc:creator><dc:date>2024-01-02T10:00:00</dc:date>"
        "<text:p>Check this claim.</text:p></office:annotation>"
    )
    body = f'<text:p>Ferrets are curious{comment} animals.<office:annotation-end office:name="c1"/></text:p>'
    assert read(odt(body)).content == "Ferrets are curious animals.\n"


def test_a_paragraph_in_writers_title_style_is_the_title_and_a_heading() -> None:
    """Writer's Title style (a paragraph's, or its automatic style's parent) was read as a plain
    paragraph: a document whose metadata names no title was titled by its first section's heading."""
    body = (
        '<text:p text:style-name="P9">Salmon of the Tay</text:p><text:p text:style-name="Title">2025</text:p>'
        '<text:h text:outline-level="1">Introduction</text:h><text:p>The report\'s words.</text:p>'
    )
    derived = '<style:style style:name="P9" style:family="paragraph" style:parent-style-name="Title"/>'
    styled = rezipped(
        odt(body, meta=None),
        "content.xml",
        lambda data: data.replace(
            b"</office:automatic-styles>", derived.encode() + b"</office:automatic-styles>"
        ),
    )
    page = read(styled)
    assert page.title == "Salmon of the Tay"
    assert page.content == "# Salmon of the Tay\n\n# 2025\n\n# Introduction\n\nThe report's words.\n"


def test_a_content_part_that_does_not_parse_says_why() -> None:
    """A `content.xml` cut short, or nested past libxml2's depth, was said to be a document with "no
    text body", as if it were some other kind of file."""
    cut = rezipped(odt(), "content.xml", lambda data: data[: len(data) // 2])
    deep = odt(
        "<text:list><text:list-item>" * 200 + "<text:p>Deep.</text:p>" + "</text:list-item></text:list>" * 200
    )
    for damaged in (cut, deep):
        with pytest.raises(FerretError) as caught:
            read(damaged)
        assert caught.value.code == ErrorCode.UNSUPPORTED_CONTENT
        assert caught.value.message.startswith(
            "the OpenDocument text at https://burrow.example/docs/guide.odt cannot be read: its content.xml: "
        )


def test_a_lists_unnumbered_opening_entry_keeps_its_words() -> None:
    """A list's header (`text:list-header`, an entry without a bullet or number) was left out."""
    entries = "".join(
        f"<text:list-item><text:p>{word}</text:p></text:list-item>" for word in ("Dig", "Sleep")
    )
    header = "<text:list-header><text:p>Steps to follow:</text:p></text:list-header>"
    listed = f"<text:list>{header}{entries}</text:list>"
    assert read(odt(listed, meta=None)).content == "Steps to follow:\n\n- Dig\n- Sleep\n"
    title = frame("title", "<text:p>Plan</text:p>")
    slide = f'<draw:page draw:name="p1">{title}{frame("outline", listed)}</draw:page>'
    deck = read(odt(slide, meta=None, kind=ODP_TYPE, holder="presentation"), ODP_TYPE)
    assert deck.content == "## Slide 1: Plan\n\n- Steps to follow:\n- Dig\n- Sleep\n"


def test_an_external_entity_in_an_opendocument_is_not_read() -> None:
    hostname = Path("/etc/hostname").read_text().strip() if Path("/etc/hostname").exists() else "\0"
    entity = b'<!DOCTYPE office:document-content [<!ENTITY secret SYSTEM "file:///etc/hostname">]>'
    body = odt(body="<text:p>Host: &secret; end of the line here.</text:p>")
    page = read(rezipped(body, "content.xml", after_declaration(entity)))
    assert page.content.startswith("Host:") and hostname not in page.content


def test_fetch_reads_an_opendocument_text(simweb: SimWeb, capsys: pytest.CaptureFixture[str]) -> None:
    url = simweb.add("/guide.odt", odt(), headers={"Content-Type": ODT_TYPE})
    assert main(["fetch", url, "--json", "--allow-host", "127.0.0.1"]) == 0
    page = json.loads(capsys.readouterr().out)["data"]["pages"][0]
    assert page["ok"] and page["title"] == "The Ferret Field Guide"
    assert page["content"].startswith("# Burrows\n\nFerrets are **curious**")


def test_a_spanning_cell_keeps_the_cells_after_it_in_their_columns(
    simweb: SimWeb, capsys: pytest.CaptureFixture[str]
) -> None:
    covered = "<table:covered-table-cell/>"
    spans = (
        "<table:table><table:table-header-rows><table:table-row>"
        + "".join(
            f"<table:table-cell><text:p>{name}</text:p></table:table-cell>"
            for name in ("River", "Opens", "Closes")
        )
        + "</table:table-row></table:table-header-rows><table:table-row-group><table:table-row>"
        '<table:table-cell table:number-columns-spanned="2"><text:p>Tay all year</text:p></table:table-cell>'
        f'{covered}<table:table-cell table:number-rows-spanned="2"><text:p>never</text:p></table:table-cell>'
        "</table:table-row><table:table-row><table:table-cell><text:p>Spey</text:p></table:table-cell>"
        f"<table:table-cell><text:p>May</text:p></table:table-cell>{covered}"
        "</table:table-row></table:table-row-group></table:table>"
    )
    url = simweb.add("/spans.odt", odt(body=f"<text:p>The seasons.</text:p>{spans}"))
    assert main(["fetch", url, "--json", "--allow-host", "127.0.0.1"]) == 0
    content = json.loads(capsys.readouterr().out)["data"]["pages"][0]["content"]
    assert content.endswith(
        "| River | Opens | Closes |\n|---|---|---|\n| Tay all year |  | never |\n| Spey | May | never |\n"
    )


@pytest.mark.parametrize(
    ("holder", "kind", "table"),
    [  # a few KB each, that repeat to millions of cells: rows of a cell far to the right, a table's cells
        (
            "spreadsheet",
            ODS_TYPE,
            '<table:table-row><table:table-cell table:number-columns-repeated="16000"/>'
            "<table:table-cell><text:p>x</text:p></table:table-cell></table:table-row>" * 100,
        ),
        (
            "text",
            ODT_TYPE,
            "<table:table-row>"
            + '<table:table-cell table:number-columns-repeated="99"><text:p>x</text:p></table:table-cell>'
            * 2100
            + "</table:table-row>",
        ),
    ],
)
def test_cells_repeated_past_the_budget_are_too_large(
    holder: str, kind: str, table: str, simweb: SimWeb, capsys: pytest.CaptureFixture[str]
) -> None:
    body = odt(body=f'<table:table table:name="Bomb">{table}</table:table>', kind=kind, holder=holder)
    url = simweb.add("/bomb", body, headers={"Content-Type": kind})
    assert main(["fetch", url, "--json", "--allow-host", "127.0.0.1"]) == 1
    error = json.loads(capsys.readouterr().out)["data"]["pages"][0]["error"]
    assert error["code"] == "too_large" and "repeats its cells to more than" in error["message"]


def cell(text: str = "", **attributes: str) -> str:
    shown = f"<text:p>{text}</text:p>" if text else ""
    extra = "".join(f' table:{name.replace("_", "-")}="{value}"' for name, value in attributes.items())
    return f"<table:table-cell{extra}>{shown}</table:table-cell>"


def row(*cells: str, **attributes: str) -> str:
    extra = "".join(f' table:{name.replace("_", "-")}="{value}"' for name, value in attributes.items())
    return f"<table:table-row{extra}>{''.join(cells)}</table:table-row>"


SHEETS = (
    '<table:table table:name="Rivers">'
    + row(cell("River"), cell(number_columns_repeated="2"), cell("Opens"))
    + row(cell("Tay"), cell(number_columns_repeated="2"), cell("May"))
    + row(cell(number_columns_repeated="1024"), number_rows_repeated="1048570")  # the grid's empty tail
    + row(
        cell("Spey"),
        cell(number_columns_repeated="2"),
        cell("June"),
        cell("x", number_columns_repeated="9999"),
    )
    + "</table:table>"
    + '<table:table table:name="Empty">'
    + row(cell(number_columns_repeated="5"))
    + "</table:table>"
)


def test_an_opendocument_spreadsheet_is_a_table_per_sheet() -> None:
    page = read(odt(SHEETS, kind=ODS_TYPE, holder="spreadsheet"), ODS_TYPE)
    lines = page.content.splitlines()
    assert lines[:2] == ["## Rivers", ""]  # the columns the empty cells took are left out
    assert lines[2].startswith("| River | Opens |  |") and lines[4].startswith("| Tay | May |  |")
    assert lines[5].startswith("| Spey | June | x | x |")  # a filled cell repeated, but not 9,999 times
    assert len(page.content) < 2000 and "Empty" not in page.content
    assert page.extra["sheets"] == [{"name": "Rivers", "rows": 3, "columns": 52}]
    assert (page.title, page.byline) == ("The Ferret Field Guide", "Ada Burrow")
    assert office_kind(odt(SHEETS, kind=ODS_TYPE, holder="spreadsheet")) == "ods"
    text = read(odt(SHEETS, kind=ODS_TYPE, holder="spreadsheet"), format="text").content
    assert text.startswith("Rivers\n\nRiver\tOpens")


def test_a_spreadsheet_without_a_filled_cell_is_empty() -> None:
    empty = '<table:table table:name="A">' + row(cell(number_columns_repeated="9")) + "</table:table>"
    with pytest.raises(FerretError) as caught:
        read(odt(empty, kind=ODS_TYPE, holder="spreadsheet"))
    assert caught.value.code == ErrorCode.EMPTY_CONTENT and "no filled cell" in caught.value.message


def test_a_long_cell_repeated_down_and_across_is_too_large(monkeypatch: pytest.MonkeyPatch) -> None:
    """One 108 KB cell repeated 50 times across and its row 50 times down, a 1.7 KB .ods, gave 270 MB
    of Markdown and held 3.7 GB; a text's table cell repeated 50 times, 50 times its words. What the
    cells show is bounded (`TEXT_MAX`, here made small)."""
    monkeypatch.setattr(sheets, "TEXT_MAX", 50_000)
    long = "Ferrets dig burrows under the shed. " * 30  # 1,080 characters
    repeated = cell(long, number_columns_repeated="50")
    sheet = f'<table:table table:name="S">{row(repeated, number_rows_repeated="50")}</table:table>'
    text = f"<text:p>Before.</text:p><table:table>{row(repeated, cell('x'))}</table:table>"
    for document in (odt(sheet, kind=ODS_TYPE, holder="spreadsheet"), odt(text)):
        with pytest.raises(FerretError) as caught:
            read(document)
        assert caught.value.code == ErrorCode.TOO_LARGE, caught.value.message
        assert caught.value.message.endswith("shows more characters in its cells than 50,000")


def test_counts_that_are_no_numbers_count_once() -> None:
    body = (
        '<text:h text:outline-level="x">Burrows</text:h>'
        '<text:p>A<text:s text:c="-3"/>b and more words.</text:p>'
        '<table:table><table:table-row><table:table-cell table:number-columns-repeated="many">'
        "<text:p>cell</text:p></table:table-cell></table:table-row></table:table>"
    )
    assert (
        read(odt(body=body)).content == "# Burrows\n\nA b and more words.\n\ncell\n"
    )  # a one-cell table reads as text


def frame(kind: str, inner: str) -> str:
    return f'<draw:frame presentation:class="{kind}"><draw:text-box>{inner}</draw:text-box></draw:frame>'


DECK = (
    '<draw:page draw:name="page1">'
    + frame("title", "<text:p>Where we counted</text:p>")
    + frame(
        "outline",
        "<text:p>Tay</text:p><text:list><text:list-item><text:p>Spey</text:p></text:list-item></text:list>",
    )
    + frame("text", '<text:p>Counted by <text:span text:style-name="T1">Ada</text:span>.</text:p>')
    + "<presentation:notes>"
    + frame("notes", "<text:p>Say the numbers slowly.</text:p>")
    + "</presentation:notes></draw:page>"
    + '<draw:page draw:name="page2"><draw:frame><draw:image xlink:href="Pictures/map.png"/>'
    + "</draw:frame></draw:page>"
    + '<draw:page draw:name="page3">'
    + frame("title", "<text:p>Rivers</text:p>")
    + "<draw:frame><table:table>"
    + row(cell("River"), cell("Opens"))
    + row(cell("Tay"), cell("May"))
    + "</table:table></draw:frame></draw:page>"
)


def test_an_opendocument_presentation_is_a_section_per_slide() -> None:
    deck = odt(DECK, meta=None, kind=ODP_TYPE, holder="presentation")
    page = read(deck, ODP_TYPE)
    assert page.content == (
        "## Slide 1: Where we counted\n\n- Tay\n- Spey\n\nCounted by **Ada**.\n\n"
        "> Notes: Say the numbers slowly.\n\n"
        "## Slide 3: Rivers\n\n| River | Opens |\n|---|---|\n| Tay | May |\n"
    )  # the picture-only slide 2 has no text
    assert (page.title, page.extra["slides"], office_kind(deck)) == ("Where we counted", 2, "odp")
    assert page.word_count == 17  # the deck's words: not its slides' `Slide N` nor the notes' label
    assert read(deck, format="text").content.startswith(
        "Slide 1: Where we counted\n\n- Tay\n- Spey\n\nCounted by Ada."
    )


def test_a_placeholder_title_in_the_metadata_gives_way_to_the_first_slides() -> None:
    """A deck PowerPoint made keeps its "PowerPoint Presentation" title when saved as .odp: that
    was the page's title."""
    meta = META.replace("The Ferret Field Guide", "PowerPoint Presentation")
    assert (
        read(odt(DECK, meta=meta, kind=ODP_TYPE, holder="presentation"), ODP_TYPE).title == "Where we counted"
    )


def test_a_title_notes_and_cells_set_on_lines_keep_their_words_apart() -> None:
    """A slide's title, its notes and a sheet's cells were read as their text run together: a title
    set on two lines was `Salmon countsof the Tay`, notes `Sayslowly`, a cell `onetwo`."""
    slides = (
        '<draw:page draw:name="page1">'
        + frame("title", "<text:p>Salmon counts</text:p><text:p>of the<text:line-break/>Tay</text:p>")
        + "<presentation:notes>"
        + frame("notes", "<text:p>Say<text:line-break/>slowly<text:tab/>and<text:s/>clearly.</text:p>")
        + "</presentation:notes></draw:page>"
    )
    page = read(odt(slides, meta=None, kind=ODP_TYPE, holder="presentation"), ODP_TYPE)
    assert page.title == "Salmon counts of the Tay"
    assert page.content == "## Slide 1: Salmon counts of the Tay\n\n> Notes: Say slowly and clearly.\n"
    lines = "<table:table-cell><text:p>one<text:line-break/>two<!-- a comment --></text:p></table:table-cell>"
    sheet = f'<table:table table:name="S">{row(cell("Weir"))}{row(lines)}</table:table>'
    assert read(odt(sheet, kind=ODS_TYPE, holder="spreadsheet")).content.endswith("| one two |\n")


def test_the_footer_date_and_slide_number_a_deck_repeats_are_left_out() -> None:
    """A slide's footer, date and page-number frames were read as lines of its text, on every slide."""
    running = (
        frame("footer", "<text:p>Confidential: Weirs Board</text:p>")
        + frame("date-time", "<text:p>05/03/2025</text:p>")
        + frame("page-number", "<text:p><text:page-number>1</text:page-number></text:p>")
    )
    slides = f'<draw:page draw:name="p1">{frame("title", "<text:p>Weirs</text:p>")}{running}</draw:page>'
    assert read(odt(slides, meta=None, kind=ODP_TYPE, holder="presentation"), ODP_TYPE).content == (
        "## Slide 1: Weirs\n"
    )


def test_a_slides_shapes_are_read_from_its_top_down_and_groups_opened() -> None:
    """A slide lists its shapes in the order they were added: a box added last at its top was read
    last; and a group's text boxes (`draw:g`) and a shape's own paragraphs were left out."""

    def placed(y: str, x: str, words: str) -> str:
        box = f"<draw:text-box><text:p>{words}</text:p></draw:text-box>"
        return f'<draw:frame svg:x="{x}" svg:y="{y}">{box}</draw:frame>'

    shape = '<draw:custom-shape svg:x="1cm" svg:y="40mm"><text:p>In a shape</text:p></draw:custom-shape>'
    slide = (
        '<draw:page draw:name="page1">'
        + placed("15cm", "2cm", "Bottom")
        + placed("1cm", "12cm", "Top right")
        + f"<draw:g>{placed('8cm', '2cm', 'Grouped')}</draw:g>"
        + frame("title", "<text:p>Order</text:p>")
        + placed("10mm", "2cm", "Top left")  # as high as `Top right`: read first, from the left
        + shape
        + "</draw:page>"
    )
    page = read(odt(slide, meta=None, kind=ODP_TYPE, holder="presentation"), ODP_TYPE)
    assert page.content == ("## Slide 1: Order\n\nTop left\n\nTop right\n\nIn a shape\n\nGrouped\n\nBottom\n")


def test_a_shapes_place_of_many_spaces_is_read_once(tmp_path: Path) -> None:
    """A shape placed at `5`, 100,000 spaces and `x` (a place that is none): its pattern read the
    spaces two ways, and each split was tried (26 s a shape). Run in a child, so a regression fails
    rather than hangs the suite."""
    place = "5" + " " * 100_000 + "x"
    shapes = "".join(
        f'<draw:frame svg:x="1cm" svg:y="{place}"><draw:text-box><text:p>Box {n}</text:p></draw:text-box>'
        "</draw:frame>"
        for n in range(4)
    )
    deck = tmp_path / "deck.odp"
    deck.write_bytes(odt(f'<draw:page draw:name="p">{shapes}</draw:page>', None, ODP_TYPE, "presentation"))
    code = (
        "import sys\n"
        "from webferret.extract.document import extract_document\n"
        "from webferret.extract.types import ExtractOptions\n"
        "body = open(sys.argv[1], 'rb').read()\n"
        "page = extract_document(body, url=None, content_type=None, options=ExtractOptions())\n"
        "assert 'Box 0' in page.content and 'Box 3' in page.content, page.content\n"
    )
    done = subprocess.run([sys.executable, "-c", code, str(deck)], timeout=60, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_a_bomb_in_the_mimetype_member_is_refused_before_it_is_unpacked() -> None:
    """The kind of an OpenDocument file is told by its `mimetype` member's first bytes; the whole
    member was unpacked first (a 2 MB file held 2 GB of spaces there: 4 GB of memory, 16 s)."""
    import tracemalloc

    info = zipfile.ZipInfo("mimetype", date_time=(2020, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_DEFLATED
    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        with archive.open(info, "w", force_zip64=True) as member:
            member.write(ODT_TYPE.encode())
            for _ in range(16):
                member.write(b" " * (1 << 24))  # 256 MiB of spaces after it
        archive.writestr("content.xml", "<office:document-content/>")
    body = packed.getvalue()
    tracemalloc.start()
    try:
        kind = office_kind(body)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert kind == "odt" and peak < 16 * 1024 * 1024, peak
    with pytest.raises(FerretError) as refused:
        extract_document(body, url="https://ex.org/bomb.odt", content_type=None, options=ExtractOptions())
    assert refused.value.code == ErrorCode.TOO_LARGE and "unpacks to more than" in refused.value.message
