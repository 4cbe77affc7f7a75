"""The HTML pipeline on captured real pages: metadata against readability's expectations, Markdown shape."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest

from webferret.extract.document import extract_document
from webferret.extract.types import Extracted, ExtractOptions

MARKDOWN = ExtractOptions()
TITLED = ("bbc-1", "cnn", "guardian-1", "medium-1", "nytimes-1", "mozilla-1", "daringfireball-1")
DATED = ("bbc-1", "guardian-1", "medium-1")
BYLINES = ("cnn", "guardian-1", "medium-1")


def extract(path: Path, url: str, options: ExtractOptions = MARKDOWN) -> Extracted:
    return extract_document(path.read_bytes(), url=url, content_type="text/html", options=options)


@functools.cache
def readability_case(pages_dir: Path, name: str) -> tuple[Extracted, dict[str, str]]:
    folder = pages_dir / "readability" / name
    expected = json.loads((folder / "expected-metadata.json").read_text(encoding="utf-8"))
    return extract(folder / "source.html", f"https://news.example.org/{name}/story"), expected


@pytest.mark.parametrize("name", TITLED)
def test_title_matches_readability(pages_dir: Path, name: str) -> None:
    page, expected = readability_case(pages_dir, name)
    assert page.title == expected["title"]
    assert page.word_count > 100
    assert page.content.strip()


@pytest.mark.parametrize("name", DATED)
def test_published_date_is_iso_day(pages_dir: Path, name: str) -> None:
    page, expected = readability_case(pages_dir, name)
    assert page.published == expected["publishedTime"][:10]


@pytest.mark.parametrize("name", BYLINES)
def test_byline_matches_readability(pages_dir: Path, name: str) -> None:
    page, expected = readability_case(pages_dir, name)
    assert page.byline == expected["byline"]


def test_article_metadata_page_type_quality_and_links(pages_dir: Path) -> None:
    page, _ = readability_case(pages_dir, "guardian-1")
    assert page.page_type == "article"
    assert page.site_name == "the Guardian"
    assert page.language == "en"
    assert page.og_type == "article"
    assert page.canonical_url and page.canonical_url.startswith("https://www.theguardian.com/")
    assert page.quality is not None and page.quality > 0.8
    assert page.jsonld, "the raw JSON-LD blocks are kept"
    assert all(link.url.startswith(("http://", "https://")) for link in page.links)
    assert any(link.in_main for link in page.links) and not all(link.in_main for link in page.links)


def test_no_date_without_structured_markup(pages_dir: Path) -> None:
    page, _ = readability_case(pages_dir, "daringfireball-1")
    assert page.published is None  # the page has a copyright line, which is no publication date


def test_docs_page_keeps_tables_and_code(pages_dir: Path) -> None:
    page = extract(
        pages_dir / "trafilatura/docs.docker.com_install.html", "https://docs.docker.com/engine/install/"
    )
    assert "| Platform | x86_64 / amd64 |" in page.content
    assert "[CentOS](https://docs.docker.com/engine/install/centos/)" in page.content
    assert "```\n0.0.0-YYYYmmddHHMMSS-abcdefabcdef\n```" in page.content


def test_flattened_code_is_restored_from_the_original_page(pages_dir: Path) -> None:
    page = extract(
        pages_dir / "misc/stackoverflow_question_58211880.html",
        "https://stackoverflow.com/questions/58211880/x",
    )
    assert '```\nimport { ms } from "./ms.js";\n' in page.content
    assert "    port = 1992," in page.content  # indentation kept
    assert page.page_type == "forum"


def test_text_format_is_plain(pages_dir: Path) -> None:
    text = extract(
        pages_dir / "readability/medium-1/source.html", "https://medium.com/x", ExtractOptions(format="text")
    )
    markdown = extract(pages_dir / "readability/medium-1/source.html", "https://medium.com/x")
    assert text.format == "text" and markdown.format == "markdown"
    assert "](http" not in text.content and "](http" in markdown.content
    assert text.content.startswith("Open Journalism Project:\n\nBetter Student Journalism\n\n")
    assert text.word_count == markdown.word_count  # the same words, without the marks and link targets


def test_wikipedia_mobile_html(wikipedia_mobile_html: bytes) -> None:
    url = "https://en.wikipedia.org/api/rest_v1/page/mobile-html/Canis_lepophagus"
    page = extract_document(wikipedia_mobile_html, url=url, content_type="text/html", options=MARKDOWN)
    assert page.title == "Canis lepophagus"
    for heading in ("## Evolution", "### Fossil distribution", "## References"):
        assert heading in page.content  # sections hidden with display:none are kept
    assert "](https://upload.wikimedia.org/wikipedia/commons/thumb/5/56/" in page.content  # lazy image
    assert "[species](https://en.wikipedia.org/wiki/Species)" in page.content
    assert "Early Pliocene](https://en.wikipedia.org/wiki/Early_Pliocene).[2] It is" in page.content
    assert "1. Johnston, C. S. 1938" in page.content  # references compact, one line each
    assert "pcs-ref-back-link" not in page.content and "Quick facts" not in page.content
    assert page.page_type == "article"


def test_learned_selector_hook_is_used_when_installed(pages_dir: Path) -> None:
    from lxml import html

    from webferret.extract.htmlpage import parse_html
    from webferret.extract.main_content import analyse, choice
    from webferret.extract.selector import Run, learned_main

    source = (pages_dir / "readability/medium-1/source.html").read_text(encoding="utf-8")
    chosen = learned_main(Run(parse_html(source, None)), source, "https://medium.com/x")
    analysis = analyse(source, "https://medium.com/x")
    assert analysis is not None and analysis.blocks
    assert chosen is not None
    if choice(analysis) is None:  # the page-level chooser hands this page to trafilatura (trimmed)
        assert chosen.source == "trafilatura"
        return
    assert chosen.source == "learned" and isinstance(chosen.element, html.HtmlElement)
