"""The lexical block model (`extract/lexical.py`) at train time: hashed tokens cached per page, logistic
regressions fitted on them, and their scores out of fold (used by bench/train_blocks.py --lexical).

Token hashes are cached on their own (bench/.cache/lexical-*.pkl, keyed by blocks.py and lexical.py), so
the big feature cache stays valid. A page's blocks are cut again here; they are checked to be the very
blocks of the feature cache (same texts, same order).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import pickle
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import lexical
import numpy as np
from common import REPO
from scipy import sparse
from sklearn.linear_model import LogisticRegression

from webferret.extract import blocks as B

CACHE = REPO / "bench" / ".cache"


@dataclass(frozen=True)
class Variant:
    """What a lexical model is made of: token families, hash size, inverse L2 strength."""

    families: tuple[str, ...] = lexical.FAMILIES
    bits: int = 18
    c: float = 1.0


def page_hashes(job: tuple[str, Path, list[str]]) -> tuple[str, lexical.Hashed | None]:
    page_id, html_path, texts = job
    with gzip.open(html_path, "rt", encoding="utf8", errors="replace") as f:
        root = B.parse(f.read())
    if root is None or not texts:
        return page_id, None
    B.clean(root)
    blocks = B.segment(root)
    if [b.text for b in blocks] != texts:
        raise SystemExit(f"page {page_id}: its blocks differ from the feature cache's")
    return page_id, lexical.hashed(blocks)


def code_hash() -> str:
    files = ("src/webferret/extract/blocks.py", "bench/lexical.py")
    return hashlib.sha1(b"".join((REPO / f).read_bytes() for f in files)).hexdigest()[:8]


def hashes(name: str, pages: list, rows: list[dict], workers: int) -> dict[str, lexical.Hashed]:
    """Per page id with blocks, its tokens' hashes (cached)."""
    path = CACHE / f"lexical-{name}-{len(pages)}-{code_hash()}.pkl"
    if path.exists():
        return pickle.loads(path.read_bytes())
    texts = {r["id"]: r["texts"] for r in rows}
    jobs = [(p.id, p.html_path, texts.get(p.id, [])) for p in pages]
    with ProcessPoolExecutor(workers) as pool:
        out = {i: h for i, h in pool.map(page_hashes, jobs, chunksize=8) if h is not None}
    path.write_bytes(pickle.dumps(out))
    return out


def design(parts: lexical.Hashed, n_blocks: int, variant: Variant) -> sparse.csr_matrix:
    t = lexical.assemble(parts, n_blocks, variant.bits, variant.families)
    shape = (n_blocks, 1 << variant.bits)
    return sparse.csr_matrix((t.values, (t.rows, t.columns)), shape=shape)


def block_weights(texts: list[str]) -> np.ndarray:
    """The trees' sample weights (bench/train_blocks.py): square root of the words, summing like pages."""
    n = np.array([len(t.split()) for t in texts], dtype=float) + 1.0
    return np.sqrt(n) / np.sqrt(n).sum() * len(n) ** 0.5


def fit(rows: list[dict], toks: dict[str, lexical.Hashed], variant: Variant) -> LogisticRegression:
    xs, ys, ws = [], [], []
    for r in rows:
        if r["x"] is None:
            continue
        xs.append(design(toks[r["id"]], len(r["texts"]), variant))
        ys.append(r["y"])
        ws.append(block_weights(r["texts"]))
    model = LogisticRegression(C=variant.c, solver="liblinear", max_iter=200)
    model.fit(sparse.vstack(xs).tocsr(), np.concatenate(ys), sample_weight=np.concatenate(ws))
    return model


def scores(
    model: LogisticRegression, rows: list[dict], toks: dict, variant: Variant
) -> dict[str, np.ndarray]:
    return {
        r["id"]: model.decision_function(design(toks[r["id"]], len(r["texts"]), variant))
        for r in rows
        if r["x"] is not None
    }


def nested(rows: list[dict], toks: dict, fold_of: dict[str, int], variant: Variant) -> dict[int, dict]:
    """For every outer fold f, the lexical column of all pages: a page of fold g != f scored by a model
    that saw neither f nor g (the trees' training inputs), a page of f by a model trained on all pages
    outside f. A model without folds f and g serves both outer folds f and g."""
    folds = sorted(set(fold_of.values()))
    out: dict[int, dict] = {f: {} for f in folds}
    for f in folds:
        outside = [r for r in rows if fold_of[r["id"]] != f]
        out[f].update(
            scores(fit(outside, toks, variant), [r for r in rows if fold_of[r["id"]] == f], toks, variant)
        )
        for g in (g for g in folds if g > f):
            model = fit([r for r in rows if fold_of[r["id"]] not in (f, g)], toks, variant)
            out[f].update(scores(model, [r for r in rows if fold_of[r["id"]] == g], toks, variant))
            out[g].update(scores(model, [r for r in rows if fold_of[r["id"]] == f], toks, variant))
        print(f"  lexical, outer fold {f + 1} done", flush=True)
    return out


def out_of_fold(
    rows: list[dict], toks: dict, fold_of: dict[str, int], variant: Variant
) -> dict[str, np.ndarray]:
    """Scores of every page from a model that never saw its fold."""
    out: dict[str, np.ndarray] = {}
    for f in sorted(set(fold_of.values())):
        train = [r for r in rows if fold_of[r["id"]] != f]
        out.update(
            scores(fit(train, toks, variant), [r for r in rows if fold_of[r["id"]] == f], toks, variant)
        )
    return out


def extended(rows: list[dict], column: dict[str, np.ndarray]) -> list[dict]:
    """Copies of `rows` whose matrix has the lexical column appended (the matrix without it stays as
    "page_x": the chooser reads the page signals at its end)."""
    out = []
    for r in rows:
        if r["x"] is None:
            out.append(r)
            continue
        x = np.hstack([r["x"], column[r["id"]][:, None]]).astype(np.float32)
        out.append({**r, "x": x, "page_x": r["x"]})
    return out


def with_lexical(sets: dict[str, tuple[list, list[dict]]], fold_of: dict[str, int], variant: Variant,
                 workers: int) -> tuple[list[dict], list[dict]]:  # fmt: skip
    """The multitype rows with their out-of-fold lexical column (folds `fold_of`), and the article rows
    with the column of the model trained on every multitype page (held out, its weights quantized to
    int8 as a shipped model's would be)."""
    pages, rows = sets["multitype"]
    apages, arows = sets["articles"]
    toks = hashes("multitype", pages, rows, workers)
    atoks = hashes("articles", apages, arows, workers)
    name = f"lexoof-{len(rows)}-{'+'.join(variant.families)}-{variant.bits}-{variant.c}-{code_hash()}"
    path_oof = CACHE / f"{name}.pkl"
    if path_oof.exists():
        column = pickle.loads(path_oof.read_bytes())
    else:
        column = out_of_fold(rows, toks, fold_of, variant)
        path_oof.write_bytes(pickle.dumps(column))
    model = fit(rows, toks, variant)
    spec = lexical.pack(model.coef_[0], float(model.intercept_[0]), variant.bits, variant.families)
    print(f"  lexical model: {len(json.dumps(spec)) // 1024} KiB as a model file")
    shipped = lexical.LexicalModel(spec)  # the quantized weights, as at run time
    n_blocks = {r["id"]: len(r["texts"]) for r in arows}
    acolumn = {
        i: shipped.score_tokens(lexical.assemble(t, n_blocks[i], variant.bits, variant.families))
        for i, t in atoks.items()
    }
    return extended(rows, column), extended(arows, acolumn)
