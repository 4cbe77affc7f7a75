"""A PDF page's text as Markdown from where and how large its text is drawn: headings and paragraphs.

pypdf's text of a page is its lines as drawn: a heading is a line like any other, and a paragraph is
broken wherever its line ended on paper. From the runs of text pypdf reports while it reads a page (each
with its height on the page and its font size) the lines are rebuilt; a short line set larger than the
document's body text is a heading (`##`, `###`, `####` by its size, the largest first); the lines of a
paragraph are joined (across a column break too, `_next_column`), and a paragraph ends where the gap to
the next line is wider than the page's usual line spacing, at a heading, after a sentence that ends well
short of the page's usual line, before a line that opens with a list mark (`•`, `1.`, `a)`, or a
number, letter or roman numeral drawn apart from its words) and at a line that starts left of a list
item's words, and after an entry of a table of contents (a page number after leader dots or set far
right), and around a form's field (a label ending with a colon, its value drawn apart). A page whose
runs do not hold its text (a layout pypdf reads otherwise) is left as its lines.
"""

from __future__ import annotations

import re
import statistics
from collections import Counter
from dataclasses import dataclass, field
from itertools import pairwise
from typing import NamedTuple

from webferret.extract.pdfcode import Carried, code_blocks
from webferret.extract.pdfhyphens import keeps_hyphen
from webferret.extract.pdfscale import Scale, scale_of
from webferret.extract.pdftables import SAME_PLACE, guessed_width, table_markdown, tables

HEADING_SPACING = 1.4
"""A heading's line this many times its size or less below the one before it goes on that heading."""
PARAGRAPH_GAP = 1.2
"""A gap to the next line wider than this many times the usual line spacing ends a paragraph."""
KEPT_SHARE = 0.95
"""The runs must hold at least this share of the page's text (letters), else its lines are kept."""
SHORT_LINE = 0.6
"""A line shorter than this share of the page's usual line, ending a sentence, ends its paragraph."""
SPACED_APART = 1.8
"""Lines of a page whose every gap to the next is at least this many times their size are spaced
apart: no gap between them is a paragraph's usual line spacing."""
CONTENTS_GAP = 4.0
"""A page number this many font sizes or more right of a line's words ends an entry of a table of
contents."""
_HYPHEN_END = re.compile(r"(\S*\w)-$")
_WORD = re.compile(r"\w+")
_LIST_MARK = re.compile(r"(?:[•▪◦‣●■➢❖✓–—*-]|\(?\d{1,3}[.)]|\(?[a-z][.)])\s")
_BARE_NUMBER = re.compile(r"\d{1,3}")
_BARE_LETTER = re.compile(r"[a-zA-Z]|[ivx]{1,5}|[IVX]{1,5}")
"""A list's letter or roman numeral as ReportLab draws it: without a dot (a mark only drawn apart)."""
_LEADERS = re.compile(r"(?:\.\s?){4,}\s*\d{1,4}$")
_PAGE_NUMBER = re.compile(r"\d{1,4}")
_ENDS = re.compile(r"[.!?:;)\"”]$")
_SENTENCE_END = re.compile(r"[.!?][\"”’)]?$")
_LETTER = re.compile(r"\w")
_GOES_ON = re.compile(r"(?:[,:&–—-]|\b(?:and|or|of|the|for|with|in|on|to|a|an|from|by))$")
_CLOSING = frozenset(",.;:!?)]}%’”»")
_OPENING = frozenset("([{‘“«")


class Run(NamedTuple):
    """A run of text as pypdf reports it: its height and left edge on the page, its font size."""

    y: float
    size: float
    text: str
    x: float = 0.0
    letter_width: float = 0.0
    """A monospaced font's letter width as a share of its size; 0 for another font (`pdfcode`)."""


@dataclass
class Line:
    y: float
    size: float
    text: str
    drawn: Counter[float] = field(default_factory=Counter, compare=False, repr=False)
    """How many letters each font size draws in the line: its size is the one that draws most (a
    bullet or a list's number set larger than its item's words makes no heading of the item)."""
    cells: list[tuple[float, str]] = field(default_factory=list, compare=False, repr=False)
    """Each run of the line with where it starts (a table's row has one a cell: `pdftables`)."""
    item: bool = field(default=False, compare=False, repr=False)
    """Whether the line opens a list's item by a mark drawn apart (`_dot_bare_mark`)."""
    letter_width: float = field(default=0.0, compare=False, repr=False)
    """Its runs' monospaced letter width, when every run is set in a monospaced font (`pdfcode`)."""
    raws: list[tuple[float, str]] = field(default_factory=list, compare=False, repr=False)
    """Each run with where it starts, its spaces as drawn (a listing's indentation: `pdfcode`)."""


