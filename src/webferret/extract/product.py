"""What a product page declares about the one product it sells: price, availability, rating.

A shop's price and stock sit in its buy box, among the buttons and selectors that main-content
extraction rightly leaves out; most shops also declare them for search engines, as a schema.org
`Product` in JSON-LD (its `offers`, or its variants' for a `ProductGroup`, `aggregateRating`,
`brand`, `sku`), or as Open Graph product tags (`product:price:amount`, `og:price:amount`).
webferret reads them from there, so a reader of a product page learns what it costs without the
shop's chrome. A page that declares several products
(a category page, a listing) has no one product and gets none.
"""

from __future__ import annotations

import re
from typing import Any

from webferret.extract.metadata import clean, ld_types
from webferret.models import Product

PRODUCT_TYPES = frozenset(("Product", "ProductGroup", "IndividualProduct", "ProductModel", "Vehicle", "Car"))
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")
_TAGS = (
    ("product:price:amount", "product:price:currency"),
    ("og:price:amount", "og:price:currency"),
)
_NOT_A_NUMBER = re.compile(r"[^\d.,]")


def product_facts(nodes: list[dict[str, Any]], tags: dict[str, str]) -> Product | None:
    """The product of a page from its JSON-LD objects (`nodes`, flattened) and its `<meta>` tags
    (`tags`, keyed by lower-cased property); None when it declares no product, or several."""
    products = [node for node in nodes if PRODUCT_TYPES & set(ld_types(node))]
    names = {clean(node.get("name")) for node in products}
    if len(names) > 1:
        return None
    facts: dict[str, Any] = {}
    if products:
        node = products[0]
        facts["name"] = clean(node.get("name"))
        facts["brand"] = _name(node.get("brand"))
        facts["sku"] = _text(node.get("sku")) or _text(node.get("mpn"))
        offers = node.get("offers")
        variants = node.get("hasVariant")
        if offers is None and isinstance(variants, list):  # a ProductGroup: its variants' offers
            offers = [
                v.get("offers") for v in variants if isinstance(v, dict) and isinstance(v.get("offers"), dict)
            ]
        facts |= _offer(offers)
        facts |= _rating(node.get("aggregateRating"))
    if not facts.get("price") and not facts.get("low_price"):
        for amount, currency in _TAGS:  # Open Graph's product tags
            if _amount(tags.get(amount)):
                facts["price"], facts["currency"] = _amount(tags.get(amount)), clean(tags.get(currency))
                break
    if not facts.get("availability") and tags.get("product:availability"):
        facts["availability"] = _availability(tags["product:availability"])
    found = {key: value for key, value in facts.items() if value not in (None, "")}
    return Product(**found) if found.keys() - {"name", "brand", "sku"} or products else None


def _offer(offers: Any) -> dict[str, Any]:
    """Price, range, currency and availability of a product's `offers` (an `Offer`, an
    `AggregateOffer`, or a list of offers: the lowest and highest of their prices)."""
    if isinstance(offers, list):
        found = [_offer(offer) for offer in offers if isinstance(offer, dict)]
        prices = sorted({p for f in found for p in (f.get("price"), f.get("low_price")) if p}, key=_number)
        if not found:
            return {}
        first = found[0]
        if len(prices) > 1:
            return {
                "low_price": prices[0],
                "high_price": prices[-1],
                "currency": first.get("currency"),
                "availability": first.get("availability"),
            }
        return first
    if not isinstance(offers, dict):
        return {}
    spec = offers.get("priceSpecification")
    spec = spec[0] if isinstance(spec, list) and spec else spec
    spec = spec if isinstance(spec, dict) else {}
    price = _amount(offers.get("price") if offers.get("price") is not None else spec.get("price"))
    low, high = _amount(offers.get("lowPrice")), _amount(offers.get("highPrice"))
    facts: dict[str, Any] = {
        "currency": clean(offers.get("priceCurrency")) or clean(spec.get("priceCurrency")),
        "availability": _availability(offers.get("availability")),
    }
    if low and high and low != high:
        facts |= {"low_price": low, "high_price": high}
    else:
        facts["price"] = price or low or high
    return facts


def _rating(rating: Any) -> dict[str, Any]:
    if isinstance(rating, list) and rating:
        rating = rating[0]
    if not isinstance(rating, dict):
        return {}
    value = _number(_amount(rating.get("ratingValue")) or "")
    count = _number(_amount(rating.get("reviewCount") or rating.get("ratingCount")) or "")
    best = _number(_amount(rating.get("bestRating")) or "") or 5.0
    if value is None:
        return {}
    return {"rating": value, "best_rating": best, "reviews": None if count is None else int(count)}


def _text(value: Any) -> str | None:
    """A string, or a number written as one (a SKU given as 123456)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        value = str(value)
    return clean(value)


def _name(value: Any) -> str | None:
    if isinstance(value, list):
        value = value[0] if value else None
    if isinstance(value, dict):
        value = value.get("name")
    return clean(value)


def _amount(value: Any) -> str | None:
    """A price or count as the page writes it, without spaces or thousands separators ("1,299.00"
    is "1299.00"); None when it holds no digit."""
    if value is None or isinstance(value, bool):
        return None
    text = _NOT_A_NUMBER.sub("", str(value))  # "$168.00", "USD 1,299.00", "19,99 €"
    if "," in text and "." in text:  # the last of the two marks the decimals: "1,299.00", "1.299,00"
        text = (
            text.replace(".", "").replace(",", ".")
            if text.rfind(",") > text.rfind(".")
            else text.replace(",", "")
        )
    elif text.count(",") == 1 and len(text.rsplit(",", 1)[1]) != 3:  # a decimal comma: "19,99"
        text = text.replace(",", ".")
    else:
        text = text.replace(",", "")
    return text if _number(text) is not None else None


def _number(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def _availability(value: Any) -> str | None:
    """schema.org's availability ("https://schema.org/InStock", "InStock", "in stock") as words."""
    text = clean(value)
    if not text:
        return None
    term = text.rstrip("/").rsplit("/", 1)[-1]
    return _CAMEL.sub(" ", term).replace("_", " ").lower()
