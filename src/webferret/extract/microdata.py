"""schema.org microdata: the item an element belongs to, an item's type, its properties and their values."""

from __future__ import annotations

from collections import defaultdict

from lxml import etree

Props = dict[etree._Element, dict[str, list[etree._Element]]]


def item_of(element: etree._Element) -> etree._Element | None:
    """The item `element` is a property of: its nearest ancestor with `itemscope` (an element that is
    an item itself belongs to the one around it)."""
    return next((a for a in element.iterancestors() if a.get("itemscope") is not None), None)


def item_kind(item: etree._Element) -> str:
    """An item's schema.org type, e.g. `Answer` for `https://schema.org/Answer` (the first one given)."""
    kinds = (item.get("itemtype") or "").split()
    return kinds[0].rstrip("/").rpartition("/")[2] if kinds else ""


def item_props(tree: etree._Element) -> Props:
    """Every item's properties: the elements naming each, by the item they belong to (`item_of`)."""
    props: Props = defaultdict(lambda: defaultdict(list))
    for element in tree.xpath("//*[@itemprop]"):
        owner = item_of(element)
        if owner is not None:
            for name in (element.get("itemprop") or "").split():
                props[owner][name].append(element)
    return props


def value(elements: list[etree._Element] | None) -> str | None:
    """A property's value: the first of its elements' `content` or `data-value` attribute, else its
    text (spaces collapsed); None when none has one."""
    for element in elements or []:
        for attribute in ("content", "data-value"):
            if element.get(attribute):
                return (element.get(attribute) or "").strip()
        text = " ".join("".join(element.itertext()).split())
        if text:
            return text
    return None


def reply_kind(node: etree._Element) -> str | None:
    """What kind of reply an author mark belongs to, if any: "answer" when its nearest microdata item
    is an `Answer` (Stack Exchange's, a forum's replies marked so: never the page's author),
    "comment" for a `Comment` made on another item (a comment under a question, an answer or a post:
    the page's author only when no other mark names one). A `Comment` that stands alone is a forum's
    post (XenForo marks every post so), whose first is the thread's own. "review" for a `Review` of a
    product (a shop's customer's: never the page's author, nor its date); a review of anything else
    (a critic's of a film, a book) is the page's own."""
    scope = item_of(node)
    kind = "" if scope is None else item_kind(scope)
    if kind == "Answer":
        return "answer"
    outer = None if scope is None else item_of(scope)
    if kind == "Comment" and outer is not None:
        return "comment"
    if kind == "Review" and outer is not None and item_kind(outer) in _PRODUCTS:
        return "review"
    return None


_PRODUCTS = frozenset(("Product", "ProductGroup", "IndividualProduct", "ProductModel"))
