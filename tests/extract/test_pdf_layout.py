"""A PDF page's headings and paragraphs from where and how large its text is drawn (`extract.pdflayout`)."""

from __future__ import annotations

import io
import json

import pytest
from pypdf import PdfWriter
from pypdf.generic import ArrayObject, DecodedStreamObject, DictionaryObject, NameObject, NumberObject
from simweb import SimWeb

from webferret.cli import main
from webferret.extract.document import extract_document
from webferret.extract.pdfhyphens import compounds_of, unbroken
from webferret.extract.pdflayout import Line, Run, collect, page_markdown
from webferret.extract.types import ExtractOptions

DIFFERENCES = (
    "/fi",
    "/fl",
    "/uniFEE3",
    "/uniFEAE",
    "/uniFEA4",
    "/uniFE92",
    "/uniFE8E",
    "/uniF0B7",
    "/uniF0A7",
)


def pdf_of(lines: list[tuple[float, float, str]]) -> bytes:
    """A one-page PDF drawing each `(y, font size, text)` at the left margin."""
    return pdf_drawing(" ".join(f"BT /F1 {size:g} Tf 72 {y:g} Td ({text}) Tj ET" for y, size, text in lines))


def pdf_drawing(*contents: str) -> bytes:
    """A PDF with a page drawing each of `contents` (PDF operators; fonts /F1 and /F2 are Helvetica,
        and in /F2 the codes 1 and 2 draw the ligatures ﬁ and ﬂ, as a TeX font does, and 3 to 7 the letters
        of `مرحبا` in the shapes they take in it, as Chrome's PDFs name them, and 8 and 9 the bullets of the
    Symbol and Wingdings fonts at the private code points Word's PDFs map them to; /F3 is Courier)."""
    writer = PdfWriter()
    font = DictionaryObject(
        {
            NameObject("/Type"): NameObject("/Font"),
            NameObject("/Subtype"): NameObject("/Type1"),
            NameObject("/BaseFont"): NameObject("/Helvetica"),
        }
    )
    courier = DictionaryObject(font)
    courier[NameObject("/BaseFont")] = NameObject("/Courier")
    ligatures = DictionaryObject(font)
    ligatures[NameObject("/Encoding")] = DictionaryObject(
        {NameObject("/Differences"): ArrayObject([NumberObject(1), *map(NameObject, DIFFERENCES)])}
    )
    resources = DictionaryObject(
        {
            NameObject("/Font"): DictionaryObject(
                {
                    NameObject("/F1"): writer._add_object(font),
                    NameObject("/F2"): writer._add_object(ligatures),
                    NameObject("/F3"): writer._add_object(courier),
                }
            )
        }
    )
    for content in contents:
        page = writer.add_blank_page(width=612, height=792)
        page[NameObject("/Resources")] = resources
        stream = DecodedStreamObject()
        stream.set_data(content.encode("latin-1"))
        page[NameObject("/Contents")] = writer._add_object(stream)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


BODY = "The district board counted salmon at four weirs during the season, every"


def test_headings_by_size_and_paragraphs_by_gaps() -> None:
    lines = [
        (740, 18, "Annual River Report"),
        (712, 14, "Key results"),
        (690, 10, BODY),
        (678, 10, "day from March to Octo-"),
        (666, 10, "ber, and the counts rose."),
        (640, 10, BODY),
        (628, 10, "week of the year."),
        (610, 10, "1. Calibrate the counters each month against the video."),
        (598, 10, "2. Send the counts to the board."),
    ]
    text = extract_document(pdf_of(lines), url=None, content_type="application/pdf", options=ExtractOptions())
    assert text.content.split("\n\n")[1:] == [
        "## Annual River Report",
        "### Key results",
        f"{BODY} day from March to October, and the counts rose.",
        f"{BODY} week of the year.",
        "1. Calibrate the counters each month against the video.",
        "2. Send the counts to the board.\n",
    ]
    plain = extract_document(
        pdf_of(lines), url=None, content_type="application/pdf", options=ExtractOptions(format="text")
    )
    assert plain.content.startswith("Annual River Report\n\nKey results\n\nThe district board")


def test_a_short_line_ending_a_sentence_ends_its_paragraph() -> None:
    runs = [
        Run(700.0, 10.0, BODY),
        Run(688.0, 10.0, "and ends here."),
        Run(676.0, 10.0, BODY),
        Run(664.0, 10.0, BODY),
    ]
    assert page_markdown(runs, " ".join(run.text for run in runs)).split("\n\n") == [
        f"{BODY} and ends here.",
        f"{BODY} {BODY}",
    ]


