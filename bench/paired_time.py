"""CPU time of the extraction, page by page, of two source trees of webferret side by side.

    uv run python bench/paired_time.py OLD_SRC [NEW_SRC] [--sets multitype,articles] [--sample 300]

OLD_SRC and NEW_SRC (default: this checkout's src/) are `src` folders, e.g. of a `git worktree` at an
older commit. Each tree runs in a worker process of its own (this environment's Python, the tree first on
its path); every page goes to both in turn, the order alternating, so both see the same machine state.
A worker times `extract_document` (text output) with `time.process_time`. Prints per set each tree's
mean and median ms, the ratio of the totals and the median of the per-page ratios.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import REPO, load_pages

WORKER = """
import gzip, json, sys, time, warnings
from webferret.extract.document import extract_document
from webferret.extract.types import ExtractOptions
from webferret.models import FerretError
warnings.filterwarnings("ignore")
options = ExtractOptions(format="text")
print("ready", flush=True)
for line in sys.stdin:
    path, url = json.loads(line)
    with gzip.open(path, "rb") as f:
        body = f.read()
    start = time.process_time()
    try:
        extract_document(body, url=url, content_type="text/html", options=options)
    except FerretError:
        pass
    print(json.dumps(time.process_time() - start), flush=True)
"""


class Worker:
    """One source tree's extraction in a process of its own."""

    def __init__(self, src: Path) -> None:
        env = {"PYTHONPATH": str(src), "PATH": "/usr/bin:/bin"}
        self.proc = subprocess.Popen(
            [sys.executable, "-c", WORKER], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env
        )
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.stdin, self.stdout = self.proc.stdin, self.proc.stdout
        if self.stdout.readline().strip() != "ready":
            raise SystemExit(f"the worker of {src} did not start")

    def time(self, page: object) -> float:
        """CPU ms of one page's extraction."""
        self.stdin.write(json.dumps([str(page.html_path), page.url]) + "\n")  # type: ignore[attr-defined]
        self.stdin.flush()
        return json.loads(self.stdout.readline()) * 1000

    def close(self) -> None:
        self.stdin.close()
        self.proc.wait()


def compare(name: str, pages: list, old: Worker, new: Worker) -> None:
    for page in pages[:5]:  # warm both (imports, models, caches)
        old.time(page), new.time(page)
    t_old: list[float] = []
    t_new: list[float] = []
    for i, page in enumerate(pages):
        pair = ((old, t_old), (new, t_new)) if i % 2 == 0 else ((new, t_new), (old, t_old))
        for worker, times in pair:
            times.append(worker.time(page))
    ratios = [b / a for a, b in zip(t_old, t_new, strict=True) if a > 0]
    print(
        f"{name:<10} {len(pages)} pages  old mean {statistics.mean(t_old):6.1f} median"
        f" {statistics.median(t_old):6.1f}  new mean {statistics.mean(t_new):6.1f} median"
        f" {statistics.median(t_new):6.1f}  total new/old {sum(t_new) / sum(t_old):.3f}"
        f"  per-page median {statistics.median(ratios):.3f}"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("old", type=Path)
    ap.add_argument("new", type=Path, nargs="?", default=REPO / "src")
    ap.add_argument("--sets", default="multitype,articles")
    ap.add_argument("--sample", type=int, default=300, help="a fixed random sample of N pages per set")
    args = ap.parse_args()
    old, new = Worker(args.old.resolve()), Worker(args.new.resolve())
    try:
        for name in args.sets.split(","):
            pages = load_pages(name)
            pages = random.Random(0).sample(pages, min(args.sample, len(pages)))
            compare(name, pages, old, new)
    finally:
        old.close()
        new.close()


if __name__ == "__main__":
    main()
