"""A table that trafilatura gives back as bare cells (a spec sheet inside a list item) is a table
again in the Markdown and the text, not one run of words ("ResolutionUp to 2KField of View…")."""

from __future__ import annotations

from lxml import etree, html

from webferret.extract.cells import regroup
from webferret.extract.htmlpage import extract_html
from webferret.extract.markdown import to_markdown, to_text
from webferret.extract.types import ExtractOptions

WORDS = "Ferrets sleep fourteen hours a day and play hard for the rest of it, in short bursts. "


def _markdown(fragment: str) -> str:
    root = etree.fromstring(f"<body>{fragment}</body>")
    regroup(root, root)
    return to_markdown(root)


def test_heading_and_data_pairs_become_rows() -> None:
    markdown = _markdown(
        "<list><item>Doorbell <th>Resolution</th> <td>2K</td>\n<th>Field of View</th><td>152 degrees</td>"
        "<th>Power</th><td>Wired</td><td>battery</td></item></list>"
    )
    assert "| Resolution | 2K |  |\n  |---|---|---|\n  | Field of View | 152 degrees |  |" in markdown
    assert "  | Power | Wired | battery |" in markdown


def test_a_row_of_headings_sets_the_width() -> None:
    markdown = _markdown(
        '<p>Plans</p><div><cell role="head">Plan</cell><cell role="head">Price</cell>'
        "<cell>Basic</cell><cell>$10</cell><cell>Plus</cell><cell>$20</cell></div>"
    )
    assert "| Plan | Price |\n|---|---|\n| Basic | $10 |\n| Plus | $20 |" in markdown


def test_headings_together_open_one_row() -> None:
    markdown = _markdown("<div><th>Size</th><td>M</td><th>Colour</th><th>Shade</th><td>Red</td></div>")
    assert "| Colour | Shade | Red |" in markdown


def test_text_after_a_comment_parts_the_cells() -> None:
    markdown = _markdown("<div><td>Basic</td><td>Plus</td><!-- c -->or<td>Pro</td></div>")
    assert "| Basic | Plus |" in markdown and "| Pro" not in markdown


def test_text_between_cells_parts_them() -> None:
    root = etree.fromstring(
        "<body><item><td>Basic</td> or <td>Plus</td><td>Pro</td><p>x</p><td>Max</td></item></body>"
    )
    regroup(root, root)
    assert [len(t) for t in root.iter("table")] == [1]  # Plus and Pro; Basic and Max stand alone
    assert [c.text for c in root.iter("td") if c.getparent().tag == "tr"] == ["Plus", "Pro"]
    assert "".join(root.itertext()) == "Basic or PlusProxMax"


def test_cells_in_rows_are_left_alone() -> None:
    page = "<table><tr><th>Plan</th><td>Basic</td></tr><tr><th>Price</th><td>$10</td></tr></table>"
    root = html.fromstring(page)
    before = html.tostring(root)
    regroup(root, root)
    assert html.tostring(root) == before


def test_a_spec_sheet_in_a_list_item_reads_as_a_table() -> None:
    specs = "".join(
        f'<li class="pick"><h3>{name}</h3><p>{WORDS}</p><div class="specs"><table><tbody>'
        f"<tr><th>Resolution</th><td>Up to {res}</td></tr>"
        f"<tr><th>Field of View</th><td>{fov} degrees</td></tr>"
        "</tbody></table></div></li>"
        for name, res, fov in (
            ("Doorbell Pro", "2K", 152),
            ("Garden Cam", "4K", 164),
            ("Porch Cam", "1080p", 140),
        )
    )
    page = (
        '<html><head><meta property="og:type" content="article"><title>Cameras</title></head><body><article>'
        f"<h1>The best cameras</h1><p>{WORDS * 3}</p><ol>{specs}</ol><p>{WORDS * 2}</p>"
        "</article></body></html>"
    )
    result = extract_html(page, "https://review.example/cameras", ExtractOptions())
    assert "| Field of View | 164 degrees |" in result.content
    assert "Up to 2KField" not in result.content
    text = extract_html(page, "https://review.example/cameras", ExtractOptions(format="text")).content
    assert "Field of View | 152 degrees" in text


def test_the_text_rendering_parts_the_cells_too() -> None:
    root = etree.fromstring(
        "<body><item><th>Power</th><td>Wired</td><th>Storage</th><td>Cloud</td></item></body>"
    )
    regroup(root, root)
    assert "Power | Wired\n" in to_text(root) and "Storage | Cloud" in to_text(root)


def test_the_pages_own_table_gives_the_rows_back() -> None:
    page = html.fromstring(
        "<div><table><tr><th></th><th><img src='c.png'> Cups</th><th>Office</th></tr>"
        "<tr><td>Therapist</td><td><i class='check'></i></td><td><i class='check'></i></td></tr>"
        "<tr><td>Messaging</td><td><i class='check'></i></td><td></td></tr></table>"
        "<table><tr><td>Therapist</td><td>Messaging</td></tr></table></div>"
    )
    root = etree.fromstring(
        "<body><p>Compare</p><div><th>Office</th><td>Therapist</td><td>Messaging</td></div></body>"
    )
    regroup(root, page)
    assert "| Messaging |  |  |" in to_markdown(root)  # three columns, as on the page
    assert "Cups" in to_markdown(root)


def test_a_table_with_more_than_twice_the_cells_is_not_the_source() -> None:
    page = html.fromstring(
        "<table><tr><td>Plan</td><td>Basic</td><td>Plus</td><td>Pro</td><td>Max</td></tr></table>"
    )
    root = etree.fromstring("<body><div><th>Plan</th><td>Basic</td></div></body>")
    regroup(root, page)
    assert "| Plan | Basic |" in to_markdown(root) and "Max" not in to_markdown(root)