NOTICE = [
    "The water supply will be turned off on Monday between nine and noon.",
    "Please store enough water for cooking and drinking during that time.",
    "The work replaces the old main pipe under the square near the church.",
]


def test_paragraphs_of_one_line_each_stay_apart() -> None:
    """A page whose paragraphs are a line each (a notice printed from a web page) has a paragraph's
    gap between every two lines, so the usual spacing was that gap and the page one paragraph; a
    double-spaced paragraph's lines still go on where no sentence ends."""
    runs = [Run(700.0 - 26 * n, 12.0, line) for n, line in enumerate(NOTICE)]
    assert page_markdown(runs, " ".join(NOTICE)).split("\n\n") == NOTICE
    double = [Run(700.0 - 26 * n, 12.0, BODY) for n in range(3)]
    assert page_markdown(double, " ".join([BODY] * 3)) == " ".join([BODY] * 3)


def test_lines_ended_on_purpose_are_apart_and_a_line_wrapped_before_a_long_word_goes_on() -> None:
    """A list whose bullets are drawn as shapes (Chrome's PDFs) has no mark in the text: its items,
    each a short line the next item's first word would have fitted on, ran together as one
    paragraph. A short line that wrapped because the word after it is long still goes on."""
    items = ["Tay at Pitlochry", "Dee at Banchory", "Spey at Aberlour"]
    url = "https://weirs.example/reports/2024/annual-salmon-counts-by-river.html"
    lines = [BODY, BODY, BODY, "day.", *items, BODY, BODY, "For the full counts see", url, BODY, BODY]
    runs = [Run(700.0 - 12 * n, 10.0, line) for n, line in enumerate(lines)]
    assert page_markdown(runs, " ".join(lines)).split("\n\n") == [
        f"{BODY} {BODY} {BODY} day.",
        *items,
        f"{BODY} {BODY} For the full counts see {url} {BODY} {BODY}",
    ]


def test_runs_at_one_height_are_one_line_and_runs_that_miss_text_keep_the_lines() -> None:
    assert collect([Run(600.0, 10.0, "Weir"), Run(600.2, 10.0, "Count"), Run(582.0, 10.0, "Stanley")]) == [
        Line(600.0, 10.0, "Weir Count"),
        Line(582.0, 10.0, "Stanley"),
    ]
    plain = "Weir Count\nStanley 1200\nPitlochry 5400"
    assert page_markdown([Run(600.0, 10.0, "Weir Count")], plain) == plain


def test_runs_that_meet_without_a_gap_are_not_spaced_apart() -> None:
    """A word or a comma drawn in another font within a line stays where it is: `bold, and`, not
    `bold , and` (pypdf spaces runs apart where it sees a gap, and only there)."""
    content = (
        r"BT /F1 10 Tf 72 600 Td (The counts were ) Tj /F2 10 Tf (high) Tj /F1 10 Tf (, and the weir \() Tj "
        r"/F2 10 Tf (Alder) Tj /F1 10 Tf (\) held.) Tj ET "
        "BT /F1 10 Tf 72 580 Td (Weir) Tj 120 0 Td (Count) Tj ET"
    )
    text = extract_document(
        pdf_drawing(content), url=None, content_type="application/pdf", options=ExtractOptions()
    )
    assert text.content.split("\n\n")[1:] == [
        "The counts were high, and the weir (Alder) held.",
        "Weir Count\n",
    ]


def test_ligatures_are_the_letters_they_join() -> None:
    """A TeX font draws `fi` and `fl` as one glyph; its text is the letters (`field`, not `ﬁeld`), so
    the words are found by a search."""
    content = "BT /F2 10 Tf 72 600 Td (The \001eld team logged the \002ow of each \001sh.) Tj ET"
    for fmt in ("markdown", "text"):
        text = extract_document(
            pdf_drawing(content), url=None, content_type="application/pdf", options=ExtractOptions(format=fmt)
        )
        assert "The field team logged the flow of each fish." in text.content


def test_arabic_letters_in_their_shapes_are_the_letters() -> None:
    """Chrome maps an Arabic word's glyphs to the presentation forms of its letters (initial, medial,
    final): `ﻣﺮﺣﺒﺎ` was the text, which no search for `مرحبا` finds and no reader's words count."""
    content = "BT /F2 10 Tf 72 600 Td (\007\006\005\004\003) Tj ET"  # drawn left to right, last letter first
    for fmt in ("markdown", "text"):
        text = extract_document(
            pdf_drawing(content), url=None, content_type="application/pdf", options=ExtractOptions(format=fmt)
        )
        assert "مرحبا" in text.content and "\ufee3" not in text.content


