"""Presentations (.pptx) read as a section per slide (`extract.slidefile`)."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest
from rezip import after_declaration, garbled, rezipped
from simweb import SimWeb

from webferret.cli import main
from webferret.extract.document import extract_document
from webferret.extract.slidefile import PPTX_TYPE
from webferret.extract.types import Extracted, ExtractOptions
from webferret.extract.zipped import office_kind
from webferret.models import ErrorCode, FerretError

P = "http://schemas.openxmlformats.org/presentationml/2006/main"
A = "http://schemas.openxmlformats.org/drawingml/2006/main"
R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PKG = "http://schemas.openxmlformats.org/package/2006/relationships"
CORE = """<?xml version="1.0" encoding="UTF-8"?>
<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties"
 xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/">
<dc:title>Salmon Season</dc:title><dc:creator>Bea Weir</dc:creator>
<dcterms:created>2025-03-05T12:00:00Z</dcterms:created></cp:coreProperties>"""


def para(text: str, props: str = "") -> str:
    return f"<a:p>{props}<a:r><a:t>{text}</a:t></a:r></a:p>"


def shape(placeholder: str | None, *paragraphs: str) -> str:
    ph = f'<p:nvPr><p:ph type="{placeholder}"/></p:nvPr>' if placeholder else "<p:nvPr/>"
    return f"<p:sp><p:nvSpPr>{ph}</p:nvSpPr><p:txBody>{''.join(paragraphs)}</p:txBody></p:sp>"


def table(*rows: tuple[str, ...]) -> str:
    cells = "".join(
        "<a:tr>" + "".join(f"<a:tc><a:txBody>{para(cell)}</a:txBody></a:tc>" for cell in row) + "</a:tr>"
        for row in rows
    )
    frame = f"<a:graphic><a:graphicData><a:tbl>{cells}</a:tbl></a:graphicData></a:graphic>"
    return f"<p:graphicFrame>{frame}</p:graphicFrame>"


def slide(*shapes: str) -> str:
    return (
        f'<?xml version="1.0" encoding="UTF-8"?><p:sld xmlns:p="{P}" xmlns:a="{A}" xmlns:r="{R}">'
        f"<p:cSld><p:spTree>{''.join(shapes)}</p:spTree></p:cSld></p:sld>"
    )


BULLET = '<a:pPr><a:buChar char="*"/></a:pPr>'
NO_BULLET = "<a:pPr><a:buNone/></a:pPr>"
SLIDES = [
    slide(shape("ctrTitle", para("Salmon Season")), shape("subTitle", para("Counts from four weirs"))),
    slide(
        shape("title", para("Where we counted")),
        shape(None, para("Every weir was counted at dawn.")),
        shape("body", para("Tay"), para("North bank", '<a:pPr lvl="1"/>'), para("Dee", NO_BULLET)),
        "<p:grpSp>" + shape(None, para("Grouped note", BULLET)) + "</p:grpSp>",
    ),
    slide(shape("title", para("Totals")), table(("River", "Fish"), ("Tay", "412"))),
]


def deck(
    slides: list[str] = SLIDES, order: list[int] | None = None, notes: str | None = "Thank the wardens."
) -> bytes:
    """A .pptx with the parts a reader needs: the deck listing its slides (in `order`), the slides,
    the second slide's speaker notes, and the properties."""
    order = order or list(range(1, len(slides) + 1))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        ids = "".join(f'<p:sldId id="{255 + n}" r:id="rId{n}"/>' for n in order)
        archive.writestr(
            "ppt/presentation.xml",
            f'<?xml version="1.0"?><p:presentation xmlns:p="{P}" xmlns:r="{R}">'
            f"<p:sldIdLst>{ids}</p:sldIdLst></p:presentation>",
        )
        rels = "".join(
            f'<Relationship Id="rId{n}" Type="{R}/slide" Target="slides/slide{n}.xml"/>'
            for n in range(1, len(slides) + 1)
        )
        archive.writestr(
            "ppt/_rels/presentation.xml.rels", f'<Relationships xmlns="{PKG}">{rels}</Relationships>'
        )
        for n, xml in enumerate(slides, start=1):
            archive.writestr(f"ppt/slides/slide{n}.xml", xml)
        if notes is not None:
            archive.writestr(
                "ppt/slides/_rels/slide2.xml.rels",
                f'<Relationships xmlns="{PKG}"><Relationship Id="rId9" Type="{R}/notesSlide" '
                'Target="../notesSlides/notesSlide1.xml"/></Relationships>',
            )
            archive.writestr(
                "ppt/notesSlides/notesSlide1.xml",
                f'<p:notes xmlns:p="{P}" xmlns:a="{A}"><p:cSld><p:spTree>{shape("sldImg")}'
                f"{shape('body', para(notes))}</p:spTree></p:cSld></p:notes>",
            )
        archive.writestr("docProps/core.xml", CORE)
    return out.getvalue()


