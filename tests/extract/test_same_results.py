"""Speed-ups that must not change a result: the parser's element classes, block segmentation and the digit
count of the block features."""

from __future__ import annotations

import copy

from lxml import html

from webferret.extract import blocks, features
from webferret.extract.htmlpage import parse_html

PAGE = """<html lang="en"><head><title>Tides</title></head><body>
<nav class="menu"><a href="/a">Home</a> <a href="/b">News</a></nav>
<main id="content"><h1>The tide</h1>
<p>The tide rises twice a day along this coast, and the harbour empties at low water.</p>
<p>Fishing boats wait for the flood before they leave; the pilots read the tables each morning.</p>
<form action="/s"><label for="q">Search</label><input id="q" name="q"><select><option>a</option></select>
<textarea>notes</textarea></form>
<div class="w-1/2 card" style="display: none"><p>Hidden ²³ 42 text</p></div>
<ul><li><a href="/c">Related: more tides</a></li><li>Tables for 2026</li></ul></main>
<footer class="site-footer">© 2026 The Coast Times</footer></body></html>"""


def test_parser_gives_every_element_lxml_html_s_class() -> None:
    ours = parse_html(PAGE, None)
    theirs = html.document_fromstring(PAGE)
    assert [type(e) for e in ours.iter()] == [type(e) for e in theirs.iter()]
    assert {type(e).__name__ for e in ours.iter()} >= {"FormElement", "InputElement", "HtmlElement"}


def test_segment_signature_keeps_the_parents_last_step() -> None:
    root = copy.deepcopy(parse_html(PAGE, None))
    blocks.clean(root)
    cut = {b.text: b for b in blocks.segment(root)}
    hidden = cut["Hidden ²³ 42 text"]
    assert hidden.signature == "2/p."  # the parent's first class "w-1/2" splits its signature step
    assert hidden.flags & blocks.F_HIDDEN and hidden.flags & blocks.F_CONTENT
    assert cut["Related: more tides"].n_links == 1


def test_digit_count_is_isdigit_s() -> None:
    for text in ("Tables for 2026", "Hidden ²³ 42 text", "", "no digits", "٣ and 3"):
        assert features._digits(text) == sum(map(str.isdigit, text))
