"""schema.org microdata: the item an element belongs to, and an item's type."""

from __future__ import annotations

from lxml import etree


def item_of(element: etree._Element) -> etree._Element | None:
    """The item `element` is a property of: its nearest ancestor with `itemscope` (an element that is
    an item itself belongs to the one around it)."""
    return next((a for a in element.iterancestors() if a.get("itemscope") is not None), None)


def item_kind(item: etree._Element) -> str:
    """An item's schema.org type, e.g. `Answer` for `https://schema.org/Answer` (the first one given)."""
    kinds = (item.get("itemtype") or "").split()
    return kinds[0].rstrip("/").rpartition("/")[2] if kinds else ""
