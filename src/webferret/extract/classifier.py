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
    """All trees packed into flat arrays, so a page's blocks are scored in a few numpy operations."""

    def __init__(self, spec: dict[str, Any]) -> None:
        trees = spec["trees"]
        offsets = np.cumsum([0] + [len(t["feature"]) for t in trees])
        self.n_features = int(spec["n_features"])
        self.baseline = float(spec["baseline"])
        self.max_depth = int(spec["max_depth"])
        self.roots = offsets[:-1].astype(np.int64)
        self.feature = np.concatenate([np.asarray(t["feature"], dtype=np.int64) for t in trees])
        self.threshold = np.concatenate([np.asarray(t["threshold"], dtype=float) for t in trees])
        self.value = np.concatenate([np.asarray(t["value"], dtype=float) for t in trees])
        leaf = np.concatenate([np.asarray(t["leaf"], dtype=bool) for t in trees])
        left = np.concatenate(
            [np.asarray(t["left"], dtype=np.int64) + o for t, o in zip(trees, offsets, strict=False)]
        )
        right = np.concatenate(
            [np.asarray(t["right"], dtype=np.int64) + o for t, o in zip(trees, offsets, strict=False)]
        )
        node_ids = np.arange(len(leaf))
        # a leaf points to itself, so walking past it is harmless
        self.left = np.where(leaf, node_ids, left)
        self.right = np.where(leaf, node_ids, right)
        self.feature[leaf] = 0

    def raw(self, x: np.ndarray) -> np.ndarray:
        """Summed tree outputs (log-odds) per row."""
        if x.shape[1] != self.n_features:
            raise ValueError(f"the model expects {self.n_features} features, got {x.shape[1]}")
        rows = np.arange(x.shape[0])[:, None]
        node = np.broadcast_to(self.roots, (x.shape[0], len(self.roots))).copy()
        for _ in range(self.max_depth):
            go_left = x[rows, self.feature[node]] <= self.threshold[node]
            node = np.where(go_left, self.left[node], self.right[node])
        return self.baseline + self.value[node].sum(axis=1)

    def predict(self, x: np.ndarray) -> np.ndarray:
        """Probability that each row (block) is main content."""
        return 1.0 / (1.0 + np.exp(-self.raw(x)))


def load(path: Path) -> TreeEnsemble:
    """Read a model file."""
    return TreeEnsemble(json.loads(path.read_text("utf-8")))


@cache
def load_default() -> TreeEnsemble:
    """The model shipped with the package (read once per process)."""
    return load(DEFAULT_MODEL)
