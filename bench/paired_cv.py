"""Compare two cached out-of-fold probability sets of the block classifier page by page.

    uv run python bench/paired_cv.py OLD.pkl NEW.pkl [--threshold 0.4]

Each file is a bench/.cache pickle of out-of-fold probabilities (`train_blocks.py`'s stage-one cache, whose
first item is the out-of-fold dict, or `tune_blocks.py`'s dict). Prints the mean change of the classifier's
bow F1 per page with its standard error, how many pages got better and worse, and the change per page type.
"""

from __future__ import annotations

import argparse
import pickle
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import train_blocks as T
from common import evaluator, load_pages


def oof_of(path: Path) -> dict[str, np.ndarray]:
    value = pickle.loads(path.read_bytes())
    return value[0] if isinstance(value, tuple) else value


def page_f1(rows: list[dict], probs: dict, threshold: float, truths: dict[str, str]) -> dict[str, float]:
    bow = evaluator().bow_prf
    return {i: bow(truths[i], text)[2] for i, text in T.texts_at(rows, probs, threshold).items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("old", type=Path)
    ap.add_argument("new", type=Path)
    ap.add_argument("--threshold", type=float, default=0.4)
    args = ap.parse_args()
    pages = load_pages("multitype")
    rows = T.dataset("multitype", pages, 1)
    truths = {p.id: p.truth for p in pages}
    old = page_f1(rows, oof_of(args.old), args.threshold, truths)
    new = page_f1(rows, oof_of(args.new), args.threshold, truths)
    ids = sorted(old)
    diff = np.array([new[i] - old[i] for i in ids])
    se = diff.std(ddof=1) / np.sqrt(len(diff))
    before, after = np.mean([old[i] for i in ids]), np.mean([new[i] for i in ids])
    print(f"{len(ids)} pages: mean F1 {before:.4f} -> {after:.4f}")
    print(f"change per page {diff.mean():+.4f} +- {se:.4f} (standard error); "
          f"{(diff > 0).sum()} better, {(diff < 0).sum()} worse")  # fmt: skip
    kind = {p.id: p.page_type for p in pages}
    for t in sorted(set(kind.values())):
        d = np.array([new[i] - old[i] for i in ids if kind[i] == t])
        print(f"  {t:<14} {len(d):>4} pages  {d.mean():+.4f}")


if __name__ == "__main__":
    main()
