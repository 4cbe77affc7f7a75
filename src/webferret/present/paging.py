"""Token-budget pagination on block boundaries.

A document is cut only where a reader would pause: before a heading (Markdown's, or an HTML
reading's `<h1>`..`<h6>`), between paragraphs, between lines of a list or table, and (for a
paragraph longer than a page) after a sentence (a CJK one too) or a word. It is never cut inside a
table row, nor inside a paragraph or a code block (fenced, or an HTML `<pre>`) that fits a page. A
code block larger than a page is cut between its lines, and a line larger than a page with no
sentence or word to end at (minified code, text without spaces) every `CHAR_STEP` characters: no
page outgrows its budget but a table row. A page ends after a heading only where nothing else lets
it fit, and a code block larger than a page starts on the page before it, under its heading, rather
than leave that page short. Pages are exact slices of the text: joined, they are the whole document.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_left, bisect_right

from webferret.tokens import token_prefix

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_HEADING = re.compile(r"^ {0,3}#{1,6}(\s|$)|^\s*<h[1-6][\s>]", re.IGNORECASE)  # Markdown's, an HTML reading's
_PAGE_MARK = re.compile(r"^<!-- page \d+ -->\s*$")  # a PDF page's start (`extract.pdf`): a heading of sorts
_SENTENCE_END = re.compile(r"[.!?][)\"'\]]*\s+|[。！？][」』）”’\"')]*")
_SPACE = re.compile(r"\s+")
_PRE = "<pre"
# what a page never ends inside (longer: cut as text is): an HTML tag or character reference, and
# Markdown's inline spans, a link or image `[text](url "title")` (one level of parentheses in its
# URL, as Wikipedia's have) and a code span
_TAG = re.compile(
    r"<[A-Za-z/!?][^<>]{0,2000}>|&#?[A-Za-z0-9]{1,32};"
    r"|!?\[[^\[\]\n]{0,1000}\]\((?:[^()\n]|\([^()\n]{0,1000}\)){0,2000}\)"
    r"|(`+)[^`\n].{0,1000}?(?<!`)\1(?!`)"
)
_TAG_STARTS = ("<", "&", "[", "`")
CHAR_STEP = 64
ZWJ = "\u200d"
_SKIN, _SKIN_END = "\U0001f3fb", "\U0001f3ff"  # emoji skin tone modifiers
_FLAG_LETTERS = "\U0001f1e6", "\U0001f1ff"  # regional indicators A-Z, the first and the last
_VIRAMA = 9  # the canonical combining class of a virama (Devanagari `्`), which joins two consonants

# cut ranks, best first; CODE and CHAR only where nothing better lets a page fit its budget; HEADED,
# right after a heading, only where nothing but those would do (a page ending on its heading);
# TAG_WORD and TAG_CHAR, inside a tag (`_Tags`), only in one larger than a page: a page ends before a
# tag that fits the next, and no page outgrows its budget (prose's `a<b ... b>c` reads as a tag too)
HEADING, PARAGRAPH, LINE, SENTENCE, WORD, HEADED, CODE, CHAR, TAG_WORD, TAG_CHAR = range(10)


class _Tokens:
    """Tokens of any prefix of one text, from a single pass of the estimator."""

    def __init__(self, text: str) -> None:
        self.ends, self.totals = token_prefix(text)

    def upto(self, offset: int) -> float:
        index = bisect_right(self.ends, offset)
        total = self.totals[index]
        if index < len(self.ends):  # inside a piece: a share of a long one (a run of letters without end)
            begin = self.ends[index - 1] if index else 0
            if self.ends[index] - begin > CHAR_STEP:
                total += (self.totals[index + 1] - total) * (offset - begin) / (self.ends[index] - begin)
        return total


def _size(tokens: _Tokens, offset: int, line: str) -> float:
    return tokens.upto(offset + len(line)) - tokens.upto(offset)


def _inline_cuts(line: str, start: int, best: dict[int, int], prose: bool = True) -> None:
    first = start + len(line) - len(line.lstrip())
    last = start + len(line.rstrip("\n"))
    tags = _Tags(line)
    if prose:
        for rank, pattern in ((SENTENCE, _SENTENCE_END), (WORD, _SPACE)):
            for match in pattern.finditer(line):
                at = start + match.end()
                if first < at < last and at not in best:
                    best[at] = rank if tags.around(at - start) is None else TAG_WORD
    cut = 0
    for at in range(first + CHAR_STEP, last, CHAR_STEP):
        if tags.around(at - start) is not None:
            best.setdefault(start + _character_start(line, at - start, at - start - CHAR_STEP), TAG_CHAR)
        if at - start > cut:
            cut = _character_start(line, tags.outside(at - start, cut), cut)
            if start + cut < last:
                best.setdefault(start + cut, CHAR)


class _Tags:
    """The tags (`<a href="...">`), character references (`&amp;`), Markdown links and code spans
    of a line, which a page never ends inside: a paragraph longer than a page was cut at a space
    inside a tag, or inside a link's text (`[Dr. Ada Lovelace's notes](url)`), leaving its URL to
    the next page."""

    def __init__(self, line: str) -> None:
        found = _TAG.finditer(line) if any(start in line for start in _TAG_STARTS) else ()
        self.spans = [match.span() for match in found]
        self.ends = [end for _, end in self.spans]

    def around(self, at: int) -> tuple[int, int] | None:
        """The span `at` falls strictly inside, or None."""
        index = bisect_right(self.ends, at)
        span = self.spans[index] if index < len(self.spans) else None
        return span if span is not None and span[0] < at else None

    def outside(self, at: int, floor: int) -> int:
        """`at`, or when inside a tag the tag's start (its end when that start is not past `floor`)."""
        span = self.around(at)
        return at if span is None else span[0] if span[0] > floor else span[1]


def _character_start(line: str, at: int, floor: int) -> int:
    """The first offset from `at` where a character as a reader sees it begins: a cut every
    `CHAR_STEP` code points split `e` from its combining accent, a flag's two letters, an emoji
    joined with U+200D, a Devanagari conjunct or a decomposed Hangul syllable. `floor`: the cut
    before (or 0), where a run of flags is counted in pairs from. A character of more than
    `CHAR_STEP` code points (a letter under a pile of accents) is no text: it is cut anyway."""
    most = min(at + CHAR_STEP, len(line))
    while 0 < at < most and _joined(line, at, floor):
        at += 1
    return at


def _joined(line: str, at: int, floor: int) -> bool:
    """Does the code point at `at` belong with the one before it?"""
    char, before = line[at], line[at - 1]
    if unicodedata.category(char)[0] == "M" or ZWJ in (char, before) or _SKIN <= char <= _SKIN_END:
        return True
    if unicodedata.combining(before) == _VIRAMA or "\u1160" <= char <= "\u11ff":
        return True  # a conjunct's next consonant; a Hangul vowel or final consonant jamo
    if _is_flag_letter(char) and _is_flag_letter(before):  # a flag is a pair of them: cut after a pair
        run = 1
        while at - run > floor and _is_flag_letter(line[at - run - 1]):
            run += 1
        return run % 2 == 1
    return False


def _is_flag_letter(char: str) -> bool:
    return _FLAG_LETTERS[0] <= char <= _FLAG_LETTERS[1]


def cuts_of(text: str, tokens: _Tokens | None = None, inline_above: int = 0) -> dict[int, int]:
    """Every allowed cut of `text` (offset -> rank; the best rank where several coincide).

    Cuts inside a line (after a sentence or a word) are listed only for lines of more than
    `inline_above` tokens: a shorter paragraph is never split.
    """
    tokens = tokens or _Tokens(text)
    best: dict[int, int] = {}
    fence: str | None = None
    offset = 0
    previous_blank = marked = headed = False
    for line in text.splitlines(keepends=True):
        if fence is not None:
            best[offset] = CODE
            if _size(tokens, offset, line) > inline_above:
                _inline_cuts(line, offset, best, prose=False)
            fence = fence_after(fence, line)
            offset += len(line)
            previous_blank = False
            continue
        heading, mark, blank = bool(_HEADING.match(line)), bool(_PAGE_MARK.match(line)), not line.strip()
        if offset > 0 and not marked:  # a PDF page's marker stays with the text after it
            best[offset] = (
                HEADING if heading or mark else HEADED if headed else PARAGRAPH if previous_blank else LINE
            )
        marked = mark or (marked and blank)
        headed = heading or (headed and blank)
        fence = fence_after(None, line)
        if fence is None and not line.lstrip().startswith("|") and _size(tokens, offset, line) > inline_above:
            _inline_cuts(line, offset, best)
        previous_blank = blank
        offset += len(line)
    return best


def fence_after(fence: str | None, line: str) -> str | None:
    """The code fence (its backticks or tildes, or `<pre` for an HTML one) open after `line`, given
    the one open before it."""
    if fence == _PRE:
        return None if "</pre>" in line.lower() else fence
    opener = _FENCE.match(line)
    if fence is None:
        if opener is None and line.lstrip()[:4].lower() == _PRE and "</pre>" not in line.lower():
            return _PRE
        return opener.group(1) if opener else None
    closes = opener is not None and opener.group(1)[0] == fence[0] and len(opener.group(1)) >= len(fence)
    return None if closes else fence


def open_fence(text: str) -> str | None:
    """The Markdown code fence left open at the end of `text` (a cut inside a code block), or None."""
    fence = None
    for line in text.splitlines():
        fence = fence_after(fence, line)
    return None if fence == _PRE else fence


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
    if last <= start:  # one block larger than a page: it gets a page of its own, with its heading
        return start + 2 if ranks[start + 1] == HEADED and start + 2 < len(ranks) else start + 1
    if last == len(sums) - 1:
        return last
    floor = sums[start] + budget / 2
    window = range(bisect_left(sums, floor, start + 1, last + 1), last + 1) or range(last, last + 1)
    best_rank = min(ranks[k] for k in window)
    if best_rank >= CODE:  # only inside a code block or a long line: end the page before it if it
        # then fits the next page whole (one larger is cut anyway: this page is filled), before the
        # heading over it rather than after
        before = [k for k in range(start + 1, window.start) if ranks[k] < CODE]
        if before:
            end = next((k for k in range(before[-1] + 1, len(ranks)) if ranks[k] < CODE), len(ranks) - 1)
            fitting = [k for k in before if sums[end] - sums[k] <= budget]
            unheaded = [k for k in fitting if ranks[k] != HEADED]
            if fitting:
                return (unheaded or fitting)[-1]
    if best_rank == HEADED:  # a page ending on a heading: shorter, before the heading, if it can
        earlier = [k for k in range(start + 1, window.start) if ranks[k] < HEADED]
        if earlier:
            return earlier[-1]
    return max(k for k in window if ranks[k] == best_rank)


def page_count(text: str, page_tokens: int) -> int:
    return len(paginate(text, page_tokens))