def test_a_compound_hyphenated_at_a_lines_end_keeps_its_hyphen() -> None:
    """`infor-` + `mation` is one word broken by the typesetter; `self-` + `contained` and `well-` +
    `known` (written whole elsewhere in the document) are compounds broken at their own hyphen."""
    lines = [
        (700, 10, "The well-known weir has a self-"),
        (688, 10, "contained counter that logs infor-"),
        (676, 10, "mation on each fish, and the well-"),
        (664, 10, "known board reads it."),
    ]
    text = extract_document(pdf_of(lines), url=None, content_type="application/pdf", options=ExtractOptions())
    assert text.content.split("\n\n")[1:] == [
        "The well-known weir has a self-contained counter that logs information on each fish, and the "
        "well-known board reads it.\n"
    ]
    plain = "a self-\ncontained infor-\nmation and well-\nknown, COVID-\n19 and well-\nformed"
    assert unbroken(plain, compounds_of(["the well-known weir"])) == (
        "a self-contained information and well-known, COVID-\n19 and wellformed"
    )


def test_an_address_broken_at_its_own_hyphen_keeps_it() -> None:
    """A web address that wraps at one of its hyphens lost it, as a word a typesetter hyphenates
    does: `.../overview-withall-the-routes.html`, an address that leads nowhere."""
    lines = [
        (700, 10, "For the maps see https://maps.example.org/trails/overview-with-"),
        (688, 10, "all-the-routes.html today, and the infor-"),
        (676, 10, "mation desk."),
    ]
    text = extract_document(pdf_of(lines), url=None, content_type="application/pdf", options=ExtractOptions())
    assert text.content.split("\n\n")[1:] == [
        "For the maps see https://maps.example.org/trails/overview-with-all-the-routes.html today, and the "
        "information desk.\n"
    ]
    plain = "see /srv/weir-\ncounts/ and infor-\nmation"
    assert unbroken(plain, frozenset()) == "see /srv/weir-counts/ and information"
    # words a slash joins are no address: a word of theirs a typesetter broke is made whole
    words = "a client/ser-\nver model, read/writ-\ning and weir.example/fish-\nladder or ~/weir-\nlogs"
    assert unbroken(words, frozenset()) == (
        "a client/server model, read/writing and weir.example/fish-ladder or ~/weir-logs"
    )
    # a relative path (two slashes, no leading one) is a path: its own hyphen kept
    path = "see tests/unit/test-\nparser.py and src/weir/fish-\ncount/"
    assert unbroken(path, frozenset()) == "see tests/unit/test-parser.py and src/weir/fish-count/"


def test_a_first_line_set_largest_is_the_title_though_the_other_pages_repeat_it() -> None:
    """A manual whose name is its running header: the name, set large at the top of its first page,
    is its title; a running header set in the body's size is not (`Field Journal`)."""
    name = "BT /F1 20 Tf 72 740 Td (Shared Weir Database) Tj ET BT /F1 12 Tf 72 716 Td (Ann Smith) Tj ET"
    header = "BT /F1 9 Tf 72 760 Td (Shared Weir Database) Tj ET"
    body = "BT /F1 10 Tf 72 700 Td (The weirs count fish.) Tj ET"
    pdf = pdf_drawing(name + body, header + body, header + body)
    assert (
        extract_document(pdf, url=None, content_type="application/pdf", options=ExtractOptions()).title
        == "Shared Weir Database"
    )
    journal = "BT /F1 10 Tf 72 760 Td (Field Journal) Tj ET"
    first = journal + "BT /F1 20 Tf 72 720 Td (The Burrow Survey) Tj ET" + body
    pdf = pdf_drawing(first, journal + body, journal + body)
    assert (
        extract_document(pdf, url=None, content_type="application/pdf", options=ExtractOptions()).title
        == "The Burrow Survey"
    )


