"""Trim trafilatura's choice with the block classifier's verdicts.

When the page-level chooser hands a page to trafilatura's selection, the classifier has already rated
every block of the page; a paragraph of trafilatura's tree is dropped when its text is exactly that of
blocks rated below `DEFERRED_CUT` and of no block rated above it (newsletter lines, "related" links,
credits). bench/train_blocks.py estimates it the same way on trafilatura's text, and with --trim-sweep
measures the same trim on declared articles (not used: see the README).
"""

from __future__ import annotations

from copy import deepcopy

import numpy as np
from lxml import etree

from webferret.extract.blocks import drop_keep_tail
from webferret.extract.features import normalize

# chosen by cross-validation on the multitype pages the chooser hands to trafilatura (0.03 to 0.15 tried)
DEFERRED_CUT = 0.1
_PARAGRAPHS = ("p", "head", "item", "quote")


def rejected(texts: list[str], prob: np.ndarray, cut: float) -> set[str]:
    """Texts rated below `cut` that no text rated at or above it repeats."""
    kept: set[str] = set()
    dropped: set[str] = set()
    for text, p in zip(texts, prob, strict=True):
        (kept if p >= cut else dropped).add(text)
    return dropped - kept


def trim(body: etree._Element, drop: set[str]) -> etree._Element:
    """A copy of trafilatura's `body` without the paragraphs whose text is in `drop` (the same body when
    nothing is dropped, or when nothing would be left)."""
    if not drop:
        return body
    out = deepcopy(body)
    removed = False
    for element in list(out.iter(*_PARAGRAPHS)):
        parent = element.getparent()
        if parent is None or normalize("".join(element.itertext())) not in drop:
            continue
        drop_keep_tail(element, parent)
        removed = True
    if not removed or not "".join(out.itertext()).strip():
        return body
    for container in list(out.iter("list", "quote")):
        parent = container.getparent()
        if parent is not None and not "".join(container.itertext()).strip():
            drop_keep_tail(container, parent)
    return out
