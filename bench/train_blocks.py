"""Train the main-content block classifier on the multitype dev split, with k-fold cross-validation.

    uv run python bench/train_blocks.py [--folds 5] [--sample N] [--pairs] [--out MODEL.json]

Labels: a block is main content when most of its word trigrams (or, for short blocks, its whole word
sequence) occur in the page's ground truth. Folds are by page, so no page is scored by a model that saw it.
Prints the cross-validated bow F1 (and per page type), the label oracle, and trafilatura's reference figure;
then the page-level chooser (classifier's selection or trafilatura's, `extract/chooser.py`), also
cross-validated: with --pairs its training inputs of fold f come from block models that never saw fold f
(10 more fits), without it from out-of-fold ones (a slight leak, said in the output); then an estimate of
the whole pipeline's rule. Writes models/blocks.npz and models/chooser.json (--no-export: figures only);
the article set is scored with the final block model as a held-out check (it is never trained on, unless
--articles, which reports CV on both sets). --trim-sweep CUT...: an experiment, the trim of
`extract/trim.py` applied to declared articles at those cuts, cross-validated on the multitype set's
declared articles and held out on the article set (shipped at 0.3 as `trim.article_drop`).
--lexical [BITS C]: an experiment, the score of a linear model on hashed words, class/id tokens and tag
paths (bench/lexical.py) as the trees' last column, out of fold (figures only; the nested figures, by
page or by domain, are bench/lexical_cv.py's). --params KEY=VALUE,...: the tree parameters of this run
over PARAMS (its own cache key), e.g. `--params l2_regularization=1.0,min_samples_leaf=50 --no-export`.
The cached features carry resiliparse's columns (`features.second_columns`, the seventh round), dropped
unless --second (an experiment: the runtime's features have none). --by domain: folds by URL host.
--reference full|fast|output: where the features' reference text comes from (each its own feature cache;
default the runtime's, `main_content.REFERENCE`): trafilatura's own plain-text run, without or with its
fast mode (the eighth round), or its output run, the one run the runtime makes of a page (the ninth
round). A page handed to trafilatura gets its output run, whose text the reference text of the --output
mode stands in for (default "output": that run's own text, exact; "full" and "fast" the eighth round's
stand-ins): when it differs from --reference, the chooser's labels and the pipeline figures use that
text, the features the reference's.
An experiment's --out elsewhere than the shipped path leaves train_blocks.last.json as it is.
The shipped models were trained on the features as the code cut pages before `extract/unwrap.py` (feature
hash eef30f7e): with it, 20 multitype pages are cut differently, and the models were kept (a retrain on
today's features scored 0.8589 with the chooser against the kept models' 0.8618; bench/kept_models_cv.py).
A retrain on the twenty-fourth round's features (hash 9aeacd2a) estimated better here (0.8621 with the
chooser against 0.8605) but read 0.8663 against the kept models' 0.8685 through the whole pipeline out of
fold (bench/oof_pipeline.py --features 9aeacd2a): kept again (docs/extraction-rounds.md).
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import pickle
import random
import re
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
from sklearn.ensemble import HistGradientBoostingClassifier

sys.path.insert(0, str(Path(__file__).resolve().parent))
import lexical_fit
import stacking
from common import REPO, evaluator, load_pages
from resiliparse_ref import second_reference_text

from webferret.extract import chooser, main_content, selector, trim
from webferret.extract.classifier import TreeEnsemble
from webferret.extract.features import N_SECOND, normalize
from webferret.extract.htmlpage import parse_html
from webferret.models import FerretError

WORD = re.compile(r"\w+")
CACHE = REPO / "bench" / ".cache"
PARAMS = {
    "max_iter": 250,
    "learning_rate": 0.1,
    "max_depth": 8,
    "max_leaf_nodes": 63,
    "min_samples_leaf": 20,
    "early_stopping": False,
}
REFERENCE = main_content.REFERENCE  # the runtime's reference text
OUTPUT = "fast" if selector.FAST_OUTPUT else "output"  # the runtime's output run (`selector`)
FEATURE_SOURCES = ("blocks.py", "features.py", "unwrap.py")  # in src/webferret/extract
MAX_BLOCKS = 250  # per training page (a random subset on bigger pages, weights rescaled), to bound CPU


def overlaps(texts: list[str], truth: str) -> np.ndarray:
    """Per block: the share of its word trigrams found in the truth (a short block: 1.0 when its whole
    word sequence occurs in the truth, else 0.0)."""
    words = WORD.findall(truth.lower())
    trigrams = {tuple(words[i : i + 3]) for i in range(len(words) - 2)}
    joined = f" {' '.join(words)} "
    out = []
    for text in texts:
        w = WORD.findall(text.lower())
        if len(w) >= 3:
            grams = [tuple(w[i : i + 3]) for i in range(len(w) - 2)]
            out.append(sum(g in trigrams for g in grams) / len(grams))
        else:
            out.append(float(bool(w) and f" {' '.join(w)} " in joined))
    return np.array(out, dtype=float)


def labels(texts: list[str], truth: str) -> np.ndarray:
    """Hard labels: main content when at least half of the block's trigrams are in the truth."""
    return overlaps(texts, truth) >= 0.5


