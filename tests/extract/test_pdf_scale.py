"""A PDF's body size and heading levels measured over the whole document (`extract.pdfscale`)."""

from __future__ import annotations

from test_pdf_layout import pdf_drawing

from webferret.extract.document import extract_document
from webferret.extract.types import ExtractOptions

PROSE = "The client retries a call three times before it gives up, waiting longer each time."


def _text(size: float, y: float, text: str, font: str = "F1") -> str:
    return f"BT /{font} {size:g} Tf 72 {y:g} Td ({text}) Tj ET"


def _markdown(*pages: str) -> str:
    pdf = pdf_drawing(*pages)
    return extract_document(pdf, url=None, content_type="application/pdf", options=ExtractOptions()).content


def test_a_page_mostly_of_code_keeps_its_prose_and_rows_as_text() -> None:
    """A page whose listing, set smaller (as Chrome prints `<pre>`), holds most of its letters: the
    listing's size was taken for the body's, so every line of prose or of a table was a heading."""
    first = " ".join([_text(16, 740, "Calls"), *(_text(10, 716 - 12 * n, PROSE) for n in range(6))])
    listing = [
        _text(8, 700 - 10 * n, f"result_{n} = client.call\\(endpoint_{n}, timeout={n}\\)", "F3")
        for n in range(30)
    ]
    rows = [_text(10, 380 - 14 * n, f"field_{n} string Value {n}") for n in range(3)]
    second = " ".join([_text(16, 740, "Fields"), _text(10, 716, PROSE), *listing, *rows])
    markdown = _markdown(first, second)
    assert f"\n\n## Fields\n\n{PROSE}\n\n```\nresult_0 = client.call(endpoint_0, timeout=0)\n" in markdown
    assert "# field" not in markdown and "field_0 string Value 0" in markdown


def test_a_heading_has_one_level_on_every_page() -> None:
    """A section's heading was `###` on the page the title is on and `##` on the next."""
    first = " ".join([_text(24, 740, "Client guide"), _text(16, 700, "Installation"), _text(10, 680, PROSE)])
    second = " ".join([_text(16, 740, "Configuration"), _text(10, 720, PROSE)])
    markdown = _markdown(first, second)
    assert "## Client guide\n\n### Installation\n\n" in markdown
    assert "### Configuration\n\n" in markdown and "\n## Configuration" not in markdown


def test_a_short_text_file_printed_with_its_header_is_text() -> None:
    """A short text file Chrome printed with its header and footer (the date, the file's address and
    the page number, set smaller in Helvetica) is most of it, not nearly all of it, set in Courier:
    the header's size was taken for the body's, so that every line of the file was a heading."""
    lines = [
        "Meeting notes, 3 March",
        "The tracker moves to the new store next week.",
        "Every page read so far is kept there.",
        "Next meeting: 10 March, same room.",
    ]
    page = " ".join(
        [
            _text(8, 770, "12/6/26, 12:25 AM"),
            _text(8, 760, "file:///home/dana/notes.txt"),
            *(_text(10, 720 - 24 * n, line, "F3") for n, line in enumerate(lines)),
            _text(8, 40, "1 / 1"),
        ]
    )
    markdown = _markdown(page)
    assert "#" not in markdown.replace("<!-- page 1 -->", "")
    assert "The tracker moves to the new store next week." in markdown
