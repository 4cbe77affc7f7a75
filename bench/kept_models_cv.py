"""Cross-validated figures of the shipped models on features that changed since they were trained.

    uv run python bench/kept_models_cv.py OLD_HASH [NEW_HASH]

When the code that cuts a page into blocks changes for a few pages (the unwrapping of `<noscript>` and
`<button>` elements that hold a page, `extract/unwrap.py`), the models can be kept as they were trained
(on the features of OLD_HASH, `bench/.cache/multitype-1497-OLD_HASH.pkl` and that run's stage-one cache)
and fed today's features (NEW_HASH, default the current code's). This scores that setup as
`train_blocks.py --pairs` scores its own: the pages whose features changed get out-of-fold probabilities
from models fit on the old features of the other folds, every other page keeps its old out-of-fold
probabilities (the same models would give the same), the chooser of each fold learns from the old
nested probabilities, and the pipeline estimate routes pages as the runtime does.
"""

from __future__ import annotations

import argparse
import pickle
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import train_blocks as T
from common import load_pages

from webferret.extract import chooser

THRESHOLD = 0.4


def changed_pages(old: list[dict], new: list[dict]) -> set[str]:
    by_id = {r["id"]: r for r in old}
    out = set()
    for row in new:
        before = by_id[row["id"]]
        xa, xb = before["x"], row["x"]
        same = (xa is None and xb is None) or (
            xa is not None and xb is not None and xa.shape == xb.shape and np.array_equal(xa, xb)
        )
        if not same or before["ref"] != row["ref"]:
            out.add(row["id"])
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("old")
    ap.add_argument("new", nargs="?", default=T.features_hash())
    args = ap.parse_args()
    pages = load_pages("multitype")
    truths = {p.id: p.truth for p in pages}
    rows = {h: T.without_second(pickle.loads((T.CACHE / f"multitype-{len(pages)}-{h}.pkl").read_bytes()))
            for h in (args.old, args.new)}  # fmt: skip
    stage_one = sorted(T.CACHE.glob(f"stage1-{len(pages)}-5-{args.old}-*-1.pkl"))
    if not stage_one:
        raise SystemExit(f"no stage-one cache of {args.old}: run train_blocks.py --pairs on that code")
    oof_old, outside_old = pickle.loads(stage_one[0].read_bytes())
    changed = changed_pages(rows[args.old], rows[args.new])
    print(f"pages whose features changed: {len(changed)}")
    fold_of = T.folds_of([r["id"] for r in rows[args.old]], 5)
    oof = dict(oof_old)
    for f in range(5):
        test = [
            r for r in rows[args.new] if fold_of[r["id"]] == f and r["id"] in changed and r["x"] is not None
        ]
        if test:
            oof.update(T.predict(T.fit([r for r in rows[args.old] if fold_of[r["id"]] != f]), test))
    T.report("5-fold CV (kept models)", pages, T.texts_at(rows[args.new], oof, THRESHOLD))
    prefer: dict[str, bool] = {}
    old_rows = [r for r in rows[args.old] if r["x"] is not None]
    new_rows = [r for r in rows[args.new] if r["x"] is not None]
    for f in range(5):
        train = [r for r in old_rows if fold_of[r["id"]] != f]
        test = [r for r in new_rows if fold_of[r["id"]] == f]
        model = T.fit_chooser(*T.chooser_rows(train, outside_old[f], THRESHOLD, truths))
        picks = model.predict_proba(T.chooser_rows(test, oof, THRESHOLD, truths)[0])[:, 1] < chooser.CUT
        prefer.update({r["id"]: bool(p) for r, p in zip(test, picks, strict=True)})
    chosen = T.texts_chosen(rows[args.new], oof, THRESHOLD, prefer)
    T.report("5-fold CV + chooser (kept)", pages, chosen)
    to = T.cached(f"routes-{len(pages)}", lambda: T.routes(pages, 2))
    T.pipeline_estimate(pages, rows[args.new], chosen, to)


if __name__ == "__main__":
    main()