def test_pages_that_are_all_alike_keep_their_words() -> None:
    """A sheet of tickets or a flyer printed page after page repeats all its lines on every page: they
    were all taken for running headers and footers, and the document read as empty page markers
    (`ok`, 0 words), its title from a line no longer in it."""
    ticket = (
        "BT /F1 10 Tf 72 700 Td (Spring fair admission ticket) Tj ET "
        "BT /F1 10 Tf 72 680 Td (Valid on Saturday 4 May only) Tj ET"
    )
    text = extract_document(
        pdf_drawing(*[ticket] * 4), url=None, content_type="application/pdf", options=ExtractOptions()
    )
    assert (text.title, text.word_count) == ("Spring fair admission ticket", 40)
    assert " ".join(text.content.split("<!-- page 4 -->\n\n")[1].split()) == (
        "Spring fair admission ticket Valid on Saturday 4 May only"
    )


def test_running_headers_footers_and_page_numbers_are_left_out() -> None:
    """What opens or closes page after page alike (a report's name, `Page 2 of 4`, a bare page
    number) is not read between one page's last sentence and the next one's first; a heading that
    repeats, a last line whose number is not the page's, and a two-page document's lone numbers are
    kept."""

    def page(number: int) -> str:
        return (
            "BT /F1 8 Tf 72 760 Td (Quarterly Water Report, Confidential) Tj ET "
            "BT /F1 16 Tf 72 720 Td (Results) Tj ET "
            f"BT /F1 10 Tf 72 690 Td (The weirs counted {number}00 fish this week.) Tj ET "
            "BT /F1 10 Tf 72 660 Td (Signed off.) Tj ET "
            f"BT /F1 10 Tf 72 630 Td (The board met on day {3 * number + 4}.) Tj ET "
            f"BT /F1 8 Tf 300 40 Td (Page {number} of 4) Tj ET"
        )

    pdf = pdf_drawing(*(page(number) for number in range(1, 5)))
    text = extract_document(pdf, url=None, content_type="application/pdf", options=ExtractOptions())
    assert "Quarterly" not in text.content and "of 4" not in text.content
    assert text.content.split("<!-- page 3 -->\n\n")[1].split("\n\n")[:5] == [
        "## Results",
        "The weirs counted 300 fish this week.",
        "Signed off.",
        "The board met on day 13.",
        "<!-- page 4 -->",
    ]
    short = pdf_drawing(
        *(f"BT /F1 10 Tf 72 700 Td (Total) Tj ET BT /F1 10 Tf 72 40 Td ({n}) Tj ET" for n in (7, 9))
    )
    kept = extract_document(short, url=None, content_type="application/pdf", options=ExtractOptions())
    assert kept.content == "<!-- page 1 -->\n\nTotal 7\n\n<!-- page 2 -->\n\nTotal 9\n"


def test_a_bullet_drawn_at_code_127_is_a_list_mark() -> None:
    """WinAnsiEncoding draws a bullet at code 127 too (ReportLab's lists do); pypdf reads it as the
    control DEL, which must neither vanish nor run the list's items together."""
    content = "".join(
        f"BT /F1 18 Tf 90 {y} Td (\\177 {item}) Tj ET"
        for y, item in ((460, "Revenue up 12%"), (424, "Costs flat"), (388, "Hiring 3 engineers"))
    )
    text = extract_document(
        pdf_drawing(content), url=None, content_type="application/pdf", options=ExtractOptions()
    )
    assert text.content.split("\n\n")[1:] == ["• Revenue up 12%", "• Costs flat", "• Hiring 3 engineers\n"]


def test_a_bullet_of_words_symbol_fonts_is_a_list_mark() -> None:
    """A PDF that Word saves draws its bullets in the Symbol and Wingdings fonts, mapped to Unicode's
    private use area (U+F0B7, U+F0A7): the marks read as nothing a reader knows, and the list's items
    ran together as one paragraph (`\uf0b7 Revenue up 12% \uf0b7 Costs flat`)."""
    content = "".join(
        f"BT /F2 10 Tf 1 0 0 1 72 {y} Tm ({mark}) Tj ET BT /F1 10 Tf 90 {y} Td ({item}) Tj ET"
        for y, mark, item in (
            (700, "\\010", "Revenue up 12%"),
            (686, "\\010", "Costs flat"),
            (672, "\\011", "Rent"),
        )
    )
    text = extract_document(
        pdf_drawing(f"BT /F1 10 Tf 72 714 Td (This year:) Tj ET {content}"),
        url=None,
        content_type="application/pdf",
        options=ExtractOptions(),
    )
    assert text.content.split("\n\n")[1:] == ["This year:", "• Revenue up 12%", "• Costs flat", "▪ Rent\n"]


