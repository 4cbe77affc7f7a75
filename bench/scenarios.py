"""The six figures of issue 7, each a function of a `Bench` (the web and the tools) and the URLs."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from bench.figures import Bench, Series
from bench.measure import Resident, Sample
from bench.tools import Tool
from webferret.handoff import ping

QUERIES = ("rust ownership", "hiking with kids", "sqlite write ahead log", "climate data", "python asyncio")


def search_verify(bench: Bench) -> dict[str, Series]:
    """Search (fake SearXNG) and fetch every result; overhead over searx + slowest page request."""
    searx: str = bench.web.manifest["searx"]
    rounds = iter(range(10**6))

    def job(tool: Tool, series: Series) -> None:
        query = QUERIES[next(rounds) % len(QUERIES)]
        command = tool.search(query, searx, bench.home())
        if isinstance(command, str):
            series.unsupported = command
            return
        steps = [bench.sample(command)]
        if not tool.search_verifies:
            fetch = tool.fetch(tool.search_urls(steps[0].stdout), bench.home())
            if isinstance(fetch, str):
                series.unsupported = f"search works, verification cannot: {fetch}"
                return
            steps.append(bench.sample(fetch))
        _record(bench, series, steps)

    return bench.each(job)


def resident_search(bench: Bench) -> dict[str, Series]:
    """Search + verify through one long-lived session (webferret: `webferret mcp` over stdio):
    `runs` timed calls after an untimed warm-up call, each with its own query (so no call is
    answered from the pages an earlier one stored), each call's wall time and overhead recorded."""
    searx: str = bench.web.manifest["searx"]
    queries = [
        QUERIES[i % len(QUERIES)] + (f" {i // len(QUERIES)}" if i >= len(QUERIES) else "")
        for i in range(bench.runs)
    ]

    def job(tool: Tool, series: Series) -> None:
        command = tool.resident_search(queries, searx, bench.home())
        if isinstance(command, str):
            series.unsupported = command
            return
        sample = bench.sample(command)
        calls = [json.loads(line) for line in sample.stdout.splitlines() if line.startswith("{")]
        if not calls or not all(call["ok"] and call["results"] for call in calls):
            series.failures.append(f"exit {sample.returncode}: {sample.stderr.strip()[-200:]}")
            return
        for call in calls:
            _add(bench, series, call["t1"] - call["t0"], call["t0"], call["t1"])

    return bench.each(job, runs=1)


def served_search(bench: Bench) -> dict[str, Series]:
    """Figure 1's search + verify CLI commands while the tool's resident server runs (webferret:
    `webferret serve` on a socket of this figure): started once, waited for until it answers, one
    untimed warm-up call, then `runs` timed calls with the queries of figure 1; stopped after."""
    searx: str = bench.web.manifest["searx"]

    def job(tool: Tool, series: Series) -> None:
        socket = str(Path(tempfile.mkdtemp(dir=bench.scratch)) / "serve.sock")  # mkdtemp: mode 0700
        command = tool.serve(socket, bench.home())
        if isinstance(command, str):
            series.unsupported = command
            return
        server = Resident(command)
        try:
            why = server.wait_until(lambda: ping(socket), bench.timeout)
            if why:
                series.failures.append(f"webferret serve: {why}")
                return
            bench.sample(tool.served_search(QUERIES[0] + " warm up", searx, bench.home(), socket))
            for i in range(bench.runs):
                query = QUERIES[i % len(QUERIES)]
                _record(bench, series, [bench.sample(tool.served_search(query, searx, bench.home(), socket))])
        finally:
            server.stop()

    return bench.each(job, runs=1)


def _record(bench: Bench, series: Series, steps: list[Sample]) -> None:
    if any(not step.stdout.strip() for step in steps):
        series.failures.append(f"exit {[s.returncode for s in steps]}: {steps[-1].stderr.strip()[-200:]}")
        return
    _add(bench, series, sum(step.wall for step in steps), steps[0].started, steps[-1].ended)


def _add(bench: Bench, series: Series, wall: float, since: float, until: float) -> None:
    """One search's wall time, with the critical path of the requests made between `since` and
    `until` and the overhead over it."""
    entries = bench.web.requests(since, until)
    critical, single = critical_path(entries), critical_path(entries, chains=False)
    series.add(
        wall,
        critical=critical,
        overhead=(wall - critical) / critical if critical else 0.0,
        overhead_single=(wall - single) / single if single else 0.0,  # before redirects were chained
    )


