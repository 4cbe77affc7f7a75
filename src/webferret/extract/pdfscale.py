"""The sizes a PDF's text is set in, measured over the whole document.

A heading is a short line set larger than the body text, and its level is its size's rank among the
headings' sizes. Measured page by page, both go wrong: a page mostly of code (a listing set smaller,
as Chrome prints `<pre>`) took the listing's size for the body's, so that its prose and every row of a
table below it were headings, and a heading's level depended on the sizes the page happened to hold
(a section `###` on the first page, where the title is, and `##` on the next). So the body's size is
the one most of the document's letters are set in, code aside, and the levels rank the sizes of all
its headings. Code is code unless nearly all the document is set in a monospaced font (a plain text
file printed, an RFC), or most of it is and the rest is set smaller (a short text file Chrome printed
with its header and footer): then it is the text.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable

    from webferret.extract.pdflayout import Line

HEADING_SIZE = 1.15
"""A line set at least this many times the body text's size is a heading (if short)."""
HEADING_WORDS = 20
CODE_SHARE = 0.9
"""A document whose letters are more than this share monospaced is text set in such a font, not code
(a reference's listings can take most of its letters; a printed text file's running lines, few),
and so is one whose letters are more than `MOSTLY` monospaced when its other letters are set smaller
(code is set no larger than the body it stands in)."""
MOSTLY = 0.5


@dataclass(frozen=True)
class Scale:
    """The body text's size, each heading size's marks (`##`, the largest first), and whether the lines
    set in a monospaced font are code."""

    body: float
    levels: dict[float, str]
    code: bool

    def heading(self, line: Line) -> bool:
        return is_heading(line, self.body)


def is_heading(line: Line, body: float) -> bool:
    return line.size >= body * HEADING_SIZE and len(line.text.split()) <= HEADING_WORDS


def scale_of(pages: Iterable[list[Line]]) -> Scale:
    """The scale of a document of `pages`, each its lines (see the module)."""
    lines = [line for page in pages for line in page]
    if not lines:
        return Scale(0.0, {}, code=True)
    first = _commonest(lines)
    listings = [line for line in lines if line.letter_width and not is_heading(line, first)]
    others = [line for line in lines if not line.letter_width]
    share = sum(len(line.text) for line in listings) / max(sum(len(line.text) for line in lines), 1)
    code = share <= CODE_SHARE and not (
        share > MOSTLY and others and _commonest(listings) >= HEADING_SIZE * _commonest(others)
    )
    body = _commonest(others) if code and others else first
    sizes = sorted({line.size for line in lines if is_heading(line, body)}, reverse=True)
    return Scale(body, {size: "#" * min(2 + rank, 4) for rank, size in enumerate(sizes)}, code)


def _commonest(lines: list[Line]) -> float:
    """The size most of the letters of `lines` are set in."""
    weights: Counter[float] = Counter()
    for line in lines:
        weights[line.size] += len(line.text)
    return weights.most_common(1)[0][0]
