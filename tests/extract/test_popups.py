"""Hover cards and tooltips in running text removed (`extract.popups`)."""

from __future__ import annotations

from lxml import html

from webferret.extract.htmlpage import extract_html
from webferret.extract.popups import drop_popups, has_popups
from webferret.extract.types import ExtractOptions

CARD = (
    '<span class="rollover-people"><a class="rollover-people-link" href="/people/ilhan-omar">Ilhan Omar</a>'
    '<span class="rollover-people-block"><span class="rollover-block">'
    '<a class="name" href="/people/ilhan-omar">Ilhan Omar</a>'
    '<a href="/news/1">Progressives oppose funding bill over surveillance authority</a> '
    '<a href="/news/2">Omar asks court for compassion</a></span></span></span>'
)
PROSE = " ".join(f"The committee heard the case for the plan, part {n}." for n in range(30))


def _dropped(body: str) -> str:
    tree = html.document_fromstring(f"<html><body>{body}</body></html>")
    drop_popups(tree)
    return tree.text_content()


def test_a_hover_card_leaves_the_sentence_with_the_name_it_hangs_on() -> None:
    text = _dropped(f"<p>He threatened to kill Rep. {CARD} (D-Minn.), the office said.</p>")
    assert text == "He threatened to kill Rep. Ilhan Omar (D-Minn.), the office said."


def test_a_glossary_bubble_goes_and_its_term_stays() -> None:
    body = (
        '<p>Organic traffic and <span class="Term_tooltip__8VNIW">keyword'
        '<span class="Term_tooltipBubble__mu">A keyword is what users write into a search engine. '
        "Learn more</span></span> rankings matter.</p>"
    )
    assert _dropped(body) == "Organic traffic and keyword rankings matter."


def test_what_the_pointer_rests_on_stays() -> None:
    kept = [
        '<p>See <a class="tooltip" href="/g">the glossary of health approaches</a> for terms.</p>',  # a link
        '<p>By <span class="authorPopover__trigger">John Q. Public the Third</span> today.</p>',  # a trigger
        '<p>The <span class="tooltip">expandable</span> panel.</p>',  # a label under four words
        '<div class="popover">Change region: Americas, Europe, Asia, Africa</div>',  # not in running text
    ]
    for body in kept:
        before = html.document_fromstring(f"<html><body>{body}</body></html>").text_content()
        assert _dropped(body) == before, body


def test_the_cheap_look_before_the_walk() -> None:
    assert has_popups('<div class="Tooltip">') and has_popups('<div class="js-Popover">')
    assert has_popups("<span class='rollover-block'>") and has_popups('<b class="x tooltiptext">')
    assert not has_popups("<p>A page without any hover boxes at all.</p>")
    assert not has_popups("<script>$('.x').tooltip()</script><style>.popover{}</style>")  # no class holds one
    assert has_popups("<div class=tooltip-box>") and has_popups('<p>x</p><i class=" a b  c popover">')
    assert not has_popups('<div class="a" title="tooltip">')  # another attribute holds it
    assert not has_popups("<div class='a'>tooltip</div>") and not has_popups("tooltip")
    assert not has_popups('<div data-class="x"><i title="popover">')  # after a quote that opens no class


def test_the_cheap_look_reads_escaped_markup_as_the_page_has_it() -> None:
    # a script's JSON holding a thread's markup: `class=` thousands of times, and no quote nor `>` in it
    escaped = "class=\\u0022post\\u0022 " * 5000
    assert not has_popups(f'<script>var data = "{escaped}";</script><p>Hover for a tooltip.</p>')
    assert has_popups(f'<script>var data = "{escaped}";</script><span class="rollover-block">')


def test_an_extracted_article_reads_without_the_card() -> None:
    page = (
        '<html><head><title>Man pleads guilty</title><meta property="og:type" content="article"></head>'
        "<body><article><h1>Man pleads guilty</h1>"
        f"<p>He threatened to kill Rep. {CARD} (D-Minn.), the office said.</p>"
        f"<p>{PROSE}</p></article></body></html>"
    )
    content = extract_html(page, "https://news.example/a", ExtractOptions(format="text")).content
    assert "Rep. Ilhan Omar (D-Minn.), the office said." in content
    assert "surveillance" not in content and "part 29" in content
