"""A site's pointers to its other stories, between an article's paragraphs, left out (`extract.promos`)."""

from __future__ import annotations

from lxml import html

from webferret.extract.htmlpage import extract_html
from webferret.extract.promos import drop_promos
from webferret.extract.types import ExtractOptions

STORY = "".join(
    f"<p>The simulation follows twenty thousand galaxies from the Big Bang to the present, step {n}.</p>"
    for n in range(10)
)
OTHER = '<a href="/galaxies">The 15 Weirdest Galaxies in Our Universe</a>'


def _left(main: str, page: str = "") -> str:
    element = html.fragment_fromstring(main)
    drop_promos(element, html.document_fromstring(f"<html><body>{page or main}</body></html>"))
    return element.text_content()


def test_a_label_and_a_link_to_another_page_go() -> None:
    assert _left(f"<div><p>Stars.</p><p><b>Related: </b>{OTHER}</p><p>Gas.</p></div>") == "Stars.Gas."
    assert _left(f"<div><p>READ MORE - {OTHER}.</p><p>Gas.</p></div>") == "Gas."
    assert _left(f"<div><p>More: {OTHER}</p><p>Gas.</p></div>") == "Gas."
    assert _left(f"<div><p>More from Space.com: {OTHER}</p><p>Gas.</p></div>") == "Gas."  # the longer label
    # the label inside the link, and no mark after it: "Also on rt.com" over another story's title
    card = '<p><a href="/news/1"><span>Also on rt.com</span> <span>Journalists face arrest</span></a></p>'
    assert _left(f"<div>{card}<p>Gas.</p></div>") == "Gas."
    # the main content lost the link (trafilatura drops one holding only formatting): the page has it
    lost = "<div><p><b>Related: </b><b>The 15 Weirdest Galaxies in Our Universe</b></p><p>Gas.</p></div>"
    assert _left(lost, page=f"<p>{OTHER}</p>") == "Gas."


def test_another_story_s_headline_in_capitals_goes() -> None:
    shouted = '<p><a href="/spicer"><strong>SEAN SPICER ELIMINATED FROM THE SHOW</strong></a></p>'
    assert _left(f"<div><p>Stars.</p>{shouted}<p>Gas.</p></div>") == "Stars.Gas."
    warning = "<div><p>DO NOT MIX THE TWO CHEMICALS AT HOME.</p><p>Gas.</p></div>"  # no link: it stays
    assert _left(warning, page=f"{warning}<a>Home</a>") == "DO NOT MIX THE TWO CHEMICALS AT HOME.Gas."
    short = '<div><p><a href="/app">GET THE APP</a></p><p>Gas.</p></div>'  # under four words
    assert _left(short) == "GET THE APPGas."
    quiet = '<div><p><a href="/results">Read the full swim results of the meet</a></p></div>'  # not shouted
    assert _left(quiet) == "Read the full swim results of the meet"


def test_a_line_of_the_page_s_tags_goes_on_any_page() -> None:
    links = ", ".join(f'<a href="/t/{n}">stock car {n}</a>' for n in range(12))  # 36 words, 11 commas
    tags = f"<p><b>Tags<br>{links}</b></p>"
    assert _left(f"<div><p>Stars.</p>{tags}</div>") == "Stars."
    assert _left("<div><p>Filed under: Science</p><p>Gas.</p></div>") == "Gas."
    assert _left("<div><p>Tags are useful, but only when they are kept short.</p></div>").startswith("Tags")


def test_labels_alone_sentences_and_text_that_is_no_link_stay() -> None:
    kept = [
        "<div><p>See also:</p><ul><li>one</li></ul></div>",  # a label over the list it names
        "<div><p>More: the team will publish two more papers next year.</p></div>",  # not a link's text
        '<div><p>See also <a href="/faq">FAQ#Why one version</a>.</p></div>',  # a wiki's cross-reference
        f"<div><p>More than ever, astronomers agree: {OTHER}</p></div>",  # no label: "More" opens a sentence
        f"<div><p>Related: {OTHER} and the words of a paragraph of its own</p></div>",  # more than a link
    ]
    for main in kept:
        before = html.fragment_fromstring(main).text_content()
        assert _left(main, page=f"{main}<p>{OTHER}</p>") == before, main


def test_an_article_reads_without_the_pointer() -> None:
    page = (
        '<html><head><title>Universe in a box</title><meta property="og:type" content="article"></head><body>'
        f"<article>{STORY[:400]}<p><strong>Related: </strong>{OTHER}</p>{STORY[400:]}</article></body></html>"
    )
    content = extract_html(page, "https://science.example/universe", ExtractOptions()).content
    assert "Weirdest" not in content and "step 9" in content
