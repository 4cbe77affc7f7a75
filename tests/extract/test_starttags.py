"""A start tag holding thousands of attributes is cut to its first `MOST_ATTRIBUTES` before libxml2
parses it (`extract.starttags`): the parser's time grows with the square of a tag's attributes, and
one tag of 60,000 held a fetch for over a minute, a million for hours."""

from __future__ import annotations

from lxml import html

from webferret.extract import blocks
from webferret.extract.htmlpage import parse_html
from webferret.extract.starttags import MOST_ATTRIBUTES, few_attributes
from webferret.fetch.blocks import read_markup

WORDS = "Ferrets sleep eighteen hours a day and hide socks under the sofa."
CROWDED = 2_000


def _page(attributes: str) -> str:
    return f"<html><head><title>T</title></head><body><p id='p' {attributes}>{WORDS}</p></body></html>"


def _crowded_page() -> str:
    return _page(" ".join(f'data-a{i}="x>{i}"' for i in range(CROWDED)) + " hidden lang=en")


def _kept(tree: html.HtmlElement | None) -> dict[str, str]:
    assert tree is not None
    paragraph = tree.find(".//p")
    assert paragraph is not None
    assert paragraph.text == WORDS
    return dict(paragraph.attrib)


def test_every_parse_of_a_page_keeps_a_crowded_tags_first_attributes_only() -> None:
    page = _crowded_page()
    markup = read_markup(page.encode())
    for tree in (parse_html(page, None), blocks.parse(page), markup.tree if markup else None):
        kept = _kept(tree)
        assert len(kept) == MOST_ATTRIBUTES
        assert kept["id"] == "p"
        assert kept[f"data-a{MOST_ATTRIBUTES - 2}"] == f"x>{MOST_ATTRIBUTES - 2}"  # a quoted '>' is no end


def test_text_and_bytes_are_cut_alike_and_a_page_without_crowded_tags_is_itself() -> None:
    page = _crowded_page()
    assert few_attributes(page.encode()) == few_attributes(page).encode()
    assert few_attributes(page).endswith(f">{WORDS}</p></body></html>")
    plain = _page(" ".join(f"a{i}" for i in range(MOST_ATTRIBUTES - 1)))
    assert few_attributes(plain) is plain


def test_tags_inside_a_quoted_value_or_after_a_bare_bracket_are_not_counted() -> None:
    quoted = _page('title="' + "<a b " * 5_000 + '"')
    assert few_attributes(quoted) is quoted
    crowded_after = "a < b <<" + _page(" ".join(f"a{i}" for i in range(3 * MOST_ATTRIBUTES)))
    cut = few_attributes(crowded_after)
    assert cut.startswith("a < b <<<html>")
    assert len(_kept(html.document_fromstring(cut))) == MOST_ATTRIBUTES
