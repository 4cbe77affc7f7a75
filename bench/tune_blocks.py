"""Tune the block classifier's training: sample weights, soft labels and tree parameters, measured honestly.

    uv run python bench/tune_blocks.py VARIANT... [--split page|domain] [--seed 2] [--folds 3]
        [--trees N --lr X] [--threshold 0.3 0.4 0.5]

A variant is NAME, or NAME:key=value,... over the base of `train_blocks.PARAMS` (see VARIANTS). Each is
cross-validated on the cached features (bench/.cache) with folds by page (seeded: select on one seed,
report on another) or by URL host (--split domain), and reported as bow F1 of the classifier alone at each
threshold and with the chooser (its inputs out of fold, the same for every variant). --trees/--lr make the
screening cheaper (fewer, bigger steps). Probabilities are cached per variant and split.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

import numpy as np
from sklearn.ensemble import HistGradientBoostingClassifier

sys.path.insert(0, str(Path(__file__).resolve().parent))
import train_blocks as T
from common import load_pages
from lexical_cv import domain_folds

VARIANTS: dict[str, dict] = {
    "base": {},
    "words": {"weights": "words"},  # each page weighs the same, a block its share of the page's words
    "words-sqrt": {"weights": "words-sqrt"},  # a page weighs sqrt(blocks), a block its share of the words
    "balance": {"weights": "balance"},  # today's weights, each page's two classes weighing the same
    "soft": {"labels": "soft"},  # the trigram overlap as a soft label (a block as two weighted rows)
    "words-soft": {"weights": "words", "labels": "soft"},
}


def block_weights(scheme: str, n_words: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Training weights of one page's blocks (before the MAX_BLOCKS rescaling)."""
    n = n_words + 1.0
    if scheme == "words":
        return n / n.sum() * 100.0  # every page weighs 100 (about the mean block count, so leaves keep mass)
    if scheme == "words-sqrt":
        return n / n.sum() * len(n) ** 0.5 * 10.0
    w = np.sqrt(n) / np.sqrt(n).sum() * len(n) ** 0.5
    if scheme == "balance" and 0 < y.sum() < len(y):
        w = np.where(y, w / w[y].sum(), w / w[~y].sum()) * w.sum() / 2
    return w


def fit(rows: list[dict], soft: dict[str, np.ndarray], spec: dict) -> HistGradientBoostingClassifier:
    rng = np.random.default_rng(0)
    xs, ys, ws = [], [], []
    max_blocks = int(spec.get("max_blocks", T.MAX_BLOCKS))
    for r in rows:
        if r["x"] is None:
            continue
        n = np.array([len(T.WORD.findall(t)) for t in r["texts"]], dtype=float)
        s = soft[r["id"]] if spec.get("labels") == "soft" else r["y"].astype(float)
        w = block_weights(spec.get("weights", "sqrt"), n, r["y"])
        pick = np.arange(len(n))
        if len(n) > max_blocks:
            pick = np.sort(rng.choice(len(n), max_blocks, replace=False))
            w = w * (len(n) / max_blocks)
        x, s, w = r["x"][pick], s[pick], w[pick]
        xs += [x, x]
        ys += [np.ones(len(s), bool), np.zeros(len(s), bool)]
        ws += [w * s, w * (1 - s)]
    x, y, w = np.vstack(xs), np.concatenate(ys), np.concatenate(ws)
    keep = w > 0
    params = {**T.PARAMS, **{k: v for k, v in spec.items() if k in PARAM_KEYS}}
    model = HistGradientBoostingClassifier(**params, random_state=0)
    return model.fit(x[keep], y[keep], sample_weight=w[keep])


PARAM_KEYS = ("max_iter", "learning_rate", "max_depth", "max_leaf_nodes", "min_samples_leaf",
              "l2_regularization", "max_features", "max_bins")  # fmt: skip


def parse(variant: str) -> tuple[str, dict]:
    name, _, rest = variant.partition(":")
    spec = dict(VARIANTS[name])
    for item in filter(None, rest.split(",")):
        key, _, value = item.partition("=")
        spec[key] = value if key in ("weights", "labels") else float(value) if "." in value else int(value)
    return variant, spec


def cv(rows: list[dict], soft: dict, fold_of: dict[str, int], spec: dict) -> dict[str, np.ndarray]:
    oof: dict[str, np.ndarray] = {}
    for f in sorted(set(fold_of.values())):
        model = fit([r for r in rows if fold_of[r["id"]] != f], soft, spec)
        oof.update(T.predict(model, [r for r in rows if fold_of[r["id"]] == f]))
        print(f"  fold {f + 1} done", flush=True)
    return oof


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("variants", nargs="+")
    ap.add_argument("--split", choices=("page", "domain"), default="page")
    ap.add_argument("--seed", type=int, default=2, help="fold seed of the split by page (1: train_blocks')")
    ap.add_argument("--folds", type=int, default=3)
    ap.add_argument("--trees", type=int)
    ap.add_argument("--lr", type=float)
    ap.add_argument("--threshold", type=float, nargs="*", default=[0.3, 0.4, 0.5])
    ap.add_argument("--chooser-at", type=float, default=0.4)
    args = ap.parse_args()
    pages = load_pages("multitype")
    rows = T.dataset("multitype", pages, 2)
    truths = {p.id: p.truth for p in pages}
    soft = T.cached(
        "soft-labels-" + T.features_hash(),
        lambda: {r["id"]: T.overlaps(r["texts"], truths[r["id"]]) for r in rows if r["x"] is not None},
    )
    if args.split == "domain":
        fold_of = domain_folds(pages, args.folds)
    else:
        ids = sorted(r["id"] for r in rows)
        T.random.Random(args.seed).shuffle(ids)
        fold_of = {pid: i % args.folds for i, pid in enumerate(ids)}
    for variant in args.variants:
        name, spec = parse(variant)
        spec |= {k: v for k, v in (("max_iter", args.trees), ("learning_rate", args.lr)) if v}
        key = hashlib.sha1(repr((sorted(spec.items()), T.PARAMS, T.MAX_BLOCKS)).encode()).hexdigest()[:8]
        tag = f"{args.split}{args.seed if args.split == 'page' else ''}-{args.folds}"
        probs = T.cached(f"tune-{tag}-{key}-{T.features_hash()}", lambda s=spec: cv(rows, soft, fold_of, s))
        for threshold in args.threshold:
            T.report(f"{name} [{tag}] at {threshold}", pages, T.texts_at(rows, probs, threshold))
        prefer = T.chooser_cv(rows, fold_of, probs, {}, args.chooser_at, truths)
        chosen = T.texts_chosen(rows, probs, args.chooser_at, prefer)
        T.report(f"{name} [{tag}] + chooser at {args.chooser_at}", pages, chosen)


if __name__ == "__main__":
    main()
