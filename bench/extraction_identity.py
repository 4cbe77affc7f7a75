"""Same results check for speed work on the extractor: features, probabilities and every output field.

    uv run python bench/extraction_identity.py save NAME    # record the current code's results
    uv run python bench/extraction_identity.py check NAME   # compare the current code's with NAME's
    ... --sample 300                                        # a seeded sample of each set (as check's)

For every page of both benchmark sets (1,678): the block feature matrix (`main_content.analyse`,
float64 bytes) and the shipped ensemble's probabilities, compared with the cached training features
(`bench/.cache/<set>-<n>-<hash>.pkl`, float32) when present, and the whole pipeline's output
(`extract_document`, text and Markdown formats: content, Markdown, metadata, links, page type, quality).
Digests only are kept (bench/.cache/identity-NAME.json); `check` names every page and field that differs.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import pickle
import random
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import REPO, load_pages

from webferret.extract import main_content
from webferret.extract.document import extract_document
from webferret.extract.types import ExtractOptions

CACHE = REPO / "bench" / ".cache"
FORMATS = (ExtractOptions(format="text"), ExtractOptions(format="markdown"))


def _digest(data: bytes | str) -> str:
    return hashlib.sha1(data if isinstance(data, bytes) else data.encode("utf-8")).hexdigest()[:16]


def _cached_features(dataset: str, n: int) -> dict[str, np.ndarray | None]:
    """The training cache's feature matrices by page id (the newest cache file of the set), or {}."""
    files = sorted(CACHE.glob(f"{dataset}-{n}-*.pkl"), key=lambda p: p.stat().st_mtime)
    if not files:
        return {}
    return {row["id"]: row["x"] for row in pickle.loads(files[-1].read_bytes())}


def page_record(html: str, url: str | None) -> tuple[dict[str, str], np.ndarray | None]:
    """Digests of one page's features, probabilities and outputs, and its feature matrix."""
    record: dict[str, str] = {}
    analysis = main_content.analyse(html, url)
    x = None if analysis is None or not analysis.blocks else analysis.matrix
    if analysis is not None and analysis.blocks:
        record["features"] = _digest(np.ascontiguousarray(analysis.matrix, dtype=np.float64).tobytes())
        record["prob"] = _digest(main_content.probabilities(analysis).tobytes())
        mask = main_content.choice(analysis)
        record["choice"] = "deferred" if mask is None else _digest(mask.tobytes())
    body = html.encode("utf-8")
    for options in FORMATS:
        try:
            page = extract_document(body, url=url, content_type="text/html; charset=utf-8", options=options)
        except Exception as exc:  # an error is an output too
            record[f"{options.format}:error"] = f"{type(exc).__name__}: {exc}"
            continue
        for field, value in page.model_dump(mode="json").items():
            record[f"{options.format}:{field}"] = _digest(json.dumps(value, sort_keys=True))
    return record, x


def run(datasets: tuple[str, ...], sample: int = 0) -> tuple[dict[str, dict[str, str]], list[str]]:
    """Records of every page (or of a seeded sample of each set), and the pages whose features differ
    from the training cache."""
    records: dict[str, dict[str, str]] = {}
    cache_diffs: list[str] = []
    for dataset in datasets:
        pages = load_pages(dataset)
        cached = _cached_features(dataset, len(pages))
        if 0 < sample < len(pages):
            pages = sorted(random.Random(0).sample(pages, sample), key=lambda p: p.id)
        for i, page in enumerate(pages):
            html = page.html()
            key = f"{dataset}/{page.id}"
            records[key], x = page_record(html, page.url)
            if cached and not _same_as_cache(x, cached.get(page.id)):
                cache_diffs.append(key)
            if i % 200 == 199:
                print(f"  {dataset}: {i + 1} pages", file=sys.stderr, flush=True)
        print(f"{dataset}: {len(pages)} pages; cache {'compared' if cached else 'absent'}", file=sys.stderr)
    return records, cache_diffs


def _same_as_cache(x: np.ndarray | None, cached: np.ndarray | None) -> bool:
    if x is None or cached is None:
        return x is None and cached is None
    x = x.astype(np.float32)
    return x.shape == cached.shape and x.tobytes() == cached.tobytes()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mode", choices=("save", "check"))
    ap.add_argument("name")
    ap.add_argument("--sets", default="articles,multitype")
    ap.add_argument("--sample", type=int, default=0, help="a seeded sample of N pages of each set (0: all)")
    args = ap.parse_args()
    path = CACHE / f"identity-{args.name}.json"
    records, cache_diffs = run(tuple(args.sets.split(",")), args.sample)
    print(f"features differing from the training cache: {len(cache_diffs)} pages {cache_diffs[:10]}")
    if args.mode == "save":
        CACHE.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(records, indent=0, sort_keys=True), "utf-8")
        print(f"saved {len(records)} pages to {path}")
        return
    saved = json.loads(path.read_text("utf-8"))
    diffs = [
        f"{key} {field}"
        for key in sorted(set(saved) | set(records))
        for field in sorted(set(saved.get(key, {})) | set(records.get(key, {})))
        if saved.get(key, {}).get(field) != records.get(key, {}).get(field)
    ]
    print(f"{len(records)} pages compared with {path.name}: {len(diffs)} differences")
    for line in diffs[:40]:
        print("  " + line)
    sys.exit(1 if diffs or cache_diffs else 0)


if __name__ == "__main__":
    main()
