"""`webferret extract --json` answers each page's token count, as `fetch` does."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from webferret.cli import main
from webferret.tokens import estimate_tokens


def test_extracted_pages_carry_their_token_count(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    note = tmp_path / "note.txt"
    note.write_text("Ferrets sleep for many hours a day and hunt at dawn.\n", encoding="utf-8")
    code = main(["extract", str(note), str(tmp_path / "missing.txt"), "--json"])
    pages = json.loads(capsys.readouterr().out)["data"]["pages"]
    assert code == 1
    assert pages[0]["tokens"] == estimate_tokens(pages[0]["content"]) > 0
    assert pages[1]["ok"] is False and pages[1]["tokens"] is None


def test_an_app_shell_is_no_readable_content_and_says_why(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shell = tmp_path / "app.html"
    app = '<p>Shop our new range - Cart (0)</p><div id="app"></div><script src="/a.js"></script>'
    shell.write_text(f"<html><body>{app}</body></html>")
    code = main(["extract", str(shell), "--json"])
    page = json.loads(capsys.readouterr().out)["data"]["pages"][0]
    assert code == 1
    assert page["error"]["code"] == "empty_content"
    assert "JavaScript app shell" in page["error"]["message"]
    assert "browser tier" in page["error"]["message"]
