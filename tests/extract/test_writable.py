"""A control character in a page's text never fails a step that rewrites text (`extract.writable`)."""

from __future__ import annotations

from webferret.extract.htmlpage import extract_html
from webferret.extract.types import ExtractOptions


def test_a_control_character_beside_a_rewritten_text_does_not_fail_the_extraction() -> None:
    """libxml2 reads a vertical tab, but lxml refuses to write such text back: the step that gives an
    inline quotation its marks, or moves a table's footer, failed the whole extraction."""
    page = (
        "<html><body><article><h1>Tabs</h1><p>She said <q>stop\x0b now</q> and left the room at once.</p>"
        "<table><tfoot><tr><td>Total</td></tr></tfoot>\x0b<tr><td>One</td></tr></table></article></body></html>"
    )
    content = extract_html(page, "https://example.org/t", ExtractOptions(whole_page=True)).content or ""
    assert "She said “stop now” and left" in content and content.index("One") < content.index("Total")


def test_a_control_character_beside_an_unwrapped_element_does_not_fail_the_extraction() -> None:
    """Unwrapping an inline quotation or a `<time>` in a sentence joins its words to the text before
    it, and lifting a citation mark into its link moves the text after it: a control character in
    that text (a bell, a vertical tab) failed the whole extraction as internal."""
    page = (
        "<html><body><article><h1>Bells</h1>"
        "<p>The minister \x07 said <q>no</q> and left the room at once.</p>"
        "<p>The market \x07 opens at <time>9 am</time> on weekdays and closes late.</p>"
        "<p>Meat is good.<sup><a href='#fn:3'>\x0b3</a></sup> Then a bell \x07 rang twice.</p>"
        "</article></body></html>"
    )
    content = extract_html(page, "https://example.org/t", ExtractOptions(whole_page=True)).content or ""
    assert "said “no” and left" in content and "opens at 9 am on weekdays" in content
    assert "Meat is good.³ Then a bell" in content
