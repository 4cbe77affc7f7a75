"""A page's footnotes are kept; their links back to where they are cited are not."""

from __future__ import annotations

from webferret.extract.htmlpage import extract_html
from webferret.extract.types import ExtractOptions

_PAGE = """<html><head><title>On ferrets</title></head><body><article><h1>On ferrets</h1>
<p>Ferrets were domesticated long ago.<sup id="fnref:1"><a href="#fn:1" class="footnote-ref">1</a></sup>
They are playful, curious animals that love to explore tunnels and hide objects around the house.</p>
<p>They sleep up to fourteen hours a day<sup id="fnref:2"><a href="#fn:2">2</a></sup> and eat meat.</p>
<h2>Care</h2><p>Keep them in a large cage with hammocks and toys. Clean it weekly. A ferret's teeth
need checking every year by a vet who knows the animal well.</p>
<div class="footnotes"><hr><ol>
<li id="fn:1"><p>About 2,500 years ago.&#160;<a href="#fnref:1" class="footnote-backref">&#8617;</a></p></li>
<li id="fn:2"><p>See <a href="https://example.org/smith">Smith, 2019</a>.&#160;
<a href="#fnref:2">&#8617;&#xFE0E;</a></p></li></ol></div></article></body></html>"""


def test_footnotes_with_links_back_are_kept_without_the_arrows() -> None:
    """Python-Markdown's footnotes (each note ending in a `↩` link to its citation) were dropped
    whole with the main content's choice, as a list of links."""
    content = extract_html(_PAGE, "https://example.org/ferrets", ExtractOptions()).content or ""
    assert "1. About 2,500 years ago.\n2. See [Smith, 2019](https://example.org/smith)." in content
    assert "↩" not in content and "fnref" not in content
    assert "domesticated long ago.¹ They" in content  # the citation itself stays


def test_a_citation_mark_ending_a_paragraph_stays_raised() -> None:
    """`meat.<sup><a href="#fn:3">3</a></sup>` at a paragraph's end: trafilatura dropped the
    superscript and kept the link's words, so the mark read as a number of the sentence, "meat.3"."""
    page = _PAGE.replace(
        "and eat meat.</p>", 'and eat meat.<sup id="fnref:3"><a href="#fn:3">3</a></sup></p>'
    )
    content = extract_html(page, "https://example.org/ferrets", ExtractOptions()).content or ""
    assert "and eat meat.³" in content and "meat.3" not in content
