"""An inline quotation (`<q>`) reads as its words between quotation marks (`extract.inlinequotes`)."""

from __future__ import annotations

import pytest

from webferret.extract.htmlpage import extract_html
from webferret.extract.types import ExtractOptions

_PAGE = (
    "<html><head><title>Quotes</title></head><body><article><h1>Quotes</h1><p>The minister said "
    "<q>no, and <q>never</q> again</q> when asked about the plan, and then <q><em>left</em> the room</q> "
    "without a word.</p><p>Another paragraph, long enough to make this page worth reading as content.</p>"
    "</article></body></html>"
)


@pytest.mark.parametrize("whole_page", [False, True])
def test_an_inline_quotation_keeps_its_words_and_marks(whole_page: bool) -> None:
    """trafilatura made the `<q>` a block quote and cut the paragraph there: "The minister said", the
    rest lost; the renderer read the quotation without its marks."""
    options = ExtractOptions(format="text", whole_page=whole_page)
    content = extract_html(_PAGE, "https://example.org/q", options).content or ""
    assert (
        "The minister said “no, and ‘never’ again” when asked about the plan, and then “left the room” "
        "without a word." in content
    )
