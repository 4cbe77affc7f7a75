"""Words that only a stylesheet keeps apart: two inline elements that touch across a word boundary
(`<span>YETI</span><span>Rambler</span>`) are read as two words; a word split over elements on
purpose (a drop cap, a footnote mark, a highlighter's tokens) stays whole."""

from __future__ import annotations

import pytest
from lxml import html

from webferret.extract.htmlpage import extract_html
from webferret.extract.spacing import space_touching
from webferret.extract.types import ExtractOptions

WORDS = "Ferrets sleep fourteen hours a day and play hard for the rest of it, in short bursts. "


def _text(fragment: str) -> str:
    tree = html.fromstring(f"<div>{fragment}</div>")
    space_touching(tree)
    return tree.text_content()


@pytest.mark.parametrize(
    ("fragment", "expected"),
    [
        ("<span>YETI</span><span>Rambler Bottle</span>", "YETI Rambler Bottle"),
        ("<a><span>YETI</span></a><!--[--><a><b>Rambler</b></a>", "YETI Rambler"),
        ("<span>171</span><span>Products</span>", "171 Products"),
        ("<span>Sold out.</span><span>Notify me</span>", "Sold out. Notify me"),
        ("<span>Price</span><span>25 dollars</span>", "Price 25 dollars"),
        ("<b>In stock</b><!-- x --><i><span></span>Ships today</i>", "In stock Ships today"),
        ("<span>Ferret<script>x</script></span><span><style>y</style>Care</span>", "Ferretx yCare"),
        ("Enterprise workflows<strong>Cons:</strong> cost", "Enterprise workflows Cons: cost"),
        ("<b>Pros</b> fast<!-- c --><em>Cons</em>", "Pros fast Cons"),
        ("<i>x</i>more options<span>KALLAX</span>", "xmore options KALLAX"),
        ("<b>Customer Support</b>As a client, you", "Customer Support As a client, you"),
        ("<a>albiflora</a>Low light", "albiflora Low light"),
    ],
)
def test_touching_elements_across_a_word_boundary_get_a_space(fragment: str, expected: str) -> None:
    assert _text(fragment) == expected


@pytest.mark.parametrize(
    "fragment",
    [
        "<b>T</b><span>he ferret</span>",  # the second opens in lower case: one word
        "<span>Ferret</span> <span>Care</span>",  # a space is there already
        "<span>Ferret</span><span> Care</span>",
        "<span>E = mc</span><sup>2</sup>",  # sup and sub touch their word on purpose
        "<span>Ferrets</span><span>-</span><span>Care</span>",  # not a word's end, nor a word's start
        "<span>Ferret</span>, <span>Care</span>",  # text between them
        "<span>Ferret</span><!-- x -->-<span>Care</span>",
        "<span>Ferret</span><script>x</script><span>Care</span>",  # not inline siblings
        "<span>Ferret </span><span>Care</span>",
        "<span>Ferret<span> </span></span><span>Care</span>",
        "<span>Ferret</span><span><b> Care</b></span>",
        "<span>(</span><span>Care</span>",
        "<span><b>Ferret</b>-</span><span>Care</span>",
        "<span>Ferret,<script>x</script></span><span>Care</span>",
        "<code>let new<span>Todo</span></code>",  # a highlighter's camelCase
        "<pre><code>item<span><b>Count</b></span></code></pre>",
        "the i<span>Phone</span> and e<b>Bay</b>",  # one lower-case letter: a name's start
        "Price 12<span>Care</span>",  # a figure is no word's end here
        "<span class='dropcap'>T</span>He ferret",  # one letter: a drop cap
        "<b>Sale</b>NOW on",  # a word in capitals: no capitalized word opens there
        "<code><span>get</span>Value</code>",
        "<pre><span>get</span><span>Value</span>()</pre>",  # a highlighter's tokens touch
        '<pre><span class="n">api</span><span class="o">.</span><span class="n">Client</span></pre>',
        "<code><span>Ferret</span><span>Care</span></code>",
        "<b>Note</b>s",
    ],
)
def test_a_word_split_on_purpose_or_already_spaced_is_left_alone(fragment: str) -> None:
    before = html.fromstring(f"<div>{fragment}</div>").text_content()
    assert _text(fragment) == before


def test_a_product_grids_brand_and_name_are_two_words_in_the_markdown() -> None:
    cards = "".join(
        f'<div class="card"><h2><span class="brand">YETI</span><span class="name">Rambler Bottle {i} oz.'
        f"</span></h2><p>A steel bottle that keeps water cold for a day, {i} ounces. {WORDS}</p></div>"
        for i in (12, 18, 26, 36)
    )
    page = (
        "<html><head><title>Bottles</title></head><body><main><h1>Water bottles</h1>"
        f"<p>{WORDS * 3}</p>{cards}</main></body></html>"
    )
    markdown = extract_html(page, "https://shop.example/bottles", ExtractOptions()).content
    assert "YETI Rambler Bottle 26 oz." in markdown and "YETIRambler" not in markdown
