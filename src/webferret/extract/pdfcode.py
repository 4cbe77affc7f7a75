"""Code on a PDF page: lines set in a monospaced font, kept as a fenced block with their indentation.

A listing's lines are set in a typewriter font (Courier, DejaVu Sans Mono, TeX's cmtt); read as text,
they lost their indentation and ran on in the paragraph above (`prints three greetings. def
ferret(name):`). Consecutive lines drawn in such a font only are a code block: each line's runs stand
at the columns their places give (every letter of such a font is as wide as the others, so a run drawn
further right is indented by as many spaces), its own spaces kept, and blank lines where the listing
leaves a line's gap or more. A document set mostly in such a font (a plain text file printed, an RFC)
is text, not code (`pdfscale`).
"""

from __future__ import annotations

import re
import statistics
from dataclasses import dataclass
from itertools import pairwise
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from webferret.extract.pdflayout import Line

CHAR_WIDTH = 0.6
"""A monospaced letter's width as a share of the font size when the font does not say (Courier's)."""
CARRIED_LETTERS = 40
"""A listing opening a page goes on the one the page before ended with when it starts at most this
many letters right of that one's left edge."""
RUNNING_SIZE = 0.9
"""A line set smaller than this share of the body's size is no text between two listings (a running
header or footer)."""
BLANK_GAP = 1.5
"""A gap this many times the listing's line spacing or more holds a blank line (or more)."""
_MONO_NAME = re.compile(r"courier|mono|consol|menlo|inconsolata|typewriter|cmtt|lmtt|fixed", re.I)
_FIXED_PITCH = 1  # a font descriptor's /Flags bit


def letter_width(font: Any) -> float:
    """The width of a letter of pypdf's font dictionary `font`, as a share of its size, when it is a
    monospaced font (so flagged in its descriptor, or so named: `/Courier`, `/ABCDEF+DejaVuSansMono`,
    `/CMTT10`); 0 for any other. The width is the font's own (its `/Widths`), else `CHAR_WIDTH`."""
    try:
        name = str(font.get("/BaseFont", ""))
        descriptor = font.get("/FontDescriptor")
        flags = int(descriptor.get_object().get("/Flags", 0)) if descriptor is not None else 0
        if not (flags & _FIXED_PITCH or _MONO_NAME.search(name)):
            return 0.0
        widths = [float(width) for width in font.get("/Widths", []) if float(width) > 0]
    except (AttributeError, TypeError, ValueError):
        return 0.0
    return statistics.median(widths) / 1000 if widths else CHAR_WIDTH


@dataclass
class Carried:
    """What a page leaves the next: the left edge of the listing it ends with (None when it ends
    otherwise), so a listing broken by the page keeps its indentation on the next."""

    left: float | None = None


def code_blocks(
    lines: list[Line], headings: set[int], body: float = 0.0, carried: Carried | None = None
) -> dict[int, tuple[str, int]]:
    """The code blocks among `lines` (see the module), each by the line it starts at: its fenced
    Markdown and how many lines it takes. `headings`: the lines that are headings (never code);
    `body`: the body text's size; `carried`: the listing the page before ended with, which a listing
    opening this page goes on (its lines indented from that listing's left edge, not their own: a
    loop's body broken off from its `for` line read unindented), updated for the next page."""
    code = [at for at, line in enumerate(lines) if line.letter_width and at not in headings]
    spans: list[list[int]] = []
    for at in code:
        if spans and spans[-1][-1] == at - 1:
            spans[-1].append(at)
        else:
            spans.append([at])
    carried = carried or Carried()
    found: dict[int, tuple[str, int]] = {}
    last: float | None = None  # the left edge of the page's last listing
    for span in spans:
        listing = [lines[at] for at in span]
        last = min(x for line in listing for x, _ in line.raws)
        before = carried.left
        if span is spans[0] and before is not None and not _text(lines[: span[0]], body):
            last = before if 0 < last - before <= CARRIED_LETTERS * _width(listing) else last
        found[span[0]] = (_fenced(listing, last), len(span))
    carried.left = last if spans and not _text(lines[spans[-1][-1] + 1 :], body) else None
    return found


def _text(lines: list[Line], body: float) -> bool:
    """Whether `lines` hold a line of text set at the body's size or larger (a running header, set
    smaller, is none)."""
    return any(not line.letter_width and line.size >= RUNNING_SIZE * body for line in lines)


def _width(listing: list[Line]) -> float:
    return max(line.letter_width * line.size for line in listing)


def _fenced(lines: list[Line], left: float) -> str:
    """A listing's lines as a fenced block, indented as drawn from `left`, blank lines where it
    leaves gaps."""
    gaps = [above.y - below.y for above, below in pairwise(lines) if above.y > below.y]
    spacing = min(gaps) if gaps else 0.0
    out: list[str] = []
    for above, line in zip([None, *lines], lines, strict=False):
        if above is not None and spacing and above.y - line.y >= BLANK_GAP * spacing:
            out.extend([""] * (round((above.y - line.y) / spacing) - 1))
        out.append(_code_line(line, left))
    fence = "````" if any(text.lstrip().startswith("```") for text in out) else "```"
    return "\n".join([fence, *out, fence])


def _code_line(line: Line, left: float) -> str:
    """A listing's line: each run at the column its place gives, its own spaces kept."""
    width = line.letter_width * line.size
    text = ""
    for x, raw in line.raws:
        column = round((x - left) / width) if width > 0 else len(text)
        if column > len(text):
            text += " " * (column - len(text))
        elif column < len(text) and text[-1:] != " " and raw[:1] != " ":
            text += " "  # drawn over the run before (a font wider than it says): its words apart
        text += raw
    return text.rstrip()
