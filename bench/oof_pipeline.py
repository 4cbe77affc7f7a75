"""The whole pipeline run end to end with out-of-fold models, on the multitype set (figures only).

    uv run python bench/oof_pipeline.py [--features eef30f7e] [--params KEY=VALUE,...]
                                        [--variant NAME MODULE.ATTR=VALUE ...]

For each of `train_blocks.py`'s 5 folds by page, a block model is fit on the other folds' pages (the
shipped model's features and parameters), and a page-level chooser as `train_blocks.py --pairs` fits
it for that fold (on the other folds' pages, from block models that never saw the fold); both are
cached as bench/.cache/oof-{blocks,chooser}-<hash>-<fold>.json. Then every multitype page is extracted
by webferret's whole pipeline (`extract_document`, plain text) with its fold's models in place of the
shipped ones, and scored with the shared evaluator. Unlike the estimates of `train_blocks.py` (which
stand trafilatura's cached reference text in for what a page routed to trafilatura gets), this runs the
code as shipped: the routing of declared articles and tiny pages, the trims, the extension, the
unwrapping and the text rendering. Each `--variant` reruns the extraction with module attributes set (a
rule switched off or moved), so its effect is measured the same honest way, e.g.

    uv run python bench/oof_pipeline.py --variant no-rescue webferret.extract.trim.REJECTED_KEEP=0

The texts are kept for a page-by-page look: the shipped code's as bench/.cache/oof-pipeline-texts.pkl,
each variant's as oof-pipeline-texts-<NAME>.pkl (a dict of page id to text).

`--params` fits the fold block models with other tree parameters (`train_blocks.py`'s syntax; their
own cache, oof-blocks-<hash>-p<params>-<fold>.json, and texts oof-pipeline-texts-p<params>.pkl) and
keeps the folds' choosers as they are: a chooser that learned from the shipped parameters' block
models, so a figure that says whether other trees would carry the pipeline, not a retrained one.

Needs the caches of `bench/train_blocks.py --pairs` (its rows and stage one) for the feature hash.
"""

from __future__ import annotations

import argparse
import ast
import gzip
import hashlib
import importlib
import pickle
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import train_blocks as T
from common import evaluator, load_pages

from webferret.extract import main_content


def _setup(blocks: str, chooser_path: str, settings: list[tuple[str, str, object]]) -> None:
    """A worker's start: its fold's block model and chooser instead of the shipped ones, and the
    variant's settings."""
    from webferret.extract import chooser, classifier

    model, pick = classifier.load(Path(blocks)), classifier.load(Path(chooser_path))
    main_content.load_default = lambda: model  # type: ignore[assignment]
    chooser.model = lambda: pick  # type: ignore[assignment]
    for module, attr, value in settings:
        setattr(importlib.import_module(module), attr, value)


def _extract(job: tuple[str, str, str]) -> tuple[str, str]:
    from webferret.extract.document import extract_document
    from webferret.extract.types import ExtractOptions
    from webferret.models import FerretError

    page_id, path, url = job
    if path.endswith(".gz"):
        with gzip.open(path, "rb") as f:
            raw = f.read()
    else:
        raw = Path(path).read_bytes()
    try:
        page = extract_document(
            raw, url=url, content_type="text/html; charset=utf-8", options=ExtractOptions(format="text")
        )
    except FerretError:
        return page_id, ""
    return page_id, page.content


def fold_models(rows: list[dict], fold_of: dict[str, int], features: str, tag: str = "") -> dict[int, Path]:
    paths = {}
    for fold in sorted(set(fold_of.values())):
        path = T.CACHE / f"oof-blocks-{features}{tag}-{fold}.json"
        if not path.exists():
            train = [r for r in rows if fold_of[r["id"]] != fold]
            model = T.fit(train)
            n_features = next(r["x"].shape[1] for r in rows if r["x"] is not None)
            T.export(model, n_features, path)
        paths[fold] = path
    return paths


