"""Where webferret's extraction time goes, stage by stage, as bench/extraction.py runs it (text output).

    uv run python bench/extraction_profile.py [--sets multitype] [--sample 300] [--cprofile N]

Each stage is a function of the pipeline wrapped with a timer (`time.perf_counter`; times are inclusive:
a stage's time holds the stages it calls). Per stage: mean ms over all pages, mean over the pages that
ran it and their share, median over all pages, and the mean over the slowest 10% of pages. With
--cprofile, the N functions with the most own time over the same pages (cProfile, a separate pass).
"""

from __future__ import annotations

import argparse
import cProfile
import functools
import pstats
import random
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import load_pages

from webferret.extract import blocks, chooser, classify, features, htmlpage, main_content, selector, trim
from webferret.extract.document import extract_document
from webferret.extract.types import ExtractOptions

TEXT = ExtractOptions(format="text")
_CURRENT: dict[str, float] = defaultdict(float)
CLOCK = {"clock": time.perf_counter}  # --cpu: time.process_time (this process's CPU time only)


def _timer(label: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(fn)
    def timed(*args: Any, **kwargs: Any) -> Any:
        clock = CLOCK["clock"]
        start = clock()
        try:
            return fn(*args, **kwargs)
        finally:
            _CURRENT[label] += clock() - start

    return timed


def _stages() -> list[tuple[str, ModuleType, str]]:
    """(label, module, attribute): every place a stage is looked up from."""
    return [
        ("parse", htmlpage, "parse_html"),
        ("metadata", htmlpage, "extract_metadata"),
        ("base_url", htmlpage, "base_url"),
        ("code blocks", htmlpage, "collect_code_blocks"),
        ("choose_main", htmlpage, "choose_main"),
        ("  tiny test", selector, "_tiny"),
        ("  article trim (article_drop)", trim, "article_drop"),
        ("  classifier (select)", main_content, "select"),
        ("    cut", main_content, "cut"),
        ("      clean", blocks, "clean"),
        ("      segment", blocks, "segment"),
        ("    features.matrix", features, "matrix"),
        ("      own columns", features, "_own_columns"),
        ("      flag columns", features, "_flag_columns"),
        ("      region", features, "_region"),
        ("      page signals", features, "page_signals"),
        ("    ensemble", main_content, "probabilities"),
        ("    chooser", chooser, "prefer_reference"),
        ("    assemble", main_content, "assemble"),
        ("  trafilatura run (once a page)", selector, "trafilatura_document"),
        ("  trim", trim, "trim"),
        ("  densest block", selector, "densest_block"),
        ("markdown", htmlpage, "to_markdown"),
        ("text", htmlpage, "to_text"),
        ("word count", htmlpage, "count_words"),
        ("main targets", htmlpage, "main_targets"),
        ("veto", classify, "veto"),
        ("page type", classify, "page_type"),
        ("quality", classify, "quality"),
        ("links", htmlpage, "page_links"),
    ]


def install() -> list[str]:
    labels = []
    for label, module, name in _stages():
        setattr(module, name, _timer(label, getattr(module, name)))
        labels.append(label)
    return labels


def run(pages: list) -> list[dict[str, float]]:
    out = []
    for page in pages:
        body = page.html().encode("utf-8")
        _CURRENT.clear()
        start = CLOCK["clock"]()
        extract_document(body, url=page.url, content_type="text/html; charset=utf-8", options=TEXT)
        _CURRENT["TOTAL"] = CLOCK["clock"]() - start
        out.append(dict(_CURRENT))
    return out


def report(rows: list[dict[str, float]], labels: list[str]) -> None:
    n = len(rows)
    slow = sorted(rows, key=lambda r: r["TOTAL"])[-max(1, n // 10) :]
    print(f"{n} pages; slowest 10%: {len(slow)} pages (from {slow[0]['TOTAL'] * 1000:.0f} ms)")
    print(f"{'stage':<36} {'mean':>7} {'median':>7} {'ran':>5} {'mean/ran':>8} {'slow10%':>8}")
    for label in ["TOTAL", *labels]:
        values = [r.get(label, 0.0) * 1000 for r in rows]
        ran = [v for r, v in zip(rows, values, strict=True) if label in r]
        slow_mean = statistics.fmean(r.get(label, 0.0) * 1000 for r in slow)
        print(
            f"{label:<36} {statistics.fmean(values):7.2f} {statistics.median(values):7.2f} "
            f"{len(ran) / n:5.0%} {statistics.fmean(ran) if ran else 0:8.2f} {slow_mean:8.2f}"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sets", default="multitype")
    ap.add_argument("--sample", type=int, default=300)
    ap.add_argument("--cpu", action="store_true", help="CPU time of this process, not wall time")
    ap.add_argument("--cprofile", type=int, default=0, help="also list the N functions with most own time")
    args = ap.parse_args()
    pages = []
    for dataset in args.sets.split(","):
        found = load_pages(dataset)
        if args.sample:
            found = sorted(random.Random(0).sample(found, min(args.sample, len(found))), key=lambda p: p.id)
        pages += found
    if args.cpu:
        CLOCK["clock"] = time.process_time
    run(pages[:20])  # warm-up: imports, model loads, caches
    if args.cprofile:
        profiler = cProfile.Profile()
        profiler.runcall(run, pages)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(args.cprofile)
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(args.cprofile)
        return
    labels = install()
    report(run(pages), labels)


if __name__ == "__main__":
    main()
