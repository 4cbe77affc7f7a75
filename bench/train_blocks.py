"""Train the main-content block classifier on the multitype dev split, with k-fold cross-validation.

    uv run python bench/train_blocks.py [--folds 5] [--sample N] [--out MODEL.json]

Labels: a block is main content when most of its word trigrams (or, for short blocks, its whole word
sequence) occur in the page's ground truth. Folds are by page, so no page is scored by a model that saw it.
Prints the cross-validated bow F1 (and per page type), the label oracle, and trafilatura's reference figure;
the article set is scored with the final model as a held-out check (it is never trained on).
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import pickle
import random
import re
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
from sklearn.ensemble import HistGradientBoostingClassifier

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import REPO, evaluator, load_pages

from webferret.extract import main_content

WORD = re.compile(r"\w+")
CACHE = REPO / "bench" / ".cache"
PARAMS = {
    "max_iter": 120,
    "learning_rate": 0.15,
    "max_depth": 6,
    "max_leaf_nodes": 31,
    "min_samples_leaf": 40,
    "early_stopping": False,
}
MAX_BLOCKS = 120  # per training page (a random subset on bigger pages, weights rescaled), to bound CPU


def labels(texts: list[str], truth: str) -> np.ndarray:
    words = WORD.findall(truth.lower())
    trigrams = {tuple(words[i : i + 3]) for i in range(len(words) - 2)}
    joined = f" {' '.join(words)} "
    out = []
    for text in texts:
        w = WORD.findall(text.lower())
        if len(w) >= 3:
            grams = [tuple(w[i : i + 3]) for i in range(len(w) - 2)]
            out.append(sum(g in trigrams for g in grams) / len(grams) >= 0.5)
        else:
            out.append(bool(w) and f" {' '.join(w)} " in joined)
    return np.array(out, dtype=bool)


def featurize(job: tuple[str, str, Path, str]) -> dict:
    page_id, url, html_path, truth = job
    with gzip.open(html_path, "rt", encoding="utf8", errors="replace") as f:
        html = f.read()
    analysis = main_content.analyse(html, url)
    if analysis is None or not analysis.blocks:
        return {
            "id": page_id,
            "x": None,
            "texts": [],
            "y": None,
            "ref": analysis.reference_text if analysis else "",
        }
    texts = [b.text for b in analysis.blocks]
    return {"id": page_id, "x": analysis.matrix.astype(np.float32), "texts": texts,
            "y": labels(texts, truth), "ref": analysis.reference_text}  # fmt: skip


def dataset(name: str, pages: list, workers: int) -> list[dict]:
    CACHE.mkdir(parents=True, exist_ok=True)
    sources = b"".join(
        (REPO / "src/webferret/extract" / f).read_bytes() for f in ("blocks.py", "features.py")
    )
    path = CACHE / f"{name}-{len(pages)}-{hashlib.sha1(sources).hexdigest()[:8]}.pkl"
    if path.exists():
        return pickle.loads(path.read_bytes())
    with ProcessPoolExecutor(workers) as pool:
        jobs = [(p.id, p.url, p.html_path, p.truth) for p in pages]
        rows = list(pool.map(featurize, jobs, chunksize=8))
    path.write_bytes(pickle.dumps(rows))
    return rows


def fit(rows: list[dict]) -> HistGradientBoostingClassifier:
    rng = np.random.default_rng(0)
    xs, ys, weights = [], [], []
    for r in rows:
        if r["x"] is None:
            continue
        n = np.array([len(WORD.findall(t)) for t in r["texts"]], dtype=float) + 1.0
        w = np.sqrt(n) / np.sqrt(n).sum() * len(n) ** 0.5
        pick = np.arange(len(n))
        if len(n) > MAX_BLOCKS:
            pick = np.sort(rng.choice(len(n), MAX_BLOCKS, replace=False))
            w = w * (len(n) / MAX_BLOCKS)
        xs.append(r["x"][pick])
        ys.append(r["y"][pick])
        weights.append(w[pick])
    model = HistGradientBoostingClassifier(**PARAMS, random_state=0)
    model.fit(np.vstack(xs), np.concatenate(ys), sample_weight=np.concatenate(weights))
    return model


def texts_for(rows: list[dict], model, threshold: float, oracle: bool = False) -> dict[str, str]:
    out = {}
    for r in rows:
        if r["x"] is None:
            out[r["id"]] = r["ref"]
            continue
        keep = r["y"] if oracle else model.predict_proba(r["x"])[:, 1] >= threshold
        out[r["id"]] = "\n\n".join(t for t, k in zip(r["texts"], keep, strict=True) if k)
    return out


def texts_at(rows: list[dict], probs: dict[str, np.ndarray], threshold: float) -> dict[str, str]:
    out = {}
    for r in rows:
        keep = probs[r["id"]] >= threshold if r["id"] in probs else []
        out[r["id"]] = "\n\n".join(t for t, k in zip(r["texts"], keep, strict=True) if k) or r["ref"]
    return out


def report(label: str, pages: list, preds: dict[str, str]) -> dict:
    ev = evaluator()
    res = ev.score(pages, preds, 0, 0)
    line = f"{label:<28} bow F1 {res['bow_f1']:.4f}  shingle F1 {res['shingle_f1']:.4f}"
    if "bow_f1_by_type" in res:
        line += "  " + " ".join(f"{k}={v[1]:.3f}" for k, v in res["bow_f1_by_type"].items())
    print(line, flush=True)
    return res


def export(model: HistGradientBoostingClassifier, n_features: int, path: Path) -> None:
    trees = []
    depth = 0
    for (predictor,) in model._predictors:
        nodes = predictor.nodes
        depth = max(depth, int(nodes["depth"].max()))
        trees.append({
            "feature": nodes["feature_idx"].tolist(),
            "threshold": [round(float(t), 6) for t in nodes["num_threshold"]],
            "left": nodes["left"].tolist(),
            "right": nodes["right"].tolist(),
            "leaf": nodes["is_leaf"].astype(int).tolist(),
            "value": [round(float(v), 6) for v in nodes["value"]],
        })  # fmt: skip
    baseline = float(np.ravel(model._baseline_prediction)[0])
    spec = {"version": 1, "n_features": n_features, "baseline": baseline, "max_depth": depth, "trees": trees}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(spec, separators=(",", ":")), "utf-8")
    print(f"wrote {path} ({path.stat().st_size // 1024} KiB, {len(trees)} trees, depth {depth})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--sample", type=int, help="only N multitype pages (quick iterations)")
    ap.add_argument("--threshold", type=float, default=0.5)
    ap.add_argument("--sweep", type=float, nargs="*", default=[], help="also report CV at these thresholds")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", type=Path, default=REPO / "src/webferret/extract/models/blocks.json")
    ap.add_argument("--no-export", action="store_true")
    args = ap.parse_args()

    pages = load_pages("multitype")
    if args.sample:
        pages = random.Random(0).sample(pages, args.sample)
    rows = dataset("multitype", pages, args.workers)
    by_id = {p.id: p for p in pages}
    report("trafilatura (reference)", pages, {r["id"]: r["ref"] for r in rows})
    report("oracle labels", pages, texts_for(rows, None, 0, oracle=True))
    order = sorted(by_id)
    random.Random(1).shuffle(order)
    fold_of = {pid: i % args.folds for i, pid in enumerate(order)}
    probs: dict[str, np.ndarray] = {}
    for fold in range(args.folds):
        model = fit([r for r in rows if fold_of[r["id"]] != fold])
        for r in rows:
            if fold_of[r["id"]] == fold and r["x"] is not None:
                probs[r["id"]] = model.predict_proba(r["x"])[:, 1]
        print(f"  fold {fold + 1}/{args.folds} done", flush=True)
    for threshold in args.sweep:
        report(f"  CV at threshold {threshold}", pages, texts_at(rows, probs, threshold))
    preds = texts_at(rows, probs, args.threshold)
    cv = report(f"{args.folds}-fold CV (multitype)", pages, preds)
    per_page = [evaluator().bow_prf(by_id[i].truth, preds[i])[2] for i in order]
    print(f"  CV bow F1 over pages: mean {statistics.mean(per_page):.4f}")
    if args.no_export:
        return
    final = fit(rows)
    export(final, rows[0]["x"].shape[1] if rows[0]["x"] is not None else 0, args.out)
    articles = load_pages("articles")
    arows = dataset("articles", articles, args.workers)
    report("trafilatura (articles)", articles, {r["id"]: r["ref"] for r in arows})
    held = report("held-out articles", articles, texts_for(arows, final, args.threshold))
    summary = {"cv_multitype": cv, "heldout_articles": held, "params": PARAMS, "folds": args.folds}
    (REPO / "bench" / "train_blocks.last.json").write_text(
        json.dumps(summary, indent=1, default=str), "utf-8"
    )


if __name__ == "__main__":
    main()
