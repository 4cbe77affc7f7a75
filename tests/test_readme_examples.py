"""The README's Python examples run as written (URLs pointed at the simulated web, settings by env)."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest
from simweb import SimWeb, article_html

README = Path(__file__).resolve().parent.parent / "README.md"


def python_block(section: str) -> str:
    """The first ```python block after the heading `section`."""
    text = README.read_text(encoding="utf-8")
    start = text.index(f"\n{section}\n")
    found = re.search(r"```python\n(.*?)```", text[start:], re.S)
    assert found, f"no python example under {section}"
    return found.group(1)


@pytest.fixture(params=[2, 30], ids=["one-page", "several-pages"])
def local_web(
    simweb: SimWeb, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> dict[str, str]:
    """Pages on the simulated web for the example's URLs; the first one as long as `request.param`
    paragraphs (one page, or several of `page_tokens` 300), and a SearXNG answer listing them."""
    pages = {
        name: simweb.add(f"/readme/{name}", article_html(f"Ownership {name}", request.param))
        for name in "xab"
    }
    results = [
        {"url": url, "title": f"Ownership {name}", "content": "rust ownership"} for name, url in pages.items()
    ]
    simweb.add(
        "/searx/search", json.dumps({"results": results}), headers={"Content-Type": "application/json"}
    )
    for name, value in {
        "ALLOW_HOSTS": "127.0.0.1",
        "ENGINES": "searxng",
        "SEARXNG_URL": simweb.url("/searx"),
        "ENGINE_MIN_INTERVAL": "0",
        "PAGE_TOKENS": "300",
    }.items():
        monkeypatch.setenv(f"WEBFERRET_{name}", value)
    simweb.add("/readme/guide/one", article_html("Ownership guide, part one", 4))
    guide = simweb.add(
        "/readme/guide/", "<html><body><p>The guide.</p><a href='one'>Part one</a></body></html>"
    )
    return {
        "https://example.org/": pages["x"],
        "https://a.example/": pages["a"],
        "https://b.example/": pages["b"],
        "https://docs.example/guide/": guide,
    }


def run_example(code: str, urls: dict[str, str]) -> None:
    for public, local in urls.items():
        code = code.replace(f'"{public}"', f'"{local}"')
    assert not re.search(r"https://[\w.]*example", code), "an example URL was left unmapped"
    scope: dict[str, object] = {"__name__": "readme_example"}
    exec(compile(code, str(README), "exec"), scope)


def test_library_example_runs(local_web: dict[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    run_example(python_block("## Library"), local_web)
    out = capsys.readouterr().out
    assert "Ownership x" in out and "127.0.0.1~" in out  # title and handle of the fetched page
    assert "['searxng']" in out  # a verified search hit with its engine
    assert "Ownership guide, part one" in out  # a page the crawl reached by a link


def test_retrieval_glue_example_runs(local_web: dict[str, str]) -> None:
    code = python_block("## Retrieval glue (`webferret.glue`)")
    for extra, call in (("langchain_core", "to_langchain"), ("llama_index", "to_llamaindex")):
        if importlib.util.find_spec(extra) is None:  # the optional extras are not installed here
            code = "\n".join(line for line in code.splitlines() if call not in line)
    marker = "    blocks = glue.to_search_results(records)"
    assert marker in code
    code = code.replace(marker, '    assert glue.from_links(page), "the page has no links"\n' + marker)
    run_example(code, local_web)
