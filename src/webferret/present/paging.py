"""Token-budget pagination on block boundaries.

A document is cut only where a reader would pause: before a heading, between paragraphs, between
lines of a list or table, and (for a paragraph longer than a page) after a sentence or a word. It is
never cut inside a fenced code block, inside a table row, nor inside a paragraph that fits a page;
a code block larger than a page keeps its own, oversized page. Pages are exact slices of the text:
joined, they are the whole document.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right

from webferret.tokens import token_prefix

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_HEADING = re.compile(r"^ {0,3}#{1,6}(\s|$)")
_SENTENCE_END = re.compile(r"[.!?][)\"'\]]*\s+")
_SPACE = re.compile(r"\s+")

# cut ranks, best first
HEADING, PARAGRAPH, LINE, SENTENCE, WORD = range(5)


class _Tokens:
    """Tokens of any prefix of one text, from a single pass of the estimator."""

    def __init__(self, text: str) -> None:
        self.ends, self.totals = token_prefix(text)

    def upto(self, offset: int) -> float:
        return self.totals[bisect_right(self.ends, offset)]


def _size(tokens: _Tokens, offset: int, line: str) -> float:
    return tokens.upto(offset + len(line)) - tokens.upto(offset)


def _inline_cuts(line: str, start: int, best: dict[int, int]) -> None:
    first = start + len(line) - len(line.lstrip())
    last = start + len(line.rstrip("\n"))
    for rank, pattern in ((SENTENCE, _SENTENCE_END), (WORD, _SPACE)):
        for match in pattern.finditer(line):
            at = start + match.end()
            if first < at < last and at not in best:
                best[at] = rank


def cuts_of(text: str, tokens: _Tokens | None = None, inline_above: int = 0) -> dict[int, int]:
    """Every allowed cut of `text` (offset -> rank; the best rank where several coincide).

    Cuts inside a line (after a sentence or a word) are listed only for lines of more than
    `inline_above` tokens: a shorter paragraph is never split.
    """
    tokens = tokens or _Tokens(text)
    best: dict[int, int] = {}
    fence: str | None = None
    offset = 0
    previous_blank = False
    for line in text.splitlines(keepends=True):
        if fence is not None:
            fence = fence_after(fence, line)
            offset += len(line)
            previous_blank = False
            continue
        if offset > 0:
            best[offset] = HEADING if _HEADING.match(line) else PARAGRAPH if previous_blank else LINE
        fence = fence_after(None, line)
        if fence is None and not line.lstrip().startswith("|") and _size(tokens, offset, line) > inline_above:
            _inline_cuts(line, offset, best)
        previous_blank = not line.strip()
        offset += len(line)
    return best


def fence_after(fence: str | None, line: str) -> str | None:
    """The code fence (its backticks or tildes) open after `line`, given the one open before it."""
    opener = _FENCE.match(line)
    if fence is None:
        return opener.group(1) if opener else None
    closes = opener is not None and opener.group(1)[0] == fence[0] and len(opener.group(1)) >= len(fence)
    return None if closes else fence


def open_fence(text: str) -> str | None:
    """The code fence left open at the end of `text` (a cut inside a code block), or None."""
    fence = None
    for line in text.splitlines():
        fence = fence_after(fence, line)
    return fence


def paginate(text: str, page_tokens: int) -> list[str]:
    """Split `text` into pages of at most `page_tokens` estimated tokens (see the module doc)."""
    if page_tokens <= 0:
        raise ValueError(f"page_tokens must be above 0, got {page_tokens}")
    tokens = _Tokens(text)
    best = cuts_of(text, tokens, inline_above=page_tokens)
    best[0] = HEADING
    best[len(text)] = HEADING
    offsets = sorted(best)
    ranks = [best[at] for at in offsets]
    sums = [tokens.upto(at) for at in offsets]
    pages: list[str] = []
    start = 0
    while start < len(offsets) - 1:
        end = _next_cut(ranks, sums, start, page_tokens)
        pages.append(text[offsets[start] : offsets[end]])
        start = end
    return pages or [text]


def _next_cut(ranks: list[int], sums: list[float], start: int, budget: int) -> int:
    """Index of the cut that ends the page beginning at cut `start`."""
    last = bisect_right(sums, sums[start] + budget) - 1
    if last <= start:
        return start + 1  # one block larger than a page: it gets a page of its own
    if last == len(sums) - 1:
        return last
    floor = sums[start] + budget / 2
    window = range(bisect_left(sums, floor, start + 1, last + 1), last + 1) or range(last, last + 1)
    best_rank = min(ranks[k] for k in window)
    return max(k for k in window if ranks[k] == best_rank)


def page_count(text: str, page_tokens: int) -> int:
    return len(paginate(text, page_tokens))
