"""Second-stage features (an experiment of bench/train_blocks.py --stage-two, not shipped: it gained
0.0005 bow F1 in CV): the first model's block probabilities seen in their context.

A block the first model is unsure about is judged again with what it thought of the blocks around it:
its neighbours, its parent container, the blocks sharing its tag path and class, its wider ancestors,
and the page as a whole (how much of the page it kept).
"""

from __future__ import annotations

import numpy as np

from webferret.extract import blocks as B

ANCESTOR_LEVELS = (1, 2, 4)
N_CONTEXT = 17  # columns of `context`


def group_keys(blocks: list[B.Block]) -> np.ndarray:
    """Per block, integer ids of its groups: parent, tag-path signature, ancestors at a few levels up."""
    columns: list[list[int]] = []
    parents: dict[object, int] = {}
    columns.append([parents.setdefault(b.element.getparent(), len(parents)) for b in blocks])
    signatures: dict[str, int] = {}
    columns.append([signatures.setdefault(b.signature, len(signatures)) for b in blocks])
    chains = [list(b.element.iterancestors()) for b in blocks]
    for level in ANCESTOR_LEVELS:
        index: dict[object, int] = {}
        columns.append([index.setdefault(c[level] if len(c) > level else None, len(index)) for c in chains])
    return np.array(columns, dtype=np.int64).T


def _group_mean(ids: np.ndarray, values: np.ndarray, weights: np.ndarray) -> np.ndarray:
    sums = np.bincount(ids, weights=values * weights)
    totals = np.bincount(ids, weights=weights)
    return (sums / np.maximum(totals, 1e-9))[ids]


def _window(values: np.ndarray, radius: int, fill: float = 0.0) -> np.ndarray:
    padded = np.concatenate([np.full(radius, fill), values, np.full(radius, fill)])
    csum = np.concatenate([[0.0], np.cumsum(padded)])
    return (csum[2 * radius + 1 :] - csum[: -2 * radius - 1]) / (2 * radius + 1)


def _distance_to_kept(keep: np.ndarray) -> np.ndarray:
    """Blocks to the nearest kept block (0 for a kept one; the page length when none is kept)."""
    n = len(keep)
    kept = np.flatnonzero(keep)
    if not len(kept):
        return np.full(n, float(n))
    positions = np.arange(n)
    after = np.searchsorted(kept, positions).clip(0, len(kept) - 1)
    before = (after - 1).clip(0, len(kept) - 1)
    return np.minimum(np.abs(kept[after] - positions), np.abs(kept[before] - positions)).astype(float)


def context(prob: np.ndarray, keys: np.ndarray, chars: np.ndarray) -> np.ndarray:
    """The stage-two columns of a page: `prob` of every block, smoothed over its groups and neighbours."""
    n = len(prob)
    weights = np.sqrt(chars) + 1.0
    keep = prob >= 0.5
    kept_idx = np.flatnonzero(keep)
    first, last = (kept_idx[0], kept_idx[-1]) if len(kept_idx) else (n, -1)
    positions = np.arange(n)
    total = max(chars.sum(), 1.0)
    columns = [
        prob,
        np.concatenate([[0.0], prob[:-1]]),
        np.concatenate([prob[1:], [0.0]]),
        _window(prob, 1),
        _window(prob, 3),
        _window(prob, 10),
        *(_group_mean(keys[:, j], prob, weights) for j in range(keys.shape[1])),
        np.log1p(_distance_to_kept(keep)),
        ((positions >= first) & (positions <= last)).astype(float),
        np.full(n, float(prob.mean())),
        np.full(n, float((prob * chars).sum() / total)),
        np.full(n, float(chars[keep].sum() / total)),
        np.full(n, float(np.log1p(keep.sum()))),
    ]
    return np.column_stack(columns)


def stage_two(matrix: np.ndarray, prob: np.ndarray, keys: np.ndarray, chars: np.ndarray) -> np.ndarray:
    """The second model's input: the first model's features and the context of its probabilities."""
    return np.hstack([matrix, context(prob, keys, chars)])
