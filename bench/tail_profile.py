"""Where a resident search's tail goes: per-phase timestamps of the last needed page, in one process.

    uv run python -m bench.tail_profile [--runs 10] [--quiet]

Starts the simulated internet (no namespace: its sites on loopback ports), then, in this process as
`webferret mcp` would (its workers forked first, one `Ferret` for every call), one untimed warm-up
search and `--runs` timed `web_search` tool calls (10 results, verified), each answer serialized as
the MCP SDK sends it. The fetch layer, the extractor and the store are wrapped (in this script
only) to timestamp each page: its response in, its block verdict, its hand-over to a worker and the
extraction back, its store write. For the page whose response came in last among the listed ones,
prints the phases from its response to the answer on the wire (ms), and how long the event loop
was busy with block verdicts while the responses arrived. A diagnostic, not a figure of the bench.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from bench.simweb.process import SimWeb, SimWebOptions
from webferret.extract.pool import run_extraction

QUERIES = ("rust ownership", "hiking with kids", "sqlite write ahead log", "climate data", "python asyncio")
Marks = dict[str, dict[str, float]]  # url -> phase -> time.perf_counter()
now = time.perf_counter


def _instrument(marks: Marks, verdicts: list[tuple[float, float]]) -> None:
    """Wrap the fetch, verdict, extraction and store steps to timestamp each page (by its URL); each
    wrapper passes on whatever the step takes (a wrapper that named the step's parameters broke every
    search when the step grew one)."""
    from webferret.extract import pool
    from webferret.fetch import fetcher, ladder
    from webferret.store import pages

    judge = ladder.judge

    def timed_judge(raw: Any, *rest: Any, **options: Any) -> Any:
        start = now()
        marks[raw.url].setdefault("in", start)
        verdict = judge(raw, *rest, **options)
        marks[raw.url]["verdict"] = end = now()
        verdicts.append((start, end))
        return verdict

    ladder.judge = timed_judge
    fetch = fetcher.Fetcher.fetch

    async def timed_fetch(self: Any, url: str, *rest: Any, **options: Any) -> Any:
        raw = await fetch(self, url, *rest, **options)
        marks[url]["fetched"] = now()
        return raw

    fetcher.Fetcher.fetch = timed_fetch  # type: ignore[method-assign]
    extract = pool.Extractor.extract

    async def timed_extract(self: Any, raw: Any, *rest: Any, **options: Any) -> Any:
        marks[raw.url]["to_worker"] = now()
        extracted = await extract(self, raw, *rest, **options)
        marks[raw.url]["from_worker"] = now()
        worker = extracted.extra.pop("_profile", None)
        if worker:
            marks[raw.url]["worker_start"], marks[raw.url]["worker_end"] = worker
        return extracted

    pool.Extractor.extract = timed_extract  # type: ignore[method-assign]
    pool.run_extraction = _timed_run
    put = pages.PageStore.put

    def timed_put(self: Any, page: Any, *rest: Any, **options: Any) -> Any:
        marks[page.url]["store_start"] = now()
        stored = put(self, page, *rest, **options)
        marks[page.url]["stored"] = now()
        return stored

    pages.PageStore.put = timed_put  # type: ignore[method-assign]


def _timed_run(body: bytes, url: str | None, content_type: str | None, options: Any) -> Any:
    """`run_extraction` with the worker's own start and end (module level: it is pickled by name)."""
    start = now()
    extracted, error = run_extraction(body, url, content_type, options)
    if extracted is not None:
        extracted.extra["_profile"] = (start, now())
    return extracted, error


def _instrument_answer(marks: Marks) -> None:
    """Timestamp the steps from the last page decided to the tool's answer (under the URL "")."""
    from webferret.mcp_tools import views
    from webferret.search import service

    verify_hits, render = service.verify_hits, views.render_search

    async def timed_verify(*args: Any, **kwargs: Any) -> Any:
        outcome = await verify_hits(*args, **kwargs)
        marks[""]["verified"] = now()
        return outcome

    def timed_render(*args: Any, **kwargs: Any) -> Any:
        marks[""]["render_start"] = now()
        text = render(*args, **kwargs)
        marks[""]["rendered"] = now()
        return text

    service.verify_hits = timed_verify
    views.render_search = timed_render


PHASES = (
    ("in", "verdict", "verdict (main process, incl. waiting for the loop)"),
    ("verdict", "fetched", "verdict to end of fetch"),
    ("fetched", "to_worker", "fetch end to hand-over"),
    ("to_worker", "worker_start", "hand-over to worker start (pickle, queue)"),
    ("worker_start", "worker_end", "extraction in the worker"),
    ("worker_end", "from_worker", "worker end to result in the loop (pickle back)"),
    ("from_worker", "page_done", "result to page decided"),
    ("from_worker", "store_start", "result to store write"),
    ("store_start", "stored", "store write (thread)"),
)


