"""A shop's grid of products that the main-content choice left out, put back (`extract.grids`)."""

from __future__ import annotations

import pytest
from lxml import etree, html

from webferret.extract import grids

INTRO = "<p>Enamel and stoneware mugs for the trail, the camp and the kitchen table.</p>"


NAMES = [
    "alder",
    "birch",
    "cedar",
    "dogwood",
    "elm",
    "fir",
    "gum",
    "hazel",
    "ivy",
    "juniper",
    "larch",
    "maple",
]


def shop_page(
    cards: int = 8,
    grid_class: str = "products",
    around: str = "",
    card_extra: str = "",
    priced: int = 12,
    linked: bool = True,
) -> str:
    """A category page: a heading, a sentence, and a grid of cards, the first `priced` with a price."""
    tag = "a" if linked else "span"
    items = "".join(
        f'<li class="product"><{tag} href="/p/{i}"><h2>Field mug {name}</h2></{tag}>{card_extra}'
        + (f'<span class="price"><span class="currency">&#36;</span>{20 + i}.95</span>' if i < priced else "")
        + "</li>"
        for i, name in enumerate(NAMES[:cards])
    )
    grid = f'<ul class="{grid_class}">{items}</ul>'
    return f"<html><body><main><h1>Mugs</h1>{INTRO}<div {around}>{grid}</div></main></body></html>"


def put_back(page: str, kept: str = INTRO) -> str | None:
    """The main content's text after `put_back_grid`, or None when nothing was put back."""
    main = html.fragment_fromstring(kept, create_parent="div")
    if not grids.put_back_grid(main, html.document_fromstring(page)):
        return None
    return " ".join(" ".join(main.itertext()).split())


def test_a_grid_of_priced_cards_left_out_is_put_back_after_the_kept_text() -> None:
    text = put_back(shop_page())
    assert text is not None and text.startswith("Enamel and stoneware mugs")
    assert "Field mug alder $ 20.95" in text and "Field mug hazel $ 27.95" in text


def test_cards_the_main_content_has_already_are_not_said_twice() -> None:
    kept = f"{INTRO}<p>Field mug alder</p><p>Field mug birch</p>"
    text = put_back(shop_page(), kept)
    assert text is not None and text.count("alder") == 1 and "Field mug cedar" in text


@pytest.mark.parametrize(
    ("page", "kept"),
    [
        (shop_page(cards=5), INTRO),  # too few cards for a grid
        (shop_page(), INTRO + "".join(f"<p>Field mug {n}</p>" for n in ("alder", "birch", "cedar", "elm"))),
        (shop_page(grid_class="related products"), INTRO),  # another list, by its name
        (shop_page(around='class="swiper-wrapper"'), INTRO),  # a carousel's
        (shop_page(around="hidden"), INTRO),
        (shop_page(around='style="display: none"'), INTRO),
        (shop_page().replace("&#36;", ""), INTRO),  # no prices
        (shop_page(cards=12, priced=7), INTRO),  # too many of the like siblings are no priced cards
        (shop_page(linked=False), INTRO),  # cards lead nowhere
    ],
)
def test_what_is_no_page_s_own_grid_or_is_read_already_is_not_put_back(page: str, kept: str) -> None:
    assert put_back(page, kept) is None


def test_a_card_s_scripts_are_not_its_text() -> None:
    text = put_back(shop_page(card_extra="<script>track('impression')</script><style>.x{}</style>"))
    assert text is not None and "impression" not in text and ".x{}" not in text


def test_pages_whose_grids_are_other_goods() -> None:
    assert grids.other_goods(["Product"], None)  # one product: its grids are other products
    assert grids.other_goods([], "product")
    assert grids.other_goods(["NewsArticle"], "article")  # an article: what the site sells beside it
    assert not grids.other_goods(["Product", "ItemList"], None)  # a list of products
    assert not grids.other_goods(["CollectionPage"], "article")  # a shop's og:type says little
    assert not grids.other_goods([], None)


def test_prices_split_by_tags_or_suffixed_are_prices() -> None:
    assert grids.PRICE.search("$ 12.50") and grids.PRICE.search("12,50 €") and grids.PRICE.search("299 kr")
    assert not grids.PRICE.search("Step 12 of 50")


def test_it_works_on_trafilaturas_tree_too() -> None:
    main = etree.fromstring(f"<doc><main>{INTRO}</main></doc>")[0]
    assert grids.put_back_grid(main, html.document_fromstring(shop_page()))
    assert "Field mug elm" in "".join(main.itertext())
