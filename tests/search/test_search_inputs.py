"""What a search is asked, checked before any engine is: the site filter, the query's length, a
SearXNG instance named without one configured, the instance's URL and the engine weights."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from webferret.arguments import site_text
from webferret.cli import main
from webferret.config import ConfigError, load_settings
from webferret.ferret import Ferret
from webferret.limits import MAX_QUERY_CHARS
from webferret.mcp_tools import WebSearchArgs
from webferret.models import ErrorCode, FerretError
from webferret.net.hostspec import site_host
from webferret.search.engines import registry
from webferret.search.router import Router, query_text
from webferret.search.runner import EngineRunner
from webferret.search.types import SearchOptions


@pytest.mark.parametrize(
    ("written", "host"),
    [
        ("example.org", "example.org"),
        (" Docs.Example.ORG. ", "docs.example.org"),
        ("https://example.org/docs?x=1", "example.org"),
        ("example.org/docs", "example.org"),
        ("127.0.0.1:8765", "127.0.0.1"),
        ("[::1]:8080", "::1"),
        ("::1", "::1"),
        (" 2001:DB8::1 ", "2001:db8::1"),
        ("bücher.de", "bücher.de"),
        ("WWW.GitHub.com", "github.com"),  # as results merge and handles are named: github.com's
        ("https://www.github.com/rust-lang", "github.com"),
        ("www.com", "www.com"),
        (".edu", "edu"),  # as engines read `site:.edu`: it kept nothing, no host ending in `..edu`
        (".Example.org", "example.org"),
        ("site:Example.org", "example.org"),  # the query's operator, as a model may write the filter
        ("SITE:docs.python.org/3/", "docs.python.org"),
        ("site:8080", "site"),  # a host named site, on a port
    ],
)
def test_a_site_is_the_host_of_what_was_written(written: str, host: str) -> None:
    assert site_host(written) == host
    assert SearchOptions(site=written).site == host
    assert site_text(written) == host  # the store's filter (find, stored pages) reads it the same


@pytest.mark.parametrize(
    "written",
    [
        "",
        "   ",
        "exa mple.org",
        "example.org OR evil",
        "a@b.org",
        "x.org\nq",
        "javascript:alert(1)",
        "x.org:abc",
        "site:",
        "x\udcff.org",  # an undecodable argv byte: each engine failed on it, `store export` was internal
    ],
)
def test_a_site_that_is_no_host_is_invalid(written: str) -> None:
    with pytest.raises(FerretError) as caught:
        SearchOptions(site=written)
    assert caught.value.code == ErrorCode.INVALID_ARGUMENT and "example.org" in caught.value.message


def test_a_bad_site_on_the_command_line_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["search", "ferret", "--site", "exa mple.org", "--engines", "wikipedia", "--json"])
    error = json.loads(capsys.readouterr().out)["error"]
    assert code == 2 and error["code"] == "invalid_argument" and "exa mple.org" in error["message"]


async def test_a_query_longer_than_the_limit_is_refused(tmp_path: Path) -> None:
    async with Ferret(home=tmp_path) as f:
        with pytest.raises(FerretError) as caught:
            await f.search("ferret " * 100)
    assert caught.value.code == ErrorCode.INVALID_ARGUMENT
    assert f"at most {MAX_QUERY_CHARS}" in caught.value.message and "699" in caught.value.message


def test_the_query_is_counted_as_sent(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A bang is never sent: `!gh` and 500 characters is a query of 500 (the CLI, the MCP tool)."""
    words = "x" * 498
    assert len(query_text(f"!gh {words} y")[0]) == MAX_QUERY_CHARS
    with pytest.raises(FerretError, match="501 characters long"):
        query_text(f"!gh {words} yz")
    assert WebSearchArgs(query=f"!w {words} y").query.startswith("!w ")
    argv = ["search", "!w", words, "y", "--home", str(tmp_path), "--json", "--no-verify", "--engines", "nope"]
    assert main(argv) == 2  # refused for its engine, not its length
    assert "unknown engine 'nope'" in json.loads(capsys.readouterr().out)["error"]["message"]


async def test_options_that_are_no_search_options_are_named(tmp_path: Path) -> None:
    async with Ferret(home=tmp_path) as f:
        with pytest.raises(FerretError) as caught:
            await f.search("ferrets", {"results": 3})  # type: ignore[arg-type]
    assert caught.value.code == ErrorCode.INVALID_ARGUMENT
    assert caught.value.message == "options: a SearchOptions from search_options(...), not dict"
    for wrong in ({"site": 5}, {"region": ["de-de"]}):
        with pytest.raises(FerretError, match=f"{next(iter(wrong))}: a string"):
            SearchOptions(**wrong)  # type: ignore[arg-type]


def test_a_long_query_on_the_command_line_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code = main(["search", "x" * (MAX_QUERY_CHARS + 1), "--home", str(tmp_path), "--json"])
    assert code == 2 and json.loads(capsys.readouterr().out)["error"]["code"] == "invalid_argument"


def test_searxng_named_without_an_instance_is_invalid() -> None:
    router = Router(registry(), EngineRunner(client=None, pacer=None))  # type: ignore[arg-type]
    with pytest.raises(FerretError) as caught:
        router.plan(["searxng", "wikipedia"], None, searxng=False)
    assert caught.value.code == ErrorCode.INVALID_ARGUMENT and "--searxng-url" in caught.value.message
    assert router.plan(["searxng"], None, searxng=True) == [["searxng"]]
    assert "searxng" not in router.plan(["auto"], None, searxng=False)[0]


@pytest.mark.parametrize("url", ["http://127.0.0.1:8888/?x=1", "http://127.0.0.1:8888/#top"])
def test_a_searxng_url_with_a_query_or_fragment_is_refused(monkeypatch: pytest.MonkeyPatch, url: str) -> None:
    monkeypatch.setenv("WEBFERRET_SEARXNG_URL", url)
    with pytest.raises(ConfigError) as caught:
        load_settings()
    assert "searxng_url" in str(caught.value) and "no query or fragment" in str(caught.value)


@pytest.mark.parametrize("weights", ["searxng=inf", "wikipedia=1e999"])
def test_an_infinite_weight_is_refused(monkeypatch: pytest.MonkeyPatch, weights: str) -> None:
    monkeypatch.setenv("WEBFERRET_ENGINE_WEIGHTS", weights)
    with pytest.raises(ConfigError) as caught:
        load_settings()
    assert "finite weight" in str(caught.value)
