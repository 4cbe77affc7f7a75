"""Two selection rules of the eleventh round, measured on cached out-of-fold probabilities (figures only).

    uv run python bench/decision_rules.py

1. An expected-F1 decision per page instead of the fixed threshold: keep the top k blocks by probability
   that maximize 2·Σ_top-k p·w / (Σ_top-k w + β·Σ_all p·w), w a block's word count; the classifier
   alone, then with the chooser retrained on the new selection and the pipeline estimate.
2. A rescue of declared articles: where trafilatura's trimmed text has under a share of the words of
   the classifier's selection, the classifier's selection instead; on the multitype set (out of fold)
   and on the article set (the shipped block model, held out).

Needs `bench/train_blocks.py --pairs` to have run (its feature and stage-one caches in bench/.cache).
"""

from __future__ import annotations

import pickle
import re
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import train_blocks as tb
from common import evaluator, load_pages

from webferret.extract import classifier, main_content, trim

WORD = re.compile(r"\w+")
THRESHOLD = main_content.THRESHOLD


def words(texts: list[str]) -> np.ndarray:
    return np.array([len(WORD.findall(t)) for t in texts], dtype=float)


def expected_f1_keep(
    prob: np.ndarray, weight: np.ndarray, power: float = 1.0, beta: float = 1.0
) -> np.ndarray:
    """The blocks that maximize the page's plug-in expected F1 (probabilities taken as calibrated)."""
    q = prob**power
    order = np.argsort(-q, kind="stable")
    hits = np.cumsum((q * weight)[order])
    kept = np.cumsum(weight[order])
    f1 = 2 * hits / (kept + beta * (q * weight).sum() + 1e-9)
    keep = np.zeros(len(prob), dtype=bool)
    keep[order[: int(np.argmax(f1)) + 1]] = True
    return keep


def as_threshold(prob: np.ndarray, keep: np.ndarray) -> np.ndarray:
    """Probabilities moved just across the threshold where needed, so that `prob >= THRESHOLD` is `keep`
    (what the chooser's features and the trim read stays otherwise as it was)."""
    return np.where(keep, np.maximum(prob, THRESHOLD), np.minimum(prob, np.nextafter(THRESHOLD, 0)))


def selection(row: dict, prob: np.ndarray) -> str:
    return "\n\n".join(t for t, k in zip(row["texts"], prob >= THRESHOLD, strict=True) if k)


def expected_f1(pages: list, rows: list[dict], oof: dict, outside: dict, to: dict) -> None:
    weight = {r["id"]: words(r["texts"]) for r in rows if r["x"] is not None}

    def moved(probs: dict, power: float = 1.0, beta: float = 1.0) -> dict:
        return {i: as_threshold(p, expected_f1_keep(p, weight[i], power, beta)) for i, p in probs.items()}

    tb.report(f"classifier at {THRESHOLD}", pages, tb.texts_at(rows, oof, THRESHOLD))
    for power in (0.7, 1.0, 1.5):
        for beta in (0.8, 1.0, 1.2):
            tb.report(
                f"expected F1, p^{power}, beta {beta}",
                pages,
                tb.texts_at(rows, moved(oof, power, beta), THRESHOLD),
            )
    truths = {p.id: p.truth for p in pages}
    fold_of = tb.folds_of([r["id"] for r in rows], 5)
    variants = {
        "threshold": (oof, outside),
        "expected F1": (moved(oof), {f: moved(v) for f, v in outside.items()}),
    }
    for name, (probs, honest) in variants.items():
        prefer = tb.chooser_cv(rows, fold_of, probs, honest, THRESHOLD, truths)
        chosen = tb.texts_chosen(rows, probs, THRESHOLD, prefer)
        tb.report(f"{name} + chooser", pages, chosen)
        tb.pipeline_estimate(pages, rows, chosen, to)


def rescue(label: str, pages: list, rows: list[dict], probs: dict, to: dict, metric: str) -> None:
    """Declared articles: the change of `metric` (over all pages of the set) if the classifier's selection
    replaced trafilatura's trimmed text where that text is under a share of the selection's words."""
    ev = evaluator()
    by_id = {p.id: p for p in pages}
    cases = []
    for r in rows:
        if to.get(r["id"]) != "article" or r["x"] is None:
            continue
        prob = probs[r["id"]]
        mine, theirs = selection(r, prob), tb.trimmed(r, prob, trim.ARTICLE_CUT)
        page = by_id[r["id"]]
        score = [ev.score([page], {page.id: text}, 0, 0)[metric] for text in (mine, theirs)]
        cases.append((len(WORD.findall(mine)), len(WORD.findall(theirs)), score[0] - score[1]))
    for share in (0.3, 0.5):
        switched = [c for c in cases if c[0] >= 50 and c[1] < share * c[0]]
        better = sum(c[2] > 0 for c in switched)
        change = sum(c[2] for c in switched) / len(pages)
        counts = f"{len(switched)} pages switch, {better} better"
        print(f"{label}: under {share:.0%}: {counts}, {metric} {change:+.4f}")


def main() -> None:
    pages = load_pages("multitype")
    rows = tb.without_second(tb.dataset("multitype", pages, 2))
    caches = sorted(tb.CACHE.glob(f"stage1-{len(pages)}-5-{tb.features_hash()}-*-1.pkl"))
    if not caches:
        raise SystemExit("no stage-one cache: run bench/train_blocks.py --pairs first")
    oof, outside = pickle.loads(caches[0].read_bytes())
    to = tb.cached(f"routes-{len(pages)}", lambda: tb.routes(pages, 2))
    expected_f1(pages, rows, oof, outside, to)
    rescue("multitype (out of fold)", pages, rows, oof, to, "bow_f1")
    apages = load_pages("articles")
    arows = tb.without_second(tb.dataset("articles", apages, 2))
    model = classifier.load(classifier.DEFAULT_MODEL)
    aprobs = {r["id"]: model.predict(r["x"]) for r in arows if r["x"] is not None}
    rescue("articles (held out)", apages, arows, aprobs, tb.routes(apages, 2), "shingle_f1")


if __name__ == "__main__":
    main()
