"""Which part of an HTML page is its main content.

`choose_main` is the one place the content selector is called: swapping in another selector (the
learned `extract.main_content.select_main`) is a one-line change there.
"""

from __future__ import annotations

import logging
import re
from copy import deepcopy
from dataclasses import dataclass, replace
from functools import cached_property

import trafilatura
from lxml import etree, html
from trafilatura.settings import Document

from webferret.extract.blocks import BLOCK_TAGS

BOILERPLATE = ("nav", "header", "footer", "aside", "form", "script", "style", "noscript", "template")
_NEGATIVE = re.compile(r"comment|sidebar|footer|masthead|menu|nav|promo|related|share|social|sponsor|cookie")
_MIN_FALLBACK_CHARS = 200
TINY_PAGE_CHARS = 1000
# trafilatura's output run in its fast mode (no comparison with readability and justext): measured, off
# (docs/extraction-rounds.md, eighth round); read at each call, so bench/extraction.py --fast-output
# can switch it on
FAST_OUTPUT = False
MAX_BLOCKS = 50_000
"""A page with more block-level elements than this is read by its densest block alone, without
trafilatura or the block classifier (`choose_main`), and says so (`meta.extract.too_many_blocks`).
Both cost time and memory by the block: a hostile page of 580,000 tiny `<div>`s took 331 s and 7.8 GB.
The benchmarks' pages hold at most 6,186 block-level elements (2,641 blocks), a page at the limit
about 5 s and 270 MB (the scoring of blocks in chunks: `classifier.CHUNK_ROWS`)."""

logging.getLogger("trafilatura").setLevel(logging.CRITICAL)


@dataclass
class MainContent:
    """The main content element (HTML or trafilatura XML) and who chose it."""

    element: etree._Element
    source: str
    oversized: bool = False  # the page has more than `MAX_BLOCKS` blocks: its main content read cheaply


def choose_main(tree: html.HtmlElement, url: str | None, text: str, article: bool) -> MainContent | None:
    """The page's main content.

    A page that declares itself an article (`og:type` or JSON-LD) gets trafilatura's choice, which is
    the better one on the news and blog article set (0.960 vs 0.934 shingle F1, held out), less the
    paragraphs the block classifier rejects (`extract.trim.article_drop`; 0.965 there); every other
    page goes to the learned block classifier, whose page-level chooser may still hand it to trafilatura
    (multitype set, 5-fold CV: see the README), except a tiny page. A page of more blocks than any real
    page's (`MAX_BLOCKS`) gets the densest block. On a tiny page whose text
    trafilatura can only give as one flat paragraph, or without a heading, the densest block keeps its
    headings and lists.
    Either falls back to the other selectors, and last to the densest block of text. trafilatura runs
    at most once per page (`Run`): its text is also the classifier's reference.
    """
    from webferret.extract import flat

    if too_many_blocks(tree):
        dense = densest_block(tree)
        return None if dense is None else replace(dense, oversized=True)
    run = Run(tree)
    if article:
        return trimmed_main(run, url, text) or learned_main(run, text, url) or densest_block(tree)
    if _tiny(tree):
        main = trafilatura_main(run)
        if main is None:
            return learned_main(run, text, url) or densest_block(tree)
        dense = densest_block(tree)
        if dense is not None and (flat.is_flat(main.element, tree) or _lost_heading(main, dense)):
            return dense
        return main
    return learned_main(run, text, url) or trafilatura_main(run) or densest_block(tree)


class Run:
    """trafilatura's output run on one page (`trafilatura_document`), made when first asked for."""

    def __init__(self, tree: html.HtmlElement) -> None:
        self.tree = tree

    @cached_property
    def document(self) -> Document | None:
        return trafilatura_document(self.tree)


def too_many_blocks(tree: html.HtmlElement) -> bool:
    """Whether the page's body holds more than `MAX_BLOCKS` block-level elements (counted until then)."""
    body = tree.find("body")
    for count, _ in enumerate((tree if body is None else body).iter(*BLOCK_TAGS), 1):
        if count > MAX_BLOCKS:
            return True
    return False


def _tiny(tree: html.HtmlElement) -> bool:
    """A page with hardly any text has no boilerplate worth a classifier (and is unlike its training)."""
    body = tree.find("body")
    if body is None:
        return True
    seen: list[str] = []
    for i, part in enumerate(body.itertext()):
        seen.append(part)
        # the normalized length of a prefix never exceeds the whole's: stop as soon as it is enough
        if i % 64 == 63 and len(" ".join("".join(seen).split())) >= TINY_PAGE_CHARS:
            return False
    return len(" ".join("".join(seen).split())) < TINY_PAGE_CHARS


HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")


_WORD = re.compile(r"\w+")


def _words(node: etree._Element) -> set[str]:
    return set(_WORD.findall(" ".join(node.itertext()).lower()))


def _lost_heading(main: MainContent, dense: MainContent) -> bool:
    """trafilatura's fallback on a short page drops a heading (a JavaScript app's rendered `<h1>`, say)
    that the densest block keeps along with every word trafilatura kept."""
    kept = _words(main.element)
    if not kept or not kept <= _words(dense.element):
        return False
    return any(_words(h) - kept for h in dense.element.iter(*HEADINGS))


