"""One token estimator, used everywhere a size in tokens is shown or budgeted.

Method: split into words, CJK characters and punctuation; a word costs one token per four
characters (at least one), a CJK character and a punctuation mark one each. This tracks BPE
tokenizers of current models on English prose and Markdown; the README states the measured error.
"""

from __future__ import annotations

import re
from itertools import accumulate

_CJK = r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]"
_PIECES = re.compile(_CJK + r"|[^\W\d_]+|\d+|[^\w\s]")


def _cost(size: int) -> int:
    return 1 if size <= 4 else (size + 3) // 4


def estimate_tokens(text: str) -> int:
    """Estimated model tokens of `text` (0 for empty text)."""
    return sum(_cost(len(piece)) for piece in _PIECES.findall(text))


def token_prefix(text: str) -> tuple[list[int], list[int]]:
    """Where each piece of `text` ends, and the tokens up to and including it (for fast slicing).

    The tokens of `text[:offset]`, for an offset that does not fall inside a piece, are
    `totals[bisect_right(ends, offset)]`, with `totals` starting at 0.
    """
    ends: list[int] = []
    costs: list[int] = []
    for match in _PIECES.finditer(text):
        ends.append(match.end())
        costs.append(_cost(match.end() - match.start()))
    return ends, [0, *accumulate(costs)]