def fold_choosers(pages: list, rows: list[dict], fold_of: dict[str, int], features: str) -> dict[int, Path]:
    """Per fold, the page-level chooser fit as `train_blocks.py --pairs` fits it for that fold: on the
    other folds' pages, from block models that never saw the fold (its stage-one cache)."""
    cache = next(T.CACHE.glob(f"stage1-{len(pages)}-5-{features}-*-1.pkl"), None)
    if cache is None:
        raise SystemExit("no stage-one cache: run bench/train_blocks.py --pairs first")
    oof, outside = pickle.loads(cache.read_bytes())
    truths = {p.id: p.truth for p in pages}
    rows = [r for r in rows if r["x"] is not None]
    paths = {}
    for fold in sorted(set(fold_of.values())):
        path = T.CACHE / f"oof-chooser-{features}-{fold}.json"
        if not path.exists():
            train = [r for r in rows if fold_of[r["id"]] != fold]
            x, f_cls, f_ref = T.chooser_rows(train, outside.get(fold) or oof, main_content.THRESHOLD, truths)
            T.export(T.fit_chooser(x, f_cls, f_ref), x.shape[1], path)
        paths[fold] = path
    return paths


def run(pages: list, fold_of: dict[str, int], models: dict[int, tuple[Path, Path]], settings: list) -> dict:
    texts: dict[str, str] = {}
    for fold, (blocks, chooser) in models.items():
        jobs = [(p.id, str(p.html_path), p.url) for p in pages if fold_of.get(p.id) == fold]
        with ProcessPoolExecutor(
            2, initializer=_setup, initargs=(str(blocks), str(chooser), settings)
        ) as pool:
            texts.update(pool.map(_extract, jobs, chunksize=8))
    return texts


def parse_setting(text: str) -> tuple[str, str, object]:
    """`module.attr=value`, the value a Python literal (`0.2`, `()`, `False`)."""
    target, _, value = text.partition("=")
    module, _, attr = target.rpartition(".")
    return module, attr, ast.literal_eval(value)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--features", default="eef30f7e", help="feature hash of the cached rows to fit on")
    ap.add_argument("--params", type=T.parse_params, default={}, metavar="KEY=VALUE,...",
                    help="the fold block models' tree parameters over train_blocks.PARAMS")  # fmt: skip
    ap.add_argument("--variant", nargs="+", action="append", default=[], metavar="NAME SETTING")
    args = ap.parse_args()
    T.PARAMS.update(args.params)
    tag = (
        f"-p{hashlib.sha1(repr(sorted(args.params.items())).encode()).hexdigest()[:6]}" if args.params else ""
    )
    pages = load_pages("multitype")
    rows = T.without_second(
        pickle.loads((T.CACHE / f"multitype-{len(pages)}-{args.features}.pkl").read_bytes())
    )
    fold_of = T.folds_of([r["id"] for r in rows], 5)
    blocks, choosers = (
        fold_models(rows, fold_of, args.features, tag),
        fold_choosers(pages, rows, fold_of, args.features),
    )
    models = {fold: (blocks[fold], choosers[fold]) for fold in blocks}
    ev = evaluator()
    base = run(pages, fold_of, models, [])
    T.report(f"shipped code{tag and ', block models ' + repr(args.params)}, out-of-fold", pages, base)
    for name, *settings in args.variant:
        texts = run(pages, fold_of, models, [parse_setting(s) for s in settings])
        T.report(f"{name}, out-of-fold", pages, texts)
        changed = [p for p in pages if texts[p.id] != base[p.id]]
        deltas = [ev.bow_prf(p.truth, texts[p.id])[2] - ev.bow_prf(p.truth, base[p.id])[2] for p in changed]
        better, worse = sum(d > 1e-9 for d in deltas), sum(d < -1e-9 for d in deltas)
        print(
            f"  {len(changed)} pages change, {better} better, {worse} worse: {sum(deltas) / len(pages):+.4f}"
        )
        (T.CACHE / f"oof-pipeline-texts-{name}.pkl").write_bytes(pickle.dumps(texts))
    out = T.CACHE / f"oof-pipeline-texts{tag}.pkl"
    out.write_bytes(pickle.dumps(base))


if __name__ == "__main__":
    main()
