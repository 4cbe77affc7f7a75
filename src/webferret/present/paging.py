"""Token-budget pagination on block boundaries.

A document is cut only where a reader would pause: before a heading, between paragraphs, between
lines of a list or table, and (for a paragraph longer than a page) after a sentence or a word. It is
never cut inside a fenced code block or inside a table row; a code block larger than a page keeps
its own, oversized page. Pages are exact slices of the text: joined, they are the whole document.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from itertools import pairwise

from webferret.tokens import estimate_tokens

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_HEADING = re.compile(r"^ {0,3}#{1,6}(\s|$)")
_SENTENCE_END = re.compile(r"[.!?][)\"'\]]*\s+")
_SPACE = re.compile(r"\s+")

# boundary ranks, best first
HEADING, PARAGRAPH, LINE, SENTENCE, WORD = range(5)


@dataclass(frozen=True)
class Cut:
    """A place the text may be cut (`offset`), and how good a place it is (`rank`, lower is better)."""

    offset: int
    rank: int


def _inline_cuts(line: str, start: int) -> list[Cut]:
    cuts = [Cut(start + m.end(), SENTENCE) for m in _SENTENCE_END.finditer(line)]
    cuts += [Cut(start + m.end(), WORD) for m in _SPACE.finditer(line)]
    first = start + len(line) - len(line.lstrip())
    last = start + len(line.rstrip("\n"))
    return [cut for cut in cuts if first < cut.offset < last]


def cuts_of(text: str) -> list[Cut]:
    """Every allowed cut of `text`, in offset order (the best rank kept where several coincide)."""
    best: dict[int, int] = {}
    fence: str | None = None
    offset = 0
    previous_blank = False
    for line in text.splitlines(keepends=True):
        opener = _FENCE.match(line)
        if fence is not None:
            if opener and opener.group(1)[0] == fence[0] and len(opener.group(1)) >= len(fence):
                fence = None
            offset += len(line)
            previous_blank = False
            continue
        if offset > 0:
            rank = HEADING if _HEADING.match(line) else PARAGRAPH if previous_blank else LINE
            best[offset] = min(rank, best.get(offset, rank))
        if opener:
            fence = opener.group(1)
        elif not line.lstrip().startswith("|"):
            for cut in _inline_cuts(line, offset):
                if cut.offset > 0:
                    best[cut.offset] = min(cut.rank, best.get(cut.offset, cut.rank))
        previous_blank = not line.strip()
        offset += len(line)
    return [Cut(at, rank) for at, rank in sorted(best.items())]


def paginate(text: str, page_tokens: int) -> list[str]:
    """Split `text` into pages of at most `page_tokens` estimated tokens (see the module doc)."""
    if page_tokens <= 0:
        raise ValueError(f"page_tokens must be above 0, got {page_tokens}")
    cuts = [Cut(0, HEADING), *cuts_of(text)]
    if cuts[-1].offset != len(text):
        cuts.append(Cut(len(text), HEADING))
    sums = [0]
    for left, right in pairwise(cuts):
        sums.append(sums[-1] + estimate_tokens(text[left.offset : right.offset]))
    pages: list[str] = []
    start = 0
    while start < len(cuts) - 1:
        end = _next_cut(cuts, sums, start, page_tokens)
        pages.append(text[cuts[start].offset : cuts[end].offset])
        start = end
    return pages or [text]


def _next_cut(cuts: list[Cut], sums: list[int], start: int, budget: int) -> int:
    """Index of the cut that ends the page beginning at cut `start`."""
    last = bisect.bisect_right(sums, sums[start] + budget) - 1
    if last <= start:
        return start + 1  # one block larger than a page: it gets a page of its own
    if last == len(cuts) - 1:
        return last
    floor = sums[start] + budget // 2
    window = [k for k in range(start + 1, last + 1) if sums[k] >= floor] or [last]
    best_rank = min(cuts[k].rank for k in window)
    return max(k for k in window if cuts[k].rank == best_rank)


def page_count(text: str, page_tokens: int) -> int:
    return len(paginate(text, page_tokens))
