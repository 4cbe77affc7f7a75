"""Newsletter sign-up boxes left out of the main content (`extract.signup`)."""

from __future__ import annotations

from lxml import html

from webferret.extract.htmlpage import extract_html
from webferret.extract.signup import box_lines, drop_lines, has_signup
from webferret.extract.types import ExtractOptions

BOX = (
    '<section class="Newsletter-container"><h3>Pick Six Newsletter</h3>'
    "<h4>Get the day's big stories and the fun stuff you love.</h4>"
    '<form class="Newsletter-form"><input type="text" name="emailAddress">'
    '<input type="submit" value="Sign Up"></form>'
    '<div class="Newsletter-stateSent"><h3>Thanks for signing up!</h3>'
    "<h4>Keep an eye on your inbox for the latest sports news.</h4></div></section>"
)
STORY = "".join(f"<p>The defense held the line through the fourth quarter, drive {n}.</p>" for n in range(10))


def test_a_box_is_its_field_s_named_container() -> None:
    page = html.document_fromstring(f"<html><body><article>{STORY}{BOX}</article></body></html>")
    lines = box_lines(page)
    assert {"Pick Six Newsletter", "Thanks for signing up!"} <= lines
    assert not any("fourth quarter" in line for line in lines)
    # a search box's field in a container of another name, or a large one, is no sign-up box
    search = '<div class="search"><input type="email" name="q"><p>Search the site</p></div>'
    assert box_lines(html.document_fromstring(f"<html><body>{search}</body></html>")) == set()
    big = f'<div class="subscribe-page">{STORY * 3}<input type="email"></div>'
    assert box_lines(html.document_fromstring(f"<html><body>{big}</body></html>")) == set()
    assert has_signup(BOX) and not has_signup(STORY)


def test_only_whole_lines_of_a_box_go() -> None:
    element = html.fragment_fromstring(
        "<div><p>Pick Six Newsletter</p><p>The Pick Six Newsletter picked the Browns.</p></div>"
    )
    drop_lines(element, {"Pick Six Newsletter"})
    assert element.text_content() == "The Pick Six Newsletter picked the Browns."


def test_an_article_reads_without_the_box_between_its_paragraphs() -> None:
    page = (
        '<html><head><title>Browns hold on</title><meta property="og:type" content="article"></head><body>'
        f"<article>{STORY[:300]}{BOX}{STORY[300:]}</article></body></html>"
    )
    content = extract_html(page, "https://sports.example/browns", ExtractOptions()).content
    assert "drive 9" in content
    assert "Newsletter" not in content and "signing up" not in content and "inbox" not in content
