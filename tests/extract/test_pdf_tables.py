"""Tables on a PDF page and what is next to them (`extract.pdftables`)."""

from __future__ import annotations

import pytest
from test_pdf_layout import _cells, _pdf_text


def _grid(rows: list[tuple[str, ...]], columns: tuple[float, ...], top: float, step: float) -> list[str]:
    """`rows` drawn as a table: each row's cells at `columns`, the first row at `top`, each next one
    `step` lower."""
    return [_cells(top - step * n, *zip(columns, row, strict=True)) for n, row in enumerate(rows)]


TERMS = [("Term", "Meaning", "Year"), ("Kit", "A young ferret", "1400"), ("Hob", "A male ferret", "1500")]
TERMS_TABLE = (
    "| Term | Meaning | Year |\n|---|---|---|\n"
    "| Kit | A young ferret | 1400 |\n| Hob | A male ferret | 1500 |"
)


@pytest.mark.parametrize("mark", ["1", "1.", "\\177"])
def test_a_list_under_a_table_is_no_row_of_it(mark: str) -> None:
    """fpdf2 and ReportLab draw a list's mark and its words apart: the first item of a list under a
    table fell in its columns and was its last row (`| 1 | Calibrate the counters ... |  |`)."""
    rows = _grid(TERMS, (31, 146, 492), 700, 22)
    items = ["Calibrate the counters each month against the video.", "Send the counts to the board."]
    listed = [_cells(625 - 17 * n, (31, mark), (54, item)) for n, item in enumerate(items)]
    blocks = _pdf_text(" ".join([*rows, *listed])).split("\n\n")[1:]
    assert blocks[0] == TERMS_TABLE
    assert blocks[1].endswith("Calibrate the counters each month against the video.")


def test_a_list_over_a_table_is_not_its_header() -> None:
    """Chrome draws a numbered list's numbers apart from its items: the last item of a list right over a
    narrow table fell in its columns and was its header (`| 3. | Count the fish |  |`)."""
    items = ["Measure the width", "Record the depth", "Count the fish"]
    listed = [_cells(662 - 14 * n, (48, f"{n}."), (64, item)) for n, item in enumerate(items, 1)]
    sites = [("Site", "Width", "Depth"), ("Pitlochry", "12 m", "3 m"), ("Perth", "40 m", "5 m")]
    rows = _grid(sites, (37, 94, 139), 590, 19)
    blocks = _pdf_text(" ".join([*listed, *rows])).split("\n\n")[1:]
    assert blocks == [
        "1. Measure the width",
        "2. Record the depth",
        "3. Count the fish",
        "| Site | Width | Depth |\n|---|---|---|\n| Pitlochry | 12 m | 3 m |\n| Perth | 40 m | 5 m |\n",
    ]


def test_a_table_may_number_its_rows() -> None:
    rows = [
        ("No.", "Weir", "Count"),
        ("1", "Pitlochry", "5400"),
        ("2", "Tongland", "120"),
        ("3", "Cruachan", "77"),
    ]
    drawn = " ".join(_grid(rows, (72, 120, 300), 700, 16))
    assert _pdf_text(drawn).split("\n\n")[1] == (
        "| No. | Weir | Count |\n|---|---|---|\n| 1 | Pitlochry | 5400 |\n| 2 | Tongland | 120 |\n"
        "| 3 | Cruachan | 77 |\n"
    )


def test_a_header_with_an_empty_corner_heads_its_table() -> None:
    """A table of counts by year leaves the cell over its names empty: its header (two runs over three
    columns) was a paragraph of its own (`2023 2024`), and the first row of counts stood as the header."""
    rows = [
        _cells(720, (72, "The burrows counted, by year.")),
        _cells(700, (200, "2023"), (300, "2024")),
        _cells(684, (72, "Ferrets"), (200, "12"), (300, "15")),
        _cells(668, (72, "Kits"), (200, "3"), (300, "9")),
        _cells(652, (72, "Burrows"), (200, "40"), (300, "41")),
    ]
    assert _pdf_text(" ".join(rows)).split("\n\n")[1:] == [
        "The burrows counted, by year.",
        "|  | 2023 | 2024 |\n|---|---|---|\n| Ferrets | 12 | 15 |\n| Kits | 3 | 9 |\n| Burrows | 40 | 41 |\n",
    ]