def learned_main(run: Run, text: str, url: str | None) -> MainContent | None:
    """The learned block classifier's choice (`extract.main_content.select`), with trafilatura's output
    run as its reference; when its chooser defers to trafilatura, that run's choice less the paragraphs
    the classifier is sure are not content."""
    from webferret.extract import flat, trim
    from webferret.extract.features import block_norm
    from webferret.extract.main_content import document_reference, select, spared

    document = run.document
    selection = select(text, url, tree=run.tree, known=document_reference(document))
    if selection is None:
        return None
    if selection.deferred:
        if document is None:
            return None
        if flat.is_flat(document.body, run.tree):
            whole = flat.rebuilt(selection.blocks, document.body, selection.prob, trim.DEFERRED_CUT)
            if whole is not None:
                return MainContent(element=whole, source="trafilatura")
        texts = [block_norm(b) for b in selection.blocks]
        prob = spared(selection.blocks, selection.prob, trim.DEFERRED_CUT)
        drop = trim.rejected(texts, prob, trim.DEFERRED_CUT)
        lost = trim.lost(selection.blocks, texts, document.body, drop, run.tree)
        body = trim.headed(trim.trim(document.body, drop), lost)
        body = trim.whole_runs(body, selection.blocks, texts)
        return MainContent(element=body, source="trafilatura")
    element = selection.element
    if element is None or not "".join(element.itertext()).strip():
        return None
    return MainContent(element=element, source="learned")


def trimmed_main(run: Run, url: str | None, text: str) -> MainContent | None:
    """trafilatura's choice less the paragraphs the block classifier rejects (`extract.trim`); when it is
    one flat paragraph, that paragraph given the page's structure back (`extract.flat`)."""
    from webferret.extract import flat, trim

    document = run.document
    if document is None:
        return None
    if flat.is_flat(document.body, run.tree):  # one paragraph: given its structure back, then trimmed
        blocks, prob = flat.rated_blocks(document, text, url, run.tree)
        whole = flat.rebuilt(blocks, document.body, prob, trim.ARTICLE_CUT)
        return MainContent(element=document.body if whole is None else whole, source="trafilatura")
    edit = trim.article_edit(document, text, url, run.tree)
    if trim.rejects_choice(document, edit):
        return None  # read as any other page: the classifier's selection, or the chooser's pick
    body = trim.headed(trim.extended(trim.trim(document.body, edit.drop), edit), edit.headings)
    body = trim.whole_runs(body, edit.blocks, edit.texts)
    return MainContent(element=body, source="trafilatura")


def trafilatura_main(run: Run) -> MainContent | None:
    """trafilatura's main-content tree (its own XML: `head`, `list`/`item`, `hi`, `ref`, ...)."""
    document = run.document
    return None if document is None else MainContent(element=document.body, source="trafilatura")


def trafilatura_document(tree: html.HtmlElement) -> Document | None:
    """trafilatura's result for the page (None when it finds no text)."""
    try:
        document = trafilatura.bare_extraction(
            tree,
            url=None,  # with a URL it resolves links against the site root; the renderer does it right
            fast=FAST_OUTPUT,
            output_format="xml",
            include_formatting=True,
            include_links=True,
            include_images=False,  # images change its choice of blocks for the worse
            include_tables=True,
            with_metadata=False,
        )
    except (ValueError, TypeError, etree.LxmlError, RecursionError):
        return None
    body = getattr(document, "body", None)
    if body is None or not "".join(body.itertext()).strip():
        return None
    return document


_HOLDERS = frozenset(("p", "pre", "blockquote", "ul", "ol", "table"))


def _scores(body: html.HtmlElement) -> dict[html.HtmlElement, float]:
    """Each element's paragraph text held directly, discounted by the share of link text in it (half
    for a name that says it is chrome), summed bottom-up in one walk: measured per element, it read
    each element's whole subtree again, so a page of nested blocks cost its elements times its depth.
    Text is counted as `itertext` gives it, each piece stripped: comments' own text left out."""
    total: dict[html.HtmlElement, int] = {}
    links: dict[html.HtmlElement, int] = {}
    scores: dict[html.HtmlElement, float] = {}
    for node in reversed(list(body.iter(etree.Element))):  # every element after its children
        length = len(node.text.strip()) if node.text else 0
        linked = held = 0
        for child in node:
            if child.tail:
                length += len(child.tail.strip())
            if child in total:
                length += total[child]
                linked += links[child]
                if child.tag in _HOLDERS:
                    held += total[child]
        total[node] = length
        links[node] = linked + length if node.tag == "a" else linked
        if held:
            names = f"{node.get('class', '')} {node.get('id', '')}".lower()
            penalty = 0.5 if _NEGATIVE.search(names) else 1.0
            scores[node] = held * (1.0 - min(links[node] / max(length, 1), 1.0)) * penalty
        else:
            scores[node] = 0.0
    return scores


def densest_block(tree: html.HtmlElement) -> MainContent | None:
    """Readability-style fallback: the container holding the most non-link paragraph text."""
    body = tree.find(".//body")
    body = deepcopy(body if body is not None else tree)
    for node in list(body.iter(*BOILERPLATE)):
        if node.getparent() is not None:
            node.drop_tree()
    scores = _scores(body)
    candidates = list(body.iter("article", "main", "div", "section", "td"))
    best = max(candidates, key=scores.__getitem__, default=None)
    if best is not None and scores[best] >= _MIN_FALLBACK_CHARS:
        return MainContent(element=best, source="density")
    if not "".join(body.itertext()).strip():
        return None
    return MainContent(element=body, source="body")
