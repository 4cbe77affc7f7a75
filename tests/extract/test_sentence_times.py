"""A `<time>` inside a sentence keeps its words (`extract.unwrap.times_in_sentences`)."""

from __future__ import annotations

from webferret.extract.htmlpage import extract_html
from webferret.extract.types import ExtractOptions

_PAGE = (
    '<html><head><title>Market</title><meta property="og:type" content="article"></head><body><article>'
    '<h1>The market</h1><p>Posted on <time datetime="2025-03-03">March 3, 2025</time> by Ann Lee in '
    "the town news.</p><p>The market in the old square opens at <time>9 am</time> on weekdays and at "
    "<time>8 am</time> on Saturdays, when the farmers from the valley come down with their carts.</p>"
    "<p>Stalls sell cheese, bread, honey and vegetables, and a few sell tools and old books as well.</p>"
    "</article></body></html>"
)


def test_a_time_in_a_sentence_keeps_its_words_and_still_dates_the_page() -> None:
    """trafilatura drops every `<time>` with its words: "opens at on weekdays and at on Saturdays"; and
    the page's own line, put back beside trafilatura's "Posted on by Ann Lee", read twice."""
    extracted = extract_html(_PAGE, "https://news.example/market", ExtractOptions(format="text"))
    content = extracted.content or ""
    assert "opens at 9 am on weekdays and at 8 am on Saturdays, when the farmers" in content
    assert content.count("Posted on") <= 1 and "Posted on by" not in content
    assert extracted.published == "2025-03-03"
