"""An experiment: resiliparse's text as a third candidate of the page-level chooser, cross-validated.

    uv run python bench/third_choice.py [--second] [--by page|domain] [--folds 5]

The block classifier's out-of-fold probabilities come from `train_blocks.py`'s stage-one cache of the same
options (run it first). The two-way chooser (`chooser_cv`, its inputs out of fold) picks the classifier's
text or trafilatura's trimmed; a second small model, learned on the other folds, then replaces that pick
by resiliparse's main-content text (`resiliparse_ref.second_reference_text`) where it expects that
to score higher.
Prints both figures, the three-way oracle, and the pipeline rule's estimate.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import math
import pickle
import sys
from pathlib import Path

import numpy as np
from sklearn.ensemble import HistGradientBoostingClassifier

sys.path.insert(0, str(Path(__file__).resolve().parent))
import train_blocks as T
from common import evaluator, load_pages
from resiliparse_ref import second_reference_text

from webferret.extract import chooser
from webferret.extract.features import WORD_RE


def resiliparse_texts(pages: list) -> dict[str, str]:
    def compute() -> dict[str, str]:
        out = {}
        for p in pages:
            with gzip.open(p.html_path, "rt", encoding="utf8", errors="replace") as f:
                out[p.id] = second_reference_text(f.read())
        return out

    return T.cached(f"resiliparse-{len(pages)}", compute)


def third_features(row: dict, prob: np.ndarray, picked: str, other: str, deferred: bool) -> np.ndarray:
    """The two-way chooser's row, and how resiliparse's text compares with the text picked."""
    base = chooser.page_features(row["texts"], prob, 0.4, row["ref"], row["x"])
    a, b = set(WORD_RE.findall(picked.lower())), set(WORD_RE.findall(other.lower()))
    common = len(a & b)
    extra = [float(deferred), math.log1p(len(b)), common / (len(a) + 1), common / (len(b) + 1)]
    return np.concatenate([base[0], extra])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--second", action="store_true", help="the features with resiliparse's columns")
    ap.add_argument("--by", choices=("page", "domain"), default="page")
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--pairs", action="store_true", help="the stage-one cache of a --pairs run")
    args = ap.parse_args()
    pages = load_pages("multitype")
    rows = T.dataset("multitype", pages, 1)
    if not args.second:
        rows = T.without_second(rows)
    fold_of = T.folds_of([r["id"] for r in rows], args.folds)
    if args.by == "domain":
        from lexical_cv import domain_folds

        fold_of = domain_folds(pages, args.folds)
    params = hashlib.sha1(repr((T.PARAMS, T.MAX_BLOCKS)).encode()).hexdigest()[:6]
    tag = ("-second" if args.second else "") + ("-domain" if args.by == "domain" else "")
    key = f"stage1-{len(rows)}-{args.folds}-{T.features_hash()}-{params}{tag}-{int(args.pairs)}.pkl"
    oof, outside = pickle.loads((T.CACHE / key).read_bytes())
    truths = {p.id: p.truth for p in pages}
    prefer = T.chooser_cv(rows, fold_of, oof, outside if args.pairs else {}, 0.4, truths)
    chosen = T.texts_chosen(rows, oof, 0.4, prefer)
    res = resiliparse_texts(pages)
    T.report("two-way chooser", pages, chosen)
    T.report("resiliparse alone", pages, res)
    bow = evaluator().bow_prf
    ids = [r["id"] for r in rows if r["x"] is not None]
    by_id = {r["id"]: r for r in rows}
    f_two = np.array([bow(truths[i], chosen[i])[2] for i in ids])
    f_res = np.array([bow(truths[i], res[i])[2] for i in ids])
    x = np.array([third_features(by_id[i], oof[i], chosen[i], res[i], prefer.get(i, False)) for i in ids])
    folds = np.array([fold_of[i] for i in ids])
    switch = np.zeros(len(ids), dtype=bool)
    for f in sorted(set(folds)):
        train, test = folds != f, folds == f
        model = HistGradientBoostingClassifier(**T.CHOOSER_PARAMS, random_state=0)
        model.fit(x[train], f_res[train] > f_two[train], sample_weight=np.abs(f_res - f_two)[train] + 1e-3)
        switch[test] = model.predict_proba(x[test])[:, 1] >= 0.5
    three = dict(chosen)
    three.update({i: res[i] for i, s in zip(ids, switch, strict=True) if s})
    print(f"  pages switched to resiliparse: {switch.sum()} of {len(ids)}")
    T.report("three-way chooser", pages, three)
    best = {i: res[i] if fr > ft else chosen[i] for i, fr, ft in zip(ids, f_res, f_two, strict=True)}
    T.report("three-way oracle (of the two-way pick)", pages, {**chosen, **best})
    to = T.cached(f"routes-{len(pages)}", lambda: T.routes(pages, 1))
    T.pipeline_estimate(pages, rows, chosen, to)
    T.pipeline_estimate(pages, rows, three, to)


if __name__ == "__main__":
    main()
