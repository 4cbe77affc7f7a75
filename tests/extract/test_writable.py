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
