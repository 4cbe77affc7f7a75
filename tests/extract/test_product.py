"""What a product page declares about its product: price, availability, rating (`extract.product`)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from webferret.extract.htmlpage import extract_html
from webferret.extract.product import product_facts
from webferret.extract.types import ExtractOptions
from webferret.models import Page, Product
from webferret.present.agent import render_page_entry
from webferret.present.fence import Fence
from webferret.present.pages import header_line

PROSE = " ".join(
    f"The shirt is cut from soft cotton and keeps its shape wash after wash, note {n}." for n in range(12)
)


def _shirt(**fields: Any) -> dict[str, Any]:
    return {
        "@type": "Product",
        "name": "Arrival T-Shirt",
        "brand": {"@type": "Brand", "name": "Gymshark"},
    } | fields


@pytest.mark.parametrize(
    ("node", "tags", "expected"),
    [
        (
            _shirt(
                sku=40213,
                offers={
                    "@type": "Offer",
                    "price": "22.00",
                    "priceCurrency": "USD",
                    "availability": "https://schema.org/InStock",
                },
                aggregateRating={"ratingValue": "4.1", "reviewCount": "407"},
            ),
            {},
            Product(
                name="Arrival T-Shirt",
                brand="Gymshark",
                sku="40213",
                price="22.00",
                currency="USD",
                availability="in stock",
                rating=4.1,
                best_rating=5,
                reviews=407,
            ),
        ),
        (
            _shirt(
                offers={
                    "@type": "AggregateOffer",
                    "lowPrice": 19.99,
                    "highPrice": "1,084.99",
                    "priceCurrency": "USD",
                    "availability": "OutOfStock",
                }
            ),
            {},
            Product(
                name="Arrival T-Shirt",
                brand="Gymshark",
                low_price="19.99",
                high_price="1084.99",
                currency="USD",
                availability="out of stock",
            ),
        ),
        (
            _shirt(
                offers=[{"price": "25", "priceCurrency": "EUR"}, {"price": "19,99", "priceCurrency": "EUR"}]
            ),
            {},
            Product(
                name="Arrival T-Shirt", brand="Gymshark", low_price="19.99", high_price="25", currency="EUR"
            ),
        ),
        (
            _shirt(
                offers={
                    "priceSpecification": [{"price": 12.5, "priceCurrency": "GBP"}],
                    "availability": "PreOrder",
                }
            ),
            {},
            Product(
                name="Arrival T-Shirt",
                brand="Gymshark",
                price="12.5",
                currency="GBP",
                availability="pre order",
            ),
        ),
        (  # no JSON-LD product: Open Graph's product tags
            {"@type": "WebPage", "name": "Arrival"},
            {"og:price:amount": "22.00", "og:price:currency": "USD", "product:availability": "instock"},
            Product(price="22.00", currency="USD", availability="instock"),
        ),
        (  # a ProductGroup: its variants' offers
            {
                "@type": "ProductGroup",
                "name": "Loke Jacket",
                "hasVariant": [
                    {"@type": "Product", "offers": {"price": 130, "priceCurrency": "USD"}},
                    {"@type": "Product", "offers": {"price": "150.00", "priceCurrency": "USD"}},
                ],
            },
            {},
            Product(name="Loke Jacket", low_price="130", high_price="150.00", currency="USD"),
        ),
        (  # currency marks and a decimal comma after a thousands point
            _shirt(offers={"price": "1.299,00 €", "priceCurrency": "EUR"}),
            {},
            Product(name="Arrival T-Shirt", brand="Gymshark", price="1299.00", currency="EUR"),
        ),
    ],
    ids=[
        "offer",
        "aggregate-offer",
        "offers",
        "price-specification",
        "open-graph",
        "variants",
        "currency-marks",
    ],
)
def test_a_declared_product_reads_as_its_facts(
    node: dict[str, Any], tags: dict[str, str], expected: Product
) -> None:
    assert product_facts([node], tags) == expected


def test_a_page_of_several_products_or_of_none_has_no_product() -> None:
    listing = [_shirt(offers={"price": "22"}), _shirt(name="Crest Hoodie", offers={"price": "45"})]
    assert product_facts(listing, {}) is None
    assert product_facts([{"@type": "Article", "headline": "News"}], {"og:type": "article"}) is None
    assert product_facts([_shirt(offers={"price": "free"})], {}) == Product(
        name="Arrival T-Shirt", brand="Gymshark"
    )


def test_a_product_page_shows_its_price_in_every_view() -> None:
    ld = {
        "@context": "https://schema.org",
        "@graph": [
            {"@type": "WebSite", "name": "Gymshark"},
            _shirt(
                offers={
                    "@type": "Offer",
                    "price": "22.00",
                    "priceCurrency": "USD",
                    "availability": "InStock",
                },
                aggregateRating={"ratingValue": 4.1, "ratingCount": 1407},
            ),
        ],
    }
    page = (
        "<html><head><title>Arrival T-Shirt</title>"
        f'<script type="application/ld+json">{json.dumps(ld)}</script>'
        '<meta property="og:site_name" content="Gymshark"></head>'
        f"<body><main><h1>Arrival T-Shirt</h1><p>{PROSE}</p>"
        '<div class="buy"><span>$22.00</span><button>Add to bag</button></div></main></body></html>'
    )
    extracted = extract_html(page, "https://shop.example/products/arrival", ExtractOptions())
    assert extracted.product is not None and extracted.product.price == "22.00"
    fields = extracted.model_dump(exclude={"markdown", "jsonld", "extra", "links"})
    stored = Page.model_validate_json(
        Page(url="https://shop.example/products/arrival", ok=True, **fields).model_dump_json()
    )
    assert stored.product == extracted.product
    facts = "22.00 USD · in stock · rated 4.1 of 5 (1,407 reviews)"
    assert facts in header_line(stored)
    assert facts in render_page_entry(stored.model_dump(mode="json"), Fence.new())
