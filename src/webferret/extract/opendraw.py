"""An OpenDocument slide's shapes that hold text, in reading order (`opendoc.extract_odp`).

A slide lists its shapes in the order they were drawn, which is the order they were added: a text box
added last at the top of the slide came last. They are read from the top of the slide down and, at
one height, from the left (`svg:y`, `svg:x`); a group's shapes (`draw:g`) are opened where the group
stands (they were left out). A shape that says no place comes first, in drawing order.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator

from lxml import etree

_DRAW = "urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"
_SVG = "urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"
GROUP = f"{{{_DRAW}}}g"
SHAPES = frozenset(f"{{{_DRAW}}}{name}" for name in ("frame", "custom-shape", "rect", "ellipse"))
"""The drawn shapes that hold text: a frame's text box or table, a shape's own paragraphs."""
_LENGTH = re.compile(r"(-?\d+(?:\.\d+)?)[ \t]*(cm|mm|in|pt|pc|px)?")
"""A length as written (`2.5cm`), its blanks around it stripped first: a pattern's own blanks on
either side of an optional unit were two ways to read `5`, spaces and `x` (quadratic in the spaces)."""
_POINTS = {"cm": 72 / 2.54, "mm": 72 / 25.4, "in": 72.0, "pt": 1.0, "pc": 12.0, "px": 0.75, None: 1.0}
_NOWHERE = (-math.inf, -math.inf)


def shapes(holder: etree._Element) -> Iterator[etree._Element]:
    """The shapes of a slide (or a group) that may hold text, in reading order, groups opened."""
    for node in sorted((node for node in holder if node.tag in SHAPES or node.tag == GROUP), key=_place):
        if node.tag == GROUP:
            yield from shapes(node)
        else:
            yield node


def _place(node: etree._Element) -> tuple[float, float]:
    """A shape's top left corner as (its height, its left) in points; a group's, its first shape's."""
    if node.tag == GROUP:
        return min(
            (_place(child) for child in node if child.tag in SHAPES or child.tag == GROUP), default=_NOWHERE
        )
    y, x = _points(node.get(f"{{{_SVG}}}y")), _points(node.get(f"{{{_SVG}}}x"))
    return _NOWHERE if y is None else (round(y, 1), x or 0.0)  # `1cm` and `10mm`: one height


def _points(length: str | None) -> float | None:
    found = _LENGTH.fullmatch((length or "").strip())
    return float(found.group(1)) * _POINTS[found.group(2)] if found else None
