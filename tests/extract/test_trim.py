"""Trimming trafilatura's choice with the classifier's verdicts (`extract.trim`)."""

from __future__ import annotations

import gzip
from pathlib import Path
from types import SimpleNamespace

import numpy as np
from lxml import etree

from webferret.extract import selector, trim
from webferret.extract.features import normalize
from webferret.extract.htmlpage import extract_html, parse_html
from webferret.extract.promos import tag_line
from webferret.extract.types import ExtractOptions

BODY = """<body><head>The tide</head><p>The tide rises twice a day along this coast.</p>
<p>Sign up for our newsletter</p><list><item>Related: more tides</item></list>
<p>It falls twice a day too.</p></body>"""


def test_rejected_keeps_text_that_a_kept_block_repeats() -> None:
    texts = [normalize(t) for t in ("Menu", "Share", "Menu", "Body text here")]
    dropped = trim.rejected(texts, np.array([0.1, 0.05, 0.9, 0.95]), 0.3)
    assert dropped == {normalize("Share")}


def test_trim_drops_rejected_paragraphs_and_empty_lists() -> None:
    body = etree.fromstring(BODY)
    out = trim.trim(body, {normalize("Sign up for our newsletter"), normalize("Related: more tides")})
    kept = [el.text for el in out]
    assert kept == ["The tide", "The tide rises twice a day along this coast.", "It falls twice a day too."]
    assert out.find("list") is None
    assert "newsletter" in "".join(body.itertext())  # the input is left as it was


def test_trim_drops_the_words_a_quote_is_left_with_when_all_its_paragraphs_go() -> None:
    """trafilatura keeps an embedded tweet as `<quote><p>text</p>— author date</quote>`: when the tweet's
    paragraph was dropped, "— author date" stayed, a quote of its own (and said twice once `embeds` put
    the tweet back whole). A quote that keeps a paragraph keeps its loose words."""
    body = etree.fromstring(
        "<body><p>The tide rises twice a day.</p><quote><p>High tide at 6pm!</p>— Tide Watch "
        '<ref target="https://x.example/1">March 3</ref></quote><quote><p>Kept line.</p><p>Cut line.</p>'
        "— its source</quote><p>It falls twice a day too.</p></body>"
    )
    out = trim.trim(body, {normalize("High tide at 6pm!"), normalize("Cut line.")})
    assert "Tide Watch" not in "".join(out.itertext()) and "March 3" not in "".join(out.itertext())
    assert [el.tag for el in out] == ["p", "quote", "p"]
    assert "".join(out[1].itertext()) == "Kept line.— its source"


def test_trim_never_empties_the_selection() -> None:
    body = etree.fromstring("<body><p>Only this</p></body>")
    assert trim.trim(body, {normalize("Only this")}) is body
    assert trim.trim(body, set()) is body


INDIEWIRE = "3d8f3404cf975af824d7866b7679bc45189c3eea6adb32f0a125a0904b1abbb2"  # declares og:type article
INDIEWIRE_URL = "https://www.indiewire.com/2019/11/mary-steenburgen-jessie-buckley-wild-rose-glasgow-best-original-song-1202189233/"
POPULAR = "Popular on IndieWire"


def test_a_declared_article_loses_the_promotion_line_trafilatura_kept(article_set_dir: Path) -> None:
    with gzip.open(article_set_dir / f"{INDIEWIRE}.html.gz", "rt", encoding="utf8", errors="replace") as f:
        page = f.read()
    untrimmed = selector.trafilatura_main(selector.Run(parse_html(page, INDIEWIRE_URL)))
    assert untrimmed is not None and POPULAR in "".join(untrimmed.element.itertext())
    out = extract_html(page, INDIEWIRE_URL, ExtractOptions(format="text"))
    assert out.extra["selector"] == "trafilatura"
    assert POPULAR not in out.content
    assert POPULAR not in extract_html(page, INDIEWIRE_URL, ExtractOptions()).content
    assert "is now available on DVD and VOD" in out.content  # the article itself is all there
    assert out.word_count > 2000


def test_article_drop_rates_only_trafilaturas_paragraphs(article_set_dir: Path) -> None:
    with gzip.open(article_set_dir / f"{INDIEWIRE}.html.gz", "rt", encoding="utf8", errors="replace") as f:
        page = f.read()
    tree = parse_html(page, INDIEWIRE_URL)
    document = selector.trafilatura_document(tree)
    assert document is not None
    drop = trim.article_drop(document, page, INDIEWIRE_URL, tree)
    body = document.body
    paragraphs = {normalize("".join(el.itertext())) for el in body.iter("p", "head", "item", "quote")}
    assert drop and drop <= paragraphs
    assert normalize(POPULAR) in drop


WIRED = "d48aeb9cf2"  # an article in several containers of one kind; trafilatura takes the first
WIRED_URL = "https://www.wired.com/story/instagram-business-accounts-analytics/"


