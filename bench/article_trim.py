"""An experiment: a trim model of its own for declared articles, against the general block model's trim.

    uv run python bench/article_trim.py [--cuts 0.3 0.4 0.5] [--folds 5]

The shipped trim (`extract/trim.py`, `ARTICLE_CUT`) drops trafilatura's paragraphs of a declared article
that the general block classifier rates below 0.3. Here a second model learns only from the blocks
that trafilatura kept on the multitype set's declared articles (its whole features plus the general
model's out-of-fold probability as one more column), cross-validated by page with the folds of
`train_blocks.py`; the article set is scored with models trained on all multitype declared articles and
the shipped general model, never trained on. Also reported: the oracle trim (drop exactly the kept
paragraphs whose labels say boilerplate), the headroom of any trim. Figures only; nothing is exported.
"""

from __future__ import annotations

import argparse
import pickle
import sys
from pathlib import Path

import numpy as np
from sklearn.ensemble import HistGradientBoostingClassifier

sys.path.insert(0, str(Path(__file__).resolve().parent))
import train_blocks as tb
from common import load_pages

from webferret.extract import trim
from webferret.extract.classifier import load_default
from webferret.extract.features import normalize

PARAMS = {"max_iter": 150, "learning_rate": 0.05, "max_depth": 5, "max_leaf_nodes": 15,
          "min_samples_leaf": 20, "l2_regularization": 1.0, "early_stopping": False}  # fmt: skip


def candidates(row: dict) -> np.ndarray:
    """Indices of the blocks that are whole lines of trafilatura's text (the only ones a trim drops)."""
    lines = {normalize(line) for line in row["ref"].splitlines()}
    return np.array([i for i, t in enumerate(row["texts"]) if normalize(t) in lines], dtype=int)


def inputs(row: dict, general: np.ndarray, rows_idx: np.ndarray) -> np.ndarray:
    return np.hstack([row["x"][rows_idx], general[rows_idx, None]]).astype(np.float32)


def fit(rows: list[dict], general: dict[str, np.ndarray]) -> HistGradientBoostingClassifier:
    xs, ys, ws = [], [], []
    for r in rows:
        idx = candidates(r)
        if not len(idx):
            continue
        n = np.array([len(tb.WORD.findall(r["texts"][i])) for i in idx], dtype=float) + 1.0
        xs.append(inputs(r, general[r["id"]], idx))
        ys.append(r["y"][idx])
        ws.append(n / n.sum())  # each page weighs the same, its blocks by their words (F1 is word-weighted)
    model = HistGradientBoostingClassifier(**PARAMS, random_state=0)
    model.fit(np.vstack(xs), np.concatenate(ys), sample_weight=np.concatenate(ws))
    return model


def special(model: HistGradientBoostingClassifier, row: dict, general: np.ndarray) -> np.ndarray:
    """The trim model's rating of every block: candidates rated, the others 1 (never dropped)."""
    out = np.ones(len(row["texts"]))
    idx = candidates(row)
    if len(idx):
        out[idx] = model.predict_proba(inputs(row, general, idx))[:, 1]
    return out


def trimmed(row: dict, prob: np.ndarray, cut: float) -> str:
    dropped = trim.rejected([normalize(t) for t in row["texts"]], prob, cut)
    return "\n".join(line for line in row["ref"].splitlines() if normalize(line) not in dropped)


def sweep(label: str, pages: list, rows: list[dict], probs: dict, cuts: list[float]) -> None:
    for cut in cuts:
        tb.report(f"{label} at {cut}", pages, {r["id"]: trimmed(r, probs[r["id"]], cut) for r in rows})


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cuts", type=float, nargs="*", default=[0.2, 0.3, 0.4, 0.5, 0.6])
    ap.add_argument("--folds", type=int, default=5)
    args = ap.parse_args()
    pages = load_pages("multitype")
    apages = load_pages("articles")
    rows = tb.dataset("multitype", pages, 2)
    arows = [r for r in tb.dataset("articles", apages, 2) if r["x"] is not None]
    # the out-of-fold probabilities of train_blocks.py (its run with the shipped PARAMS; the features
    # of the cache are the same whatever the code hash in the name, see the identity checks in
    # docs/extraction-rounds.md)
    oof_path = max(tb.CACHE.glob(f"stage1-{len(rows)}-{args.folds}-*-0.pkl"), key=lambda p: p.stat().st_mtime)
    oof = pickle.loads(oof_path.read_bytes())[0]
    to = tb.cached(f"routes-{len(pages)}", lambda: tb.routes(pages, 2))
    declared = [r for r in rows if to.get(r["id"]) == "article" and r["x"] is not None and r["id"] in oof]
    dpages = [p for p in pages if p.id in {r["id"] for r in declared}]
    print(f"declared articles: {len(declared)} of {len(pages)} multitype pages; article set {len(arows)}")
    oracle = {r["id"]: np.where(r["y"], 1.0, 0.0) for r in declared}
    tb.report("CV: untrimmed", dpages, {r["id"]: r["ref"] for r in declared})
    tb.report("CV: oracle trim", dpages, {r["id"]: trimmed(r, oracle[r["id"]], 0.5) for r in declared})
    sweep("CV: general model", dpages, declared, oof, args.cuts)
    fold_of = tb.folds_of([r["id"] for r in rows], args.folds)
    spec: dict[str, np.ndarray] = {}
    for f in range(args.folds):
        model = fit([r for r in declared if fold_of[r["id"]] != f], oof)
        spec.update({r["id"]: special(model, r, oof[r["id"]]) for r in declared if fold_of[r["id"]] == f})
    sweep("CV: trim model", dpages, declared, spec, args.cuts)
    general = load_default()
    agen = {r["id"]: general.predict(r["x"]) for r in arows}
    aoracle = {r["id"]: np.where(r["y"], 1.0, 0.0) for r in arows}
    tb.report("articles: untrimmed", apages, {r["id"]: r["ref"] for r in arows})
    tb.report("articles: oracle trim", apages, {r["id"]: trimmed(r, aoracle[r["id"]], 0.5) for r in arows})
    sweep("articles: general model", apages, arows, agen, args.cuts)
    final = fit(declared, oof)
    sweep("articles: trim model", apages, arows, {r["id"]: special(final, r, agen[r["id"]]) for r in arows},
          args.cuts)  # fmt: skip


if __name__ == "__main__":
    main()
