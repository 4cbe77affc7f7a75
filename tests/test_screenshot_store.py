"""`fetch --screenshot` renders the page even when the store holds it (a stored page has no picture)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from chromium import CHROMIUM, needs_chromium
from tiers_web import serve

from webferret.cli import main

PAGE = "<html><head><title>Shot</title></head><body><article><p>" + "A ferret poses. " * 30 + "</p></article>"


@needs_chromium
def test_a_screenshot_is_taken_although_the_page_is_stored(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("WEBFERRET_CHROMIUM_PATH", CHROMIUM)
    monkeypatch.setenv("WEBFERRET_BROWSER_NO_SANDBOX", "1")  # tests run as root
    shot = tmp_path / "page.png"
    with serve() as site:
        site.page("/", PAGE)
        site_url = site.base + "/"
        first = main(["fetch", "--json", "--allow-host", "127.0.0.1", site_url])
        capsys.readouterr()
        code = main(["fetch", "--json", "--allow-host", "127.0.0.1", "--screenshot", str(shot), site_url])
    page = json.loads(capsys.readouterr().out)["data"]["pages"][0]
    assert first == 0 and code == 0 and page["fetched_via"] == "browser", page["error"]
    assert shot.read_bytes().startswith(b"\x89PNG") and page["meta"]["screenshot"] == str(shot)
    # a later plain read answered from the store names no picture: that call took none
    again = main(["fetch", "--json", "--allow-host", "127.0.0.1", site_url])
    page = json.loads(capsys.readouterr().out)["data"]["pages"][0]
    assert again == 0 and page["fetched_via"] == "store" and "screenshot" not in page["meta"], page["meta"]


def test_an_empty_screenshot_path_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    """`--screenshot ""` was taken as no picture asked: the page was read and no file written."""
    code = main(["fetch", "--json", "--screenshot", "", "http://127.0.0.1:9/"])
    out = json.loads(capsys.readouterr().out)
    assert code == 2 and out["error"]["code"] == "invalid_argument"
    assert "screenshot path '' is empty" in out["error"]["message"], out


WIDTH = (
    "<html><head><title>Width</title></head><body><article><p id=w></p><script>"
    "document.getElementById('w').textContent = 'This page is ' "
    "+ (navigator.userAgent.includes('Mobile') ? 'narrow' : 'wide') "
    "+ ' as the ferret sees it. '.repeat(12);</script></article></body></html>"
)


@needs_chromium
def test_a_phones_rendering_is_a_variant_of_its_own(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--mobile` was answered by the stored desktop reading, and a fresh one replaced it."""
    monkeypatch.setenv("WEBFERRET_CHROMIUM_PATH", CHROMIUM)
    monkeypatch.setenv("WEBFERRET_BROWSER_NO_SANDBOX", "1")
    base = ["fetch", "--json", "--allow-host", "127.0.0.1", "--tier", "browser"]
    read = []
    with serve() as site:
        site.page("/w", WIDTH)
        for extra in ([], ["--mobile"], []):
            assert main([*base, *extra, site.base + "/w"]) == 0
            read.append(json.loads(capsys.readouterr().out)["data"]["pages"][0])
    wide, narrow, again = read
    assert "wide" in wide["content"] and "narrow" in narrow["content"], (wide["content"], narrow["content"])
    assert narrow["fetched_via"] == "browser" and narrow["handle"] != wide["handle"]
    assert (
        again["fetched_via"] == "store" and again["handle"] == wide["handle"] and "wide" in again["content"]
    )
