"""One token estimator, used everywhere a size in tokens is shown or budgeted.

Method: split into words, CJK characters and punctuation; a word costs one token per four
characters (at least one), a CJK character and a punctuation mark one each. This tracks BPE
tokenizers of current models on English prose and Markdown; the README states the measured error.
"""

from __future__ import annotations

import re

_CJK = r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]"
_PIECES = re.compile(_CJK + r"|[^\W\d_]+|\d+|[^\w\s]")


def estimate_tokens(text: str) -> int:
    """Estimated model tokens of `text` (0 for empty text)."""
    total = 0
    for piece in _PIECES.findall(text):
        size = len(piece)
        total += 1 if size <= 4 else (size + 3) // 4
    return total
