"""A gradient-boosted tree ensemble, evaluated with numpy (no ML library at run time).

Two file formats. JSON, as the training script writes a model: {"version": 1, "n_features": int,
"baseline": float, "max_depth": int, "trees": [{"feature": [...], "threshold": [...], "left": [...],
"right": [...], "leaf": [...], "value": [...]}]} with node 0 the root; an input goes left when
x[feature] <= threshold. And `.npz`, the arrays `TreeEnsemble` evaluates, already laid out (`save`):
the shipped block model, which loads in a few milliseconds where its JSON took about 40 ms of parsing
and packing in every process that extracts.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

DEFAULT_MODEL = Path(__file__).parent / "models" / "blocks.npz"
PACKED_VERSION = 1
PACKED_ARRAYS = ("roots", "feature", "threshold", "first", "value")
"""The node arrays of the `.npz` format, as `TreeEnsemble` holds them under the same names."""
CHUNK_ROWS = 4096
"""The most rows (blocks) `TreeEnsemble.raw` walks the trees with at once: its buffers' bound (about
25 MB), far above a real page's blocks (a few thousand at most), so those are scored in one pass."""


class TreeEnsemble:
    """All trees packed into flat arrays, so a page's blocks are scored in a few numpy operations.

    The nodes are laid out so that the two children of a split sit side by side (`first[node]` is the
    left one, the right one follows): a step is `first[node] + (x > threshold)`. A leaf's threshold is
    NaN (no comparison with NaN holds) and its `first` is itself minus one, so walking past it is harmless.
    """

    def __init__(
        self,
        arrays: dict[str, np.ndarray],
        n_features: int,
        baseline: float,
        max_depth: int,
    ) -> None:
        """From the packed arrays (`roots`, `feature`, `threshold`, `first`, `value`)."""
        self.roots = np.asarray(arrays["roots"], dtype=np.int32)
        self.feature = np.asarray(arrays["feature"], dtype=np.int32)
        self.threshold = np.asarray(arrays["threshold"], dtype=float)
        self.first = np.asarray(arrays["first"], dtype=np.int32)
        self.value = np.asarray(arrays["value"], dtype=float)
        self.n_features, self.baseline, self.max_depth = int(n_features), float(baseline), int(max_depth)
        nodes = len(self.feature)
        if not (len(self.threshold) == len(self.first) == len(self.value) == nodes) or not nodes:
            raise ValueError("the model's node arrays differ in length")
        # `raw` takes without bounds checks: every index it can make must be in range. A step from any
        # node reaches first[node] or the node after it; a leaf's (first[node] + 1) is itself
        if not (
            self.roots.size
            and self.roots.min() >= 0
            and self.roots.max() < nodes
            and self.feature.min() >= 0
            and self.feature.max() < self.n_features
            and self.first.min() >= -1
            and self.first.max() + 1 < nodes
        ):
            raise ValueError("the model's node arrays point outside the model")

    @classmethod
    def from_spec(cls, spec: dict[str, Any]) -> TreeEnsemble:
        """From the JSON format: the trees packed so that the two children of a split sit side by side."""
        trees = spec["trees"]
        offsets = np.cumsum([0] + [len(t["feature"]) for t in trees])
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
        arrays = {
            "roots": new_of[offsets[:-1]],
            "feature": np.where(leaf, 0, feature[old]),
            "threshold": np.where(leaf, np.nan, threshold[old]),
            "first": np.where(leaf, np.arange(len(old)) - 1, new_of[left[old]]),
            "value": value[old],
        }
        return cls(arrays, spec["n_features"], spec["baseline"], spec["max_depth"])

    def save(self, path: Path) -> None:
        """Write the packed arrays (`.npz`), which `load` reads back as they are."""
        np.savez_compressed(
            path,
            version=np.array(PACKED_VERSION),
            shape=np.array([self.n_features, self.max_depth]),
            baseline=np.array(self.baseline),
            **{name: getattr(self, name) for name in PACKED_ARRAYS},
        )

    def raw(self, x: np.ndarray) -> np.ndarray:
        """Summed tree outputs (log-odds) per row.

        Rows are scored `CHUNK_ROWS` at a time: the walk's buffers hold a row's place in every tree, about
        6 KB a row with 250 trees, and a hostile page of 100,000 tiny blocks made them 650 MB at once.
        Each row's sum is its own, so the chunks give the same values as one pass."""
        rows, columns = x.shape
        if columns != self.n_features:
            raise ValueError(f"the model expects {self.n_features} features, got {columns}")
        x = np.ascontiguousarray(x, dtype=float)
        if rows <= CHUNK_ROWS:
            return self._raw(x)
        return np.concatenate([self._raw(x[i : i + CHUNK_ROWS]) for i in range(0, rows, CHUNK_ROWS)])

    def _raw(self, x: np.ndarray) -> np.ndarray:
        """`raw` of rows already checked and contiguous, in one pass."""
        rows, columns = x.shape
        flat = x.ravel()
        start = (np.arange(rows, dtype=np.int32) * columns)[:, None]
        node = np.broadcast_to(self.roots, (rows, len(self.roots))).copy()
        # one buffer per intermediate, written in place at every level: a page's 300 blocks by 250 trees
        # made eight new arrays a level, and allocating them cost as much as the work. The indexes are
        # valid by construction (checked at load), so no take needs its bounds check ("clip")
        at, value, threshold = np.empty_like(node), np.empty(node.shape), np.empty(node.shape)
        left = np.empty(node.shape, dtype=bool)
        for _ in range(self.max_depth):
            self.feature.take(node, out=at, mode="clip")
            at += start
            flat.take(at, out=value, mode="clip")
            self.threshold.take(node, out=threshold, mode="clip")
            np.less_equal(value, threshold, out=left)
            self.first.take(node, out=node, mode="clip")  # each place reads only its own index
            node += 1
            node -= left
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
    """Read a model file: packed arrays (`.npz`) or the training script's JSON."""
    if path.suffix != ".npz":
        return TreeEnsemble.from_spec(json.loads(path.read_text("utf-8")))
    with np.load(path, allow_pickle=False) as data:
        version = int(data["version"])
        if version != PACKED_VERSION:
            raise ValueError(f"{path.name}: packed model version {version}, not {PACKED_VERSION}")
        n_features, max_depth = (int(v) for v in data["shape"])
        arrays = {name: data[name] for name in PACKED_ARRAYS}
        return TreeEnsemble(arrays, n_features, float(data["baseline"]), max_depth)


@cache
def load_default() -> TreeEnsemble:
    """The model shipped with the package (read once per process)."""
    return load(DEFAULT_MODEL)
