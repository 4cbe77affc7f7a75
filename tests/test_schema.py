"""The committed JSON Schemas match the models, and every command's `--json` answer fits them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from contract import SCHEMAS, fits
from simweb import SimWeb, article_html

from webferret.cli import main
from webferret.models import Page
from webferret.schema import render, schemas
from webferret.store.pages import PageStore


def test_committed_schemas_are_current() -> None:
    for name, schema in schemas().items():
        committed = (SCHEMAS / name).read_text(encoding="utf-8")
        assert committed == render(schema), (
            f"schemas/{name} is stale: run `uv run python -m webferret.schema`"
        )


def answer(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    """The envelope of `webferret ARGV --json`, checked against the envelope's schema."""
    main([*argv, "--json"])
    envelope = json.loads(capsys.readouterr().out)
    fits(envelope, "envelope")
    return envelope


@pytest.fixture
def home(tmp_path: Path) -> Path:
    store = PageStore.in_home(tmp_path)
    store.put(Page(url="https://doc.example/stoats", ok=True, title="Stoats", content="A stoat turns white."))
    store.close()
    return tmp_path


def test_fetch_and_extract_answers_fit_their_schema(
    simweb: SimWeb, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = tmp_path / "page.html"
    file.write_text(article_html(), encoding="utf-8")
    home = ("--home", str(tmp_path / "h"), "--allow-private-hosts")
    fetched = answer(capsys, "fetch", simweb.url("/article"), simweb.url("/status/404"), "--links", *home)
    extracted = answer(capsys, "extract", str(file), str(tmp_path / "missing.html"))
    for envelope in (fetched, extracted):
        assert [page["ok"] for page in envelope["data"]["pages"]] == [True, False]
        fits(envelope["data"], "fetch")
    assert fetched["data"]["pages"][0]["links"]


def test_open_find_and_store_answers_fit_their_schemas(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    found = answer(capsys, "find", "stoat", "--home", str(home))["data"]
    fits(found, "find")
    assert found["passages"][0]["url"] == "https://doc.example/stoats"
    opened = answer(capsys, "open", found["passages"][0]["handle"], "--links", "--home", str(home))["data"]
    fits(opened, "open")
    assert opened["content"] == "A stoat turns white."
    fits(
        answer(capsys, "open", found["passages"][0]["handle"], "--outline", "--home", str(home))["data"],
        "outline",
    )
    fits(answer(capsys, "store", "stats", "--home", str(home))["data"], "store-stats")
    fits(answer(capsys, "store", "list", "--home", str(home))["data"], "store-list")
    fits(
        answer(capsys, "open", found["passages"][0]["handle"], "--diff", "--home", str(home))["data"], "diff"
    )


def test_a_drifted_answer_does_not_fit() -> None:
    """The schemas can fail: an answer missing what the model requires is refused."""
    with pytest.raises(jsonschema.ValidationError):
        fits({"query": "stoat", "hits": []}, "find")
    with pytest.raises(jsonschema.ValidationError):
        fits({"handle": "a~b", "page": 0, "pages": 1, "content": "", "url": "u"}, "open")
