"""Code on a PDF page: lines set in a monospaced font as a fenced block, indented as drawn (`pdfcode`)."""

from __future__ import annotations

from test_pdf_layout import _pdf_text, pdf_drawing

from webferret.extract.document import extract_document
from webferret.extract.types import ExtractOptions

LEAD = (
    "BT /F1 10 Tf 72 720 Td (The function below greets a ferret by its name, and prints three of them.) Tj ET"
)
TAIL = "BT /F1 10 Tf 72 560 Td (That is all there is to it, and the rest of the text goes on here.) Tj ET"


def _code(y: float, text: str, x: float = 72) -> str:
    return f"BT /F3 10 Tf {x:g} {y:g} Td ({text}) Tj ET"


def test_a_listing_is_a_fenced_block_indented_as_drawn() -> None:
    """A listing's lines ran on in the paragraph above without their indentation (`three of them. def
    ferret\\(name\\):`); their own spaces and the places they are drawn at both indent them (a Courier
    letter is 6 points wide at 10 points), and a line's gap is a blank line."""
    listing = [
        _code(700, "def ferret\\(name\\):"),
        _code(688, "    # say hello"),
        _code(676, "return name", x=96),  # drawn 4 letters in
        _code(652, "print\\(ferret\\(1\\)\\)"),  # after a blank line
    ]
    drawn = " ".join([LEAD, *listing, TAIL])
    listing_md = "```\ndef ferret(name):\n    # say hello\n    return name\n\nprint(ferret(1))\n```"
    assert f"prints three of them.\n\n{listing_md}\n\nThat is all there" in _pdf_text(drawn)
    listing_text = "def ferret(name):\n    # say hello\n    return name\n\nprint(ferret(1))"  # `#` kept
    assert f"prints three of them.\n\n{listing_text}\n\nThat is all" in _pdf_text(drawn, "text")


def test_a_word_in_a_monospaced_font_within_a_line_is_no_code() -> None:
    words = "(Call the ) Tj /F3 10 Tf (ferret) Tj /F1 10 Tf ( function to greet one.) Tj"
    drawn = f"{LEAD} BT /F1 10 Tf 72 700 Td {words} ET {TAIL}"
    assert "```" not in _pdf_text(drawn)


def test_a_page_set_in_a_monospaced_font_is_text() -> None:
    """A plain text file printed (an RFC) is set in Courier throughout: its paragraphs are read as
    paragraphs, not one listing."""
    lines = [
        _code(700 - 12 * n, f"This memo line {n} is set in Courier as a whole page is.") for n in range(6)
    ]
    assert "```" not in _pdf_text(" ".join(lines))


def test_a_listing_broken_by_a_page_keeps_its_indentation_on_the_next() -> None:
    """Chrome breaks a long `<pre>` across pages: the lines on the next page were indented from their
    own left edge, so a loop's body read unindented (`for item in items:` at the margin). Text between
    the two parts (not a running header, set smaller) makes the next page's listing its own."""
    header = "BT /F1 7 Tf 72 770 Td (Guide, printed 5 December) Tj ET"
    first = " ".join([LEAD, _code(100, "def main\\(\\):"), _code(88, "for item in items:", x=96), header])
    second = " ".join([_code(740, "print\\(item\\)", x=96), _code(728, "done\\(\\)", x=120), header])
    pdf = pdf_drawing(first, second)
    text = extract_document(pdf, url=None, content_type="application/pdf", options=ExtractOptions()).content
    assert "```\n    print(item)\n        done()\n```" in text
    apart = " ".join([TAIL.replace("560", "760"), _code(740, "print\\(item\\)", x=96)])
    pdf = pdf_drawing(first, apart)
    text = extract_document(pdf, url=None, content_type="application/pdf", options=ExtractOptions()).content
    assert "```\nprint(item)\n```" in text