def test_a_line_of_words_above_a_table_is_not_its_header() -> None:
    """A sentence with a word in bold just above a table has fewer runs than its rows, but they stand
    in no column."""
    rows = [
        _cells(700, (72, "Counts rose in"), (140, "every"), (170, "year, as below:")),
        *_grid(QUARTERS, (72, 200, 300, 400), 684, 16),
    ]
    blocks = _pdf_text(" ".join(rows)).split("\n\n")[1:]
    assert blocks[0] == "Counts rose in every year, as below:"
    assert blocks[1].startswith("| Weir | Q1 | Q2 | Q3 |\n")


QUARTERS = [("Weir", "Q1", "Q2", "Q3"), ("Stanley", "10", "20", "30"), ("Tongland", "11", "21", "31")]


WORD_BY_WORD = [  # a paragraph's last lines as ReportLab's canvas drew them, each word on its own: x word
    "72 digs 96 to 110 by 125 it 135 near 161 was 185 in 198 and 220 to 233 end 256 by 272 be 288 barn "
    "314 seen 342 a 352 tunnel 386 digs 411 it 420 dry 440 to 453 be 470 digs 494 under",
    "72 by 88 was 112 digs 137 be 153 were 182 an 198 chamber 245 under 278 digs 303 an 319 ferret 349 of "
    "363 stores 397 digs 422 chamber 469 tunnel 504 end",
    "72 an 87 in 99 dry 117 its 131 food.",
]


def test_justified_lines_drawn_word_by_word_are_no_table() -> None:
    """Their words fell in columns, a line's under the one above's (a row may leave cells empty), and
    a paragraph's lines were a table of twenty-three columns of words."""
    placed = [line.split() for line in WORD_BY_WORD]
    rows = [zip(map(float, line[::2]), line[1::2], strict=True) for line in placed]
    drawn = " ".join(_cells(700 - 13.2 * n, *row) for n, row in enumerate(rows))
    assert _pdf_text(drawn).split("\n\n")[1:] == [" ".join(" ".join(line[1::2]) for line in placed) + "\n"]


def test_a_cell_of_words_in_several_fonts_is_one_cell() -> None:
    """ReportLab draws a cell's paragraph (a word in bold, a note's mark) as runs that pypdf places
    where the cell starts: each was a cell of its own, the rows had more cells than the header, and
    the table was one paragraph (`Weir Fish Notes Tay 1200 a counted twice daily ...`)."""
    notes = [
        "BT /F1 11 Tf 300 684 Td (counted ) Tj /F2 11 Tf (twice) Tj /F1 11 Tf ( daily) Tj ET",
        "BT /F2 11 Tf 300 668 Td (estimated) Tj ET",
        "BT /F1 11 Tf 300 652 Td (new ) Tj /F2 11 Tf (weir) Tj ET",
    ]
    rows = [
        _cells(700, (72, "Weir"), (200, "Fish"), (300, "Notes")),
        _cells(684, (72, "Tay"), (200, "1200")) + " BT /F1 7 Tf 200 684 Td 3 Ts (a) Tj ET " + notes[0],
        _cells(668, (72, "Spey"), (200, "87")) + " " + notes[1],
        _cells(652, (72, "Dee"), (200, "140")) + " " + notes[2],
    ]
    assert _pdf_text(" ".join(rows)).split("\n\n")[1] == (
        "| Weir | Fish | Notes |\n|---|---|---|\n| Tay | 1200 a | counted twice daily |\n"
        "| Spey | 87 | estimated |\n| Dee | 140 | new weir |\n"
    )


