"""Trim trafilatura's choice on a declared article: drop the paragraphs the block classifier rejects.

A page that declares itself an article keeps trafilatura's selection (it is the better one there), but
that selection still carries newsletter lines, "related" links, credits and captions. The page is cut
into blocks as for the classifier (with trafilatura's own text as the reference, so it runs once), and
a paragraph of trafilatura's tree is dropped when its text is exactly that of blocks the classifier
rates below `CUT` and of no block it keeps.
"""

from __future__ import annotations

from copy import deepcopy

import numpy as np
from lxml import etree

from webferret.extract import main_content
from webferret.extract.classifier import load_default
from webferret.extract.features import normalize

# Chosen on the multitype set's declared-article pages with out-of-fold block probabilities
# (bench/train_blocks.py --trim-sweep); the article set is only measured, never tuned on.
CUT = 0.3
# On a page the classifier's chooser hands to trafilatura, the classifier has rated every block already:
# trafilatura's paragraphs it rates below this are dropped (also chosen by cross-validation there).
DEFERRED_CUT = 0.1
_PARAGRAPHS = ("p", "head", "item", "quote")


def rejected_texts(body: etree._Element, html: str, url: str | None, known: tuple[str, str]) -> set[str]:
    """Normalized texts of trafilatura's paragraphs that the classifier rejects as blocks of the page
    (and keeps nowhere else on it); `known` is trafilatura's main and comments text."""
    paragraphs = {normalize("".join(el.itertext())) for el in body.iter(*_PARAGRAPHS)}
    analysis = main_content.analyse(html, url, known=known)
    if analysis is None or not analysis.blocks:
        return set()
    texts = [normalize(b.text) for b in analysis.blocks]
    rows = [i for i, text in enumerate(texts) if text in paragraphs]  # only these can be dropped
    if not rows:
        return set()
    prob = load_default().predict(analysis.matrix[rows])
    return rejected([texts[i] for i in rows], prob)


def rejected(texts: list[str], prob: np.ndarray, cut: float = CUT) -> set[str]:
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
        if element.getparent() is None or normalize("".join(element.itertext())) not in drop:
            continue
        _remove(element)
        removed = True
    if not removed or not "".join(out.itertext()).strip():
        return body
    for container in list(out.iter("list", "quote")):
        if container.getparent() is not None and not "".join(container.itertext()).strip():
            _remove(container)
    return out


def _remove(element: etree._Element) -> None:
    """Remove an element, keeping its tail text in place."""
    parent = element.getparent()
    if parent is None:
        return
    if element.tail and element.tail.strip():
        previous = element.getprevious()
        if previous is not None:
            previous.tail = (previous.tail or "") + element.tail
        else:
            parent.text = (parent.text or "") + element.tail
    parent.remove(element)
