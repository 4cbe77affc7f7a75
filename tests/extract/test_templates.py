"""`<template>` read as a browser shows it: an inert one never, a declarative shadow root in place."""

from __future__ import annotations

import pytest

from webferret.extract.htmlpage import extract_html
from webferret.extract.types import ExtractOptions

_PROSE = (
    "<p>Our catalogue lists the products that customers buy most often in winter, with their prices.</p>"
    "<p>Each of them was tested on the coldest mountain passes of the Alps by our own team last year.</p>"
    "<p>Orders placed before noon ship the same day, and returns are free for a month after delivery.</p>"
)
_AFTER = "<p>More words after the card, a sentence long enough to count as a paragraph of the page.</p>"
_INERT = '<template id="row"><p>A stamped row that no one sees.</p></template>'
_SHADOW = (
    '<product-card><template shadowrootmode="open"><h2>Warm coat</h2><p>A wool coat for cold days, for '
    '<slot name="price"></slot>.</p></template><span slot="price">80 euros</span></product-card>'
)


@pytest.mark.parametrize("head", ["", '<meta property="og:type" content="article">'])
@pytest.mark.parametrize("fmt", ["markdown", "text"])
def test_an_inert_template_is_never_shown_and_a_shadow_root_is(head: str, fmt: str) -> None:
    """A script's stamp in a `<template>` showed when trafilatura chose the content (it keeps a
    template's words), and a server-rendered component's shadow root was skipped by every reader."""
    body = f"<article><h1>Cards</h1>{_PROSE}{_SHADOW}{_INERT}{_AFTER}</article>"
    page = f"<html><head>{head}</head><body>{body}</body></html>"
    content = extract_html(page, "https://example.org/cards", ExtractOptions(format=fmt)).content or ""
    assert "stamped row" not in content
    assert "Warm coat" in content and "A wool coat for cold days, for 80 euros." in content


def test_the_whole_page_leaves_a_template_out_too() -> None:
    page = f"<html><body>{_PROSE}{_SHADOW}{_INERT}</body></html>"
    options = ExtractOptions(whole_page=True)
    content = extract_html(page, "https://example.org/cards", options).content or ""
    assert "stamped row" not in content and "for 80 euros." in content
