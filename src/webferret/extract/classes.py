"""An element's class names: as a set, and as the XPath test for one of them."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # lxml is not imported for this: the search engines' registry loads this module at start-up
    from lxml import etree


def has_class(name: str) -> str:
    """An XPath predicate: the element's `class` attribute holds the class `name` (as a whole word,
    so "katex" is not "katex-display")."""
    return f'contains(concat(" ", normalize-space(@class), " "), " {name} ")'


def classes(node: etree._Element) -> set[str]:
    """The class names of `node`."""
    return set((node.get("class") or "").split())
