"""Smoke test of the benchmark harness (issue 7): a tiny simulated internet on 127.0.0.1 and webferret
run through one small scenario. Checks the harness works, never how fast anything is."""

from __future__ import annotations

import asyncio
import importlib.util
import io
import json
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from bench import scenarios
from bench.figures import Bench, Series
from bench.report import Figure, markdown
from bench.simweb.corpus import shared_dir
from bench.simweb.http import CHUNK, Host, Pace, Response
from bench.simweb.process import SimWeb, SimWebOptions
from bench.tools import WebFerret

SHARED = shared_dir(Path(__file__).resolve().parents[1] / "bench" / "simweb" / "corpus.py")
pytestmark = pytest.mark.skipif(SHARED is None, reason="needs the shared/ folder beside the repository")
HAS_FETCHER = importlib.util.find_spec("webferret.fetch.fetcher") is not None


@pytest.fixture(scope="module")
def web() -> Iterator[SimWeb]:
    with SimWeb(SimWebOptions(sites=3, limit=6, instant=True)) as served:
        yield served


def _get(url: str) -> tuple[int, bytes, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read(), response.geturl()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read(), url


def test_sites_serve_pages_redirects_and_dead_links(web: SimWeb) -> None:
    manifest = web.manifest
    assert len([s for s in manifest["sites"] if s["kind"] != "dead"]) == 3
    status, body, _ = _get(manifest["live"][0])
    assert status == 200 and b"<html" in body[:2000].lower()
    status, _, final = _get(manifest["redirects"][0])
    assert status == 200 and "/a/" in final
    assert _get(manifest["missing"][0])[0] == 404
    with pytest.raises(OSError):
        urllib.request.urlopen(manifest["dead_host"][0], timeout=5)


def test_fake_searxng_answers_json_with_simulated_urls(web: SimWeb) -> None:
    status, body, _ = _get(web.manifest["searx"] + "/search?q=rust+ownership&format=json")
    results = json.loads(body)["results"]
    assert status == 200 and len(results) == 9  # 6 live pages, one redirect, one 404, one dead host
    known = set(web.manifest["live"] + web.manifest["redirects"] + web.manifest["missing"])
    assert {r["url"] for r in results} <= known | set(web.manifest["dead_host"])
    assert _get(web.manifest["searx"] + "/search?q=x")[0] == 403


def test_request_log_gives_the_critical_path(web: SimWeb) -> None:
    _get(web.manifest["searx"] + "/search?q=log&format=json")
    _get(web.manifest["live"][1])
    entries = web.requests(0, float("inf"))
    assert any(e["host"].startswith("searx.") for e in entries)
    assert scenarios.critical_path(entries) > 0
    fake = [
        {"host": "searx.x", "t0": 0, "t1": 0.3},
        {"host": "a", "t0": 0, "t1": 0.2},
        {"host": "b", "t0": 1, "t1": 1.5},
    ]
    assert scenarios.critical_path(fake) == pytest.approx(0.8)
    hung_up = {"host": "c", "t0": 1, "t1": 3, "abandoned": True}  # a spare the tool stopped waiting for
    assert scenarios.critical_path([*fake, hung_up]) == pytest.approx(0.8)


def test_a_redirect_and_the_request_it_leads_to_are_one_chain_of_the_critical_path(web: SimWeb) -> None:
    since = time.time()
    _get(web.manifest["redirects"][0])  # urllib follows the 301 to the page on the same site
    entries = web.requests(since, float("inf"))
    hop = next(e for e in entries if e["status"] == 301)
    landed = next(
        e for e in entries if e["host"] == hop["host"] and e["path"] == urlsplit(hop["location"]).path
    )
    assert scenarios.critical_path([hop, landed]) == pytest.approx(
        (hop["t1"] - hop["t0"]) + (landed["t1"] - landed["t0"])
    )
    fake = [
        {"host": "searx.x", "t0": 0, "t1": 0.3},
        {"host": "a", "path": "/go/1", "t0": 0.3, "t1": 0.5, "location": "http://a/a/1"},
        {"host": "a", "path": "/a/1", "t0": 0.55, "t1": 0.85},  # 0.2 + 0.3 after the redirect
        {"host": "b", "path": "/a/2", "t0": 0.3, "t1": 0.7},
        {"host": "a", "path": "/a/1", "t0": 0.3, "t1": 0.6},  # same URL asked directly: not chained
    ]
    assert scenarios.critical_path(fake) == pytest.approx(0.3 + 0.5)
    early = {**fake[2], "t0": 0.45}  # left before the redirect's answer was in: not led to by it
    assert scenarios.critical_path([fake[0], fake[1], early]) == pytest.approx(0.3 + 0.4)
    robots = [
        {"host": "searx.x", "t0": 0, "t1": 0.3},
        {"host": "a", "path": "/robots.txt", "t0": 0.3, "t1": 0.6},
        {"host": "a", "path": "/a/1", "t0": 0.61, "t1": 0.9},  # asked once robots.txt allowed it
        {"host": "b", "path": "/a/2", "t0": 0.3, "t1": 0.5},  # no robots.txt asked first: alone
    ]
    assert scenarios.critical_path(robots) == pytest.approx(0.3 + 0.3 + 0.29)


async def test_a_request_the_client_hung_up_on_is_not_on_the_critical_path() -> None:
    log = io.StringIO()
    host = Host("slow.example", lambda request: Response(200, b"late"), Pace(300, 0, 1 << 40), log, seed=0)
    server = await asyncio.start_server(host.serve, "127.0.0.1", 0)
    async with server:
        port = server.sockets[0].getsockname()[1]
        for hang_up in (True, False):
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(b"GET /a HTTP/1.1\r\nHost: slow.example\r\n\r\n")
            await writer.drain()
            if not hang_up:
                await reader.readuntil(b"late")
            writer.close()
            await asyncio.sleep(0.5)  # past the host's 300 ms latency: it has answered (or tried to)
    entries = [json.loads(line) for line in log.getvalue().splitlines()]
    answered = [entry for entry in entries if not entry.get("abandoned")]  # the hung-up one: not logged,
    assert len(answered) == 1 and answered[0]["bytes"] == 4  # or logged as abandoned when a write got out


async def test_a_paced_answer_is_logged_once_its_last_byte_left() -> None:
    """A request's logged end is when its last byte left: a client that has every byte finds its
    request in the log (before, the log came one chunk's transfer time later, and a slow host's
    request read just before a run ended was missing from that run's critical path)."""
    log = io.StringIO()
    body = b"x" * (3 * CHUNK)
    host = Host("slow.example", lambda request: Response(200, body), Pace(0, 0, 4 * CHUNK), log, seed=0)
    server = await asyncio.start_server(host.serve, "127.0.0.1", 0)
    async with server:
        reader, writer = await asyncio.open_connection("127.0.0.1", server.sockets[0].getsockname()[1])
        writer.write(b"GET /a HTTP/1.1\r\nHost: slow.example\r\n\r\n")
        await reader.readuntil(b"\r\n\r\n")
        started = time.time()
        await reader.readexactly(len(body))
        received = time.time()
        await asyncio.sleep(0.05)  # the server's task logs right after its last write
        writer.close()
    entries = [json.loads(line) for line in log.getvalue().splitlines()]
    assert len(entries) == 1
    assert entries[0]["t1"] <= received + 0.05
    assert received - started >= 0.5  # paced: 3 chunks at 4 chunks/s


def test_webferret_runs_through_a_tiny_scenario(web: SimWeb) -> None:
    bench = Bench(web, [WebFerret("webferret")], runs=1, timeout=60)
    try:
        helped = scenarios.cold_help(bench)["webferret"]
        fetched = scenarios.batch(bench, web.manifest["live"][:2])["webferret"]
    finally:
        bench.close()
    assert len(helped.values) == 1 and helped.values[0] > 0 and helped.extra["peak_rss_mb"][0] > 0
    assert len(fetched.values) + len(fetched.failures) == 1
    if fetched.failures and fetched.failures[0].startswith("exit -"):
        # webferret itself died of a signal (an intermittent SIGSEGV seen on 2026-11-30, reported to
        # the lead); the harness did its job by recording it.
        pytest.xfail(f"webferret fetch died: {fetched.failures[0]}")
    if HAS_FETCHER:
        assert fetched.values and fetched.extra["ok_pages"] == [2.0]


@pytest.mark.skipif(not HAS_FETCHER, reason="needs the fetch layer")
def test_resident_search_times_each_call_of_one_mcp_session(web: SimWeb) -> None:
    bench = Bench(web, [WebFerret("webferret")], runs=2, timeout=60)
    try:
        series = scenarios.resident_search(bench)["webferret"]
    finally:
        bench.close()
    assert not series.failures, series.failures
    assert len(series.values) == 2 and all(wall > 0 for wall in series.values)
    assert len(series.extra["overhead"]) == 2 and all(c > 0 for c in series.extra["critical"])


@pytest.mark.skipif(not HAS_FETCHER, reason="needs the fetch layer")
def test_served_search_runs_cli_calls_against_one_webferret_serve(web: SimWeb) -> None:
    bench = Bench(web, [WebFerret("webferret")], runs=1, timeout=60)
    try:
        series = scenarios.served_search(bench)["webferret"]
        leftover = list(bench.scratch.rglob("serve.sock"))
    finally:
        bench.close()
    assert not series.failures, series.failures
    assert len(series.values) == 1 and series.extra["critical"][0] > 0
    assert leftover == [], "the server is stopped and its socket removed after the figure"


def test_report_shows_ratios_to_webferret_and_reasons() -> None:
    ours, theirs, missing = Series(), Series(), Series(unsupported="it cannot reach a loopback web")
    ours.add(1.0)
    theirs.add(3.0)
    figure = Figure("batch8", "2. batch", "s", {"webferret": ours, "peer": theirs, "other": missing})
    table = markdown([figure], ["webferret", "peer", "other"], {"date": "d", "machine": "m", "runs": 1})
    assert "| 2. batch (s) | 1.00 | 3.00 (3.00×) | n/a¹ |" in table
    assert "cannot reach a loopback web" in table
