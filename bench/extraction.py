"""Extraction quality and speed: webferret next to trafilatura and readability-lxml, in the same run.

    uv run python bench/extraction.py [--sample N] [--sets articles,multitype] [--out PATH] [--fast-output]

Both sets come from ../shared/bench and are scored with the shared evaluator (imported by path): the
article set (181 pages, shingle F1) and the multitype dev split (1,497 pages, bow F1, per page type).
Writes <out>.json (all figures) and <out>.md (the Markdown table for the README). The extractors run
page by page in turn, so the load of a shared machine weighs on their times alike.
"webferret" is the whole pipeline (`extract_document`, text output). Its block classifier was trained
on the multitype dev split, so its figures there are in-sample: report the cross-validated figure of
bench/train_blocks.py for that set; the article set was never trained on.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import REPO, check_sets, evaluator, load_pages, unwritable

from webferret.extract.document import extract_document
from webferret.extract.types import ExtractOptions

EXTRACTORS = ("webferret", "trafilatura", "trafilatura-precision", "readability")


def webferret_text(html: str, url: str | None) -> str:
    """webferret's whole extraction pipeline, plain-text output (the ground truths are plain text)."""
    body = html.encode("utf-8")
    page = extract_document(body, url=url, content_type="text/html; charset=utf-8", options=TEXT)
    return page.content


TEXT = ExtractOptions(format="text")


def extractor(name: str):
    """(version, function(html, url) -> text) for one extractor."""
    if name == "webferret":
        from importlib.metadata import version

        return version("webferret"), webferret_text
    try:
        return evaluator().make_extractor(name)
    except ImportError as exc:
        raise SystemExit(f"{name} cannot run here: {exc} (install it in this environment)") from None


def check_extractors(names: list[str]) -> None:
    """Stop, naming the known extractors, if one of `names` is none of them (the shared evaluator's
    own message points at an option this script does not have)."""
    known = ("webferret", *evaluator().EXTRACTORS)
    unknown = [name for name in names if name not in known]
    if unknown:
        raise SystemExit(f"no such extractor: {', '.join(unknown)} (known: {', '.join(known)})")


def check_out(out: Path) -> None:
    """Stop before measuring if `out`'s folder cannot be made or written (the run only wrote at its end)."""
    problem = unwritable(out.parent)
    if problem:
        raise SystemExit(f"--out {out}: {problem}")


def run_interleaved(pages: list, fns: dict) -> dict[str, tuple[dict, list[float], int]]:
    """Every extractor on every page, page by page (so a busy spell of a shared machine weighs on all
    extractors alike): per extractor its texts, times and error count."""
    out: dict[str, tuple[dict, list[float], int]] = {name: ({}, [], 0) for name in fns}
    for page in pages:
        html = page.html()
        for name, fn in fns.items():
            preds, times, errors = out[name]
            start = time.perf_counter()
            try:
                text = fn(html, page.url) or ""
            except Exception as exc:  # one bad page must not stop the run
                out[name] = (preds, times, errors + 1)
                print(f"  {name} {page.id}: {type(exc).__name__}: {exc}"[:200], file=sys.stderr)
                text = ""
            times.append(time.perf_counter() - start)
            preds[page.id] = text
    return out


def run_set(dataset: str, sample: int | None, names: tuple[str, ...]) -> list[dict]:
    ev = evaluator()
    pages = load_pages(dataset)
    if sample:
        pages = sorted(random.Random(0).sample(pages, min(sample, len(pages))), key=lambda p: p.id)
    made = {name: extractor(name) for name in names}
    runs = run_interleaved(pages, {name: fn for name, (_, fn) in made.items()})
    results = []
    for name in names:
        preds, times, errors = runs[name]
        res = ev.score(pages, preds, 200, 0)
        ms = sorted(t * 1000 for t in times)
        p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
        res.update(name=name, version=made[name][0], dataset=dataset, errors=errors,
                   ms_median=statistics.median(ms), ms_p95=p95)  # fmt: skip
        print(f"{dataset:<10} {name:<22} shingle F1 {res['shingle_f1']:.3f}  bow F1 {res['bow_f1']:.3f}  "
              f"median {res['ms_median']:.1f} ms  p95 {res['ms_p95']:.1f} ms", flush=True)  # fmt: skip
        results.append(res)
    return results


def table(results: list[dict]) -> str:
    """The Markdown tables of a run."""
    lines = ["| set | extractor | P | R | F1 | bow F1 | ms median / p95 |", "|---|---|---|---|---|---|---|"]
    for r in results:
        metric = "shingle" if r["dataset"] == "articles" else "bow"
        lines.append(
            f"| {r['dataset']} ({r['pages']}) | {r['name']} {r['version']} | {r[f'{metric}_p']:.3f} | "
            f"{r[f'{metric}_r']:.3f} | {r[f'{metric}_f1']:.3f} | {r['bow_f1']:.3f} | "
            f"{r['ms_median']:.0f} / {r['ms_p95']:.0f} |"
        )
    typed = [r for r in results if r.get("bow_f1_by_type")]
    if typed:
        kinds = list(typed[0]["bow_f1_by_type"])
        lines += [
            "",
            "| extractor (multitype bow F1) | " + " | ".join(kinds) + " |",
            "|---" * (len(kinds) + 1) + "|",
        ]
        for r in typed:
            cells = " | ".join(f"{r['bow_f1_by_type'][k][1]:.3f}" for k in kinds)
            lines.append(f"| {r['name']} | {cells} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sample", type=int, help="a fixed random sample of N pages per set")
    ap.add_argument("--sets", default="articles,multitype")
    ap.add_argument("--extractors", default=",".join(EXTRACTORS))
    ap.add_argument("--out", type=Path, default=REPO / "bench" / "results" / "extraction")
    ap.add_argument("--fast-output", action="store_true", help="trafilatura's output run in its fast mode")
    args = ap.parse_args()
    if args.fast_output:
        from webferret.extract import selector

        selector.FAST_OUTPUT = True
    sets = check_sets(args.sets.split(","))
    check_out(args.out)
    names = tuple(args.extractors.split(","))
    check_extractors(list(names))
    results = []
    for dataset in sets:
        results += run_set(dataset, args.sample, names)
    meta = {"date": time.strftime("%Y-%m-%d", time.gmtime()), "machine": platform.platform(),
            "python": platform.python_version(), "sample": args.sample}  # fmt: skip
    args.out.with_suffix(".json").write_text(
        json.dumps({"meta": meta, "results": results}, indent=1), "utf-8"
    )
    args.out.with_suffix(".md").write_text(table(results), "utf-8")
    print(table(results))


if __name__ == "__main__":
    main()
