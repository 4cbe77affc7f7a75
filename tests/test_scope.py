"""Scoping a page (`--selector`, `--exclude`, `--whole-page`): library, CLI, store and MCP."""

import json
from pathlib import Path

import pytest
from simweb import SimWeb

from webferret.cli import main
from webferret.config import load_settings
from webferret.extract.types import ExtractOptions
from webferret.ferret import Ferret
from webferret.mcp_tools import AgentTools, WebFetchArgs
from webferret.models import ErrorCode, FerretError

ALLOW = ["--allow-host", "127.0.0.1"]
WORDS = "Ferrets dig long tunnels under the old barn and keep their food in a dry chamber there. "
SHOP = f"""<html><head><title>Ferret Shop</title></head><body>
<nav><a href="/">Home</a> <a href="/about">About us</a></nav>
<main><h1>Ferret harness</h1><p>{WORDS * 4}</p>
<div class="promo">Subscribe to our newsletter today</div>
<p>{WORDS * 3}</p>
<div class="price">Price: 12 EUR</div><div class="note"><span class="price">Sale: 10 EUR</span></div>
</main>
<aside class="related"><p>Related: cat collars</p></aside>
<script>window.tracking = "TRACKER";</script><style>.x {{ color: red }}</style>
<footer>Copyright Ferret Shop</footer></body></html>"""


@pytest.fixture
def shop(simweb: SimWeb) -> str:
    return simweb.add("/shop", SHOP, headers={"Content-Type": "text/html; charset=utf-8"})


def fetch_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict]:
    code = main(["fetch", "--json", *ALLOW, *args])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, json.loads(out)


def test_selector_keeps_only_matches_in_document_order(capsys: pytest.CaptureFixture[str], shop: str) -> None:
    code, envelope = fetch_json(capsys, "--selector", ".price", shop)
    page = envelope["data"]["pages"][0]
    assert code == 0 and page["ok"]
    assert page["content"].split("\n\n") == ["Price: 12 EUR", "Sale: 10 EUR\n"]
    assert page["meta"]["extract"]["scope"] == {"selector": ".price", "exclude": [], "whole_page": False}


def test_nested_matches_are_read_once(capsys: pytest.CaptureFixture[str], shop: str) -> None:
    code, envelope = fetch_json(capsys, "--selector", "main, .note", shop)
    content = envelope["data"]["pages"][0]["content"]
    assert code == 0 and content.count("Sale: 10 EUR") == 1 and "# Ferret harness" in content


def test_exclude_drops_elements_before_the_main_content_choice(
    capsys: pytest.CaptureFixture[str], shop: str
) -> None:
    _, default = fetch_json(capsys, "--fresh", shop)
    assert "Subscribe to our newsletter" in default["data"]["pages"][0]["content"]
    code, envelope = fetch_json(capsys, "--exclude", ".promo", "--exclude", ".price", shop)
    content = envelope["data"]["pages"][0]["content"]
    assert code == 0 and "Ferret harness" in content
    assert "newsletter" not in content and "EUR" not in content


def test_whole_page_keeps_navigation_and_footer_but_no_scripts(
    capsys: pytest.CaptureFixture[str], shop: str
) -> None:
    code, envelope = fetch_json(capsys, "--whole-page", shop)
    content = envelope["data"]["pages"][0]["content"]
    assert code == 0
    assert (
        "[About us]" in content and "Related: cat collars" in content and "Copyright Ferret Shop" in content
    )
    assert "TRACKER" not in content and "color: red" not in content


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["--selector", "div["], "'div['"),
        (["--exclude", "p", "--exclude", "::nope("], "'::nope('"),
        (["--selector", "svg|a"], "'svg|a': Undefined namespace prefix"),  # it was `internal`
        (["--selector", "main", "--whole-page"], "--whole-page"),
    ],
)
def test_bad_scope_is_a_usage_error_naming_it(
    capsys: pytest.CaptureFixture[str], shop: str, args: list[str], named: str
) -> None:
    code, envelope = fetch_json(capsys, *args, shop)
    assert code == 2 and envelope["ok"] is False
    assert envelope["error"]["code"] == "invalid_argument" and named in envelope["error"]["message"]


def test_selector_matching_nothing_is_a_page_error(capsys: pytest.CaptureFixture[str], shop: str) -> None:
    code = main(["fetch", *ALLOW, "--selector", "#missing", shop, shop.replace("/shop", "/article")])
    out, _ = capsys.readouterr()
    assert code == 1
    assert out.startswith(f"ERROR empty_content: {shop}: the CSS selector '#missing' matched no element\n")
    assert "The Ferret Field Guide" not in out  # the selector applies to every page of the call


async def test_scoped_reads_and_the_default_read_never_stand_in_for_each_other(shop: str) -> None:
    async with Ferret(load_settings(allow_hosts=["127.0.0.1"])) as ferret:
        default = await ferret.fetch(shop)
        scoped = await ferret.fetch(shop, extract=ferret.extract_options(selector=".price"))
        again = await ferret.fetch(shop, extract=ferret.extract_options(selector=".price"))
        other = await ferret.fetch(shop, extract=ferret.extract_options(selector="h1"))
        back = await ferret.fetch(shop)
    assert default.fetched_via == "http" and scoped.fetched_via == "http"
    assert again.fetched_via == "store" and again.content == scoped.content
    assert other.fetched_via == "http" and other.content.strip() == "# Ferret harness"
    assert back.fetched_via == "store" and back.content == default.content and "newsletter" in back.content
    assert len({default.handle, scoped.handle, other.handle}) == 3 and back.handle == default.handle


def test_extract_command_takes_the_scope(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    source = tmp_path / "shop.html"
    source.write_text(SHOP)
    code = main(["extract", "--quiet", "--selector", "h1", "--exclude", "nav", str(source)])
    out, _ = capsys.readouterr()
    assert code == 0 and out.strip() == "# Ferret harness"


def test_options_check_selectors_for_library_callers() -> None:
    assert ExtractOptions(exclude=[".ad"]).exclude == (".ad",)  # type: ignore[arg-type]
    assert ExtractOptions().scope() is None
    with pytest.raises(FerretError) as raised:
        ExtractOptions(selector="a[href")
    assert raised.value.code == ErrorCode.INVALID_ARGUMENT and "'a[href'" in raised.value.message


async def test_mcp_web_fetch_takes_the_scope(shop: str) -> None:
    settings = load_settings(allow_hosts=["127.0.0.1"])
    async with Ferret(settings) as ferret:
        tools = AgentTools(ferret, settings)
        answer = await tools.web_fetch(WebFetchArgs(urls=[shop], selector=".price", exclude=[".note"]))
        with pytest.raises(FerretError) as raised:
            await tools.web_fetch(WebFetchArgs(urls=[shop], selector="p["))
    assert answer.data["pages"][0]["content"].strip() == "Price: 12 EUR"
    assert raised.value.code == ErrorCode.INVALID_ARGUMENT


async def test_mcp_web_fetch_and_the_format_setting_take_html(shop: str) -> None:
    settings = load_settings(allow_hosts=["127.0.0.1"], format="html")
    async with Ferret(settings) as ferret:
        tools = AgentTools(ferret, settings)
        answer = await tools.web_fetch(WebFetchArgs(urls=[shop], format="html", selector="main"))
        default = await ferret.fetch(shop, fresh=True)
    content = answer.data["pages"][0]["content"]
    assert "<h1>Ferret harness</h1>" in content and "TRACKER" not in content
    assert default.format == "html" and "<h1>Ferret harness</h1>" in default.content
