"""A table's caption reads as a line above it, on every road to the main content."""

from __future__ import annotations

import pytest

from webferret.extract.document import extract_document
from webferret.extract.types import ExtractOptions

PROSE = "Ferrets sleep most of the day and play in short bursts of energy in the evening. " * 3


@pytest.mark.parametrize("whole_page", [False, True])
def test_a_table_caption_is_a_line_above_its_table_and_the_header_stays_the_header(whole_page: bool) -> None:
    """trafilatura read a `<caption>` as the table's header row, the real header second as data;
    the whole-page view dropped it."""
    body = (
        f"<html><head><title>Fruit</title></head><body><article><h1>Fruit</h1><p>{PROSE}</p><table>"
        "<caption>Prices of fruit</caption><thead><tr><th>Fruit</th><th>Price</th></tr></thead>"
        f"<tbody><tr><td>Apple</td><td>1</td></tr></tbody></table><p>{PROSE}</p></article></body></html>"
    ).encode()
    options = ExtractOptions(whole_page=whole_page)
    page = extract_document(body, url="https://ex.org/a", content_type="text/html", options=options)
    assert "Prices of fruit\n\n| Fruit | Price |\n|---|---|\n| Apple | 1 |" in page.content, page.content