def collect(runs: list[Run]) -> list[Line]:
    """The lines of a page from its runs of text `(y, font size, text)` in drawing order: runs at one
    height (within half a font size) are one line, of the size that draws most of its letters, a
    space between runs, but not before a closing mark or after an opening one where pypdf saw no gap
    (a word in another font and the comma after it: `bold` + `, and` is `bold, and`; `(` + `Alder` +
    `)` is `(Alder)`)."""
    lines: list[Line] = []
    spaced = True
    for y, size, raw, x, width in runs:
        text = " ".join(raw.split())
        if not text:
            spaced = spaced or bool(raw)
            continue
        letters = len(_LETTER.findall(text))
        drawn = (x, raw.rstrip())
        if lines and abs(lines[-1].y - y) < max(size, 1.0) / 2:
            line = lines[-1]
            apart = spaced or raw[:1].isspace() or not _touching(line.text, text)
            line.text += (" " if apart else "") + text
            line.drawn[size] += letters
            line.size = max(line.drawn, key=lambda drawn: (line.drawn[drawn], drawn))
            line.cells.append((x, text))
            line.raws.append(drawn)
            line.letter_width = line.letter_width if width else 0.0
        else:
            lines.append(
                Line(y, size, text, Counter({size: letters}), [(x, text)], letter_width=width, raws=[drawn])
            )
        spaced = raw[-1:].isspace()
    return lines


def _touching(before: str, after: str) -> bool:
    """Whether two runs of one line that pypdf did not space apart meet at a mark that takes no space
    on its inner side (words may still be apart: pypdf often leaves out the space between runs)."""
    return after[0] in _CLOSING or before[-1] in _OPENING


def page_markdown(
    runs: list[Run],
    plain: str,
    compounds: frozenset[str] = frozenset(),
    scale: Scale | None = None,
    carried: Carried | None = None,
) -> str:
    """A page as Markdown (see the module); `plain` (pypdf's text of the page) when the runs do not
    hold its text. `compounds`: the document's hyphenated words (`pdfhyphens`), which a line's end
    does not make whole; `scale`: the document's sizes (`pdfscale`), else the page's own; `carried`:
    the listing the page before ended with (`pdfcode`), updated for the next."""
    carried = carried or Carried()
    lines = collect(runs)
    letters = len(_LETTER.findall(plain))
    if not lines or sum(len(_LETTER.findall(line.text)) for line in lines) < KEPT_SHARE * letters:
        carried.left = None
        return plain
    scale = scale or scale_of([lines])
    body, levels, _heading = scale.body, scale.levels, scale.heading
    for line in lines:
        if not _heading(line):  # (a section's number, `2` `Methods`, stays as set)
            _dot_bare_mark(line)
    gaps = [a.y - b.y for a, b in pairwise(lines) if a.y > b.y and a.size == b.size == body]
    spacing = statistics.median(gaps) if gaps else body * 1.2
    spaced = bool(gaps) and min(gaps) >= SPACED_APART * body  # no two lines a line's spacing apart
    widths = [len(line.text) for line in lines if line.size == body]
    full = statistics.median(widths) if widths else 0
    blocks: list[str] = []
    paragraph: list[str] = []
    previous: Line | None = None
    # the tables and code listings, each by the line it opens at: its Markdown, the lines it takes
    # (a listing where both open at one line)
    whole = {at: (table_markdown(rows), drawn) for at, (rows, drawn) in tables(lines).items()}
    if scale.code:
        headings = {at for at, line in enumerate(lines) if _heading(line)}
        whole |= code_blocks(lines, headings, body, carried)
    after_items = _after_items(lines)
    written_to = 0
    for at, line in enumerate(lines):
        if at < written_to:  # a line of a table or a listing written
            continue
        if at in whole:
            if paragraph:
                blocks.append(_joined(paragraph, compounds))
            (block, drawn), paragraph, previous = whole[at], [], None
            blocks.append(block)
            written_to = at + drawn
            continue
        apart = previous is None or at in after_items or _new_paragraph(previous, line, spacing, full, spaced)
        if _heading(line) or apart or (previous is not None and _heading(previous)):
            if paragraph:
                blocks.append(_joined(paragraph, compounds))
            paragraph = []
        if _heading(line) and previous is not None and _heading_goes_on(previous, line):
            blocks[-1] += " " + line.text
        elif _heading(line):
            blocks.append(f"{levels[line.size]} {line.text}")
        else:
            paragraph.append(line.text)
        previous = line
    if paragraph:
        blocks.append(_joined(paragraph, compounds))
    return "\n\n".join(blocks)


def _dot_bare_mark(line: Line) -> None:
    """A list item drawn as a number, a letter or a roman numeral and, apart, its words (`1`, `First
    point`; `b`, `iv`: ReportLab's lists) is written as one (`1. First point`) and opens a paragraph;
    a number that opens a sentence in a font of its own (`12`, `ferrets were seen`), or a letter that
    pypdf places where the words after it start (one text object: `A` in bold, `Study of Weirs`), is
    left as it is."""
    if len(line.cells) < 2:
        return
    (at, mark), (words_at, words) = line.cells[:2]
    apart = words_at - at > SAME_PLACE
    if not words[:1].islower() and (_BARE_NUMBER.fullmatch(mark) or (apart and _BARE_LETTER.fullmatch(mark))):
        line.text, line.item = f"{mark}.{line.text[len(mark) :]}", True
    elif apart and _LIST_MARK.match(f"{mark} "):  # a bullet, a number with its dot
        line.item = True


