"""Smoke test of the benchmark harness (issue 7): a tiny simulated internet on 127.0.0.1 and webferret
run through one small scenario. Checks the harness works, never how fast anything is."""

from __future__ import annotations

import importlib.util
import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from bench import scenarios
from bench.figures import Bench, Series
from bench.report import Figure, markdown
from bench.simweb.corpus import shared_dir
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


def test_report_shows_ratios_to_webferret_and_reasons() -> None:
    ours, theirs, missing = Series(), Series(), Series(unsupported="it cannot reach a loopback web")
    ours.add(1.0)
    theirs.add(3.0)
    figure = Figure("batch8", "2. batch", "s", {"webferret": ours, "peer": theirs, "other": missing})
    table = markdown([figure], ["webferret", "peer", "other"], {"date": "d", "machine": "m", "runs": 1})
    assert "| 2. batch (s) | 1.00 | 3.00 (3.00×) | n/a¹ |" in table
    assert "cannot reach a loopback web" in table
