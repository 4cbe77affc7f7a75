"""A table's footer reads after its body, where the browser shows it (`extract.tablefoot`)."""

from __future__ import annotations

import pytest

from webferret.extract.htmlpage import extract_html
from webferret.extract.types import ExtractOptions

_PAGE = (
    '<html><head><title>Sales</title><meta property="og:type" content="article"></head><body><article>'
    "<h1>Sales report</h1><p>The sales of the first quarter rose in both regions, the north leading the "
    "south by a wide margin again.</p><table><thead><tr><th>Region</th><th>Q1</th></tr></thead><tfoot><tr>"
    "<th>Total</th><td>30</td></tr></tfoot><tbody><tr><td>North</td><td>10</td></tr><tr><td>South</td>"
    "<td>20</td></tr></tbody></table><p>The second quarter is expected to follow the same pattern, with the"
    " north ahead once more.</p></article></body></html>"
)


@pytest.mark.parametrize("whole_page", [False, True])
def test_a_footer_written_before_the_body_reads_last(whole_page: bool) -> None:
    """HTML 4 put `<tfoot>` before `<tbody>`: the totals row read first, as the table's first data row."""
    options = ExtractOptions(whole_page=whole_page)
    content = extract_html(_PAGE, "https://example.org/sales", options).content or ""
    assert "| Region | Q1 |\n|---|---|\n| North | 10 |\n| South | 20 |\n| Total | 30 |" in content
