"""`fetch --screenshot` renders the page even when the store holds it (a stored page has no picture)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tiers_web import serve

from webferret.cli import main

CHROMIUM = "/usr/bin/chromium"
PAGE = "<html><head><title>Shot</title></head><body><article><p>" + "A ferret poses. " * 30 + "</p></article>"


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"{CHROMIUM} is absent")
def test_a_screenshot_is_taken_although_the_page_is_stored(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("WEBFERRET_CHROMIUM_PATH", CHROMIUM)
    monkeypatch.setenv("WEBFERRET_BROWSER_NO_SANDBOX", "1")  # tests run as root
    shot = tmp_path / "page.png"
    with serve() as site:
        site.page("/", PAGE)
        first = main(["fetch", "--json", "--allow-host", "127.0.0.1", site.base + "/"])
        capsys.readouterr()
        code = main(
            ["fetch", "--json", "--allow-host", "127.0.0.1", "--screenshot", str(shot), site.base + "/"]
        )
    page = json.loads(capsys.readouterr().out)["data"]["pages"][0]
    assert first == 0 and code == 0 and page["fetched_via"] == "browser", page["error"]
    assert shot.read_bytes().startswith(b"\x89PNG")
