"""A hostile page of more blocks than any real page's is read cheaply (`selector.MAX_BLOCKS`)."""

from __future__ import annotations

import lxml.html
import pytest

from webferret.extract import selector
from webferret.extract.htmlpage import extract_html
from webferret.extract.pool import run_extraction
from webferret.extract.types import ExtractOptions


def _divs(count: int) -> str:
    menu = "<nav>" + "".join(f'<a href="/m{i}">Menu {i}</a>' for i in range(20)) + "</nav>"
    return f"<html><body>{menu}" + "".join(f"<div>w{i}</div>" for i in range(count)) + "</body></html>"


def test_a_page_of_more_blocks_than_the_limit_is_read_as_its_densest_block() -> None:
    """60,000 tiny `<div>`s: each cost the classifier and trafilatura time and memory (580,000 took
    331 s and 7.8 GB); the page's words are still read, its menu left out, and the marker says why."""
    count = selector.MAX_BLOCKS + 10_000
    body = _divs(count).encode()
    extracted, error = run_extraction(body, "https://example.org/", "text/html", ExtractOptions())
    assert error is None and extracted is not None
    assert extracted.extra.get("too_many_blocks") is True
    assert extracted.extra["selector"] in ("density", "body")
    assert extracted.word_count == count
    assert "w0" in extracted.content and f"w{count - 1}" in extracted.content
    assert "Menu" not in extracted.content


def test_unclosed_paragraphs_past_the_limit_are_read_cheaply(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(selector, "MAX_BLOCKS", 500)
    page = "<html><body>" + "".join(f"<p>word{i} " for i in range(600)) + "</body></html>"
    extracted = extract_html(page, "https://example.org/", ExtractOptions())
    assert extracted.extra.get("too_many_blocks") is True
    assert extracted.word_count == 600


def test_a_page_under_the_limit_is_read_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(selector, "MAX_BLOCKS", 600)
    page = "<html><body>" + "".join(f"<p>word{i} " for i in range(500)) + "</body></html>"
    extracted = extract_html(page, "https://example.org/", ExtractOptions())
    assert "too_many_blocks" not in extracted.extra
    assert extracted.extra["selector"] not in ("density", "body")


def _naive_score(node: lxml.html.HtmlElement) -> float:
    """The densest block's score as defined, reading each element's subtree (the reference)."""

    def length(element: lxml.html.HtmlElement) -> int:
        return sum(len(part.strip()) for part in element.itertext())

    held = sum(length(c) for c in node.iterchildren("p", "pre", "blockquote", "ul", "ol", "table"))
    if not held:
        return 0.0
    links = sum(length(a) for a in node.iter("a"))
    chrome = selector._NEGATIVE.search(f"{node.get('class', '')} {node.get('id', '')}".lower())
    return held * (1.0 - min(links / max(length(node), 1), 1.0)) * (0.5 if chrome else 1.0)


def test_the_densest_block_s_scores_are_summed_in_one_walk() -> None:
    """Read per element, the scores cost a page of nested blocks its elements times its depth (7 s for
    100,000 `<div>`s nested 100 deep); summed bottom-up they are the same."""
    page = (
        "<html><body><div class='post'> <p> Lead <a href='/x'>link <a href='/y'>inner</a></a> tail </p>"
        "<!-- a comment's words --> after the comment <ul><li>one</li><li> two </li></ul>"
        "<div id='sidebar-nav'><p>Menu <a href='/m'>home</a></p><table><tr><td><p>cell text</p></td></tr>"
        "</table></div><section><pre>code\n  here</pre><blockquote>quoted words</blockquote></section>"
        "</div><td>stray</td></body></html>"
    )
    body = lxml.html.document_fromstring(page).find("body")
    assert body is not None
    scores = selector._scores(body)
    elements = [n for n in body.iter() if isinstance(n.tag, str)]  # (a comment has no score)
    assert [scores[n] for n in elements] == [_naive_score(n) for n in elements]
    assert max(scores.values()) > 0
