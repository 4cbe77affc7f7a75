"""Soft hyphens (`&shy;`), invisible unless a line breaks there, are not read into the text: a
hyphenated word reads, counts and is found whole."""

from __future__ import annotations

from pathlib import Path

import pytest
from storeweb import Doc, Web, loopback_ferret

from webferret.extract.htmlpage import extract_html
from webferret.extract.types import ExtractOptions

STORY = (
    "<p>An extra{shy}ordinarily long Ger{shy}man word such as Donau{shy}dampf{shy}schiff{shy}fahrt is broken"
    " for narrow screens, and a reader copying the text should never see where.</p>"
    "<p>A second paragraph of plain words about typography makes the article long enough to read.</p>"
)


def _page(shy: str) -> str:
    return (
        f"<html><head><title>On hyphen{shy}ation</title></head><body><article>"
        f"<h1>On hyphen{shy}ation</h1>{STORY.format(shy=shy)}"
        "</article></body></html>"
    )


@pytest.mark.parametrize("shy", ["&shy;", "&#173;", "&#xAD;", "&#x00ad;", "\xad", "&#0173;", "&#173"])
@pytest.mark.parametrize("fmt", ["markdown", "text", "html"])
def test_soft_hyphens_are_not_read(shy: str, fmt: str) -> None:
    page = extract_html(_page(shy), "https://example.org/hyphens", ExtractOptions(format=fmt))
    assert page.title == "On hyphenation"
    assert "\xad" not in page.content and "&shy;" not in page.content and "&#" not in page.content
    assert "extraordinarily long German word such as Donaudampfschifffahrt" in page.content


def test_an_escaped_reference_is_text_not_a_soft_hyphen() -> None:
    """`&amp;shy;` is a page writing the characters "&shy;" for its reader to see: they stay."""
    page = extract_html(_page("&amp;shy;"), None, ExtractOptions())
    assert "&shy;dampf" in page.content


def test_a_reference_without_its_semicolon_is_read_as_a_browser_reads_it() -> None:
    """`&shy` with no ';' is a soft hyphen before a space, none before a letter or '=' (a link's
    `?a=1&shy=2`); `&#173` with none is one unless a digit follows (`&#1735` is another character)."""
    broken = "is &shy broken (a letter &#1735 too, see <a href='https://example.org/?a=1&shy=2'>it</a>)"
    page = extract_html(
        _page("").replace("is broken", broken), "https://example.org/hyphens", ExtractOptions()
    )
    assert "\xad" not in page.content and "is broken (a letter \u06c7 too" in page.content.replace("  ", " ")
    assert [link.url for link in page.links] == ["https://example.org/?a=1&shy=2"]


def test_soft_hyphens_escaped_in_json_ld_are_not_read() -> None:
    """`"headline": "Donau\\u00addampf"` (PHP's json_encode escapes them so): read from the JSON, they
    came back in the title, the byline and the description."""
    ld = (
        r'{"@type": "NewsArticle", "headline": "Donau\u00addampf\u00ADschiff",'
        r' "author": {"@type": "Person", "name": "Anna Mei\u00adner"},'
        r' "description": "Ein extra\u00adlanges Wort", "text": "a backslash, then u00ad: \\u00ad"}'
    )
    page = (
        f'<html><head><script type="application/ld+json">{ld}</script></head><body><article>'
        f"{STORY.format(shy='')}</article></body></html>"
    )
    extracted = extract_html(page, "https://example.org/hyphens", ExtractOptions())
    assert (extracted.title, extracted.byline) == ("Donaudampfschiff", "Anna Meiner")
    assert extracted.description == "Ein extralanges Wort"
    assert extracted.jsonld[0]["text"] == "a backslash, then u00ad: \\u00ad"  # no escape: text


async def test_a_hyphenated_word_is_found_whole(web: Web, tmp_path: Path) -> None:
    web.docs["/shy"] = Doc(_page("&shy;"))
    async with loopback_ferret(tmp_path) as ferret:
        page = await ferret.fetch(web.url("/shy"))
        found = await ferret.find("extraordinarily")
    assert page.ok and [passage.url for passage in found] == [page.final_url]