async def _session(runs: int, out: Callable[[str], None]) -> list[dict[str, float]]:
    from webferret.config import load_settings
    from webferret.ferret import Ferret
    from webferret.mcp_server import call_tool
    from webferret.mcp_tools import AgentTools
    from webferret.search import verify

    marks: Marks = defaultdict(dict)
    verdicts: list[tuple[float, float]] = []
    _instrument(marks, verdicts)
    arrived = verify.RankOrder.arrived

    def timed_arrived(self: Any, index: int, page: Any) -> None:
        marks[page.url]["page_done"] = now()
        arrived(self, index, page)

    verify.RankOrder.arrived = timed_arrived  # type: ignore[method-assign]
    _instrument_answer(marks)
    settings = load_settings()
    rows = []
    async with Ferret(settings) as ferret:
        tools = AgentTools(ferret, settings)
        _answered(await call_tool(tools, "web_search", {"query": "warm up", "results": 10}, "stdio"))
        for i in range(runs):
            marks.clear()
            verdicts.clear()
            query = f"{QUERIES[i % len(QUERIES)]} {i}"
            t0 = now()
            result = _answered(await call_tool(tools, "web_search", {"query": query, "results": 10}, "stdio"))
            answered = now()
            wire = result.model_dump_json(by_alias=True, exclude_none=True)
            sent = now()
            listed = [hit["url"] for hit in (result.structured_content or {}).get("results", [])]
            row = _row(marks, verdicts, listed, t0, answered, sent, len(wire))
            rows.append(row)
            out(" ".join(f"{k}={v:.1f}" for k, v in row.items()))
    return rows


def _answered(result: Any) -> Any:
    """`result`, or a stop with its error: a failed search has no page to profile."""
    if result.is_error:
        text = " ".join(getattr(part, "text", "") for part in result.content)
        raise SystemExit(f"tail_profile: web_search failed: {text}")
    return result


def _row(
    marks: Marks,
    verdicts: list[tuple[float, float]],
    listed: list[str],
    t0: float,
    answered: float,
    sent: float,
    size: int,
) -> dict[str, float]:
    """The phases of the listed page whose response came in last, in ms."""
    last = max(listed, key=lambda url: marks[url].get("in", 0.0))
    got = marks[last]
    row = {"wall": (sent - t0) * 1000, "tail": (sent - got["in"]) * 1000}
    for start, end, _ in PHASES:
        if start in got and end in got:
            row[f"{start}>{end}"] = (got[end] - got[start]) * 1000
    steps = marks[""]
    row["done>verified"] = (steps["verified"] - got["page_done"]) * 1000
    row["verified>render"] = (steps["render_start"] - steps["verified"]) * 1000
    row["render"] = (steps["rendered"] - steps["render_start"]) * 1000
    row["rendered>answered"] = (answered - steps["rendered"]) * 1000
    row["answered>serialized"] = (sent - answered) * 1000
    row["verdict_busy"] = sum(end - start for start, end in verdicts) * 1000
    row["verdict_max"] = max((end - start for start, end in verdicts), default=0.0) * 1000
    row["answer_kb"] = size / 1024
    return row


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.tail_profile")
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--quiet", action="store_true", help="only the medians")
    args = parser.parse_args()
    with SimWeb(SimWebOptions()) as web, tempfile.TemporaryDirectory() as home:
        os.environ.update(
            WEBFERRET_HOME=home,
            WEBFERRET_ALLOW_PRIVATE_HOSTS="true",
            WEBFERRET_SEARXNG_URL=web.manifest["searx"],
            WEBFERRET_ENGINES="searxng",
            WEBFERRET_ENGINE_MIN_INTERVAL="0",
            WEBFERRET_FRESH_SECONDS="0",  # every search fetches its pages (sites recur across queries)
            WEBFERRET_PER_HOST_CONCURRENCY="16",  # outside the namespace every site is one host, 127.0.0.1
        )
        from webferret.cli.common import start_early

        start_early(os.cpu_count() or 1, engines=True, spare_core=False)  # as `webferret mcp` does
        out = (lambda line: None) if args.quiet else (lambda line: print(line, file=sys.stderr))
        rows = asyncio.run(_session(args.runs, out))
    for key in rows[0]:
        values = [row[key] for row in rows if key in row]
        print(f"{key:24} median {statistics.median(values):7.1f}  [{min(values):.1f}-{max(values):.1f}]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