def _after_items(lines: list[Line]) -> set[int]:
    """The lines that start left of the words of a list's item above them: text at the margin after a
    list goes on no item (`4. Rest` then `The board met ...`; an item's own next lines start under its
    words)."""
    after: set[int] = set()
    words: float | None = None
    for at, line in enumerate(lines):
        if line.item:
            words = line.cells[1][0]
        elif words is not None and line.cells and line.cells[0][0] < words - SAME_PLACE:
            after.add(at)
            words = None
    return after


def _heading_goes_on(previous: Line, line: Line) -> bool:
    """Whether a heading's `line` is the next line of the heading before it (a title too long for one
    line): the same size, a line's spacing below it, and plainly going on: the line before ends with a
    comma or a word such as `and`, or this one opens in lower case or with a bracket (lines that are
    each whole, such as a title page's authors, stay apart)."""
    below = previous.y - line.y
    if previous.size != line.size or not 0 < below <= line.size * HEADING_SPACING:
        return False
    return bool(_GOES_ON.search(previous.text)) or line.text[:1].islower() or line.text[:1] in "(["


def _new_paragraph(previous: Line, line: Line, spacing: float, full: float, spaced: bool = False) -> bool:
    """Whether `line` opens a paragraph after `previous`: a wider gap than the usual `spacing`, a list
    item, an entry of a table of contents before it, or a sentence before it that ended well short of
    the usual line (`full` characters), or that ended at all (`.`, `!`, `?`) on a page whose lines
    are all `spaced` apart (its paragraphs of one line each, a paragraph's gap between every two: the
    usual spacing is theirs; a double-spaced page's paragraph may break at a sentence's end there too)."""
    if line.item or _LIST_MARK.match(line.text):
        return True
    if not 0 < previous.y - line.y <= spacing * PARAGRAPH_GAP:
        return not _next_column(previous, line, full)
    if _contents_entry(previous) or _field(previous) or _field(line):
        return True
    if spaced and _SENTENCE_END.search(previous.text):
        return True
    short = len(previous.text) < SHORT_LINE * full
    return short and (bool(_ENDS.search(previous.text)) or _broken_early(previous, line, full))


def _broken_early(previous: Line, line: Line, full: float) -> bool:
    """Whether `previous` was ended on purpose, not wrapped: it would still be short with the next
    line's first word on it (a list whose bullets are drawn as shapes, as Chrome's PDFs draw them; a
    line of an address or a poem), where a wrapped line ends because that word did not fit (a long
    address after `see`)."""
    first = line.text.split(" ", 1)[0]
    return len(previous.text) + 1 + len(first) < SHORT_LINE * full


def _next_column(previous: Line, line: Line, full: float) -> bool:
    """Whether `line` goes on the paragraph `previous` left unfinished at the foot of a column: drawn
    higher up, in the next column (right of where `previous` ends), in its size, after a full line that
    ends no sentence (a paper's or a newsletter's paragraph that a column break cut in two)."""
    if line.y <= previous.y or line.size != previous.size or not (line.cells and previous.cells):
        return False
    last_at, last = previous.cells[-1]
    ends_at = last_at + guessed_width(last, previous.size)
    return (
        line.cells[0][0] >= ends_at - previous.size
        and len(previous.text) >= SHORT_LINE * full
        and not _ENDS.search(previous.text)
    )


def _contents_entry(line: Line) -> bool:
    """Whether a line is an entry of a table of contents: its words, then a page number after leader
    dots (`Methods ....... 3`) or set apart at the right (`Methods` ... `3`)."""
    if _LEADERS.search(line.text):
        return True
    if len(line.cells) < 2 or not _PAGE_NUMBER.fullmatch(line.cells[-1][1]):
        return False
    (words_at, words), (at, _) = line.cells[-2:]
    return at - (words_at + guessed_width(words, line.size)) > CONTENTS_GAP * line.size


def _field(line: Line) -> bool:
    """Whether a line is a form's field: a label ending with a colon, and its value drawn apart."""
    return (
        len(line.cells) == 2
        and line.cells[0][1].endswith(":")
        and line.cells[1][0] - line.cells[0][0] > SAME_PLACE
    )


def _joined(lines: list[str], compounds: frozenset[str]) -> str:
    """A paragraph's lines as one: a word broken at a line's end by a hyphen made whole (a compound
    keeps its hyphen)."""
    parts = [lines[0]]
    for before, line in pairwise(lines):
        broken = _HYPHEN_END.search(before)  # the line before, not all the text so far: a long
        if broken and line[:1].islower():  # paragraph (a code listing) is not searched again and again
            after = _WORD.match(line)
            if after is None or not keeps_hyphen(broken.group(1), after.group(), compounds):
                parts[-1] = parts[-1][:-1]
            parts.append(line)
        else:
            parts.append(" " + line)
    return "".join(parts)
