"""A shop's rails of other goods under their own heading, left out (`extract.recommended`)."""

from __future__ import annotations

from lxml import etree, html

from webferret.extract.htmlpage import extract_html
from webferret.extract.recommended import drop_recommended
from webferret.extract.types import ExtractOptions

CARDS = "".join(f"<li>Pre-owned lamp {n} $20.12 + $23.93 delivery</li>" for n in range(6))
ITEM = "<p>A brass desk lamp with a linen shade.</p>"


def _left(main: str) -> str:
    element = html.fragment_fromstring(main)
    drop_recommended(element)
    return " ".join(" ".join(element.itertext()).split())


def test_a_rail_of_other_goods_under_its_heading_goes() -> None:
    for heading in (
        "Similar items",
        "People who viewed this item also viewed",
        "Customers also bought or read",
        "Customers who bought this item also bought",
        "Frequently bought together",
        "You may also like:",
        "Recommended for you",
    ):
        main = (
            f"<div>{ITEM}<h2>{heading}</h2><p>1 of 3</p><ul>{CARDS}</ul><h2>Details</h2><p>Brass.</p></div>"
        )
        assert _left(main) == "A brass desk lamp with a linen shade. Details Brass."


def test_cards_titled_by_headings_of_a_lower_rank_go_with_their_rail() -> None:
    titled = "".join(f"<li><h3>Lamp {n}</h3><p>$20</p></li>" for n in range(4))
    assert (
        _left(f"<div>{ITEM}<h2>Similar items</h2><ul>{titled}</ul></div>")
        == "A brass desk lamp with a linen shade."
    )
    grid = f"<div class='grid'><h4>Lamps</h4><ul>{CARDS}</ul></div>"  # a wrapper: its title ranks lower
    assert _left(f"<div>{ITEM}<h2>Recommended for you</h2>{grid}<p>Sold by Jo</p></div>") == (
        "A brass desk lamp with a linen shade. Sold by Jo"
    )
    # trafilatura's XML: a card's title and an ad's label inside the items, as `head` of any rank
    xml = etree.fromstring(
        "<body><head rend='h2'>Similar items</head><list><item><head rend='h2'>Why this ad</head>Lamp</item>"
        "</list><head rend='h2'>Item description</head><p>Brass.</p></body>"
    )
    assert " ".join(" ".join(xml.itertext()).split()) != "Item description Brass."
    drop_recommended(xml)
    assert " ".join(" ".join(xml.itertext()).split()) == "Item description Brass."


def test_a_heading_in_a_wrapper_and_trafilatura_s_xml() -> None:
    wrapped = f"<div>{ITEM}<div><h3>Similar items</h3></div><div class='rail'><ul>{CARDS}</ul></div></div>"
    assert _left(wrapped) == "A brass desk lamp with a linen shade."
    xml = etree.fromstring(
        f"<body>{ITEM}<head rend='h2'>Similar items</head><list><item>Lamp</item></list><p>By Jo</p></body>"
    )
    assert drop_recommended(xml) == 1
    assert " ".join(xml.itertext()) == "A brass desk lamp with a linen shade. By Jo"


def test_the_text_after_the_rail_s_list_stays() -> None:
    main = f"<div>{ITEM}<h2>Similar items</h2>Six lamps<ul>{CARDS}</ul>Sold by Jo</div>"
    assert _left(main) == "A brass desk lamp with a linen shade. Sold by Jo"


def test_what_is_no_rail_stays() -> None:
    kept = [
        f"<div>{ITEM}<h2>Related products</h2><ul>{CARDS}</ul></div>",  # a manufacturer's own: content
        f"<div>{ITEM}<h2>You may also like</h2><p>Our lamps are made in Leeds by hand.</p></div>",  # prose
        f"<div>{ITEM}<h2>Similar items</h2><h2>Lamps</h2><ul>{CARDS}</ul></div>",  # its rank, first
        f"<div>{ITEM}<p>Similar items</p><ul>{CARDS}</ul></div>",  # not a heading
        f"<div>{ITEM}<h2>Similar items to the one in the photograph</h2><ul>{CARDS}</ul></div>",  # not whole
    ]
    for main in kept:
        before = " ".join(" ".join(html.fragment_fromstring(main).itertext()).split())
        assert _left(main) == before, main


def test_a_product_page_reads_without_the_rail() -> None:
    page = (
        "<html><head><title>Brass desk lamp</title></head><body><main><h1>Brass desk lamp</h1>"
        + ITEM * 6
        + f"<h2>Similar items</h2><ul>{CARDS}</ul><h2>Shipping</h2><p>Ships from Leeds within two days.</p>"
        + "</main></body></html>"
    )
    content = extract_html(page, "https://shop.example/itm/1", ExtractOptions()).content
    assert "Pre-owned lamp" not in content and "Similar items" not in content
    assert "linen shade" in content and "Ships from Leeds" in content
