"""Integration: the searxng engine and `webferret search` against a real searx on loopback.

searx (Debian's package) federates three fake upstream engines served by `FakeWeb` on 127.0.0.1;
nothing leaves the machine.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from contract import fits_envelope
from fences import fenced
from search_harness import FakeWeb, SearxServer, free_port
from simweb import Handler, SimWeb

from webferret.cli import main
from webferret.ferret import Ferret
from webferret.models import ErrorCode
from webferret.search.types import SearchOptions


def ferret(tmp_path: Path, searx: SearxServer) -> Ferret:
    return Ferret(home=tmp_path, searxng_url=searx.url, engine_min_interval=0, allow_hosts=["127.0.0.1"])


def searx_search(url: str, *flags: str) -> list[str]:
    """`webferret search ferret` through the SearXNG instance at `url` only."""
    return ["search", "ferret", "--engines", "searxng", "--searxng-url", url, *flags]


async def test_searxng_results_are_merged_dated_and_warned(tmp_path: Path, searx: SearxServer) -> None:
    async with ferret(tmp_path, searx) as f:
        result = await f.search("ferret facts", f.search_options(engines=("searxng",), verify=False))
    assert [(r.name, r.ok) for r in result.engines] == [("searxng", True)]
    urls = [hit.url.rsplit("/", 1)[-1] for hit in result.results]
    assert sorted(urls) == ["alpha", "beta", "dead", "gamma"]  # searx listed alpha twice: merged here
    gamma = next(hit for hit in result.results if hit.url.endswith("/gamma"))
    assert gamma.published == "2024-01-06T12:00:00+00:00"
    assert gamma.extra["published_display"] == "Jan 6, 2024"
    assert gamma.extra["pubdate"] == "2024-01-06 12:00:00+0000"
    assert gamma.extra["engines"] == ["fakeyacy"]
    assert gamma.snippet == "gamma snippet"
    assert any("fakebroken" in warning for warning in result.warnings)
    # fewer than the 10 asked, and said why: an agent knows asking again brings no more
    assert "4 results of the 10 asked: the engines listed 4 pages" in " ".join(result.warnings)


async def test_auto_uses_the_configured_searxng_first(tmp_path: Path, searx: SearxServer) -> None:
    async with ferret(tmp_path, searx) as f:
        result = await f.search("ferret", f.search_options(verify=False, results=2))
    assert [r.name for r in result.engines] == ["searxng"]
    assert len(result.results) == 2 and not any(" asked: " in warning for warning in result.warnings)


async def test_site_filter_reaches_the_upstream_engines(
    tmp_path: Path, searx: SearxServer, fake_web: FakeWeb
) -> None:
    async with ferret(tmp_path, searx) as f:
        await f.search("burrows", f.search_options(engines=("searxng",), site="example.org", verify=False))
    assert "burrows site:example.org" in fake_web.server.queries


async def test_a_site_written_in_the_query_filters_as_the_site_option(
    tmp_path: Path, searx: SearxServer, fake_web: FakeWeb
) -> None:
    """`burrows site:example.org` was sent as written and nothing checked it: an upstream engine that
    ignores the operator (as the fake one does) listed its pages on other hosts as the site's."""
    async with ferret(tmp_path, searx) as f:
        result = await f.search(
            "burrows site:example.org", f.search_options(engines=("searxng",), verify=False)
        )
    assert "burrows site:example.org" in fake_web.server.queries  # still sent to the engine so
    assert result.results == [] and "not on example.org left out" in " ".join(result.warnings)


async def test_a_site_beside_an_or_of_other_words_filters_too(
    tmp_path: Path, searx: SearxServer, fake_web: FakeWeb
) -> None:
    """`burrows OR tunnels site:example.org` asks for either word on the site; any `OR` in the
    query left its site unfiltered, so an engine ignoring the operator listed other hosts."""
    async with ferret(tmp_path, searx) as f:
        result = await f.search(
            "burrows OR tunnels site:example.org", f.search_options(engines=("searxng",), verify=False)
        )
    assert "burrows OR tunnels site:example.org" in fake_web.server.queries
    assert result.results == [] and "not on example.org left out" in " ".join(result.warnings)