def featurize(job: tuple[str, str, Path, str, str]) -> dict:
    page_id, url, html_path, truth, mode = job
    with gzip.open(html_path, "rt", encoding="utf8", errors="replace") as f:
        html = f.read()
    second = second_reference_text(html)
    if mode == "output":  # on the tree the runtime parses (`selector.learned_main`)
        try:
            tree = parse_html(html, url)
        except FerretError:
            tree = None
        analysis = None if tree is None else main_content.analyse(html, url, tree, second=second)
    else:
        analysis = main_content.analyse(html, url, second=second, mode=mode)
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
            "y": labels(texts, truth), "ref": analysis.reference_text,
            "keys": stacking.group_keys(analysis.blocks)}  # fmt: skip


def features_hash(mode: str = REFERENCE) -> str:
    """A digest of the code that makes the features (the parsed tree's unwrapping, the blocks, their
    features: cached features are reused while it is unchanged) and of the reference text's mode
    (`--reference`)."""
    sources = (
        b"".join((REPO / "src/webferret/extract" / f).read_bytes() for f in FEATURE_SOURCES)
        + b"second"
        + (b"" if mode == "full" else mode.encode())
    )
    return hashlib.sha1(sources).hexdigest()[:8]


def dataset(name: str, pages: list, workers: int, mode: str = REFERENCE) -> list[dict]:
    CACHE.mkdir(parents=True, exist_ok=True)
    path = CACHE / f"{name}-{len(pages)}-{features_hash(mode)}.pkl"
    if path.exists():
        return pickle.loads(path.read_bytes())
    with ProcessPoolExecutor(workers) as pool:
        jobs = [(p.id, p.url, p.html_path, p.truth, mode) for p in pages]
        rows = list(pool.map(featurize, jobs, chunksize=8))
    path.write_bytes(pickle.dumps(rows))
    return rows


def without_second(rows: list[dict]) -> list[dict]:
    """The rows with resiliparse's columns dropped (today's features, the same blocks)."""
    end = -chooser.N_PAGE_SIGNALS
    cut = np.s_[end - N_SECOND : end]
    return [r if r["x"] is None else {**r, "x": np.delete(r["x"], cut, axis=1)} for r in rows]


def with_output(rows: list[dict], outputs: list[dict]) -> list[dict]:
    """The rows with `out`, the text that stands in for trafilatura's output run (the one a page handed to
    trafilatura gets): the reference text of `outputs`, rows of the output run's mode (`--output`)."""
    texts = {r["id"]: r["ref"] for r in outputs}
    return [{**r, "out": texts[r["id"]]} for r in rows]


def output_text(row: dict) -> str:
    """trafilatura's text as a page handed to it gets it (its reference text unless `with_output`)."""
    return row.get("out", row["ref"])


def chars_of(row: dict) -> np.ndarray:
    return np.array([len(t) for t in row["texts"]], dtype=float)


def fit(rows: list[dict], inputs: dict[str, np.ndarray] | None = None) -> HistGradientBoostingClassifier:
    """A model on the blocks of `rows` (features `inputs[id]` when given, else the stage-one matrix)."""
    rng = np.random.default_rng(0)
    xs, ys, weights = [], [], []
    for r in rows:
        if r["x"] is None:
            continue
        x = r["x"] if inputs is None else inputs[r["id"]]
        n = np.array([len(WORD.findall(t)) for t in r["texts"]], dtype=float) + 1.0
        w = np.sqrt(n) / np.sqrt(n).sum() * len(n) ** 0.5
        pick = np.arange(len(n))
        if len(n) > MAX_BLOCKS:
            pick = np.sort(rng.choice(len(n), MAX_BLOCKS, replace=False))
            w = w * (len(n) / MAX_BLOCKS)
        xs.append(x[pick])
        ys.append(r["y"][pick])
        weights.append(w[pick])
    model = HistGradientBoostingClassifier(**PARAMS, random_state=0)
    start = time.process_time()
    model.fit(np.vstack(xs), np.concatenate(ys), sample_weight=np.concatenate(weights))
    print(f"  fit: {len(rows)} pages, {time.process_time() - start:.0f} s CPU", flush=True)
    return model


