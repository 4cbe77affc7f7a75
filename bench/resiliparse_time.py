"""Time and score resiliparse's main-content text beside trafilatura's, page by page in turn.

    uv run python bench/resiliparse_time.py [--sample N]

For each page of both sets: trafilatura's reference run (`main_content.reference`, as the pipeline
calls it) and resiliparse's (`resiliparse_ref.second_reference_text`), each timed with
`time.perf_counter`; prints the median and p95 of both, their ratio, and each extractor's bow F1.
"""

from __future__ import annotations

import argparse
import gzip
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import evaluator, load_pages
from resiliparse_ref import second_reference_text

from webferret.extract import main_content


def timed(fn, *args) -> tuple[float, object]:
    start = time.perf_counter()
    out = fn(*args)
    return (time.perf_counter() - start) * 1000, out


def run(label: str, pages: list) -> None:
    ev = evaluator()
    t_ref, t_res, f_ref, f_res = [], [], [], []
    for p in pages:
        with gzip.open(p.html_path, "rt", encoding="utf8", errors="replace") as f:
            html = f.read()
        a, (ref, _) = timed(main_content.reference, html, p.url)
        b, res = timed(second_reference_text, html)
        t_ref.append(a)
        t_res.append(b)
        f_ref.append(ev.bow_prf(p.truth, ref)[2])
        f_res.append(ev.bow_prf(p.truth, res)[2])
    for name, t, f1 in (("trafilatura", t_ref, f_ref), ("resiliparse", t_res, f_res)):
        print(f"{label:<10} {name:<12} median {np.median(t):7.2f} ms  p95 {np.percentile(t, 95):7.2f} ms"
              f"  bow F1 {np.mean(f1):.4f}")  # fmt: skip
    print(f"{label:<10} resiliparse / trafilatura median time: {np.median(t_res) / np.median(t_ref):.3f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sample", type=int, help="only N multitype pages")
    args = ap.parse_args()
    pages = load_pages("multitype")
    if args.sample:
        pages = random.Random(0).sample(pages, args.sample)
    run("articles", load_pages("articles"))
    run("multitype", pages)


if __name__ == "__main__":
    main()
