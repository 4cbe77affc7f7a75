"""One token estimator, used everywhere a size in tokens is shown or budgeted.

Method: split the text into letter runs, digit runs, CJK characters and punctuation marks. A
letter run costs one token up to 9 letters and one more per 3 letters beyond; a digit run one per
2 digits; a CJK character one; a punctuation mark 0.7 (marks often merge with a neighbour). The
constants were fitted on the Markdown of real pages against the o200k_base tokenizer; measured
error and method: `bench/tokens_error.py` and the README.
"""

from __future__ import annotations

import re
from itertools import accumulate
from typing import Protocol

_CJK = r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]"
_KINDS = (_CJK, r"[^\W\d_]+", r"\d+", r"[^\w\s]")  # CJK character, letters, digits, punctuation
_PIECES = re.compile("|".join(f"({kind})" for kind in _KINDS))
WORD_TOKEN_LETTERS = 9
EXTRA_LETTERS_PER_TOKEN = 3
DIGITS_PER_TOKEN = 2
PUNCTUATION_COST = 0.7


def _cost(kind: int, size: int) -> float:
    if kind == 2:  # letters
        if size <= WORD_TOKEN_LETTERS:
            return 1.0
        return 1.0 + -(-(size - WORD_TOKEN_LETTERS) // EXTRA_LETTERS_PER_TOKEN)
    if kind == 3:  # digits
        return float(-(-size // DIGITS_PER_TOKEN))
    return 1.0 if kind == 1 else PUNCTUATION_COST


class _PieceCosts(dict[str, float]):
    """The cost of each piece seen, by its text (words repeat: most pieces are looked up in C).

    A key may start with the skipped characters before its piece (`_GAPPED`): they cost nothing."""

    LIMIT = 100_000

    def __missing__(self, key: str) -> float:
        if len(self) >= self.LIMIT:
            self.clear()
        piece = key[_SKIPPED.match(key).end() :]  # type: ignore[union-attr]  (it matches "" at least)
        # matched alone, a piece takes the same alternative as in its text (the same first character)
        match = _PIECES.match(piece)
        cost = self[key] = _cost(match.lastindex or 4 if match else 4, len(piece))
        return cost


# the pieces of `_PIECES`, without groups: `findall` gives their texts in order
_PIECE_TEXTS = re.compile("|".join(f"(?:{kind})" for kind in _KINDS))
_PIECE_COSTS = _PieceCosts()
# What no piece matches is whitespace and "_" (every other word character is a letter or a digit,
# every other character punctuation). Each piece with the skipped run before it: the matches then
# tile the text from its start, so their lengths add up to where each piece ends.
_SKIPPED = re.compile(r"[\s_]*")
_GAPPED = re.compile(_SKIPPED.pattern + "(?:" + _PIECE_TEXTS.pattern + ")")


def estimate_tokens(text: str) -> int:
    """Estimated model tokens of `text` (0 for empty text, at least 1 for any visible text).

    The costs of the pieces in order, summed as `token_prefix` sums them (the same float)."""
    total = sum(map(_PIECE_COSTS.__getitem__, _PIECE_TEXTS.findall(text)))
    return max(1, round(total)) if total else 0


class _Counted(Protocol):
    """A page, or anything with its text and maybe a token count of it."""

    @property
    def content(self) -> str: ...

    @property
    def tokens(self) -> int | None: ...


def content_tokens(page: _Counted) -> int:
    """A page's estimated tokens: the count made where it was extracted, else counted now."""
    return page.tokens if page.tokens is not None else estimate_tokens(page.content)


def token_prefix(text: str) -> tuple[list[int], list[float]]:
    """Where each piece of `text` ends, and the tokens up to and including it (for fast slicing).

    The tokens of `text[:offset]`, for an offset that does not fall inside a piece, are
    `totals[bisect_right(ends, offset)]`, with `totals` starting at 0.
    """
    gapped = _GAPPED.findall(text)
    return list(accumulate(map(len, gapped))), [0.0, *accumulate(map(_PIECE_COSTS.__getitem__, gapped))]
