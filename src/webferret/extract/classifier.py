"""A gradient-boosted tree ensemble stored as JSON, evaluated with numpy (no ML library at run time).

File format: {"version": 1, "n_features": int, "baseline": float, "max_depth": int,
"trees": [{"feature": [...], "threshold": [...], "left": [...], "right": [...], "leaf": [...],
"value": [...]}]} with node 0 the root; an input goes left when x[feature] <= threshold.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

DEFAULT_MODEL = Path(__file__).parent / "models" / "blocks.json"


class TreeEnsemble:
    """All trees packed into flat arrays, so a page's blocks are scored in a few numpy operations.

    The nodes are laid out so that the two children of a split sit side by side (`first[node]` is the
    left one, the right one follows): a step is `first[node] + (x > threshold)`. A leaf's threshold is
    NaN (no comparison with NaN holds) and its `first` is itself minus one, so walking past it is harmless.
    """

    def __init__(self, spec: dict[str, Any]) -> None:
        trees = spec["trees"]
        offsets = np.cumsum([0] + [len(t["feature"]) for t in trees])
        self.n_features = int(spec["n_features"])
        self.baseline = float(spec["baseline"])
        self.max_depth = int(spec["max_depth"])
        feature = np.concatenate([np.asarray(t["feature"], dtype=np.int64) for t in trees])
        threshold = np.concatenate([np.asarray(t["threshold"], dtype=float) for t in trees])
        value = np.concatenate([np.asarray(t["value"], dtype=float) for t in trees])
        leaf = np.concatenate([np.asarray(t["leaf"], dtype=bool) for t in trees])
        left = np.concatenate(
            [np.asarray(t["left"], dtype=np.int64) + o for t, o in zip(trees, offsets, strict=False)]
        )
        right = np.concatenate(
            [np.asarray(t["right"], dtype=np.int64) + o for t, o in zip(trees, offsets, strict=False)]
        )
        old, new_of = _sibling_order(offsets[:-1].astype(np.int64), left, right, leaf)
        leaf = leaf[old]
        self.roots = new_of[offsets[:-1]].astype(np.int32)
        self.feature = np.where(leaf, 0, feature[old]).astype(np.int32)
        self.threshold = np.where(leaf, np.nan, threshold[old])
        self.first = np.where(leaf, np.arange(len(old)) - 1, new_of[left[old]]).astype(np.int32)
        self.value = value[old]

    def raw(self, x: np.ndarray) -> np.ndarray:
        """Summed tree outputs (log-odds) per row."""
        rows, columns = x.shape
        if columns != self.n_features:
            raise ValueError(f"the model expects {self.n_features} features, got {columns}")
        flat = np.ascontiguousarray(x, dtype=float).ravel()
        start = (np.arange(rows, dtype=np.int32) * columns)[:, None]
        node = np.broadcast_to(self.roots, (rows, len(self.roots))).copy()
        for _ in range(self.max_depth):
            go_left = flat.take(start + self.feature.take(node)) <= self.threshold.take(node)
            node = self.first.take(node)
            node += ~go_left
        return self.baseline + self.value.take(node).sum(axis=1)

    def predict(self, x: np.ndarray) -> np.ndarray:
        """Probability that each row (block) is main content."""
        return 1.0 / (1.0 + np.exp(-self.raw(x)))


def _sibling_order(
    roots: np.ndarray, left: np.ndarray, right: np.ndarray, leaf: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """A numbering of the nodes, level by level, in which the children of a split are adjacent:
    (the old id at each new position, the new id of each old node)."""
    new_of = np.empty(len(left), dtype=np.int64)
    new_of[roots] = np.arange(len(roots))
    levels = [roots]
    frontier, placed = roots, len(roots)
    while len(frontier):
        inner = frontier[~leaf[frontier]]
        children = np.empty(2 * len(inner), dtype=np.int64)
        children[0::2], children[1::2] = left[inner], right[inner]
        new_of[children] = np.arange(placed, placed + len(children))
        placed += len(children)
        levels.append(children)
        frontier = children
    old = np.concatenate(levels)
    if len(old) != len(left):
        raise ValueError("the model's trees have unreachable or shared nodes")
    return old, new_of


def load(path: Path) -> TreeEnsemble:
    """Read a model file."""
    return TreeEnsemble(json.loads(path.read_text("utf-8")))


@cache
def load_default() -> TreeEnsemble:
    """The model shipped with the package (read once per process)."""
    return load(DEFAULT_MODEL)
