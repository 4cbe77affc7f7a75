"""A short page keeps its structure: trafilatura's last resort (all text as one paragraph) is not used
when the page has headings, paragraphs or list items of its own."""

from __future__ import annotations

from webferret.extract.document import extract_document
from webferret.extract.types import ExtractOptions


def markdown(html: str) -> str:
    page = extract_document(
        html.encode(), url="https://tiny.example/", content_type="text/html", options=ExtractOptions()
    )
    return page.content.strip()


def test_heading_and_paragraphs_stay_apart() -> None:
    html = (
        "<html><head><title>A tiny page</title></head><body><h1>Heading</h1>"
        "<p>hello world paragraph here.</p><p>Second paragraph with more text.</p></body></html>"
    )
    assert markdown(html) == "# Heading\n\nhello world paragraph here.\n\nSecond paragraph with more text."


def test_list_items_stay_a_list_and_navigation_is_left_out() -> None:
    html = (
        '<html><body><nav><a href="/">Home</a> <a href="/x">Elsewhere</a></nav><div><h2>Title</h2>'
        "<ul><li>one item</li><li>two item</li></ul><p>Some words.</p></div></body></html>"
    )
    assert markdown(html) == "## Title\n\n- one item\n- two item\n\nSome words."


def test_a_single_paragraph_is_unchanged() -> None:
    assert markdown("<html><body><p>just one line of text.</p></body></html>") == "just one line of text."


def test_a_rendered_heading_is_kept() -> None:
    """trafilatura's fallback drops the leading <h1> of a short JavaScript-rendered page."""
    html = (
        "<html><head><title>App</title></head><body><div id='app'><h1>Rendered Title</h1>"
        "<p>This paragraph was rendered by JavaScript and holds the main text of the page.</p>"
        "<p>A second paragraph with more words in it.</p></div></body></html>"
    )
    assert markdown(html).startswith("# Rendered Title\n\nThis paragraph was rendered")
