"""`--wait-for CSS`: the browser tier waits until an element is present, bounded by the page timeout."""

from __future__ import annotations

import json

import pytest
from chromium import CHROMIUM, needs_chromium
from tiers_web import loopback_policy, serve

from webferret.cli import main
from webferret.config import Settings
from webferret.fetch.browser import BrowserTier
from webferret.fetch.types import FetchOptions
from webferret.models import ErrorCode, FerretError

SETTINGS = Settings(chromium_path=CHROMIUM, browser_no_sandbox=True)  # tests run as root
WORDS = "Ferrets sleep eighteen hours a day and hide socks under the sofa. " * 6
LATE_WORDS = "Otters float on their backs and hold paws so the current does not part them. " * 6
LATE = f"""<html><head><title>Late</title></head><body><article><h1>First part</h1><p>{WORDS}</p>
<div id="root"></div></article>
<script>setTimeout(function () {{
  document.getElementById('root').innerHTML =
    '<section id="late"><h2>Arr' + 'ived</h2><p>{LATE_WORDS}</p></section>';
}}, 3000);</script></body></html>"""


def test_a_bad_selector_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["fetch", "--wait-for", "div[", "http://127.0.0.1:9/"])
    _, err = capsys.readouterr()
    assert code == 2 and err.startswith("webferret: error: invalid_argument: bad wait-for selector 'div['")
    with pytest.raises(FerretError) as raised:
        FetchOptions(wait_for="::(")
    assert raised.value.code == ErrorCode.INVALID_ARGUMENT
    assert "--" not in raised.value.message  # no CLI flag in the library's (and MCP's) words


def test_wait_for_refuses_a_tier_without_a_browser(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["fetch", "--tier", "http", "--wait-for", "#late", "http://127.0.0.1:9/"])
    _, err = capsys.readouterr()
    assert code == 2 and "--wait-for needs the browser, not --tier http" in err


@pytest.mark.parametrize("asked", [{"wait_for": "#late"}, {"screenshot": "/tmp/page.png"}])
def test_library_options_that_need_the_browser_pick_it_or_refuse_a_tier_without_one(
    asked: dict[str, str],
) -> None:
    assert FetchOptions(**asked).tier == "browser"  # as the CLI and MCP pick it
    with pytest.raises(FerretError) as raised:
        FetchOptions(tier="impersonate", **asked)
    assert raised.value.code == ErrorCode.INVALID_ARGUMENT
    assert f"{next(iter(asked))} needs the browser, not tier impersonate" in raised.value.message


@needs_chromium
async def test_waits_for_the_element_and_times_out_naming_it() -> None:
    tier, policy = BrowserTier(SETTINGS), loopback_policy()
    try:
        with serve() as site:
            site.page("/", LATE)
            target = await policy.vet(site.base + "/")
            raw = await tier.fetch(target, FetchOptions(timeout=20, wait_for="#late h2"), policy)
            with pytest.raises(FerretError) as raised:
                await tier.fetch(target, FetchOptions(timeout=3, wait_for=".never"), policy)
    finally:
        await tier.aclose()
    assert b"Arrived" in raw.body and raw.fetched_via == "browser"
    assert raised.value.code == ErrorCode.TIMEOUT and "'.never'" in raised.value.message
    assert "the wait-for selector '.never'" in raised.value.message  # no CLI flag in an MCP answer
    assert "within the page's timeout of 3 s" in raised.value.message


@needs_chromium
def test_cli_wait_for_renders_in_the_browser(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WEBFERRET_CHROMIUM_PATH", CHROMIUM)
    monkeypatch.setenv("WEBFERRET_BROWSER_NO_SANDBOX", "1")
    with serve() as site:
        site.page("/", LATE)
        code = main(["fetch", "--json", "--allow-host", "127.0.0.1", "--wait-for", "#late", site.base + "/"])
    page = json.loads(capsys.readouterr().out)["data"]["pages"][0]
    assert code == 0 and page["fetched_via"] == "browser", page["error"]
    assert LATE_WORDS.strip() in page["content"] and WORDS.strip() in page["content"]


@needs_chromium
async def test_mcp_web_fetch_waits_for_the_element() -> None:
    from webferret.config import load_settings
    from webferret.ferret import Ferret
    from webferret.mcp_tools import AgentTools, WebFetchArgs

    settings = load_settings(
        allow_hosts=["127.0.0.1"], chromium_path=CHROMIUM, browser_no_sandbox=True, respect_robots=False
    )
    async with Ferret(settings) as ferret:
        tools = AgentTools(ferret, settings)
        with pytest.raises(FerretError) as raised:
            await tools.web_fetch(WebFetchArgs(urls=["http://127.0.0.1:9/"], wait_for="a["))
        with serve() as site:
            site.page("/", LATE)
            answer = await tools.web_fetch(WebFetchArgs(urls=[site.base + "/"], wait_for="#late"))
    page = answer.data["pages"][0]
    assert raised.value.code == ErrorCode.INVALID_ARGUMENT and "'a['" in raised.value.message
    assert page["fetched_via"] == "browser" and LATE_WORDS.strip() in page["content"]
