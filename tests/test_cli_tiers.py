"""`webferret fetch --tier ... --screenshot ...` end to end on loopback pages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from chromium import CHROMIUM, needs_chromium
from tiers_web import serve

from webferret.cli import main

ALLOW = ["--allow-host", "127.0.0.1"]
SHELL = '<html><body><div id="root"></div><script src="/app.js"></script></body></html>'
WALL = "<html><head><title>Just a moment...</title></head><body><p>Checking your browser</p></body></html>"


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict]:
    code = main(["fetch", "--json", *ALLOW, *args])
    out, err = capsys.readouterr()
    # (stderr may carry a simweb thread's BrokenPipe report from an earlier test; only ours counts)
    assert "Traceback" not in out and "/webferret/" not in err
    return code, json.loads(out)


def test_http_tier_on_a_javascript_shell_is_needs_javascript(capsys: pytest.CaptureFixture[str]) -> None:
    with serve() as site:
        site.page("/", SHELL)
        code, envelope = run_json(capsys, "--tier", "http", site.base + "/")
    page = envelope["data"]["pages"][0]
    assert code == 1 and page["error"]["code"] == "needs_javascript"
    assert "--tier browser" in page["error"]["message"]
    assert page["meta"]["trail"][0]["verdict"] == "js_shell"


def test_a_terminal_answer_keeps_its_trail(capsys: pytest.CaptureFixture[str]) -> None:
    with serve() as site:
        code, envelope = run_json(capsys, site.base + "/missing")
    page = envelope["data"]["pages"][0]
    assert code == 1 and page["error"]["code"] == "http_error" and page["error"]["status"] == 404
    assert [(hop["via"], hop["verdict"]) for hop in page["meta"]["trail"]] == [("http", "terminal")]


def test_impersonate_tier_on_a_wall_is_blocked_by_site(capsys: pytest.CaptureFixture[str]) -> None:
    with serve() as site:
        site.page("/", WALL, status=403, server="cloudflare", cf_ray="8a1b2c3d4e5f-FRA")
        code, envelope = run_json(capsys, "--tier", "impersonate", site.base + "/")
    error = envelope["data"]["pages"][0]["error"]
    assert code == 1 and error["code"] == "blocked_by_site" and error["vendor"] == "cloudflare"
    assert error["status"] == 403 and "impersonate" in error["message"]
    assert "Chrome/" in site.hits[0].headers["user-agent"]


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("shot", "must end in .png"),
        ("shot.gif", "must end in .png"),
        (".", "is a directory"),
        ("dir.png", "is a directory"),
        ("file.txt/x.png", "'file.txt' is a file, not a folder"),
        ("file.txt/deeper/x.png", "'file.txt' is a file, not a folder"),
    ],
)
def test_a_screenshot_path_no_picture_can_be_written_to_is_refused_first(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str, why: str
) -> None:
    (tmp_path / "dir.png").mkdir()
    (tmp_path / "file.txt").write_text("a file", encoding="utf-8")
    code = main(["fetch", "--json", "--screenshot", str(tmp_path / name), "http://127.0.0.1:9/"])
    error = json.loads(capsys.readouterr().out)["error"]
    assert code == 2 and error["code"] == "invalid_argument" and "screenshot path" in error["message"]
    assert why.replace("'file.txt'", repr(str(tmp_path / "file.txt"))) in error["message"]


@pytest.mark.parametrize("tier", ["http", "impersonate"])
def test_mobile_needs_the_browser(capsys: pytest.CaptureFixture[str], tier: str) -> None:
    """`--mobile` renders as a phone, which only the browser does: it picks it (as `--wait-for` does),
    and with a tier without one it is a usage error, not ignored."""
    code = main(["fetch", "--json", "--mobile", "--tier", tier, "http://127.0.0.1:9/"])
    error = json.loads(capsys.readouterr().out)["error"]
    assert code == 2 and error["message"].endswith(f"--mobile needs the browser, not --tier {tier}")
    from webferret.fetch.types import FetchOptions

    assert FetchOptions(mobile=True).tier == "browser"


def test_screenshot_refuses_a_tier_without_a_browser(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code = main(["fetch", "--tier", "http", "--screenshot", str(tmp_path / "x.png"), "http://127.0.0.1:9/"])
    _, err = capsys.readouterr()
    assert code == 2 and "--screenshot needs the browser" in err
    assert not (tmp_path / "x.png").exists()


@needs_chromium
def test_screenshot_renders_with_the_browser(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WEBFERRET_CHROMIUM_PATH", CHROMIUM)
    monkeypatch.setenv("WEBFERRET_BROWSER_NO_SANDBOX", "1")  # tests run as root
    shot = tmp_path / "page.png"
    script = "document.getElementById('root').innerHTML = '<p>Ferrets sleep eighteen hours a day.</p>';"
    with serve() as site:
        site.page("/", SHELL)
        site.page("/app.js", script, content_type="application/javascript")
        code, envelope = run_json(capsys, "--screenshot", str(shot), site.base + "/")
    page = envelope["data"]["pages"][0]
    assert code == 0 and page["fetched_via"] == "browser", page["error"]
    assert "eighteen hours" in page["content"]
    assert page["meta"]["screenshot"] == str(shot)
    assert shot.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


def test_a_browser_that_cannot_start_is_browser_unavailable(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Not `internal` (a bug): the page needs a browser this machine cannot start; the message says
    which path was tried and which setting changes it. On the auto ladder too: the message says what
    the page needed the browser for (a JavaScript shell), the code what to fix."""
    missing = str(tmp_path / "no-chromium")
    monkeypatch.setenv("WEBFERRET_CHROMIUM_PATH", missing)
    with serve() as site:
        site.page("/", SHELL)
        codes = []
        for tier in ("browser", "auto"):
            code, envelope = run_json(capsys, "--fresh", "--tier", tier, site.base + "/")
            page = envelope["data"]["pages"][0]
            error = page["error"]
            assert code == 1 and missing in error["message"] and "WEBFERRET_CHROMIUM_PATH" in error["message"]
            codes.append(error["code"])
            # the hop the error struck, as on the ladder (a browser asked for had no trail at all)
            assert page["meta"]["trail"][-1] == {
                "url": site.base + "/",
                "via": "browser",
                "error": error["code"],
            }
    assert codes == ["browser_unavailable", "browser_unavailable"]