@pytest.mark.parametrize("marks", ["a b c d", "A B C D", "i ii iii iv", "I II III IV"])
def test_a_list_lettered_or_in_roman_numerals_is_a_list(marks: str) -> None:
    """ReportLab draws a list's letters and roman numerals without a dot, apart from the items' words:
    the list was a table of two columns (`| a | Count the weirs |`)."""
    items = ["Count the weirs", "Weigh the fish", "Report to the board", "Rest"]
    drawn = " ".join(
        _cells(700 - 18 * n, (72, mark), (90, item))
        for n, (mark, item) in enumerate(zip(marks.split(), items, strict=True))
    )
    assert _pdf_text(drawn).split("\n\n")[1:] == [
        f"{mark}. {item}" for mark, item in zip(marks.split(), [*items[:-1], "Rest\n"], strict=True)
    ]


def test_a_letter_in_a_font_of_its_own_opening_a_line_is_no_list_mark() -> None:
    """pypdf places both runs of one text object where it starts: `A` is no mark drawn apart."""
    words = "Study of the Weirs of Tayside, as the board saw them."
    drawn = f"BT /F2 11 Tf 72 700 Td (A) Tj /F1 11 Tf ( {words}) Tj ET"
    assert _pdf_text(drawn).split("\n\n")[1] == f"A {words}\n"


def test_the_text_after_a_list_goes_on_no_item() -> None:
    """The paragraph after ReportLab's list, at the margin and as far below as the items are apart,
    ran on in the last item (`4. Rest List of kind a follows here ...`)."""
    drawn = " ".join(
        [
            _cells(700, (72, "1"), (90, "Count the weirs")),
            _cells(
                682, (72, "2"), (90, "Weigh the fish at each weir and then the rest, every morning of the")
            ),
            _cells(670, (90, "season without fail")),
            _cells(652, (72, "\\177"), (90, "Rest")),
            _cells(634, (72, "The board met in the spring to hear the counts, and found them good.")),
        ]
    )
    assert _pdf_text(drawn).split("\n\n")[1:] == [
        "1. Count the weirs",
        "2. Weigh the fish at each weir and then the rest, every morning of the season without fail",
        "• Rest",
        "The board met in the spring to hear the counts, and found them good.\n",
    ]


def test_a_list_under_one_line_in_columns_is_no_table() -> None:
    """The last row of a table the page reads otherwise (its cells wrapped) and the list under it: the
    list's items were the body of a table headed by that row, its last column empty all the way."""
    items = ["Calibrate the counters each month.", "Send the counts to the board.", "Rest."]
    drawn = " ".join(
        [
            _cells(700, (31, "Hob"), (146, "A male ferret"), (492, "1500")),
            *(_cells(669 - 17 * n, (31, str(n + 1)), (54, item)) for n, item in enumerate(items)),
        ]
    )
    listed = "\n\n".join(f"{n}. {item}" for n, item in enumerate(items, 1))
    assert _pdf_text(drawn).endswith(f"\n\n{listed}\n")
    assert "|" not in _pdf_text(drawn)


CONTENTS = [("Introduction", "1"), ("Methods of counting", "3"), ("Results", "7"), ("Discussion", "12")]


def test_a_table_of_contents_is_its_entries_one_by_one() -> None:
    """Entries with leader dots ran together into one paragraph (`Introduction ..... 1 Methods ...`);
    entries with their page numbers set apart at the right were a table headed `Introduction | 1`."""
    dotted = [
        _cells(700 - 16 * n, (72, f"{name} {'.' * (60 - len(name))} {page}"))
        for n, (name, page) in enumerate(CONTENTS)
    ]
    entries = [f"{name} {'.' * (60 - len(name))} {page}" for name, page in CONTENTS]
    assert _pdf_text(" ".join(dotted)).split("\n\n")[1:] == [*entries[:-1], f"{entries[-1]}\n"]
    apart = [
        _cells(700 - 16 * n, (72, name), (480 - 5.5 * len(page), page))
        for n, (name, page) in enumerate(CONTENTS)
    ]
    assert _pdf_text(" ".join(apart)).split("\n\n")[1:] == [
        "Introduction 1",
        "Methods of counting 3",
        "Results 7",
        "Discussion 12\n",
    ]


