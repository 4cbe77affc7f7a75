"""`--time` and `--region`: what each engine is asked, which engines run, and the dates kept.

End to end through a real searx on loopback: the instance asks only the upstream engines that can
limit results by time, and webferret leaves out results dated before the period.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from search_harness import FakeWeb, SearxServer

from webferret.cli import main
from webferret.ferret import Ferret
from webferret.mcp_tools import WebSearchArgs
from webferret.models import ErrorCode, FerretError, Hit
from webferret.search.engines import ddgs_text, github, reddit, registry, searxng, wikipedia
from webferret.search.router import Router, within
from webferret.search.runner import EngineRunner
from webferret.search.types import EngineQuery, SearchOptions, since

NOW = datetime(2026, 12, 1, 9, 30, tzinfo=UTC)


def test_each_engine_is_asked_for_the_period_and_the_region() -> None:
    query = EngineQuery(text="ferrets", time_range="week", region="at-de", base_url="http://127.0.0.1:8888")
    params = searxng.build_request(query).params
    assert params["time_range"] == "week" and params["language"] == "de-AT"
    assert reddit.build_request(query).params["t"] == "week"
    assert ddgs_text.build_request("duckduckgo", query).data == {
        "q": "ferrets",
        "b": "",
        "l": "at-de",
        "df": "w",
    }
    pushed = github.build_request(EngineQuery(text="ferrets", time_range="month")).params["q"]
    assert pushed.startswith("ferrets pushed:>=20")
    assert wikipedia.build_request(query).url.startswith("http://127.0.0.1:8888")  # a mirror as given
    assert wikipedia.build_request(EngineQuery(text="x", region="at-de")).url.startswith("https://de.wiki")


@pytest.mark.parametrize(
    ("region", "edition", "language"),
    [
        ("jp-jp", "ja", "ja-JP"),
        ("kr-kr", "ko", "ko-KR"),
        ("uk-en", "en", "en-GB"),
        ("tw-tzh", "zh", "zh-TW"),
        ("hk-tzh", "zh", "zh-HK"),
        ("sl-sl", "sl", "sl-SI"),
        ("xa-ar", "ar", "ar"),  # Arabia: no one country
        ("ch-fr", "fr", "fr-CH"),
    ],
)
def test_a_region_as_duckduckgo_spells_it_is_read_as_iso_codes(
    region: str, edition: str, language: str
) -> None:
    """Wikipedia and SearXNG get the ISO language and country; DuckDuckGo gets its own spelling."""
    query = EngineQuery(text="x", region=SearchOptions(region=region.upper()).region)
    assert wikipedia.build_request(query).url.startswith(f"https://{edition}.wikipedia.org/")
    searx = EngineQuery(text="x", region=region, base_url="http://127.0.0.1:8888")
    assert searxng.build_request(searx).params["language"] == language
    assert ddgs_text.build_request("duckduckgo", query).data == {"q": "x", "b": "", "l": region}
    assert WebSearchArgs(query="x", region=region).region == region  # the MCP tool takes it too


@pytest.mark.parametrize("region", ["us-eng", "de-xyz"])
def test_a_three_letter_language_other_than_tzh_is_refused(region: str) -> None:
    """Taking every three letters for tw-tzh sent `us-eng` on to eng.wikipedia.org, a host that is not."""
    from webferret.models import FerretError

    with pytest.raises(FerretError, match="a country and a language"):
        SearchOptions(region=region)


@pytest.mark.parametrize(
    ("written", "meant"),
    [("en-us", "us-en"), ("pt-br", "br-pt"), ("zh-tw", "tw-tzh"), ("en-gb", "uk-en"), ("ja-jp", "jp-jp")],
)
def test_a_region_written_language_first_is_refused_naming_duckduckgos(written: str, meant: str) -> None:
    """`en-us` (a language tag's order) was taken as the country `en` and the language `us`: Wikipedia
    was asked at us.wikipedia.org, a host that is not, SearXNG for the language `us-EN`, Brave for
    the country `en`."""
    from webferret.models import FerretError

    with pytest.raises(FerretError, match=f"did you mean {meant}\\?"):
        SearchOptions(region=written)
    with pytest.raises(FerretError, match=f"did you mean {meant}\\?"):
        SearchOptions(region=written.upper())


@pytest.mark.parametrize("region", ["de-de", "uk-en", "es-ca", "ca-fr", "sl-sl", "xa-ar", "pk-en", "zz-qq"])
def test_a_region_duckduckgo_knows_or_none_reads_backwards_is_taken(region: str) -> None:
    assert SearchOptions(region=region).region == region


def test_without_a_period_or_region_the_requests_are_as_before() -> None:
    query = EngineQuery(text="ferrets", base_url="http://127.0.0.1:8888")
    assert "time_range" not in searxng.build_request(query).params
    assert "language" not in searxng.build_request(query).params
    assert reddit.build_request(query).params["t"] == "all"
    assert ddgs_text.build_request("duckduckgo", query).data == {"q": "ferrets", "b": "", "l": "us-en"}
    assert wikipedia.build_request(EngineQuery(text="x", region="wt-wt")).url.startswith("https://en.wiki")
    assert searxng.language("wt-wt") == "all"


def test_the_table_of_time_limited_ddgs_backends_matches_the_installed_ddgs() -> None:
    for name in ddgs_text.BACKENDS:
        try:
            plain = ddgs_text.build_request(name, EngineQuery(text="ferrets"))
        except FerretError:  # a backend the installed ddgs ships disabled
            continue
        timed = ddgs_text.build_request(name, EngineQuery(text="ferrets", time_range="day"))
        assert (timed != plain) == (name in ddgs_text.TIME_LIMITED), name
        assert registry()[name].time_ranges == (name in ddgs_text.TIME_LIMITED)


@pytest.mark.parametrize(
    ("overrides", "named"),
    [
        ({"time_range": "fortnight"}, "time range 'fortnight': one of day, week"),
        ({"region": "german"}, "region"),
    ],
)
def test_a_bad_period_or_region_is_refused_by_name(overrides: dict[str, str], named: str) -> None:
    with pytest.raises(FerretError) as caught:
        SearchOptions(**overrides)
    assert caught.value.code == ErrorCode.INVALID_ARGUMENT and named in caught.value.message
    assert SearchOptions(region="DE-de").region == "de-de"


def router() -> Router:
    return Router(registry(), EngineRunner(client=None, pacer=None))  # type: ignore[arg-type]  (none is sent)


def test_engines_that_cannot_limit_by_time_are_left_out() -> None:
    r = router()
    chain = r.plan(["auto"], None, searxng=False)
    assert chain == [["duckduckgo", "brave", "mojeek", "wikipedia"]]
    assert r.timed(chain, "week") == ([["duckduckgo", "brave"]], [])
    slots, warnings = r.timed(r.plan(["reddit", "wikipedia"], None, False), "day")
    assert slots == [["reddit"]] and warnings == [
        "wikipedia left out: it cannot limit results to the past day"
    ]
    with pytest.raises(FerretError) as caught:
        r.timed(r.plan(["wikipedia", "mojeek"], None, False), "year")
    assert caught.value.code == ErrorCode.INVALID_ARGUMENT
    assert caught.value.message.startswith("wikipedia, mojeek cannot limit results to the past year")
    assert "duckduckgo" in caught.value.message


def test_results_dated_before_the_period_are_left_out() -> None:
    def hit(name: str, published: str | None) -> Hit:
        return Hit(url=f"https://example.org/{name}", published=published)

    hits = [hit("new", "2026-11-28T10:00:00+00:00"), hit("old", "2026-10-01"), hit("undated", None)]
    kept, warnings = within(hits, "week", NOW)
    assert [h.url.rsplit("/", 1)[-1] for h in kept] == ["new", "undated"]
    assert warnings == ["1 result dated before 2026-11-23 left out (--time week)"]
    assert since("day", NOW).isoformat() == "2026-11-29"


def test_cli_time_year_through_a_real_searx(
    tmp_path: Path, searx: SearxServer, fake_web: FakeWeb, capsys: pytest.CaptureFixture[str]
) -> None:
    """searx skips its upstreams that cannot limit by time (its JSON engine: not asked) and asks the
    YaCy one (`time_range_support` in its settings); both of its results are from January 2024."""
    asked = len(fake_web.server.queries)
    argv = ["search", "ferret", "facts", "--engines", "searxng", "--searxng-url", searx.url, "--time", "year"]
    code = main([*argv, "--no-verify", "--json", "--home", str(tmp_path)])
    envelope = json.loads(capsys.readouterr().out)
    assert code == 0 and envelope["ok"] is True
    assert envelope["data"]["results"] == []
    assert any("2 results dated before" in w and "(--time year)" in w for w in envelope["data"]["warnings"])
    assert len(fake_web.server.queries) == asked  # the upstream without time support was not asked


async def test_a_searxng_result_dated_only_in_its_snippet_is_dated_and_kept_to_the_period(
    tmp_path: Path, fake_web: FakeWeb, engine_fixtures: Path
) -> None:
    """A real SearXNG answer whose Google results are dated only in their snippets (`30 Jan 2025 ...
    Succession`, `publishedDate: null`): they were undated, so `--time` kept results from 2022."""
    body = (engine_fixtures / "searxng/search_format-json_severance.json").read_text()
    fake_web.server.canned["/severance/search"] = (200, body, "application/json")
    async with Ferret(home=tmp_path, searxng_url=f"{fake_web.base}/severance", engine_min_interval=0) as f:
        every = await f.search("severance", f.search_options(engines=("searxng",), verify=False))
        recent = await f.search(
            "severance", f.search_options(engines=("searxng",), verify=False, time_range="year")
        )
    assert [hit.published for hit in every.results][:2] == ["2025-01-30", "2022-04-22"]
    assert every.results[0].snippet.startswith("Succession, best acting")
    this_year = since("year", datetime.now(UTC)).isoformat()
    assert [hit.published for hit in recent.results] == [
        hit.published for hit in every.results if hit.published and hit.published >= this_year
    ]
    assert any("dated before" in warning for warning in recent.warnings)


async def test_without_a_period_the_same_search_keeps_them(tmp_path: Path, searx: SearxServer) -> None:
    async with Ferret(home=tmp_path, searxng_url=searx.url, engine_min_interval=0) as ferret:
        result = await ferret.search(
            "ferret facts", ferret.search_options(engines=("searxng",), verify=False)
        )
    assert {"alpha", "gamma"} <= {hit.url.rsplit("/", 1)[-1] for hit in result.results}


def test_cli_refuses_a_period_no_chosen_engine_can_keep(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        ["search", "ferrets", "--engines", "wikipedia", "--time", "week", "--json", "--home", str(tmp_path)]
    )
    envelope = json.loads(capsys.readouterr().out)
    assert code != 0 and envelope["error"]["code"] == "invalid_argument"
    assert "wikipedia cannot limit results to the past week" in envelope["error"]["message"]


def test_the_cli_and_the_mcp_tool_offer_the_periods_the_search_knows() -> None:
    from typing import get_args

    from webferret.cli.cmd_search import TIME_RANGES as CLI_RANGES
    from webferret.mcp_tools import TimeRange
    from webferret.search.types import TIME_RANGES

    assert CLI_RANGES == tuple(TIME_RANGES) == get_args(TimeRange)


def test_the_cli_refuses_a_bad_region_as_a_usage_error_naming_the_flag(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as refused:
        main(["search", "ferrets", "--region", "german", "--engines", "wikipedia"])
    err = capsys.readouterr().err
    assert refused.value.code == 2 and "argument --region: a country and a language" in err
    assert "(got 'german')" in err and "search_options" not in err


async def test_a_period_searxng_found_nothing_in_says_why_that_may_be(
    tmp_path: Path, fake_web: FakeWeb
) -> None:
    """An instance asks only its upstream engines that can limit by time: with none of those it
    answers an empty list, which read as "nothing of the past day exists" without a word."""
    fake_web.server.canned["/bare/search"] = (
        200,
        '{"results": [], "unresponsive_engines": []}',
        "application/json",
    )
    async with Ferret(home=tmp_path, searxng_url=f"{fake_web.base}/bare", engine_min_interval=0) as f:
        dated = await f.search(
            "stoats", f.search_options(engines=("searxng",), verify=False, time_range="day")
        )
        plain = await f.search("stoats", f.search_options(engines=("searxng",), verify=False))
    said = [warning for warning in dated.warnings if "nothing found in the past day" in warning]
    assert (
        dated.results == [] and len(said) == 1 and "search without a period (--time, time_range)" in said[0]
    )
    assert not any("nothing found" in warning for warning in plain.warnings)


def test_the_engines_offered_for_a_period_are_the_ones_that_work_here(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The refusal named Google and Bing among the engines that can limit by time, which the
    installed ddgs ships disabled: asked next, they failed with `engine_error`."""
    from ddgs.engines import ENGINES

    from webferret.search.engines.ddgs_text import BACKENDS, TIME_LIMITED

    code = main(["search", "ferrets", "--engines", "wikipedia", "--time", "day", "--home", str(tmp_path)])
    message = capsys.readouterr().err
    offered = message.partition("engines that can: ")[2].strip().split(", ")
    assert code != 0 and offered, message
    ddgs_able = {name for name in TIME_LIMITED if BACKENDS[name][0] in ENGINES["text"]}
    assert set(offered) == ddgs_able | {"github", "reddit", "searxng"}
