"""The router with injected engines: canned answers through the real runner, no network."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path

import httpx
import pytest

from webferret.models import ErrorCode, FerretError, Hit
from webferret.net.canonical import dedup_key
from webferret.search.engines import wikipedia
from webferret.search.engines._common import make_hit
from webferret.search.pacing import Pacer
from webferret.search.router import Router, parse_bangs
from webferret.search.runner import EngineRunner
from webferret.search.types import Engine, EngineQuery, EngineResponse, RequestSpec, SearchOptions

Behaviour = Callable[[RequestSpec], Awaitable[EngineResponse]]


def answer(*urls: str, status: int = 200, headers: dict[str, str] | None = None) -> Behaviour:
    async def send(spec: RequestSpec) -> EngineResponse:
        return EngineResponse(status=status, headers=headers or {}, text=json.dumps(list(urls)))

    return send


def fake_engine(name: str, behaviour: Behaviour, calls: list[EngineQuery], site: str | None = None) -> Engine:
    def build(query: EngineQuery) -> RequestSpec:
        calls.append(query)
        return RequestSpec(url=f"https://{name}.invalid/search", params={"q": query.with_site_operator()})

    def parse(body: str, query: EngineQuery) -> list[Hit]:
        return [
            make_hit(name, rank, url, f"{name} {rank}") for rank, url in enumerate(json.loads(body), start=1)
        ]

    async def send(spec: RequestSpec, timeout: float) -> EngineResponse:
        return await behaviour(spec)

    return Engine(name=name, group=name, build_request=build, parse_response=parse, send=send, site=site)


@pytest.fixture
async def client() -> httpx.AsyncClient:
    async with httpx.AsyncClient() as c:
        yield c


def router(client: httpx.AsyncClient, engines: list[Engine], pacer: Pacer | None = None) -> Router:
    return Router({e.name: e for e in engines}, EngineRunner(client, pacer, min_interval=0))


def test_parse_bangs() -> None:
    assert parse_bangs("!gh tokio runtime") == ("tokio runtime", "github.com")
    assert parse_bangs("ferrets !w") == ("ferrets", "wikipedia.org")
    assert parse_bangs("no bangs here") == ("no bangs here", None)


async def test_engines_run_in_parallel(client: httpx.AsyncClient) -> None:
    """Each engine waits for the other to have started: sequential runs would time out."""
    started = {"a": asyncio.Event(), "b": asyncio.Event()}

    def waiting(me: str, other: str) -> Behaviour:
        async def send(spec: RequestSpec) -> EngineResponse:
            started[me].set()
            await started[other].wait()
            return EngineResponse(status=200, headers={}, text=json.dumps([f"https://{me}.org/"]))

        return send

    calls: list[EngineQuery] = []
    r = router(
        client, [fake_engine("a", waiting("a", "b"), calls), fake_engine("b", waiting("b", "a"), calls)]
    )
    outcome = await r.search("q", SearchOptions(engines=("a", "b"), engine_timeout=5))
    assert [report.ok for report in outcome.reports] == [True, True]
    assert {hit.url for hit in outcome.hits} == {"https://a.org/", "https://b.org/"}


async def test_a_failing_engine_never_fails_the_search(client: httpx.AsyncClient) -> None:
    async def hang(spec: RequestSpec) -> EngineResponse:
        await asyncio.sleep(60)
        raise AssertionError("not reached")

    calls: list[EngineQuery] = []
    engines = [
        fake_engine("good", answer("https://good.org/"), calls),
        fake_engine("broken", answer(status=404), calls),
        fake_engine("slow", hang, calls),
    ]
    outcome = await router(client, engines).search(
        "q", SearchOptions(engines=("good", "broken", "slow"), engine_timeout=0.3)
    )
    reports = {report.name: report for report in outcome.reports}
    assert reports["good"].ok and reports["good"].count == 1
    assert reports["broken"].error is not None and reports["broken"].error.code == ErrorCode.ENGINE_ERROR
    assert "HTTP 404" in reports["broken"].error.message
    assert reports["slow"].error is not None and reports["slow"].error.code == ErrorCode.TIMEOUT
    assert [hit.url for hit in outcome.hits] == ["https://good.org/"]


async def test_auto_falls_back_on_error_and_empty_answer(client: httpx.AsyncClient, tmp_path: Path) -> None:
    calls: list[EngineQuery] = []
    engines = [
        fake_engine("duckduckgo", answer(status=429, headers={"retry-after": "120"}), calls),
        fake_engine("brave", answer(), calls),
        fake_engine("mojeek", answer("https://m.org/"), calls),
        fake_engine("wikipedia", answer("https://w.org/"), calls),
    ]
    pacer = Pacer(tmp_path / "pacing.sqlite")
    outcome = await router(client, engines, pacer).search("q", SearchOptions(engines=("auto",)))
    assert [(r.name, r.ok, r.count) for r in outcome.reports] == [
        ("duckduckgo", False, 0),
        ("brave", True, 0),
        ("mojeek", True, 1),
    ]
    assert outcome.reports[0].error is not None and outcome.reports[0].error.code == ErrorCode.RATE_LIMITED
    assert [hit.url for hit in outcome.hits] == ["https://m.org/"]
    # the rate limit is remembered: the next search does not ask duckduckgo at all
    asked = len(calls)
    again = await router(client, engines, pacer).search("q", SearchOptions(engines=("duckduckgo",)))
    assert len(calls) == asked
    assert again.reports[0].error is not None and again.reports[0].error.retry_after is not None


async def test_bang_routes_to_the_site_engine_then_site_filters(client: httpx.AsyncClient) -> None:
    calls: list[EngineQuery] = []
    engines = [
        fake_engine("github", answer(), calls, site="github.com"),
        fake_engine("duckduckgo", answer("https://github.com/x/y"), calls),
    ]
    outcome = await router(client, engines).search("!gh tokio", SearchOptions(engines=("auto",)))
    assert [q.text for q in calls] == ["tokio", "tokio"]
    assert calls[1].with_site_operator() == "tokio site:github.com"
    assert outcome.site == "github.com" and outcome.hits[0].url == "https://github.com/x/y"


async def test_a_wikipedia_edition_as_site_searches_that_edition(client: httpx.AsyncClient) -> None:
    """`--site de.wikipedia.org`: the German edition is asked (not the English one, whose articles the
    site filter would all leave out); `notwikipedia.org` and `www.wikipedia.org` name none."""
    asked: list[str] = []

    async def send(spec: RequestSpec, timeout: float) -> EngineResponse:
        asked.append(spec.url)
        return EngineResponse(
            status=200, headers={}, text=json.dumps({"pages": [{"key": "Frettchen", "title": "F"}]})
        )

    engine = replace(wikipedia.ENGINE, send=send)
    for site in ("de.wikipedia.org", "https://de.wikipedia.org/wiki/X"):
        options = SearchOptions(engines=("wikipedia",), site=site)
        outcome = await router(client, [engine]).search("frettchen", options)
        assert [hit.url for hit in outcome.hits] == ["https://de.wikipedia.org/wiki/Frettchen"]
    await router(client, [engine]).search("x", SearchOptions(engines=("wikipedia",), site="notwikipedia.org"))
    await router(client, [engine]).search(
        "x", SearchOptions(engines=("wikipedia",), site="www.wikipedia.org")
    )
    assert [url.split("/w/")[0] for url in asked] == ["https://de.wikipedia.org"] * 2 + [
        "https://en.wikipedia.org"
    ] * 2


async def test_explicit_site_wins_over_a_bang(client: httpx.AsyncClient) -> None:
    calls: list[EngineQuery] = []
    engines = [fake_engine("duckduckgo", answer("https://docs.rs/"), calls)]
    await router(client, engines).search("!gh tokio", SearchOptions(engines=("duckduckgo",), site="docs.rs"))
    assert calls[0].with_site_operator() == "tokio site:docs.rs"


async def test_unknown_engine_and_empty_query_are_argument_errors(client: httpx.AsyncClient) -> None:
    r = router(client, [fake_engine("a", answer(), [])])
    with pytest.raises(FerretError) as caught:
        await r.search("q", SearchOptions(engines=("nope",)))
    assert caught.value.code == ErrorCode.INVALID_ARGUMENT and "nope" in caught.value.message
    with pytest.raises(FerretError):
        await r.search("!gh", SearchOptions(engines=("a",)))


async def test_a_server_error_is_retried_once(client: httpx.AsyncClient) -> None:
    statuses = [502, 200]

    async def flaky(spec: RequestSpec) -> EngineResponse:
        status = statuses.pop(0)
        return EngineResponse(status=status, headers={}, text=json.dumps(["https://ok.org/"]))

    outcome = await router(client, [fake_engine("f", flaky, [])]).search("q", SearchOptions(engines=("f",)))
    assert outcome.reports[0].ok and statuses == []


async def test_engine_weights_decide_the_fused_order(client: httpx.AsyncClient) -> None:
    calls: list[EngineQuery] = []
    engines = [
        fake_engine("a", answer("https://one.org/", "https://two.org/"), calls),
        fake_engine("b", answer("https://two.org/", "https://one.org/"), calls),
    ]
    even = await router(client, engines).search("q", SearchOptions(engines=("a", "b")))
    assert [hit.url for hit in even.hits] == ["https://one.org/", "https://two.org/"]  # a tie: first seen
    weighted = SearchOptions(engines=("a", "b"), weights={"b": 2.0})
    outcome = await router(client, engines).search("q", weighted)
    assert [hit.url for hit in outcome.hits] == ["https://two.org/", "https://one.org/"]


async def test_engine_weights_name_engines_in_any_case(client: httpx.AsyncClient) -> None:
    """A weight named with capitals (`Wikipedia`, as a model or a caller writes it, as the engines
    themselves are read) weighs its engine; it was refused as an unknown engine."""
    engines = [
        fake_engine("a", answer("https://one.org/", "https://two.org/"), []),
        fake_engine("b", answer("https://two.org/", "https://one.org/"), []),
    ]
    weighted = SearchOptions(engines=("A", "B"), weights={" B": 2.0})
    outcome = await router(client, engines).search("q", weighted)
    assert [hit.url for hit in outcome.hits] == ["https://two.org/", "https://one.org/"]


async def test_a_weight_for_an_unknown_engine_is_an_invalid_argument(client: httpx.AsyncClient) -> None:
    engines = [fake_engine("a", answer("https://one.org/"), [])]
    with pytest.raises(FerretError) as info:
        await router(client, engines).search("q", SearchOptions(engines=("a",), weights={"bing": 2.0}))
    assert info.value.info().code == ErrorCode.INVALID_ARGUMENT and "bing" in str(info.value)


async def test_site_keeps_only_results_on_that_site(client: httpx.AsyncClient) -> None:
    """An engine that ignores `site:` must not leak other hosts into a `--site` search."""
    calls: list[EngineQuery] = []
    urls = (
        "https://docs.rs/tokio",
        "https://blog.example/tokio",
        "https://api.docs.rs/x",
        "https://xdocs.rs/",
    )
    engines = [fake_engine("duckduckgo", answer(*urls), calls)]
    outcome = await router(client, engines).search(
        "tokio", SearchOptions(engines=("duckduckgo",), site="docs.rs")
    )
    assert [hit.url for hit in outcome.hits] == ["https://docs.rs/tokio", "https://api.docs.rs/x"]
    assert any("2 results not on docs.rs" in warning for warning in outcome.warnings)
    bang = await router(client, engines).search("!w tokio", SearchOptions(engines=("duckduckgo",)))
    assert bang.hits == [] and bang.warnings


async def test_a_site_in_punycode_keeps_its_results_in_either_spelling(client: httpx.AsyncClient) -> None:
    """`--site xn--bcher-kva.de` is read as `bücher.de` (the merge's spelling): its results written in
    Punycode, as engines give them, were all left out as not on the site."""
    calls: list[EngineQuery] = []
    urls = ("https://xn--bcher-kva.de/a", "https://shop.bücher.de/b", "https://other.de/c")
    engines = [fake_engine("duckduckgo", answer(*urls), calls)]
    for site in ("xn--bcher-kva.de", "bücher.de"):
        outcome = await router(client, engines).search("x", SearchOptions(engines=("duckduckgo",), site=site))
        assert {dedup_key(hit.url) for hit in outcome.hits} == {"bücher.de/a", "shop.bücher.de/b"}, site


async def test_a_site_written_with_www_keeps_the_sites_results(client: httpx.AsyncClient) -> None:
    urls = (
        "https://github.com/a/b",
        "https://www.github.com/c/d",
        "https://gist.github.com/e",
        "https://x.org/",
    )
    engines = [fake_engine("duckduckgo", answer(*urls), [])]
    options = SearchOptions(engines=("duckduckgo",), site="www.github.com")
    outcome = await router(client, engines).search("q", options)
    assert [hit.url for hit in outcome.hits] == list(urls[:3])


async def test_site_given_as_a_url_filters_by_its_host(client: httpx.AsyncClient) -> None:
    engines = [fake_engine("duckduckgo", answer("https://docs.rs/a", "https://b.example/"), [])]
    options = SearchOptions(engines=("duckduckgo",), site="https://docs.rs/tokio/")
    outcome = await router(client, engines).search("tokio", options)
    assert [hit.url for hit in outcome.hits] == ["https://docs.rs/a"]


async def test_auto_moves_on_when_an_engine_answers_only_off_site(client: httpx.AsyncClient) -> None:
    calls: list[EngineQuery] = []
    engines = [
        fake_engine("duckduckgo", answer("https://off.example/"), calls),
        fake_engine("brave", answer("https://docs.rs/tokio"), calls),
    ]
    options = SearchOptions(engines=("auto",), site="docs.rs")
    outcome = await router(client, engines).search("tokio", options)
    assert [hit.url for hit in outcome.hits] == ["https://docs.rs/tokio"]
    assert any(w.startswith("duckduckgo: 1 result not on docs.rs") for w in outcome.warnings)


async def test_waiting_for_a_turn_is_not_the_engines_time(client: httpx.AsyncClient, tmp_path: Path) -> None:
    """Four searches at once, 0.3 s apart by pacing, each engine answering at once: the last waits
    0.9 s for its turn, past its 0.5 s engine_timeout, and still gets its answer."""
    calls: list[EngineQuery] = []
    engine = fake_engine("a", answer("https://a.org/"), calls)
    paced = Router({"a": engine}, EngineRunner(client, Pacer(tmp_path / "pacing.sqlite"), min_interval=0.3))
    options = SearchOptions(engines=("a",), engine_timeout=0.5)
    outcomes = await asyncio.gather(*(paced.search(f"q{n}", options) for n in range(4)))
    assert [[report.ok for report in outcome.reports] for outcome in outcomes] == [[True]] * 4


async def test_a_home_that_cannot_hold_the_pacing_file_stops_the_search(client: httpx.AsyncClient) -> None:
    calls: list[EngineQuery] = []
    engine = fake_engine("a", answer("https://a.org/"), calls)
    paced = Router({"a": engine}, EngineRunner(client, Pacer(Path("/proc/nothere/pacing.sqlite"))))
    with pytest.raises(FerretError) as raised:
        await paced.search("q", SearchOptions(engines=("a",)))
    assert raised.value.code == ErrorCode.INVALID_ARGUMENT and "setting home" in raised.value.message
    assert calls == []  # no engine was blamed, nor asked


async def test_a_damaged_pacing_file_is_named_as_such(client: httpx.AsyncClient, tmp_path: Path) -> None:
    """The home is fine, its file is not: the error says to delete the file, not to change the home."""
    (tmp_path / "pacing.sqlite").write_bytes(b"not a database at all, " * 300)
    calls: list[EngineQuery] = []
    paced = Router(
        {"a": fake_engine("a", answer("https://a.org/"), calls)},
        EngineRunner(client, Pacer(tmp_path / "pacing.sqlite")),
    )
    with pytest.raises(FerretError) as raised:
        await paced.search("q", SearchOptions(engines=("a",)))
    assert raised.value.code == ErrorCode.INVALID_ARGUMENT and "delete it" in raised.value.message
    assert "setting home" not in raised.value.message and calls == []


async def test_an_engine_named_twice_is_asked_once(client: httpx.AsyncClient) -> None:
    calls: list[EngineQuery] = []
    r = router(client, [fake_engine("a", answer("https://a.org/"), calls)])
    outcome = await r.search("q", SearchOptions(engines=("a", "a"), engine_timeout=5))
    assert len(calls) == 1 and [report.name for report in outcome.reports] == ["a"]


@pytest.mark.parametrize("names", [("auto", "wikipedia"), ("wikipedia", "auto")])
async def test_an_engine_named_beside_auto_is_asked_once_whatever_auto_does(
    client: httpx.AsyncClient, names: tuple[str, ...]
) -> None:
    """Wikipedia is in the `auto` chain, which stops at DuckDuckGo's answer: named on its own it is
    still asked, in either order, and only once."""
    calls: list[EngineQuery] = []
    engines = [
        fake_engine("duckduckgo", answer("https://d.org/"), calls),
        fake_engine("wikipedia", answer("https://w.org/"), calls),
    ]
    outcome = await router(client, engines).search("q", SearchOptions(engines=names))
    assert sorted(report.name for report in outcome.reports) == ["duckduckgo", "wikipedia"]
    assert len(calls) == 2
    assert {hit.url for hit in outcome.hits} == {"https://d.org/", "https://w.org/"}


async def test_an_engine_s_time_leaves_out_its_wait_for_its_turn(
    client: httpx.AsyncClient, tmp_path: Path
) -> None:
    """`engines[].elapsed_ms` counted the wait for the engine's pacing slot: an engine answering at
    once was reported as taking the whole interval since the search before."""
    engines = [fake_engine("wikipedia", answer("https://w.org/"), [])]
    runner = EngineRunner(client, Pacer(tmp_path / "pacing.sqlite"), min_interval=2.0)
    paced = Router({engine.name: engine for engine in engines}, runner)
    await paced.search("q", SearchOptions(engines=("wikipedia",)))
    again = await paced.search("q", SearchOptions(engines=("wikipedia",)))  # waits about 2 s for its turn
    assert again.reports[0].ok and again.reports[0].elapsed_ms < 1000
