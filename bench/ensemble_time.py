"""Time the block model's evaluation per page: two model files on the same cached feature matrices.

    uv run python bench/ensemble_time.py OLD.json NEW.json [--repeat 3]

Both ensembles score every multitype page's blocks (bench/.cache), page by page and in turn (so the load of
a shared machine weighs on both alike); prints each one's size and CPU ms per page (mean and median of the
best of the repeats), and the ratio NEW / OLD.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import train_blocks as T
from common import load_pages

from webferret.extract import classifier


def page_times(model: classifier.TreeEnsemble, x: np.ndarray, repeat: int) -> float:
    """The best of `repeat` CPU times of scoring one page's blocks, in ms."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        model.predict(x)
        best = min(best, time.process_time() - start)
    return best * 1000.0


def describe(name: str, path: Path, model: classifier.TreeEnsemble) -> str:
    return (
        f"{name}: {path} ({path.stat().st_size // 1024} KiB, {len(model.roots)} trees, "
        f"{len(model.value)} nodes, depth {model.max_depth})"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("old", type=Path)
    ap.add_argument("new", type=Path)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    rows = T.dataset("multitype", load_pages("multitype"), 1)
    models = {"old": classifier.load(args.old), "new": classifier.load(args.new)}
    for name, path in (("old", args.old), ("new", args.new)):
        print(describe(name, path, models[name]))
    times: dict[str, list[float]] = {"old": [], "new": []}
    for r in rows:
        if r["x"] is None:
            continue
        for name, model in models.items():
            times[name].append(page_times(model, r["x"], args.repeat))
    for name, ms in times.items():
        print(f"{name}: {len(ms)} pages, mean {np.mean(ms):.3f} ms, median {np.median(ms):.3f} ms per page")
    ratio = np.mean(times["new"]) / np.mean(times["old"])
    median = np.median(times["new"]) / np.median(times["old"])
    print(f"new / old: mean {ratio:.3f}x, median {median:.3f}x")


if __name__ == "__main__":
    main()
