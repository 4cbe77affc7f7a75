"""Trim trafilatura's choice with the block classifier's verdicts.

A paragraph of trafilatura's tree is dropped when its text is exactly that of blocks the classifier
rates below a cut and of no block rated above it (newsletter lines, "related" links, credits, shop and
share chrome). Two places use it:
- a page the page-level chooser hands to trafilatura: the classifier has already rated every block of
  the page, so this costs next to nothing (`DEFERRED_CUT`);
- a page that declares itself an article (`article_drop`): trafilatura's choice is kept, and the page is
  cut into blocks and rated for it, with trafilatura's own text of that same run as the reference (no
  second trafilatura run), only the blocks that are trafilatura's paragraphs rated (`ARTICLE_CUT`).
bench/train_blocks.py estimates both the same way on trafilatura's text (--trim-sweep for articles).
"""

from __future__ import annotations

from copy import deepcopy

import numpy as np
from lxml import etree, html
from trafilatura.settings import Document

from webferret.extract import features, main_content
from webferret.extract.blocks import drop_keep_tail
from webferret.extract.features import normalize

# chosen by cross-validation on the multitype pages the chooser hands to trafilatura (0.03 to 0.15 tried)
DEFERRED_CUT = 0.1
# chosen by cross-validation on the multitype set's declared articles (0.2 to 0.5 tried: see
# docs/extraction-rounds.md); the article set is only measured, never tuned on
ARTICLE_CUT = 0.3
_PARAGRAPHS = ("p", "head", "item", "quote")


def article_drop(document: Document, page: str, url: str | None, tree: html.HtmlElement) -> set[str]:
    """Normalized texts of trafilatura's paragraphs (in `document`, its run on `tree`) that the classifier
    rejects as blocks of the page and keeps nowhere else on it; `page` is the HTML text."""
    body = document.body
    paragraphs = {normalize("".join(el.itertext())) for el in body.iter(*_PARAGRAPHS)}
    cut = main_content.cut(page, url, tree, main_content.document_reference(document))
    if cut is None or not cut[0]:
        return set()
    blocks, ref, main = cut
    texts = [normalize(b.text) for b in blocks]
    rows = [i for i, text in enumerate(texts) if text in paragraphs]  # only these can be dropped
    if not rows:
        return set()
    x = features.matrix(blocks, page, url, ref, rows)  # whole in those rows only
    prob = main_content.probabilities(main_content.Analysis([blocks[i] for i in rows], x[rows], main))
    return rejected([texts[i] for i in rows], prob, ARTICLE_CUT)


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