def second_inputs(rows: list[dict], probs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Stage-two feature matrices of the pages that have stage-one probabilities."""
    return {
        r["id"]: stacking.stage_two(r["x"], probs[r["id"]], r["keys"], chars_of(r)).astype(np.float32)
        for r in rows
        if r["id"] in probs
    }


def predict(model, rows: list[dict], inputs: dict[str, np.ndarray] | None = None) -> dict[str, np.ndarray]:
    return {
        r["id"]: model.predict_proba(r["x"] if inputs is None else inputs[r["id"]])[:, 1]
        for r in rows
        if r["x"] is not None
    }


def stage_one(rows: list[dict], fold_of: dict[str, int], folds: int, pairs: bool,
              oof: dict | None = None) -> tuple[dict, dict]:  # fmt: skip
    """Stage one's out-of-fold probabilities, and for every fold f those of the pages outside f.

    The latter come from models that never saw fold f nor the page itself (a page of fold g is scored by
    a model trained without folds f and g), so stage two of fold f learns from honest inputs.
    `oof`, when given, is reused (it does not depend on `pairs`).
    """
    if oof is not None:
        folds_todo: range = range(0)
    else:
        oof, folds_todo = {}, range(folds)
    for f in folds_todo:
        test = [r for r in rows if fold_of[r["id"]] == f]
        oof.update(predict(fit([r for r in rows if fold_of[r["id"]] != f]), test))
    outside: dict[int, dict[str, np.ndarray]] = {f: {} for f in range(folds)}
    for f in range(folds if pairs else 0):
        for g in range(f + 1, folds):
            model = fit([r for r in rows if fold_of[r["id"]] not in (f, g)])
            outside[f].update(predict(model, [r for r in rows if fold_of[r["id"]] == g]))
            outside[g].update(predict(model, [r for r in rows if fold_of[r["id"]] == f]))
        print(f"  stage one, fold {f + 1}/{folds} done", flush=True)
    return oof, outside


def stage_two_cv(rows: list[dict], fold_of: dict[str, int], oof: dict, outside: dict) -> dict:
    """Stage two's out-of-fold probabilities."""
    oof2: dict[str, np.ndarray] = {}
    for f in sorted(outside):
        test = [r for r in rows if fold_of[r["id"]] == f]
        train = [r for r in rows if fold_of[r["id"]] != f]
        model = fit(train, second_inputs(train, outside[f]))
        oof2.update(predict(model, test, second_inputs(test, oof)))
    return oof2


CHOOSER_PARAMS = {"max_iter": 100, "learning_rate": 0.05, "max_depth": 3, "min_samples_leaf": 20}


def chooser_rows(rows: list[dict], probs: dict, threshold: float, truths: dict[str, str]) -> tuple:
    """Per page with blocks: the chooser's features, and F1 of the classifier's and trafilatura's text."""
    bow = evaluator().bow_prf
    xs, f_cls, f_ref = [], [], []
    for r in rows:
        x = chooser.page_features(r["texts"], probs[r["id"]], threshold, r["ref"], r.get("page_x", r["x"]))
        keep = probs[r["id"]] >= threshold
        text = "\n\n".join(t for t, k in zip(r["texts"], keep, strict=True) if k) or output_text(r)
        xs.append(x[0])
        f_cls.append(bow(truths[r["id"]], text)[2])
        f_ref.append(bow(truths[r["id"]], output_text(r))[2])
    return np.array(xs), np.array(f_cls), np.array(f_ref)


def fit_chooser(x: np.ndarray, f_cls: np.ndarray, f_ref: np.ndarray) -> HistGradientBoostingClassifier:
    """Learn when the classifier's text beats trafilatura's, weighted by how much is at stake."""
    model = HistGradientBoostingClassifier(**CHOOSER_PARAMS, random_state=0)
    model.fit(x, f_cls >= f_ref, sample_weight=np.abs(f_cls - f_ref) + 1e-3)
    return model


def chooser_cv(rows: list[dict], fold_of: dict, oof: dict, outside: dict, threshold: float,
               truths: dict[str, str]) -> dict[str, bool]:  # fmt: skip
    """Out-of-fold choices: True where trafilatura's text is chosen.

    With `outside` (stage one's probabilities from models that never saw the fold) the chooser of a fold
    learns from honest classifier outputs; without, from out-of-fold ones (a slight leak, said in the log).
    """
    rows = [r for r in rows if r["x"] is not None]
    prefer: dict[str, bool] = {}
    for f in sorted(set(fold_of.values())):
        train = [r for r in rows if fold_of[r["id"]] != f]
        test = [r for r in rows if fold_of[r["id"]] == f]
        model = fit_chooser(*chooser_rows(train, outside.get(f) or oof, threshold, truths))
        x_test = chooser_rows(test, oof, threshold, truths)[0]
        if len(test):
            picks = model.predict_proba(x_test)[:, 1] < chooser.CUT
            prefer.update({r["id"]: bool(p) for r, p in zip(test, picks, strict=True)})
    return prefer


def texts_chosen(rows: list[dict], probs: dict, threshold: float, prefer: dict[str, bool]) -> dict[str, str]:
    """The classifier's text, or where the chooser prefers trafilatura's, that trimmed as the pipeline
    does (`trim.DEFERRED_CUT`)."""
    by_id = {r["id"]: r for r in rows}
    return {
        i: trimmed(by_id[i], probs.get(i), trim.DEFERRED_CUT) if prefer.get(i) else t
        for i, t in texts_at(rows, probs, threshold).items()
    }


def route(job: tuple[str, Path]) -> tuple[str, str | None]:
    """Where the pipeline sends this page: "tiny" and "article" (a declared article) to trafilatura,
    None to the classifier."""
    from webferret.extract.metadata import ARTICLE_TYPES, extract_metadata
    from webferret.extract.selector import _tiny

    page_id, html_path = job
    with gzip.open(html_path, "rt", encoding="utf8", errors="replace") as f:
        html = f.read()
    try:
        tree = parse_html(html, None)
    except FerretError:
        return page_id, "tiny"
    if _tiny(tree):
        return page_id, "tiny"
    meta = extract_metadata(tree, None)
    article = (meta.og_type or "").lower() == "article" or any(t in ARTICLE_TYPES for t in meta.ld_types)
    return page_id, "article" if article else None


def routes(pages: list, workers: int) -> dict[str, str | None]:
    with ProcessPoolExecutor(workers) as pool:
        return dict(pool.map(route, [(p.id, p.html_path) for p in pages], chunksize=16))


def trimmed(row: dict, prob: np.ndarray | None, cut: float) -> str:
    """trafilatura's text less the lines that are exactly blocks rated below `cut` (and no block kept):
    the text-level twin of `extract/trim.py`, on the cached reference text."""
    if prob is None or row["x"] is None:
        return output_text(row)
    dropped = trim.rejected([normalize(t) for t in row["texts"]], prob, cut)
    return "\n".join(line for line in output_text(row).splitlines() if normalize(line) not in dropped)


def trim_sweep(label: str, pages: list, rows: list[dict], probs: dict, cuts: list[float]) -> None:
    """Declared articles of a set: trafilatura's text, untrimmed and trimmed at each cut."""
    ids = {r["id"] for r in rows}
    pages = [p for p in pages if p.id in ids]
    report(f"{label}: untrimmed", pages, {r["id"]: output_text(r) for r in rows})
    for cut in cuts:
        report(f"{label}: trim at {cut}", pages, {r["id"]: trimmed(r, probs.get(r["id"]), cut) for r in rows})


def pipeline_estimate(pages: list, rows: list[dict], texts: dict[str, str], to: dict) -> dict:
    """The whole pipeline's figure from out-of-fold texts: trafilatura's text where the pipeline routes
    the page to trafilatura (its plain reference text stands in for the pipeline's rendering)."""
    refs = {r["id"]: output_text(r) for r in rows}
    mixed = {i: text if to.get(i) is None else refs[i] for i, text in texts.items()}
    print(f"  pages routed to trafilatura: {sum(k is not None for k in to.values())} of {len(pages)}")
    return report("  pipeline rule (estimate)", pages, mixed)


def texts_for(rows: list[dict], model, threshold: float, oracle: bool = False) -> dict[str, str]:
    out = {}
    for r in rows:
        if r["x"] is None:
            out[r["id"]] = output_text(r)
            continue
        keep = r["y"] if oracle else model.predict_proba(r["x"])[:, 1] >= threshold
        out[r["id"]] = "\n\n".join(t for t, k in zip(r["texts"], keep, strict=True) if k)
    return out


def texts_at(rows: list[dict], probs: dict[str, np.ndarray], threshold: float) -> dict[str, str]:
    out = {}
    for r in rows:
        keep = probs[r["id"]] >= threshold if r["id"] in probs else []
        out[r["id"]] = "\n\n".join(t for t, k in zip(r["texts"], keep, strict=True) if k) or output_text(r)
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
    if path.suffix == ".npz":  # the shipped model: packed, as the runtime reads it (`classifier.load`)
        TreeEnsemble.from_spec(spec).save(path)
    else:
        path.write_text(json.dumps(spec, separators=(",", ":")), "utf-8")
    print(f"wrote {path} ({path.stat().st_size // 1024} KiB, {len(trees)} trees, depth {depth})")


def cached(name: str, compute):
    path = CACHE / f"{name}.pkl"
    if path.exists():
        return pickle.loads(path.read_bytes())
    value = compute()
    path.write_bytes(pickle.dumps(value))
    return value


def folds_of(ids: list[str], folds: int) -> dict[str, int]:
    order = sorted(ids)
    random.Random(1).shuffle(order)
    return {pid: i % folds for i, pid in enumerate(order)}


def report_sets(label: str, sets: dict[str, list], rows: list[dict], probs: dict, threshold: float) -> dict:
    """Report each set's figures on its own (pages of a set scored with the given probabilities)."""
    out = {}
    for name, pages in sets.items():
        ids = {p.id for p in pages}
        out[name] = report(
            f"{label} ({name})", pages, texts_at([r for r in rows if r["id"] in ids], probs, threshold)
        )
    return out


def parse_params(text: str) -> dict[str, int | float]:
    """`key=value,...` as tree parameters (a value with a dot is a float)."""
    out: dict[str, int | float] = {}
    for item in filter(None, text.split(",")):
        key, _, value = item.partition("=")
        out[key] = float(value) if "." in value else int(value)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--sample", type=int, help="only N multitype pages (quick iterations)")
    ap.add_argument("--threshold", type=float, default=0.4)
    ap.add_argument("--sweep", type=float, nargs="*", default=[], help="also report CV at these thresholds")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--articles", action="store_true", help="train on the article set too (CV on both)")
    ap.add_argument(
        "--stage-two", action="store_true", help="CV of a context model (bench/stacking.py), figures only"
    )
    ap.add_argument("--pairs", action="store_true", help="nested stage-one models: a strict chooser CV")
    ap.add_argument("--trim-sweep", type=float, nargs="*", default=[],
                    help="report the declared-article trim (extract/trim.py) at these cuts")  # fmt: skip
    ap.add_argument("--lexical", type=float, nargs="*", metavar="BITS C",
                    help="CV with a lexical score column (lexical_fit.py), figures only")  # fmt: skip
    ap.add_argument("--params", type=parse_params, default={}, metavar="KEY=VALUE,...",
                    help="override PARAMS (own cache key): l2_regularization=1.0,...")  # fmt: skip
    ap.add_argument("--second", action="store_true",
                    help="with resiliparse's columns (an experiment: the runtime has none)")  # fmt: skip
    ap.add_argument("--by", choices=("page", "domain"), default="page", help="folds by page or URL host")
    ap.add_argument("--reference", choices=("full", "fast", "output"), default=REFERENCE,
                    help="trafilatura's own run (fast or not), or its output run")  # fmt: skip
    ap.add_argument("--output", choices=("full", "fast", "output"), default=OUTPUT,
                    help="trafilatura's output run's mode (its text for pages handed to it)")  # fmt: skip
    ap.add_argument("--out", type=Path, default=REPO / "src/webferret/extract/models/blocks.npz")
    ap.add_argument("--no-export", action="store_true")
    args = ap.parse_args()
    PARAMS.update(args.params)

    pages = load_pages("multitype")
    if args.sample:
        pages = random.Random(0).sample(pages, args.sample)
    sets = {"multitype": pages, "articles": load_pages("articles")}
    mode = args.reference
    rows = dataset("multitype", pages, args.workers, mode)
    arows = dataset("articles", sets["articles"], args.workers, mode)
    separate_output = mode != "output" and args.output != mode
    if separate_output:
        rows = with_output(rows, dataset("multitype", pages, args.workers, args.output))
        arows = with_output(arows, dataset("articles", sets["articles"], args.workers, args.output))
    if not args.second:
        rows, arows = without_second(rows), without_second(arows)
    report("trafilatura (reference)", pages, {r["id"]: r["ref"] for r in rows})
    if separate_output:
        report("trafilatura (output run)", pages, {r["id"]: output_text(r) for r in rows})
    report("oracle labels", pages, texts_for(rows, None, 0, oracle=True))
    fold_of = folds_of([r["id"] for r in (rows + arows if args.articles else rows)], args.folds)
    if args.by == "domain":
        from lexical_cv import domain_folds

        fold_of = domain_folds(pages, args.folds)
    if args.lexical is not None:
        bits, c = (args.lexical + [18, 3.0][len(args.lexical) :])[:2]
        variant = lexical_fit.Variant(bits=int(bits), c=c)
        sets_rows = {"multitype": (pages, rows), "articles": (sets["articles"], arows)}
        rows, arows = lexical_fit.with_lexical(sets_rows, fold_of, variant, args.workers)
        print("  lexical column: out of fold by page (its models saw the other folds: see lexical_cv.py)")
    train = rows + arows if args.articles else rows
    model_inputs = (PARAMS, MAX_BLOCKS) if args.lexical is None else (PARAMS, MAX_BLOCKS, variant)
    params = hashlib.sha1(repr(model_inputs).encode()).hexdigest()[:6]
    pairs = args.stage_two or args.pairs
    tag = ("-second" if args.second else "") + ("-domain" if args.by == "domain" else "")
    key = f"stage1-{len(train)}-{args.folds}-{features_hash(mode)}-{params}{tag}"
    plain = CACHE / f"{key}-0.pkl"
    known = pickle.loads(plain.read_bytes())[0] if pairs and plain.exists() else None
    oof, outside = cached(f"{key}-{int(pairs)}", lambda: stage_one(train, fold_of, args.folds, pairs, known))
    probs = stage_two_cv(train, fold_of, oof, outside) if args.stage_two else oof
    for threshold in args.sweep:
        report_sets(
            f"  CV at {threshold}", sets if args.articles else {"multitype": pages}, train, probs, threshold
        )
    cv = report_sets(f"{args.folds}-fold CV", sets if args.articles else {"multitype": pages}, train, probs,
                     args.threshold)  # fmt: skip
    truths = {p.id: p.truth for p in pages}
    honest = {} if args.stage_two else outside
    prefer = chooser_cv(rows, fold_of, probs, honest, args.threshold, truths)
    leak = "" if pairs and not args.stage_two else " (chooser on out-of-fold inputs)"
    chosen = texts_chosen(rows, probs, args.threshold, prefer)
    cv["multitype, with chooser"] = report(f"{args.folds}-fold CV + chooser{leak}", pages, chosen)
    to = cached(f"routes-{len(pages)}", lambda: routes(pages, args.workers))
    cv["multitype, pipeline estimate"] = pipeline_estimate(pages, rows, chosen, to)
    if args.trim_sweep:
        declared = [r for r in rows if to.get(r["id"]) == "article"]
        trim_sweep("  CV, declared articles", pages, declared, probs, args.trim_sweep)
    if args.no_export or args.stage_two or args.lexical is not None:  # experiments: nothing to ship
        return
    blocks_with_x = [r for r in rows if r["x"] is not None]
    final_chooser = fit_chooser(*chooser_rows(blocks_with_x, probs, args.threshold, truths))
    export(final_chooser, chooser.N_PAGE_SIGNALS + 11, args.out.with_name("chooser.json"))
    first = fit(train)
    n_features = next(r["x"].shape[1] for r in train if r["x"] is not None)
    export(first, n_features, args.out)
    if not args.articles:
        aprobs = predict(first, arows)
        cv["articles (held out)"] = report(
            "held-out articles", sets["articles"], texts_at(arows, aprobs, args.threshold)
        )
        if args.trim_sweep:
            trim_sweep("held-out articles", sets["articles"], arows, aprobs, args.trim_sweep)
    summary = {
        "cv": cv,
        "params": PARAMS,
        "folds": args.folds,
        "articles": args.articles,
        "stage_two": args.stage_two,
    }
    if args.out != ap.get_default("out"):  # an experiment's models: its figures are in its log
        return
    (REPO / "bench" / "train_blocks.last.json").write_text(
        json.dumps(summary, indent=1, default=str), "utf-8"
    )


if __name__ == "__main__":
    main()
