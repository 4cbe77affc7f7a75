"""The extension of declared articles (`trim.article_edit`), cross-validated on multitype (figures only).

    uv run python bench/article_extend.py [--cuts 0.3 0.4 0.5 0.6 0.7 0.8 0.9]

A declared article gets trafilatura's text less the paragraphs the classifier rejects; the extension adds
the page's blocks trafilatura left out, mostly new to its text, that share a kept block's place in the
template (tag and class path) and that the classifier rates at least a cut. This scores that rule on the
multitype set's declared articles with out-of-fold probabilities (`train_blocks.py --pairs`'s stage-one
cache of the feature hash the shipped models were trained on, default eef30f7e, see `train_blocks.py`):
bow F1 of the trimmed text with and without the added blocks (a bag of words: where they go does not
count here; the article set, never tuned on, is measured end to end by bench/extraction.py).
"""

from __future__ import annotations

import argparse
import pickle
import sys
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parent))
import train_blocks as T
from common import evaluator, load_pages

from webferret.extract import trim
from webferret.extract.features import Reference, normalize


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cuts", type=float, nargs="*", default=[0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9])
    ap.add_argument("--features", default="eef30f7e", help="feature hash of the cached rows and stage one")
    args = ap.parse_args()
    pages = load_pages("multitype")
    by_id = {p.id: p for p in pages}
    rows = T.without_second(
        pickle.loads((T.CACHE / f"multitype-{len(pages)}-{args.features}.pkl").read_bytes())
    )
    oof = pickle.loads(next(T.CACHE.glob(f"stage1-{len(pages)}-5-{args.features}-*-1.pkl")).read_bytes())[0]
    routes = T.cached(f"routes-{len(pages)}", lambda: T.routes(pages, 2))
    bow = evaluator().bow_prf
    declared = [r for r in rows if routes.get(r["id"]) == "article" and r["x"] is not None]
    for cut in args.cuts:
        change, touched, better, worse = 0.0, 0, 0, 0
        for row in declared:
            prob = oof[row["id"]]
            ref = Reference.of(row["ref"], "")
            texts = [normalize(t) for t in row["texts"]]
            rows_in = {i for i, t in enumerate(texts) if t in ref.main_lines}  # trafilatura's paragraphs
            blocks = [SimpleNamespace(signature=s) for s in row["keys"][:, 1]]
            added = [
                row["texts"][i] for i in trim._extension_rows(blocks, texts, rows_in, ref) if prob[i] >= cut
            ]
            if not added:
                continue
            base = T.trimmed(row, prob, trim.ARTICLE_CUT)
            truth = by_id[row["id"]].truth
            delta = bow(truth, "\n\n".join([base, *added]))[2] - bow(truth, base)[2]
            change += delta
            touched += 1
            better += delta > 1e-9
            worse += delta < -1e-9
        print(f"cut {cut}: {touched} of {len(declared)} declared articles extended, {better} better, "
              f"{worse} worse; multitype bow F1 {change / len(pages):+.4f}")  # fmt: skip


if __name__ == "__main__":
    main()