def test_only_a_querys_one_site_operator_names_its_site() -> None:
    from webferret.search.router import query_text

    assert query_text("tokio select Site:WWW.Docs.rs/") == ("tokio select", "docs.rs")
    assert query_text("!gh tokio site:docs.rs") == ("tokio", "docs.rs")  # the operator is more precise
    # an OR of other words binds first: the site still holds for them all (it was left unfiltered)
    assert query_text("tokio OR async-std site:docs.rs") == ("tokio OR async-std", "docs.rs")
    assert query_text("site:docs.rs tokio | smol") == ("tokio | smol", "docs.rs")
    for kept in (
        "site:docs.rs",
        "x site:a.org OR site:b.org",
        "x site:a.org OR tokio",
        "tokio | site:a.org",
        "x site:a.org/docs",
        "x -site:a.org",
        "x (site:a.org)",
        "x site:",
    ):
        assert query_text(kept) == (kept, None)


def test_cli_agent_view_fences_titles_and_snippets(
    tmp_path: Path, searx: SearxServer, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [*searx_search(searx.url), "--no-verify", "-n", "3", "--home", str(tmp_path)]
    assert main([*argv, "--agent"]) == 0
    out = capsys.readouterr().out
    begin, end = fenced(out)
    assert out.startswith("SECURITY NOTE") and out.index('Search "ferret": 3 results') < begin
    assert "gamma snippet" in out[begin:end] or "alpha" in out[begin:end]
    assert out.rstrip().endswith(  # the commands name the home the search was given
        f"Read a result with `webferret open HANDLE --agent --home {tmp_path}` when it has a handle, "
        f"else `webferret fetch URL --agent --home {tmp_path}`."
    )
    with pytest.raises(SystemExit) as raised:
        main([*argv, "--agent", "--json"])
    assert raised.value.code == 2 and "--agent cannot be combined with --json" in capsys.readouterr().err


def test_cli_json_contract(tmp_path: Path, searx: SearxServer, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["search", "ferret", "facts", "--engines", "searxng", "--searxng-url", searx.url]
    code = main([*argv, "--no-verify", "--json", "-n", "3", "--home", str(tmp_path)])
    envelope = json.loads(capsys.readouterr().out)
    assert code == 0 and envelope["ok"] is True
    data = envelope["data"]
    assert data["query"] == "ferret facts"
    assert len(data["results"]) == 3
    first = data["results"][0]
    for field in (
        "url",
        "title",
        "snippet",
        "published",
        "score",
        "sources",
        "reachable",
        "tokens",
        "handle",
    ):
        assert field in first
    # alpha was found by two upstream engines: the consensus bonus puts it first
    assert first["url"].endswith("/alpha") and first["sources"][0]["engine"] == "searxng"
    assert data["engines"][0]["name"] == "searxng" and data["engines"][0]["ok"] is True
    assert set(data["engines"][0]) >= {"name", "ok", "count", "elapsed_ms", "error"}
    assert data["unreachable"] == [] and any("fakebroken" in w for w in data["warnings"])


def test_cli_human_view(tmp_path: Path, searx: SearxServer, capsys: pytest.CaptureFixture[str]) -> None:
    argv = searx_search(searx.url, "--no-verify")
    assert main([*argv, "--home", str(tmp_path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith('4 results (not verified) for "ferret" · engines: searxng 5')
    bullets = [line for line in out if line.startswith("* ")]
    assert len(bullets) == 4 and " — Ferret page " in bullets[0]
    assert "  2024-01-06" in out


def test_cli_exit_1_when_no_engine_answered(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    closed = f"http://127.0.0.1:{free_port()}"
    argv = searx_search(closed, "--no-verify")
    assert main([*argv, "--home", str(tmp_path), "--json"]) == 1
    envelope = json.loads(capsys.readouterr().out)
    fits_envelope(envelope, "search")
    assert envelope["ok"] is False
    assert envelope["error"]["code"] == ErrorCode.ENGINE_ERROR
    assert "searxng: connect_failed" in envelope["error"]["message"]
    assert envelope["data"]["engines"][0]["error"]["code"] == "connect_failed"
    assert main([*argv, "--home", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "no engine answered" in err and "searxng: connect_failed: cannot reach" in err


async def test_a_search_no_engine_answered_has_an_error_of_its_own(tmp_path: Path) -> None:
    closed = f"http://127.0.0.1:{free_port()}"
    async with Ferret(home=tmp_path, searxng_url=closed, engine_min_interval=0) as f:
        result = await f.search("ferret", f.search_options(engines=("searxng",), verify=False))
    assert not result.answered and result.error is not None
    assert result.error.code == ErrorCode.ENGINE_ERROR
    assert result.error.message.startswith("no engine answered: searxng: connect_failed: cannot reach")


async def test_a_search_one_engine_answered_has_no_error(tmp_path: Path, searx: SearxServer) -> None:
    async with ferret(tmp_path, searx) as f:
        result = await f.search("ferret", f.search_options(engines=("searxng",), verify=False))
    assert result.answered and result.error is None


def test_cli_verifies_against_local_pages(
    tmp_path: Path, searx: SearxServer, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = searx_search(searx.url, "--allow-host", "127.0.0.1")
    assert main([*argv, "--home", str(tmp_path), "--json"]) == 0
    envelope = json.loads(capsys.readouterr().out)
    fits_envelope(envelope, "search")
    data = envelope["data"]
    assert [item["url"].rsplit("/", 1)[-1] for item in data["unreachable"]] == ["dead"]
    assert len(data["results"]) == 3
    assert all(item["reachable"] is True and item["tokens"] > 50 for item in data["results"])
    assert all(item["handle"] for item in data["results"])  # verified pages are kept in the store


def test_cli_allow_host_adds_to_the_setting(
    tmp_path: Path, searx: SearxServer, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--allow-host` adds a host to `WEBFERRET_ALLOW_HOSTS`, as it does for fetch, crawl and map:
    search replaced the setting's hosts with it, and verified no page on 127.0.0.1."""
    monkeypatch.setenv("WEBFERRET_ALLOW_HOSTS", "127.0.0.1")
    argv = searx_search(searx.url, "--allow-host", "intranet.example")
    assert main([*argv, "--home", str(tmp_path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)["data"]
    assert len(data["results"]) == 3 and all(item["reachable"] is True for item in data["results"])
    assert [item["error"]["code"] for item in data["unreachable"]] == ["http_error"]


async def test_near_duplicate_pages_are_dropped(tmp_path: Path, searx: SearxServer) -> None:
    async with ferret(tmp_path, searx) as f:
        result = await f.search("twins", f.search_options(engines=("searxng",)))
    names = [hit.url.rsplit("/", 1)[-1] for hit in result.results]
    assert "alpha" in names and "mirror" not in names
    assert [
        (d.url.rsplit("/", 1)[-1], d.duplicate_of.rsplit("/", 1)[-1]) for d in result.dropped_duplicates
    ] == [("mirror", "alpha")]


def test_sync_facade(tmp_path: Path, searx: SearxServer) -> None:
    import webferret

    result = webferret.search(
        "ferret",
        home=tmp_path,
        searxng_url=searx.url,
        engines=["searxng"],
        verify=False,
        engine_min_interval=0,
    )
    assert result.answered and len(result.results) == 4


def test_a_searxng_url_that_is_not_the_base_says_so(
    tmp_path: Path, simweb: SimWeb, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = searx_search(simweb.url("/not-searx"), "--no-verify")
    assert main([*argv, "--home", str(tmp_path), "--json"]) == 1
    error = json.loads(capsys.readouterr().out)["data"]["engines"][0]["error"]
    assert error["status"] == 404 and "searxng_url must be its base URL" in error["message"]


def test_a_verified_search_left_with_nothing_does_not_say_not_verified(
    tmp_path: Path, searx: SearxServer, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every result off the --site: nothing was left to verify, not "(not verified)"."""
    argv = searx_search(searx.url, "--site", "elsewhere.example", "--home", str(tmp_path))
    assert main(argv) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith('0 results of 0 candidates for "ferret"'), out[0]
    assert main([*argv, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["meta"]["verified"] is True


def test_a_searxng_redirect_to_a_private_address_is_refused(
    tmp_path: Path, simweb: SimWeb, capsys: pytest.CaptureFixture[str]
) -> None:
    """The instance itself may be on loopback (the user's setting); where it redirects is not."""
    simweb.add("/s/search", status=302, headers={"Location": f"http://127.0.0.2:{simweb.port}/admin"})
    argv = searx_search(simweb.url("/s"), "--no-verify")
    assert main([*argv, "--home", str(tmp_path), "--json"]) == 1
    message = json.loads(capsys.readouterr().out)["error"]["message"]
    assert "searxng: blocked_address: searxng redirected to http://127.0.0.2:" in message
    assert [path for path, _ in simweb.log("/s/search")] == ["/s/search?q=ferret&format=json&pageno=1"]


def _limiter(handler: Handler, web: SimWeb) -> None:
    """A SearXNG whose limiter (`server.limiter`) is on: a request to /search whose headers are not a
    browser's is a bot's, HTTP 429 (SearXNG's `botdetection.http_accept` and `http_accept_language`)."""
    headers = handler.headers
    browser = "text/html" in headers.get("Accept", "") and headers.get("Accept-Language", "").strip()
    if not browser:
        handler.reply(429, b"Too Many Requests", {"Content-Type": "text/plain"})
        return
    results = [{"url": "https://example.org/a", "title": "A", "content": "a", "engines": ["bing"]}]
    body = json.dumps({"query": "ferret", "results": results, "unresponsive_engines": []}).encode()
    handler.reply(200, body, {"Content-Type": "application/json"})


def test_a_searxng_with_its_limiter_on_is_asked_as_it_answers(
    tmp_path: Path, simweb: SimWeb, capsys: pytest.CaptureFixture[str]
) -> None:
    """SearXNG's limiter answers 429 to a /search request whose Accept names no text/html or that has
    no Accept-Language: every search of such an instance failed as rate limited, the first one too."""
    simweb.add("/limited/search", stream=_limiter)
    argv = searx_search(simweb.url("/limited"), "--no-verify")
    assert main([*argv, "--home", str(tmp_path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)["data"]
    assert [hit["url"] for hit in data["results"]] == ["https://example.org/a"]
    accept_language = simweb.log("/limited/search")[-1][1]["accept-language"]
    assert accept_language == "*"  # no language: the instance keeps its own default


def test_a_searxng_429_names_the_limiter(
    tmp_path: Path, simweb: SimWeb, capsys: pytest.CaptureFixture[str]
) -> None:
    simweb.add("/busy/search", "Too Many Requests", status=429, headers={"Content-Type": "text/plain"})
    argv = searx_search(simweb.url("/busy"), "--no-verify")
    assert main([*argv, "--home", str(tmp_path), "--json"]) == 1
    error = json.loads(capsys.readouterr().out)["data"]["engines"][0]["error"]
    assert error["code"] == "rate_limited" and error["status"] == 429
    assert "limiter" in error["message"] and "pass_ip" in error["message"]


def test_a_page_searxng_lists_twice_is_listed_at_its_own_https_address(
    tmp_path: Path, simweb: SimWeb, capsys: pytest.CaptureFixture[str]
) -> None:
    """SearXNG merges a page only when its upstreams spell it alike: here one gave its AMP copy over
    http, first, and another the page over https. The merge listed the AMP copy."""
    results = [
        {"url": "http://amp.example.org/story", "title": "Story", "engines": ["mojeek"]},
        {"url": "https://example.org/story/", "title": "Story", "engines": ["bing"]},
    ]
    simweb.add(
        "/twice/search", json.dumps({"results": results}), headers={"Content-Type": "application/json"}
    )
    argv = searx_search(simweb.url("/twice"), "--no-verify")
    assert main([*argv, "--home", str(tmp_path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)["data"]
    assert [hit["url"] for hit in data["results"]] == ["https://example.org/story/"]
    assert data["results"][0]["extra"]["engines"] == ["bing", "mojeek"]


async def test_engine_names_are_read_in_any_case(tmp_path: Path, simweb: SimWeb) -> None:
    """`--engines SearXNG` worked on the command line, which lowers it; the MCP tool's `engines`
    (a model writes `["SearXNG"]`), the library's options and the setting refused the name."""
    results = [{"url": "https://example.org/a", "title": "A", "engines": ["bing"]}]
    simweb.add(
        "/cased/search", json.dumps({"results": results}), headers={"Content-Type": "application/json"}
    )
    async with Ferret(
        home=tmp_path, searxng_url=simweb.url("/cased"), engine_min_interval=0, engines="SearXNG"
    ) as f:
        for options in (SearchOptions(engines=("SearXNG",), verify=False), f.search_options(verify=False)):
            result = await f.search("ferret", options.with_(searxng_url=simweb.url("/cased")))
            assert [report.name for report in result.engines] == ["searxng"]
            assert [hit.url for hit in result.results] == ["https://example.org/a"]
