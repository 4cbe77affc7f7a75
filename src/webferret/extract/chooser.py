"""Page-level choice between the block classifier's selection and trafilatura's.

Neither selector wins on every page: the classifier is better on most, trafilatura on some (often where
the classifier keeps too much or nearly nothing). A small learned model looks at both outputs (their
sizes, how much they agree, how sure the classifier was) and the page signals, and picks one.
"""

from __future__ import annotations

import math
import re
from functools import cache
from pathlib import Path

import numpy as np

from webferret.extract.classifier import TreeEnsemble, load

MODEL = Path(__file__).parent / "models" / "chooser.json"
N_PAGE_SIGNALS = 21  # the last columns of the block feature matrix (`features.page_signals`)
CUT = 0.5  # the classifier's selection is kept when the chooser's probability reaches this
WORD_RE = re.compile(r"\w+")


def page_features(texts: list[str], prob: np.ndarray, threshold: float, reference: str,
                  matrix: np.ndarray) -> np.ndarray:  # fmt: skip
    """One row: the classifier's confidence and output size, trafilatura's, their overlap, page signals."""
    keep = prob >= threshold
    chosen = "\n\n".join(t for t, k in zip(texts, keep, strict=True) if k) or reference
    chosen_words, reference_words = WORD_RE.findall(chosen.lower()), WORD_RE.findall(reference.lower())
    chosen_set, reference_set = set(chosen_words), set(reference_words)
    common = len(chosen_set & reference_set)
    chars = np.array([len(t) for t in texts], dtype=float)
    all_words = sum(len(WORD_RE.findall(t)) for t in texts) + 1
    own = [
        float(prob.mean()),
        float(chars[keep].sum() / (chars.sum() + 1)),
        math.log1p(int(keep.sum())),
        math.log1p(len(chosen_set)),
        math.log1p(len(reference_set)),
        len(chosen_words) / all_words,
        len(reference_words) / all_words,
        common / (len(chosen_set) + 1),
        common / (len(reference_set) + 1),
        float(np.median(prob)),
        float((prob > 0.9).mean()),
    ]
    return np.concatenate([own, matrix[0, -N_PAGE_SIGNALS:]])[None, :]


@cache
def model() -> TreeEnsemble | None:
    """The shipped chooser (read once per process), or None when the package has none."""
    return load(MODEL) if MODEL.is_file() else None


def prefer_reference(texts: list[str], prob: np.ndarray, threshold: float, reference: str,
                     matrix: np.ndarray) -> bool:  # fmt: skip
    """Whether trafilatura's selection is the better bet for this page (never without its text)."""
    chooser = model()
    if chooser is None or not reference.strip() or not texts:
        return False
    return bool(chooser.predict(page_features(texts, prob, threshold, reference, matrix))[0] < CUT)
