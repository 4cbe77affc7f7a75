"""Cross-validated figures of the block classifier with and without the lexical column, honestly nested.

    uv run python bench/lexical_cv.py [--by domain|page] [--baseline] [--bits 18] [--c 3] [--families ...]

For outer fold f the trees learn from pages outside f whose lexical column comes from linear models that
saw neither f nor the page's own fold, and fold f is scored with a linear model trained on all pages
outside f (`lexical_fit.nested`). --by domain: folds group pages by their URL's host, so no site is both
trained on and scored. --baseline: the trees without the column, same folds. --trees N: fewer trees.
"""

from __future__ import annotations

import argparse
import random
from urllib.parse import urlsplit

import lexical_fit as L
import numpy as np
import train_blocks as T
from common import load_pages


def domain_folds(pages: list, folds: int) -> dict[str, int]:
    hosts = sorted({urlsplit(p.url or "").hostname or p.id for p in pages})
    random.Random(1).shuffle(hosts)
    fold_of_host = {h: i % folds for i, h in enumerate(hosts)}
    return {p.id: fold_of_host[urlsplit(p.url or "").hostname or p.id] for p in pages}


def with_column(rows: list[dict], column: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    return {r["id"]: np.hstack([r["x"], column[r["id"]][:, None]]).astype(np.float32)
            for r in rows if r["x"] is not None}  # fmt: skip


def tree_cv(rows: list[dict], fold_of: dict[str, int], columns: dict[int, dict] | None) -> dict:
    oof: dict[str, np.ndarray] = {}
    for f in sorted(set(fold_of.values())):
        train = [r for r in rows if fold_of[r["id"]] != f]
        test = [r for r in rows if fold_of[r["id"]] == f]
        inputs = None if columns is None else with_column(rows, columns[f])
        oof.update(T.predict(T.fit(train, inputs), test, inputs))
        print(f"  trees, fold {f + 1} done", flush=True)
    return oof


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--by", choices=("page", "domain"), default="page")
    ap.add_argument("--baseline", action="store_true")
    ap.add_argument("--bits", type=int, default=18)
    ap.add_argument("--c", type=float, default=3.0)
    ap.add_argument("--families", nargs="*", default=list(L.lexical.FAMILIES))
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--threshold", type=float, nargs="*", default=[0.4])
    ap.add_argument("--trees", type=int, help="fewer trees than the shipped model's (a cheaper comparison)")
    args = ap.parse_args()
    if args.trees:
        T.PARAMS["max_iter"] = args.trees
    pages = load_pages("multitype")
    rows = T.dataset("multitype", pages, 2)
    fold_of = (
        domain_folds(pages, args.folds)
        if args.by == "domain"
        else T.folds_of([r["id"] for r in rows], args.folds)
    )
    variant = L.Variant(tuple(args.families), args.bits, args.c)
    name = "baseline" if args.baseline else f"{'+'.join(variant.families)}-{variant.bits}-{variant.c}"
    name += f"-{args.trees}trees" if args.trees else ""
    columns = None
    if not args.baseline:
        toks = L.hashes("multitype", pages, rows, 2)
        key = f"nested-{args.by}-{args.folds}-{name}-{L.code_hash()}"
        columns = T.cached(key, lambda: L.nested(rows, toks, fold_of, variant))
    probs = T.cached(f"treecv-{args.by}-{args.folds}-{name}-{T.features_hash()}-{L.code_hash()}",
                     lambda: tree_cv(rows, fold_of, columns))  # fmt: skip
    for threshold in args.threshold:
        T.report(f"{name}, by {args.by}, at {threshold}", pages, T.texts_at(rows, probs, threshold))
    truths = {p.id: p.truth for p in pages}
    prefer = T.chooser_cv(rows, fold_of, probs, {}, 0.4, truths)
    T.report(f"{name}, by {args.by}, + chooser (OOF inputs)", pages, T.texts_chosen(rows, probs, 0.4, prefer))


if __name__ == "__main__":
    main()
