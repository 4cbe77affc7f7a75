"""`search --read N` / `web_search(read=N)`: the first results' text in the same call, from the pages
verification read and stored, through a real searx on loopback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fences import MARKER
from search_harness import SearxServer

from webferret.cli import main


def _search(searx: SearxServer, tmp_path: Path, *extra: str) -> int:
    argv = ["search", "ferret", "--engines", "searxng", "--searxng-url", searx.url, "-n", "2", *extra]
    return main([*argv, "--allow-host", "127.0.0.1", "--home", str(tmp_path)])


def test_read_answers_the_first_results_first_pages(
    tmp_path: Path, searx: SearxServer, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _search(searx, tmp_path, "--read", "1", "--json") == 0
    data = json.loads(capsys.readouterr().out)["data"]
    (page,) = data["read"]
    first = data["results"][0]
    assert page["handle"] == first["handle"] and page["page"] == 1 and page["content"].strip()
    assert page["url"] == first["url"]
    assert _search(searx, tmp_path, "--read", "2", "--page-tokens", "100", "--agent") == 0
    text = capsys.readouterr().out
    markers = MARKER.findall(text)
    assert [kind for kind, _ in markers] == ["begin", "end"] * 3 and len({nonce for _, nonce in markers}) == 1
    assert text.count("page 1 of") == 2 and "--page-tokens 100 --agent" in text
    assert _search(searx, tmp_path, "--read", "1") == 0
    human = capsys.readouterr().out
    assert f"page 1 of {page['pages']} · {page['handle']}" in human and page["content"].strip()[:60] in human


def test_an_agent_s_read_pages_share_the_answer(
    tmp_path: Path, searx: SearxServer, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`search --agent --read N` answered each page at `--page-tokens` whatever the setting
    `answer_tokens` (10 pages of 4,000 tokens: 40,000), where `fetch --agent` and `web_search(read=N)`
    share it; its pages now share it, each saying the size the command that reads on pages at."""
    assert _search(searx, tmp_path, "--read", "2", "--page-tokens", "1000", "--json") == 0
    whole = [page["pages"] for page in json.loads(capsys.readouterr().out)["data"]["read"]]
    monkeypatch.setenv("WEBFERRET_ANSWER_TOKENS", "200")
    assert _search(searx, tmp_path, "--read", "2", "--page-tokens", "150", "--agent") == 0
    text = capsys.readouterr().out
    assert text.count("page 1 of") == 2 and "--page-tokens 150" not in text, (whole, text)
    assert text.count("--page 2 --page-tokens 100 --agent") == 2, text
    # a page size asked above the budget raises it, as web_fetch's max_tokens does: two pages of 150
    assert _search(searx, tmp_path, "--read", "2", "--page-tokens", "300", "--agent") == 0
    assert capsys.readouterr().out.count("--page 2 --page-tokens 150 --agent") == 2


def test_without_read_the_answer_has_no_pages(
    tmp_path: Path, searx: SearxServer, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _search(searx, tmp_path, "--json") == 0
    assert "read" not in json.loads(capsys.readouterr().out)["data"]


async def test_web_search_read_fences_the_pages_with_the_results(tmp_path: Path, searx: SearxServer) -> None:
    from webferret.config import load_settings
    from webferret.ferret import Ferret
    from webferret.mcp_tools import AgentTools, WebSearchArgs

    settings = load_settings(
        home=tmp_path,
        allow_hosts=["127.0.0.1"],
        searxng_url=searx.url,
        engine_min_interval=0,
        respect_robots=False,
    )
    async with Ferret(settings) as ferret:
        tools = AgentTools(ferret, settings)
        answer = await tools.web_search(WebSearchArgs(query="ferret", engines=["searxng"], results=2, read=1))
    (page,) = answer.data["read"]
    assert page["handle"] == answer.data["results"][0]["handle"]
    markers = list(MARKER.finditer(answer.text))
    assert [m.group(1) for m in markers] == ["begin", "end"] * 2  # the results, then the page
    assert len({m.group(2) for m in markers}) == 1
    assert page["content"].strip()[:60] in answer.text[markers[2].end() : markers[3].start()]


def test_a_read_the_search_cannot_answer_is_refused(
    tmp_path: Path, searx: SearxServer, capsys: pytest.CaptureFixture[str]
) -> None:
    """Pages are read by verification: `--read` without it, or `--page-tokens` without `--read`,
    would answer nothing; each is a usage error naming why, before any engine is asked."""
    assert _search(searx, tmp_path, "--read", "1", "--no-verify") == 2
    assert "it cannot go without verify" in capsys.readouterr().err
    assert _search(searx, tmp_path, "--page-tokens", "500", "--json") == 2
    assert json.loads(capsys.readouterr().out)["error"]["code"] == "invalid_argument"


async def test_web_search_refuses_max_tokens_without_read(tmp_path: Path, searx: SearxServer) -> None:
    """`max_tokens` sizes the pages `read` answers: without `read` it was dropped without a word."""
    from webferret.config import load_settings
    from webferret.ferret import Ferret
    from webferret.mcp_tools import AgentTools, WebSearchArgs
    from webferret.models import FerretError

    settings = load_settings(home=tmp_path, allow_hosts=["127.0.0.1"], searxng_url=searx.url)
    async with Ferret(settings) as ferret:
        tools = AgentTools(ferret, settings)
        with pytest.raises(FerretError) as refused:
            await tools.web_search(WebSearchArgs(query="ferret", engines=["searxng"], max_tokens=500))
    assert refused.value.code == "invalid_argument"
    assert refused.value.message == "max_tokens is the size of read's pages: give read N"