def critical_path(entries: list[dict[str, Any]], chains: bool = True) -> float:
    """The search request's time plus the longest chain of page requests, each as the server saw it.

    A chain is a request and the redirects that led to it (or its host's robots.txt, asked first by a
    client that honours it): a redirect's next hop cannot leave before its answer is in, so its time is
    network wait as much as the slowest single request's. (The gap
    between two hops, the client's own work, is not counted.) A request the client hung up on (a spare
    it no longer needed) was not waited on: it does not count. `chains=False`: the slowest single
    page request instead (this bench's measure before 2026-12-01)."""
    entries = [e for e in entries if not e.get("abandoned")]
    searx = [e["t1"] - e["t0"] for e in entries if e["host"].startswith("searx.")]
    pages = sorted((e for e in entries if not e["host"].startswith("searx.")), key=lambda e: e["t0"])
    hosts = {e["host"] for e in pages}
    chained: list[float] = []
    for index, entry in enumerate(pages):
        before = [
            chained[i] for i, hop in enumerate(pages[:index]) if chains and _leads_to(hop, entry, hosts)
        ]
        chained.append(entry["t1"] - entry["t0"] + max(before, default=0.0))
    return (max(searx) if searx else 0.0) + max(chained, default=0.0)


# a redirect's end is logged once its sender is scheduled again, which can be just after the server
# read the next hop it led to
LOG_SLACK = 0.005


def _leads_to(hop: dict[str, Any], entry: dict[str, Any], hosts: set[str]) -> bool:
    """Whether `hop` is a redirect answered before `entry` left, pointing at `entry`'s URL (a
    Location naming no host of the log, such as 127.0.0.1:port outside the namespace, is hop's own),
    or its host's robots.txt, answered before `entry` left: a client that honours robots.txt (an agent's
    fetch, `webferret mcp`) cannot ask for a page before that answer is in."""
    if hop["t1"] > entry["t0"] + LOG_SLACK:
        return False
    if hop.get("path") == "/robots.txt":
        return hop["host"] == entry["host"] and entry.get("path") != "/robots.txt"
    location = hop.get("location")
    if not location:
        return False
    parts = urlsplit(location)
    host = parts.hostname if parts.hostname in hosts else hop["host"]
    target = parts.path + (f"?{parts.query}" if parts.query else "")
    return host == entry["host"] and target == entry["path"]


def batch(bench: Bench, urls: list[str]) -> dict[str, Series]:
    """Fetch a batch of pages in one process: wall time (and peak RSS)."""
    return bench.timed(lambda tool, home: tool.fetch(urls, home), urls)


def throughput(bench: Bench, urls: list[str]) -> dict[str, Series]:
    """Fetch many URLs in one process: pages per second (URLs given ÷ wall; every tool gets the same
    URLs, ten of them broken) and peak RSS; pages read are kept where the tool reports them."""
    return bench.timed(lambda tool, home: tool.fetch(urls, home), urls, lambda s, ok: len(urls) / s.wall)


def cold_help(bench: Bench) -> dict[str, Series]:
    return bench.timed(lambda tool, home: tool.help(), [])


def cold_fetch(bench: Bench, url: str) -> dict[str, Series]:
    return bench.timed(lambda tool, home: tool.fetch([url], home), [url])


def output_tokens(bench: Bench, urls: list[str]) -> dict[str, Series]:
    """Tokens of each tool's default text output for the same pages (summed over `urls`)."""
    from webferret.tokens import estimate_tokens

    def job(tool: Tool, series: Series) -> None:
        total = 0
        for url in urls:
            command = tool.fetch_text(url, bench.home())
            if isinstance(command, str):
                series.unsupported = command
                return
            sample = bench.sample(command)
            if not sample.stdout.strip():
                series.failures.append(f"{url}: exit {sample.returncode}: {sample.stderr.strip()[-200:]}")
                return
            total += estimate_tokens(sample.stdout)
        series.add(float(total))

    return bench.each(job, runs=1)


def net_overhead(searched: dict[str, Series], helped: dict[str, Series]) -> dict[str, Series]:
    """Search+verify overhead once the tool's own process start (its `--help` median) is taken off."""
    out: dict[str, Series] = {}
    for name, series in searched.items():
        start = helped.get(name, Series()).median()
        net = Series(unsupported=series.unsupported, failures=list(series.failures))
        if start is not None:
            for wall, critical in zip(series.values, series.extra.get("critical", []), strict=True):
                if critical:
                    net.add((wall - start - critical) / critical)
        out[name] = net
    return out