def read(body: bytes, content_type: str | None = PPTX_TYPE, **options: object) -> Extracted:
    return extract_document(
        body,
        url="https://weirs.example/talks/season.pptx",
        content_type=content_type,
        options=ExtractOptions(**options),
    )


def test_every_slide_is_a_section_with_its_title_bullets_table_and_notes() -> None:
    page = read(deck())
    assert page.content == (
        "## Slide 1: Salmon Season\n\nCounts from four weirs\n\n"
        "## Slide 2: Where we counted\n\nEvery weir was counted at dawn.\n\n- Tay\n  - North bank\n\nDee\n\n"
        "- Grouped note\n\n> Notes: Thank the wardens.\n\n"
        "## Slide 3: Totals\n\n| River | Fish |\n|---|---|\n| Tay | 412 |\n"
    )
    assert (page.title, page.byline, page.published, page.content_type) == (
        "Salmon Season",
        "Bea Weir",
        "2025-03-05",
        PPTX_TYPE,
    )
    assert page.extra == {"document": "pptx", "slides": 3, "kind": "binary"}
    text = read(deck(), format="text").content
    assert text.startswith("Slide 1: Salmon Season\n\nCounts from four weirs\n\nSlide 2: Where we counted")
    assert "- " not in text and "Notes: Thank the wardens." in text and "River\tFish" in text


def placed(y: int, x: int, *paragraphs: str) -> str:
    """A text box with its top left corner at (x, y), in EMU."""
    where = f'<p:spPr><a:xfrm><a:off x="{x}" y="{y}"/><a:ext cx="9" cy="9"/></a:xfrm></p:spPr>'
    return f"<p:sp><p:nvSpPr><p:nvPr/></p:nvSpPr>{where}<p:txBody>{''.join(paragraphs)}</p:txBody></p:sp>"


def test_a_slides_text_boxes_are_read_from_its_top_down() -> None:
    """A slide's shapes are drawn in the order they were added: a box added last at the top of the
    slide was read last, after the boxes below it."""
    grouped = placed(0, 0, para("Grouped"))  # at the group's own place on the slide
    group = f'<p:grpSp><p:grpSpPr><a:xfrm><a:off x="0" y="3000"/></a:xfrm></p:grpSpPr>{grouped}</p:grpSp>'
    drawn = slide(
        placed(5000, 0, para("Bottom")),
        placed(1000, 4000, para("Top right")),
        group,
        shape("title", para("Order")),
        placed(1000, 0, para("Top left")),
    )
    assert read(deck([drawn], notes=None)).content == (
        "## Slide 1: Order\n\nTop left\n\nTop right\n\nGrouped\n\nBottom\n"
    )


def test_the_footer_date_and_slide_number_every_slide_repeats_are_left_out() -> None:
    """The deck's footer, date and slide number placeholders were read on every slide, as lines of
    its text ('Confidential', '05/03/2025', '2'), where a PDF's running footer and page number are not."""
    number = '<a:p><a:fld id="{B6F15528}" type="slidenum"><a:t>{n}</a:t></a:fld></a:p>'
    slides = [
        slide(
            shape("title", para(f"Weir {n}")),
            shape("body", para(f"Counted at dawn {n}")),
            shape("ftr", para("Confidential: Weirs Board")),
            shape("dt", para("05/03/2025")),
            shape("sldNum", number.replace("{n}", str(n))),
        )
        for n in (1, 2)
    ]
    assert read(deck(slides, notes=None)).content == (
        "## Slide 1: Weir 1\n\n- Counted at dawn 1\n\n## Slide 2: Weir 2\n\n- Counted at dawn 2\n"
    )


def test_powerpoints_placeholder_title_gives_way_to_the_first_slides() -> None:
    """PowerPoint titles every new deck "PowerPoint Presentation" in its properties: that was the
    page's title, where a PDF's placeholder title gives way to its first line."""
    placeholder = rezipped(
        deck(), "docProps/core.xml", lambda data: data.replace(b"Salmon Season", b"PowerPoint Presentation")
    )
    assert read(placeholder).title == "Salmon Season"  # the first slide's title


def test_the_word_count_is_the_decks_words_not_the_slides_headings() -> None:
    """Each slide's `Slide N` heading and its notes' `Notes:` label were counted as the deck's words:
    two or three words a slide that no slide holds."""
    slides = [slide(shape("title", para("Salmon Season")), shape("body", para("Counted at dawn")))]
    assert read(deck(slides, notes=None)).word_count == 5
    assert read(deck(), format="text").word_count == 29  # SLIDES' 26 words, and the notes' 3


