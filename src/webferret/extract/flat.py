"""trafilatura's last resort, one flat paragraph, given back the page's structure.

When trafilatura finds no content tree it settles for the whole text as one `<p>` (its `baseline`).
The words are a fair choice, but the Markdown of one paragraph of 10,000 characters has no headings,
lists, tables or code blocks left. The page's own blocks (`main_content.cut`) hold the same words with
their structure: those found in the flat text, in order, are assembled instead, provided they cover
nearly all of it (`COVERAGE`; else the flat paragraph stays, so hardly a word of the choice is lost),
less the blocks the block classifier rejects, as trafilatura's paragraphs are trimmed on other pages.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from lxml import etree, html

if TYPE_CHECKING:  # the rest imports the classifier's modules: only a flat page needs them
    from trafilatura.settings import Document

    from webferret.extract.blocks import Block

STRUCTURE = ("p", "h1", "h2", "h3", "h4", "h5", "h6", "li", "pre", "blockquote", "tr")
COVERAGE = 0.97
"""Share of the flat text (characters, normalized) the found blocks must hold to replace it."""
NEAR = 80
"""How far past the last found block a short block may match (further on, a few words match by chance)."""
SHORT = 24  # characters of normalized text


def is_flat(main: etree._Element, tree: html.HtmlElement) -> bool:
    """Whether `main` (trafilatura's choice) is one paragraph of a page that has more than one block of
    its own (headings, paragraphs, list items...)."""
    children = list(main)
    if len(children) != 1 or children[0].tag != "p":
        return False
    body = tree.find("body")
    blocks = 0
    for node in body.iter(*STRUCTURE) if body is not None else ():
        if "".join(node.itertext()).strip():
            blocks += 1
            if blocks > 1:
                return True
    return False


def rated_blocks(
    document: Document, page: str, url: str | None, tree: html.HtmlElement
) -> tuple[list[Block], np.ndarray]:
    """The page's blocks, cut with trafilatura's text of `document` as the reference, and the block
    classifier's probability that each is main content."""
    from webferret.extract import main_content

    analysis = main_content.analyse(page, url, tree, main_content.document_reference(document))
    if analysis is None or not analysis.blocks:
        return [], np.zeros(0)
    return analysis.blocks, main_content.probabilities(analysis)


def rebuilt(
    blocks: list[Block], body: etree._Element, prob: np.ndarray | None = None, cut: float = 0.0
) -> etree._Element | None:
    """The blocks that make up trafilatura's flat paragraph (`body`), assembled; None when they do not
    cover it. With `prob` (each block's probability of being main content), those of them rated below
    `cut` are left out, as `extract.trim` leaves out trafilatura's paragraphs (all kept when that
    would leave none): the flat paragraph is the whole page's text, menus and footer included."""
    from webferret.extract import main_content
    from webferret.extract.features import block_norm, normalize

    flat = normalize("".join(body.itertext()))
    kept = aligned(blocks, flat)
    found = sum(len(block_norm(b)) - 1 for b in kept)
    if not kept or found < COVERAGE * (len(flat) - 1):
        return None
    if prob is not None:
        rated = {id(block): p for block, p in zip(blocks, prob, strict=True)}
        kept = [b for b in kept if rated[id(b)] >= cut] or kept
    return main_content.assemble(kept)


def aligned(blocks: list[Block], flat: str) -> list[Block]:
    """The blocks whose text occurs in `flat` in document order, each after the one before."""
    from webferret.extract.features import block_norm

    kept: list[Block] = []
    at = 0
    for block in blocks:
        text = block_norm(block)
        if len(text) <= 2:
            continue
        where = flat.find(text, at)
        if where < 0 or (len(text) < SHORT and where - at > NEAR):
            continue
        kept.append(block)
        at = where + len(text) - 1  # the next text may start on this one's closing space
    return kept
