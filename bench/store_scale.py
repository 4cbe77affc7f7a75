"""Benchmark: the page store at scale (a benchmark, not a test).

Fills a store with N synthetic pages (default 100,000; Zipf-distributed words, so query terms have
realistic frequencies), then times, at the median over many calls:
- a handle lookup (`PageStore.get`), and
- a passage search (`PageStore.find`, n=5) with 2-3 word queries mixing common and rarer words.

    uv run python bench/store_scale.py [--pages 100000] [--dir DIR] [--runs 300] [--fallback]

The store is built in a temporary directory unless --dir names one (reused when it already holds
the asked number of pages).
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import tempfile
import time
from pathlib import Path

from webferret.models import Page
from webferret.store.handles import handle_for
from webferret.store.pages import PageStore

VOCABULARY = 20_000
BATCH = 500


def _words(rng: random.Random) -> list[str]:
    syllables = ["ka", "lo", "mi", "ne", "ru", "ta", "vo", "shi", "dra", "pel", "qui", "zen", "bor", "fa"]
    words: set[str] = set()
    while len(words) < VOCABULARY:
        words.add("".join(rng.choice(syllables) for _ in range(rng.randint(2, 4))))
    return sorted(words)


def _page(i: int, rng: random.Random, words: list[str], cumulative: list[float]) -> Page:
    paragraphs = []
    for _ in range(rng.randint(3, 8)):
        body = rng.choices(words, cum_weights=cumulative, k=rng.randint(40, 120))
        paragraphs.append(" ".join(body).capitalize() + ".")
    title = " ".join(rng.choices(words, cum_weights=cumulative, k=4))
    content = f"# {title}\n\n" + "\n\n".join(paragraphs)
    return Page(url=f"https://site{i % 997}.example/page/{i}", ok=True, title=title, content=content)


def fill(store: PageStore, pages: int, seed: int = 7) -> float:
    rng = random.Random(seed)
    words = _words(rng)
    cumulative = list(itertools.accumulate(1.0 / (rank + 1) for rank in range(len(words))))
    started = time.perf_counter()
    for start in range(0, pages, BATCH):
        batch = [_page(i, rng, words, cumulative) for i in range(start, min(start + BATCH, pages))]
        store.put_many([(page, {}) for page in batch])
        if start and start % 10_000 == 0:
            print(f"  {start:,} pages stored ({time.perf_counter() - started:.0f} s)", flush=True)
    return time.perf_counter() - started


def _median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def measure(store: PageStore, pages: int, runs: int = 300, seed: int = 11) -> dict[str, float]:
    rng = random.Random(seed)
    words = _words(random.Random(7))
    urls = [f"https://site{i % 997}.example/page/{i}" for i in rng.sample(range(pages), runs)]
    handles = [handle_for(url) for url in urls]
    lookups = []
    for handle in handles:
        started = time.perf_counter()
        assert store.get(handle) is not None
        lookups.append(time.perf_counter() - started)
    searches = []
    for _ in range(runs):
        query = " ".join([rng.choice(words[:200]), rng.choice(words[200:5000]), rng.choice(words[5000:])])
        started = time.perf_counter()
        store.find(query, n=5)
        searches.append(time.perf_counter() - started)
    return {
        "lookup_median_ms": _median_ms(lookups),
        "lookup_p95_ms": statistics.quantiles(lookups, n=20)[18] * 1000,
        "find_median_ms": _median_ms(searches),
        "find_p95_ms": statistics.quantiles(searches, n=20)[18] * 1000,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--pages", type=int, default=100_000)
    parser.add_argument("--dir", type=Path)
    parser.add_argument("--fallback", action="store_true", help="search without FTS5")
    parser.add_argument("--runs", type=int, default=300, help="timed calls of each kind")
    args = parser.parse_args()
    home = args.dir or Path(tempfile.mkdtemp(prefix="webferret-bench-"))
    store = PageStore.in_home(home, fts=not args.fallback)
    have = store.stats().pages
    if have != args.pages:
        store.clear()
        print(f"filling {home} with {args.pages:,} pages ...", flush=True)
        print(f"filled in {fill(store, args.pages):.0f} s")
    stats = store.stats()
    size = f"{stats.bytes / 1e6:.0f} MB"
    print(f"store: {stats.pages:,} pages, {stats.passages:,} passages, {size}, {stats.search}")
    for name, value in measure(store, args.pages, runs=args.runs).items():
        print(f"{name}: {value:.2f}")
    store.close()


if __name__ == "__main__":
    main()