def test_a_heading_set_on_two_lines_is_one_heading_and_the_whole_title() -> None:
    """A title too long for one line goes on where its first line plainly does not end (a comma, `and`,
    a next line in lower case or in brackets); a title page's authors, a line each, stay apart."""
    lines = [
        (740, 18, "Natural Sciences Citations and"),
        (718, 18, "References, Author-Year"),
        (696, 18, "and Numerical Schemes"),
        (660, 14, "Ann Smith"),
        (642, 14, "Bo Lee"),
        (610, 10, BODY),
        (598, 10, BODY),
    ]
    text = extract_document(pdf_of(lines), url=None, content_type="application/pdf", options=ExtractOptions())
    assert text.content.split("\n\n")[1:4] == [
        "## Natural Sciences Citations and References, Author-Year and Numerical Schemes",
        "### Ann Smith",
        "### Bo Lee",
    ]
    assert text.title == "Natural Sciences Citations and References, Author-Year and Numerical Schemes"


def test_a_list_item_whose_bullet_is_set_larger_is_no_heading(
    simweb: SimWeb, capsys: pytest.CaptureFixture[str]
) -> None:
    """ReportLab draws a list's bullet at 12 points before items at 10: the item's words, not its
    mark, tell the line's size."""
    content = f"BT /F1 10 Tf 72 720 Td ({BODY}) Tj ET BT /F1 10 Tf 72 706 Td (season.) Tj ET" + "".join(
        f" BT /F1 12 Tf 72 {y - 2} Td (\\177) Tj ET BT /F1 10 Tf 90 {y} Td ({item}) Tj ET"
        for y, item in ((680, "Revenue up 12%"), (662, "Costs flat"))
    )
    url = simweb.add("/report.pdf", pdf_drawing(content), headers={"Content-Type": "application/pdf"})
    assert main(["fetch", url, "--json", "--allow-host", "127.0.0.1"]) == 0
    page = json.loads(capsys.readouterr().out)["data"]["pages"][0]
    assert page["content"].split("\n\n")[2:] == ["• Revenue up 12%", "• Costs flat\n"]


def _cells(y: float, *cells: tuple[float, str], size: float = 11) -> str:
    return " ".join(f"BT /F1 {size:g} Tf {x:g} {y:g} Td ({text}) Tj ET" for x, text in cells)


def _pdf_text(content: str, format: str = "markdown") -> str:
    return extract_document(
        pdf_drawing(content), url=None, content_type="application/pdf", options=ExtractOptions(format=format)
    ).content


LEFT = [
    "Salmon were counted at four weirs, each",
    "day from March to October, by the board.",
    "The counts rose in every month but one,",
    "and the board put the fall in August to",
]
RIGHT = [
    "the low water that held the fish below",
    "the weirs for most of the month.",
]


def test_a_paragraph_a_column_break_cuts_goes_on_in_the_next_column() -> None:
    """A paper's or a newsletter's paragraph that went on at the top of the next column was two
    paragraphs, cut mid-sentence (`... in August to` / `the low water ...`); a column that ends a
    sentence still ends its paragraph there."""
    left = [_cells(700 - 14 * n, (72, line), size=10) for n, line in enumerate(LEFT)]
    right = [_cells(700 - 14 * n, (330, line), size=10) for n, line in enumerate(RIGHT)]
    assert _pdf_text(" ".join(left + right)).split("\n\n")[1:] == [" ".join(LEFT + RIGHT) + "\n"]
    ended = [*LEFT[:-1], "and the board put the fall in August."]
    left = [_cells(700 - 14 * n, (72, line), size=10) for n, line in enumerate(ended)]
    assert _pdf_text(" ".join(left + right)).split("\n\n")[1:] == [" ".join(ended), " ".join(RIGHT) + "\n"]


TABLE = [("Weir", "Height", "Count"), ("Pitlochry", "8 m", "5400"), ("Tongland", "29 m", "1200 a|b")]


def test_a_table_is_a_gfm_table_and_its_rows_in_text() -> None:
    """A table's cells drawn apart on each line were one paragraph: `Weir Height Count Pitlochry 8 m ...`."""
    lead = _cells(740, (72, "The weirs counted this year, by river, as the board reported them."))
    drawn = " ".join(
        [lead, *(_cells(700 - 16 * n, *zip((72, 200, 300), row, strict=True)) for n, row in enumerate(TABLE))]
    )
    assert _pdf_text(drawn).split("\n\n")[1:] == [
        "The weirs counted this year, by river, as the board reported them.",
        "| Weir | Height | Count |\n|---|---|---|\n| Pitlochry | 8 m | 5400 |\n"
        "| Tongland | 29 m | 1200 a\\|b |\n",
    ]
    assert _pdf_text(drawn, "text").split("\n\n")[1] == (
        "Weir | Height | Count\nPitlochry | 8 m | 5400\nTongland | 29 m | 1200 a|b\n"
    )


