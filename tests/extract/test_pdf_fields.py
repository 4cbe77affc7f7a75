"""A PDF form's filled-in fields read where they stand (`extract.pdffields`)."""

from __future__ import annotations

import io

from pypdf import PdfReader, PdfWriter
from pypdf.generic import (
    ArrayObject,
    DecodedStreamObject,
    DictionaryObject,
    FloatObject,
    NameObject,
    NumberObject,
    TextStringObject,
)
from test_pdf_layout import _cells, pdf_drawing

from webferret.extract.document import extract_document
from webferret.extract.types import ExtractOptions


def _widget(
    kind: str, value: str, rect: tuple[float, ...], flags: int = 4, field_flags: int = 0
) -> DictionaryObject:
    return DictionaryObject(
        {
            NameObject("/Type"): NameObject("/Annot"),
            NameObject("/Subtype"): NameObject("/Widget"),
            NameObject("/FT"): NameObject(kind),
            NameObject("/T"): TextStringObject(value[:4]),
            NameObject("/V"): NameObject(value) if kind == "/Btn" else TextStringObject(value),
            NameObject("/Rect"): ArrayObject(FloatObject(edge) for edge in rect),
            NameObject("/F"): NumberObject(flags),
            NameObject("/Ff"): NumberObject(field_flags),
        }
    )


def form(content: str, *widgets: DictionaryObject) -> bytes:
    """A one-page PDF drawing `content`, with `widgets` as its annotations (a form's fields)."""
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf_drawing(content))))
    page = writer.pages[0]
    page[NameObject("/Annots")] = ArrayObject(writer._add_object(widget) for widget in widgets)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


LABELS = " ".join(
    [
        _cells(750, (72, "Application for a burrow permit")),
        _cells(700, (72, "Name:")),
        _cells(650, (72, "City:")),
    ]
)


def test_a_forms_filled_in_values_stand_by_their_labels() -> None:
    """The values a form's fields hold are drawn by the fields, not the page: a filled-in form read
    `Name: City:`, its answers left out."""
    body = form(
        LABELS + " " + _cells(600, (72, "Agree:")),
        _widget("/Tx", "Jane Doe", (150, 692, 350, 712)),
        _widget("/Tx", "Lisbon", (150, 642, 350, 662)),
        _widget("/Btn", "/Yes", (150, 592, 162, 604)),
        _widget("/Tx", "Secret note", (150, 500, 350, 520), flags=2),  # hidden
        _widget("/Tx", "hunter2", (150, 550, 350, 570), field_flags=1 << 13),  # a password
    )
    for fmt in ("markdown", "text"):
        page = extract_document(
            body, url=None, content_type="application/pdf", options=ExtractOptions(format=fmt)
        )
        assert page.content.split("\n\n")[-4:] == [
            "Application for a burrow permit",
            "Name: Jane Doe",
            "City: Lisbon",
            "Agree:\n",
        ]


def test_a_field_without_a_label_beside_it_is_read_where_it_stands() -> None:
    body = form(LABELS, _widget("/Tx", "Free text between the lines", (72, 670, 400, 690)))
    content = extract_document(
        body, url=None, content_type="application/pdf", options=ExtractOptions()
    ).content
    assert "Name: Free text between the lines City:" in content


def test_a_long_answer_kept_in_a_text_stream_is_read_as_its_text() -> None:
    """A text field's value may be a text stream (a long answer): its dictionary was read as the
    answer (`Name: {}`)."""
    widget = _widget("/Tx", "Jane Doe", (150, 692, 350, 712))
    stream = DecodedStreamObject()
    stream.set_data(b"Jane Doe")
    widget[NameObject("/V")] = stream
    page = extract_document(
        form(LABELS, widget), url=None, content_type="application/pdf", options=ExtractOptions()
    )
    assert "Name: Jane Doe" in page.content, page.content