def test_rows_with_numbers_between_their_name_and_an_ordered_last_number_are_a_table() -> None:
    """No table of contents: its entries hold no numbers but their section's and their page's."""
    rows = [("Q1", "10", "20", "5"), ("Q2", "11", "21", "6"), ("Q3", "12", "22", "7")]
    drawn = " ".join(_grid(rows, (72, 200, 300, 400), 700, 18))
    assert _pdf_text(drawn).split("\n\n")[1].startswith("| Q1 | 10 | 20 | 5 |\n|---|---|---|---|\n")


def test_a_form_of_labels_and_values_is_its_fields_one_by_one() -> None:
    """Labels ending with a colon and their values drawn apart were a table headed by the first field
    (`| Name: | Jo Ferret |`)."""
    fields = [("Name:", "Jo Ferret"), ("Role:", "Tunnel inspector"), ("Team:", "Digging")]
    drawn = " ".join(
        _cells(700 - 18 * n, (72, label), (150, value)) for n, (label, value) in enumerate(fields)
    )
    assert _pdf_text(drawn).split("\n\n")[1:] == [
        "Name: Jo Ferret",
        "Role: Tunnel inspector",
        "Team: Digging\n",
    ]


WRAPPED = "A small animal of the weasel family, kept as a pet and to hunt rabbits in their burrows."


CHROMIUM = [  # Chromium and fpdf2 centre a row's cells on its height: the short ones first, the long
    # one from above to below them, then the rest
    _cells(642.8, (38.2, "Ferret")),
    _cells(657, (88.1, "A small animal of the weasel family, kept as a")),
    _cells(642.8, (88.1, "pet and to hunt rabbits in their")),
    _cells(628.5, (88.1, "burrows.")),
    _cells(642.8, (389.5, "1200")),
]
REPORTLAB = [  # ReportLab (its cells at the top): the long cell's first line beside the first, then the
    # cell after it back on the first line
    _cells(642.8, (38.2, "Ferret"), (88.1, "A small animal of the weasel family, kept as a")),
    _cells(630.8, (88.1, "pet and to hunt rabbits in their burrows.")),
    _cells(642.8, (389.5, "1200")),
]


@pytest.mark.parametrize(("header", "ferret"), [(678.8, CHROMIUM), (660.8, REPORTLAB)])
def test_a_row_whose_cell_wraps_is_one_row(header: float, ferret: list[str]) -> None:
    """A cell of several lines broke its table: the rows above and below it were lines of a paragraph,
    and each of its lines and the cells beside it a paragraph of their own."""
    head = _cells(header, (42.9, "Term"), (206.1, "Meaning"), (389.5, "Since"))
    rows = [("Burrow", "A hole dug by an animal as a home.", "900"), ("Kit", "A young ferret.", "1400")]
    below = _grid(rows, (38.2, 88.1, 389.5), 606.8, 18)
    assert _pdf_text(" ".join([head, *ferret, *below])).split("\n\n")[1] == (
        f"| Term | Meaning | Since |\n|---|---|---|\n| Ferret | {WRAPPED} | 1200 |\n"
        "| Burrow | A hole dug by an animal as a home. | 900 |\n| Kit | A young ferret. | 1400 |\n"
    )


def test_long_names_in_lower_case_are_a_tables_cells() -> None:
    """A reference's options table, printed by Chrome: its names of 21 letters in lower case were taken
    for lines of running text going on, and the table read as a paragraph."""
    options = [
        ("Option", "Type", "Default"),
        ("configuration_timeout", "float", "3.0"),
        ("configuration_retries", "int", "2"),
        ("configuration_enabled", "bool", "true"),
    ]
    drawn = " ".join(_grid(options, (36, 162, 197), 700, 17))
    assert _pdf_text(drawn).split("\n\n")[1] == (
        "| Option | Type | Default |\n|---|---|---|\n| configuration_timeout | float | 3.0 |\n"
        "| configuration_retries | int | 2 |\n| configuration_enabled | bool | true |\n"
    )