def test_a_slide_that_cannot_be_read_is_said_so_in_its_place() -> None:
    """A slide whose part is cut or missing was left out without a word, the deck read as if it had
    never had it (and a deck of such slides had "no text")."""
    damaged = rezipped(deck(), "ppt/slides/slide2.xml", lambda data: data[:40])
    page = read(damaged)
    why = "its part ppt/slides/slide2.xml is missing or is no XML"
    assert f"\n\n<!-- slide 2: cannot be read ({why}) -->\n\n## Slide 3: Totals" in page.content
    assert page.extra["unreadable_slides"] == [{"slide": 2, "error": why}] and page.extra["slides"] == 2
    assert "cannot be read" not in read(damaged, format="text").content
    with pytest.raises(FerretError) as caught:
        read(rezipped(deck([SLIDES[0]], notes=None), "ppt/slides/slide1.xml", lambda data: data[:40]))
    assert (
        caught.value.code == ErrorCode.UNSUPPORTED_CONTENT
        and "and slide 1 is damaged (its part" in caught.value.message
    )


def test_a_slide_whose_compressed_bytes_are_damaged_is_said_so_in_its_place() -> None:
    """A slide part whose deflated bytes do not inflate (a download damaged in the middle) failed the
    whole deck as an `internal` error (zlib's own, which no reader caught), where a cut slide is said
    so in its place and the others read."""
    page = read(garbled(deck(), "ppt/slides/slide2.xml"))
    why = "its part ppt/slides/slide2.xml is missing or is no XML"
    assert "## Slide 1: Salmon Season" in page.content and "## Slide 3: Totals" in page.content
    assert page.extra["unreadable_slides"] == [{"slide": 2, "error": why}]


def test_a_slide_the_deck_lists_again_and_again_is_read_once() -> None:
    """A deck of a few KB that lists one slide a thousand times had it read a thousand times: a
    2.7 KB file gave 210 MB of Markdown and held 3 GB."""
    page = read(deck(order=[3] + [1] * 1000))
    assert page.extra["slides"] == 2 and page.content.count("Salmon Season") == 1


def test_notes_that_many_slides_point_to_are_written_once() -> None:
    """Each slide has notes of its own; slides that all point to one long notes part had it written
    out by each: a 130 KB deck of 200 such slides gave 60 MB of Markdown and held 1 GB."""

    def shared(data: bytes) -> bytes:
        source = zipfile.ZipFile(io.BytesIO(data))
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w") as archive:
            for item in source.infolist():
                archive.writestr(item, source.read(item))
            archive.writestr(
                "ppt/slides/_rels/slide3.xml.rels", source.read("ppt/slides/_rels/slide2.xml.rels")
            )
        return out.getvalue()

    page = read(shared(deck()))
    assert page.content.count("Thank the wardens.") == 1 and page.content.endswith("| Tay | 412 |\n")


def test_slides_come_in_the_decks_order_not_their_file_names() -> None:
    content = read(deck(order=[3, 1, 2])).content
    assert content.index("Totals") < content.index("Salmon Season") < content.index("Where we counted")
    assert content.startswith("## Slide 1: Totals")


@pytest.mark.parametrize("content_type", ["application/octet-stream", "application/zip", None])
def test_a_presentation_is_told_by_its_parts_whatever_its_type(content_type: str | None) -> None:
    assert office_kind(deck()) == "pptx" and read(deck(), content_type).title == "Salmon Season"


def test_a_deck_without_text_is_empty_content() -> None:
    with pytest.raises(FerretError) as caught:
        read(deck(slides=[slide(shape("title"))], notes=None))
    assert caught.value.code == ErrorCode.EMPTY_CONTENT and "season.pptx has no text" in caught.value.message


def test_an_external_entity_in_a_slide_is_not_read() -> None:
    hostname = Path("/etc/hostname").read_text().strip() if Path("/etc/hostname").exists() else "\0"
    entity = b'<!DOCTYPE p:sld [<!ENTITY secret SYSTEM "file:///etc/hostname">]>'
    hostile = [SLIDES[0].replace("Counts from four weirs", "Counts from &secret; weirs"), *SLIDES[1:]]
    content = read(rezipped(deck(hostile), "ppt/slides/slide1.xml", after_declaration(entity))).content
    assert f"from {hostname} weirs" not in content and "Where we counted" in content


def test_fetch_reads_a_presentation(
    simweb: SimWeb, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = simweb.add("/season.pptx", deck(), headers={"Content-Type": PPTX_TYPE})
    assert main(["fetch", url, "--json", "--home", str(tmp_path), "--allow-host", "127.0.0.1"]) == 0
    page = json.loads(capsys.readouterr().out)["data"]["pages"][0]
    assert page["ok"] and page["title"] == "Salmon Season" and "## Slide 3: Totals" in page["content"]