def test_a_table_of_right_aligned_numbers_under_a_wider_header_is_a_table() -> None:
    """Numbers set flush right start apart by the digits they lack, and a header is set otherwise (as
    ReportLab's tables are): `Weir Fish counted Pitlochry 5400 Tongland 120 ...` was one paragraph."""
    rows = [
        _cells(700, (72, "Weir"), (338, "Fish counted")),  # flush right too, in its own width
        _cells(684, (72, "Pitlochry"), (375.5, "5400")),  # Helvetica's digits are 0.556 wide: each
        _cells(668, (72, "Tongland"), (381.7, "120")),  # number ends at 400
        _cells(652, (72, "Cruachan"), (369.4, "12000")),
    ]
    assert _pdf_text(" ".join(rows)).split("\n\n")[1] == (
        "| Weir | Fish counted |\n|---|---|\n| Pitlochry | 5400 |\n| Tongland | 120 |\n| Cruachan | 12000 |\n"
    )


def test_a_table_may_leave_cells_empty() -> None:
    """A row's runs go to the columns they fall in (`Seeds 7` was a row of two cells, and no table)."""
    rows = [
        _cells(700, (72, "Item"), (200, "Spring"), (300, "Autumn")),
        _cells(684, (72, "Nuts"), (200, "3")),
        _cells(668, (72, "Seeds"), (300, "7")),
        _cells(652, (72, "Eggs"), (200, "1"), (300, "2")),
    ]
    assert _pdf_text(" ".join(rows)).split("\n\n")[1] == (
        "| Item | Spring | Autumn |\n|---|---|---|\n| Nuts | 3 |  |\n| Seeds |  | 7 |\n| Eggs | 1 | 2 |\n"
    )


@pytest.mark.parametrize(
    "rows",
    [
        [((72, "Weir"), (200, "Count")), ((72, "Pitlochry"), (200, "5400"))],  # two lines line up by chance
        [((72, "\\177"), (84, f"Item {n}")) for n in range(4)],  # a list
        [((72, str(n)), (84, f"Point {n}")) for n in range(1, 5)],  # a list numbered without dots
        [  # two columns of running text drawn line by line
            ((72, "Ferrets are small animals that"), (320, "The second column tells of")),
            ((72, "live in burrows under the old"), (320, "tunnels dug by the ferrets")),
            ((72, "barn and keep their food there,"), (320, "over many long winters and")),
            ((72, "and sleep most of the long day."), (320, "how deep the tunnels can go.")),
        ],
        [((72, "A line with"), (130, "one word"), (180, f"in bold, line {n}")) for n in range(1)]
        + [
            ((72, "then another"), (141, "bold word"), (199, "elsewhere")),
            ((72, "and a third"), (120, "x"), (150, "y")),
        ],
    ],
)
def test_lines_that_only_look_like_rows_are_no_table(rows: list[tuple[tuple[float, str], ...]]) -> None:
    drawn = " ".join(_cells(700 - 14 * n, *row) for n, row in enumerate(rows))
    assert "|" not in _pdf_text(drawn)


def test_a_list_numbered_without_dots_is_a_list() -> None:
    """ReportLab draws a list item's number apart from its words: the items ran on in the paragraph
    above (`... the rest. 1 Count the weirs 2 Weigh the fish`). A section's number is left as set,
    and so is a number opening a sentence in a font of its own."""
    drawn = " ".join(
        [
            _cells(720, (72, "2"), (90, "Methods"), size=16),
            _cells(690, (72, "The board did three things this year, in this order, and then the rest.")),
            _cells(676, (72, "1"), (90, "Count the weirs")),
            _cells(662, (72, "2"), (90, "Weigh the fish at each")),
            _cells(648, (90, "of the weirs counted")),
            _cells(634, (72, "3"), (90, "Report to the board")),
            _cells(600, (72, "12"), (86, "ferrets were seen near the weirs and counted with the fish.")),
        ]
    )
    assert _pdf_text(drawn).split("\n\n")[1:] == [
        "## 2 Methods",
        "The board did three things this year, in this order, and then the rest.",
        "1. Count the weirs",
        "2. Weigh the fish at each of the weirs counted",
        "3. Report to the board",
        "12 ferrets were seen near the weirs and counted with the fish.\n",
    ]
