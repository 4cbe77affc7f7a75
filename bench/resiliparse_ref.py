"""resiliparse's main-content text, the second reference extractor of the block-feature experiments."""

from __future__ import annotations

from resiliparse.extract.html2text import extract_plain_text
from resiliparse.parse.html import HTMLParserException


def second_reference_text(html: str) -> str:
    """resiliparse's main-content text of the page, one block a line ("" when it cannot read the HTML)."""
    try:
        return extract_plain_text(
            html, preserve_formatting=True, main_content=True, list_bullets=False, alt_texts=False
        )
    except (TypeError, ValueError, HTMLParserException):
        return ""