def test_a_declared_article_split_in_containers_is_read_whole(article_set_dir: Path) -> None:
    (path,) = article_set_dir.glob(f"{WIRED}*.html.gz")
    with gzip.open(path, "rt", encoding="utf8", errors="replace") as f:
        page = f.read()
    alone = selector.trafilatura_main(selector.Run(parse_html(page, WIRED_URL)))
    assert alone is not None and "Maybe Instagram likes it" not in "".join(alone.element.itertext())
    out = extract_html(page, WIRED_URL, ExtractOptions(format="text"))
    assert out.extra["selector"] == "trafilatura"
    paragraphs = out.content.split("\n\n")
    first = next(i for i, p in enumerate(paragraphs) if p.startswith("I changed my personal Instagram"))
    assert paragraphs[first + 1].startswith("I learned that over a dozen people")  # in the page's order
    assert paragraphs[-1].startswith("Maybe Instagram likes it that way")
    assert "Louise Matsakis is a staff writer" not in out.content  # the author's bio stays out


def test_extended_puts_blocks_after_their_place_in_order() -> None:
    from page_blocks import blocks_of

    added = list(blocks_of("<html><body><p>Second half one.</p><p>Second half two.</p></body></html>"))
    edit = trim.ArticleEdit(add=added, after=[normalize("It falls twice a day too.")] * 2)
    out = trim.extended(etree.fromstring(BODY), edit)
    texts = ["".join(el.itertext()) for el in out]
    assert texts[-3:] == ["It falls twice a day too.", "Second half one.", "Second half two."]
    assert trim.extended(etree.fromstring(BODY), trim.ArticleEdit()).find("p") is not None


def test_tag_lines_are_told_from_sentences() -> None:
    tags = ("Tags: tides, moon", "Filed under: Science |", "Tags tide tables 2018, spring tides, neap tides")
    for line in tags:
        assert tag_line(line), line
    for line in ("Tagged as a star, she rose fast", "Tags are useful, but only when they are kept short"):
        assert not tag_line(line), line


def test_a_declared_article_loses_its_tag_line() -> None:
    prose = " ".join(f"The tide rose over stone {n} of the harbour wall, as every spring." for n in range(12))
    page = (
        '<html><head><meta property="og:type" content="article"><title>Tides</title></head><body><article>'
        f"<h1>Tides of the harbour</h1><p>{prose}</p><p>{prose.replace('rose', 'fell')}</p>"
        "<p>Filed under: Harbours, Tides</p></article></body></html>"
    )
    untrimmed = selector.trafilatura_main(selector.Run(parse_html(page, None)))
    assert untrimmed is not None and "Filed under" in "".join(untrimmed.element.itertext())
    text = extract_html(page, "https://example.org/tides", ExtractOptions(format="text")).content
    assert "over stone 11" in text and "Filed under" not in text


def test_a_choice_the_classifier_rejects_as_a_whole_is_given_up() -> None:
    document = SimpleNamespace(body=etree.fromstring(BODY))
    banner = {normalize("The tide"), normalize("The tide rises twice a day along this coast.")}
    most = banner | {normalize("It falls twice a day too.")}
    assert trim.rejects_choice(document, trim.ArticleEdit(drop=most))  # 8 of 25 words kept
    assert not trim.rejects_choice(document, trim.ArticleEdit(drop=banner))  # 14 of 25 kept
    assert not trim.rejects_choice(document, trim.ArticleEdit())
    added = trim.ArticleEdit(drop=most, add=[SimpleNamespace()], after=[""])  # type: ignore[list-item]
    assert not trim.rejects_choice(document, added)  # it extends the choice: trafilatura was on track


def test_a_paragraph_inside_another_counts_its_words_once() -> None:
    quoted = "The harbour master said the tide would turn before the boats came in."  # 13 words
    kept = "She said it twice."  # 4 words
    menu = "Home News Sport Weather Travel Culture Food Money Cars Jobs Homes Dating Puzzles Shop Deals"  # 15
    body = etree.fromstring(f"<body><quote><p>{quoted}</p></quote><p>{kept}</p><p>{menu}</p></body>")
    document = SimpleNamespace(body=body)
    # 32 words: 13 of them kept is under half (the quote's words counted twice made it 26 of 45)
    assert trim.rejects_choice(document, trim.ArticleEdit(drop={normalize(kept), normalize(menu)}))
    # the quote dropped (its paragraph with it): 19 of 32 kept (counted twice, 19 of 45)
    assert not trim.rejects_choice(document, trim.ArticleEdit(drop={normalize(quoted)}))
    # a paragraph dropped inside a quote that stays: its words are gone all the same
    body = etree.fromstring(f"<body><quote>He wrote: <p>{quoted}</p></quote><p>{kept}</p></body>")
    assert trim._paragraph_words(body, {normalize(quoted)}) == (19, 13)
