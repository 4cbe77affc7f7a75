"""Compare the cached features of trafilatura's two reference modes (the eighth round, figures only).

    uv run python bench/reference_modes.py

For both sets, from the feature caches `bench/train_blocks.py --reference full` and `--reference fast`
made: pages whose reference text differs, pages whose blocks (texts, labels) differ (none expected: the
blocks do not depend on the reference), pages whose feature matrix differs, and which columns differ.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import train_blocks as T
from common import load_pages


def compare(name: str) -> None:
    pages = load_pages(name)
    full = {r["id"]: r for r in T.dataset(name, pages, 1, "full")}
    fast = {r["id"]: r for r in T.dataset(name, pages, 1, "fast")}
    ref = blocks = matrix = 0
    columns: Counter[int] = Counter()
    for pid, old in full.items():
        new = fast[pid]
        ref += old["ref"] != new["ref"]
        same_labels = (old["y"] is None and new["y"] is None) or (
            old["y"] is not None and new["y"] is not None and np.array_equal(old["y"], new["y"])
        )
        if old["texts"] != new["texts"] or not same_labels:
            blocks += 1
            continue
        if old["x"] is None or old["x"].tobytes() == new["x"].tobytes():
            continue
        matrix += 1
        columns.update(np.flatnonzero((old["x"] != new["x"]).any(axis=0)).tolist())
    print(f"{name}: {len(full)} pages; reference text differs on {ref}, blocks on {blocks}, "
          f"feature matrix on {matrix}")  # fmt: skip
    print(f"  columns that differ (column: pages): {dict(sorted(columns.items()))}")


def main() -> None:
    for name in ("articles", "multitype"):
        compare(name)


if __name__ == "__main__":
    main()
