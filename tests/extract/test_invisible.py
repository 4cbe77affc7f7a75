"""Characters that show nothing inside a word are taken out of the text (`extract.invisible`)."""

from __future__ import annotations

import pytest

from webferret.extract.htmlpage import extract_html
from webferret.extract.types import ExtractOptions

_PAGE = (
    "<html><head><title>Der Ver&shy;kehrs&shy;minister</title></head><body><article><h1>Ver&shy;kehr</h1>"
    "<p>Der Ver&shy;kehrs&shy;minister sprach lange über die neue Auto&#173;bahn und die Bahn&#x200B;strecke "
    "nach Berlin, die im Jahr 2027 fertig werden soll.</p><p>Die Familie 👨&zwj;👩&zwj;👧 fährt mit dem "
    "Zug, weil er schneller ist als das Auto und weniger kostet als ein Flug.</p></article></body></html>"
)


@pytest.mark.parametrize("fmt", ["markdown", "text", "html"])
def test_soft_hyphens_and_zero_width_spaces_leave_words_whole(fmt: str) -> None:
    """The text kept `Ver\\xadkehrs\\xadminister`: a search for the word found nothing."""
    extracted = extract_html(_PAGE, "https://news.example/verkehr", ExtractOptions(format=fmt))
    content = extracted.content or ""
    assert "Der Verkehrsminister sprach" in content
    assert "Autobahn und die Bahnstrecke" in content
    assert "\u00ad" not in content and "\u200b" not in content
    assert "👨\u200d👩\u200d👧" in content  # the joiner of an emoji stays
    assert "\u00ad" not in (extracted.title or "x\u00ad")


def test_a_control_character_in_the_page_does_not_fail_the_extraction() -> None:
    """libxml2 reads a code block's vertical tab, but lxml refuses to write such text back: taking a
    soft hyphen out of the page failed the whole extraction."""
    page = _PAGE.replace(
        "</article>", "<pre><code>\x0b echo one\n\x0b echo two</code></pre><p>q<q>x\x0b</q></p></article>"
    )
    content = extract_html(page, "https://news.example/verkehr", ExtractOptions(whole_page=True)).content
    assert "Der Verkehrsminister sprach" in content and "echo one" in content
