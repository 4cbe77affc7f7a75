"""A tier asked for by name (not `auto`) is answered from the store only by a copy that tier read."""

from __future__ import annotations

import json

import pytest
from chromium import CHROMIUM, needs_chromium
from tiers_web import serve

from webferret.cli import main
from webferret.config import load_settings
from webferret.ferret import Ferret
from webferret.mcp_tools import AgentTools, WebFetchArgs
from webferret.models import ErrorCode, FerretError

WORDS = "Ferrets sleep eighteen hours a day and hide socks under the sofa. " * 6
HEAD = "<html><head><title>Socks</title></head>"
ARTICLE = f"{HEAD}<body><article><h1>Socks</h1><p>{WORDS}</p></article></body></html>"


def fetched_via(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    code = main(["fetch", "--json", "--allow-host", "127.0.0.1", *args])
    page = json.loads(capsys.readouterr().out)["data"]["pages"][0]
    assert code == 0, page["error"]
    return page["fetched_via"]


@needs_chromium
def test_cli_tier_http_after_a_browser_read_reads_anew(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WEBFERRET_CHROMIUM_PATH", CHROMIUM)
    monkeypatch.setenv("WEBFERRET_BROWSER_NO_SANDBOX", "1")  # tests run as root
    with serve() as site:
        site.page("/", ARTICLE)
        url = site.base + "/"
        assert fetched_via(capsys, "--tier", "browser", url) == "browser"
        assert fetched_via(capsys, "--tier", "http", url) == "http"
        assert fetched_via(capsys, "--tier", "http", url) == "store"
        assert fetched_via(capsys, "--tier", "browser", url) == "browser"  # the store holds http's now
        assert fetched_via(capsys, url) == "store"  # `auto` takes any tier's copy


async def test_mcp_web_fetch_takes_a_tier_and_the_store_honours_it() -> None:
    settings = load_settings(allow_hosts=["127.0.0.1"], respect_robots=False)
    async with Ferret(settings) as ferret:
        tools = AgentTools(ferret, settings)
        with serve() as site:
            site.page("/", ARTICLE)
            url = site.base + "/"
            vias = []
            for tier in ("impersonate", "impersonate", "http", None):
                answer = await tools.web_fetch(WebFetchArgs(urls=[url], tier=tier))
                vias.append(answer.data["pages"][0]["fetched_via"])
            with pytest.raises(FerretError) as refused:
                await tools.web_fetch(WebFetchArgs(urls=[url], tier="http", wait_for="#late"))
    assert vias == ["impersonate", "store", "http", "store"]
    assert refused.value.code == ErrorCode.INVALID_ARGUMENT
    assert refused.value.message == "wait_for needs the browser, not tier http"
    assert len([hit for hit in site.hits if hit.path == "/"]) == 2
