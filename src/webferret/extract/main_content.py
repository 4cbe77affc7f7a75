"""Main-content selection: cut the page into blocks, let the learned classifier keep or drop each one.

trafilatura runs first as a reference extractor (the run the page gets if it is handed to trafilatura:
see `REFERENCE`); what it kept is one of the classifier's features, and its text is the fallback when
the page has no blocks at all. A page-level chooser (`chooser.py`) may judge trafilatura's selection the
better one for the page; the caller then uses trafilatura's.
"""

from __future__ import annotations

import copy
import itertools
import re
from dataclasses import dataclass

import lxml.html
import numpy as np
import trafilatura
from lxml import etree
from trafilatura.settings import Document
from trafilatura.xml import xmltotxt

from webferret.extract import blocks as B
from webferret.extract import chooser, features
from webferret.extract.classifier import load_default

THRESHOLD = 0.4  # chosen by cross-validation (bench/train_blocks.py --sweep)
LIKE_SIBLINGS = 5
"""A long read is read whole. When at least this many blocks of one parent and one signature are
kept (0: never), of a run of at least `LIKE_RUN` such blocks that are at least `LIKE_SHARE` kept, the
run's other blocks that trafilatura kept are kept too; so is a heading, table, list, quote or code
block that trafilatura kept between two kept blocks of one parent (a chapter's heading, even where
trafilatura's text does not hold it: `GAP_HEADINGS`). The
classifier's probability falls with a block's place on long pages, as the benchmark it learned from
ends the ground truth of a long page early, so a 200-paragraph article lost its second half."""
LIKE_SHARE = 0.2
LIKE_RUN = 30  # a shop's few paragraphs of selling text under its products are left to the classifier
GAP_TAGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6", "table", "pre", "ul", "ol", "dl", "blockquote"})
GAP_HEADINGS = True
"""A heading between two kept blocks of its parent is kept though trafilatura's text does not hold it
(its headings are often not matched: a guide's subsections lost theirs)."""
LAST_SECTION = True  # bench switch: off leaves a parent's last headings, tables and code to the classifier
_LAST_TAGS = frozenset(("h1", "h2", "h3", "h4", "h5", "h6", "table", "pre", "dl"))
MENU_ENTRIES = True  # bench switch: off keeps the links of a `<nav>` the classifier rates as content
MENU_LINKS = 0.9
"""A block inside a `<nav>` whose text is at least this share link text is a menu's entry."""
# Where the features' reference text (what trafilatura kept) comes from: "output", the runtime's, is
# trafilatura's output run (`selector.trafilatura_document`), the one run a page handed to trafilatura
# gets (ninth round, docs/extraction-rounds.md); "full" and "fast" are its own plain-text run without
# and with its fast mode (the eighth round's experiments, bench/train_blocks.py --reference). The models
# are trained on features made the same way as the runtime's.
REFERENCE = "output"


@dataclass
class Analysis:
    """A page cut into blocks, with the features of every block and trafilatura's own choice."""

    blocks: list[B.Block]
    matrix: np.ndarray
    reference_text: str


def reference(source: str | lxml.html.HtmlElement, url: str | None, mode: str = REFERENCE) -> tuple[str, str]:
    """trafilatura's main text and comments text (empty strings when it finds nothing), from the HTML or
    from the page already parsed (trafilatura works on its own copy of a tree), made as `mode` says."""
    if mode == "output":
        from webferret.extract.selector import trafilatura_document

        tree = source if not isinstance(source, str) else B.parse(source)
        return document_reference(None if tree is None else trafilatura_document(tree))
    try:
        doc = trafilatura.bare_extraction(
            source, url=url, fast=mode == "fast", include_comments=True, with_metadata=False
        )
    except (ValueError, TypeError, AttributeError):
        return "", ""
    if doc is None or isinstance(doc, dict):
        return "", ""
    return doc.text or "", doc.comments or ""


def document_reference(document: Document | None) -> tuple[str, str]:
    """trafilatura's main and comments text of one of its runs (`document`; None when it found nothing),
    as its plain-text output has them: the reference a page gets from the run it may be handed to."""
    if document is None:
        return "", ""
    return _plain_text(document.body), _plain_text(getattr(document, "commentsbody", None))


def _plain_text(body: etree._Element | None) -> str:
    """trafilatura's plain text of its tree without link targets (as its own text output has it)."""
    if body is None:
        return ""
    plain = copy.deepcopy(body)
    etree.strip_tags(plain, "ref")
    return xmltotxt(plain, False)


def analyse(
    html: str,
    url: str | None,
    tree: lxml.html.HtmlElement | None = None,
    known: tuple[str, str] | None = None,
    second: str | None = None,
    mode: str = REFERENCE,
) -> Analysis | None:
    """Blocks and features of a page; None when the HTML holds no document (arguments: `cut`). `second`:
    a second reference extractor's main text (an experiment's: bench/train_blocks.py gives resiliparse's),
    whose columns (`features.second_columns`) then join the features."""
    page = cut(html, url, tree, known, mode)
    if page is None:
        return None
    blocks, ref, main = page
    if not blocks:
        return Analysis([], np.zeros((0, 0)), main)
    other = None if second is None else features.Reference.of(second, "")
    return Analysis(blocks, features.matrix(blocks, html, url, ref, second=other), main)


def cut(
    html: str,
    url: str | None,
    tree: lxml.html.HtmlElement | None = None,
    known: tuple[str, str] | None = None,
    mode: str = REFERENCE,
) -> tuple[list[B.Block], features.Reference, str] | None:
    """The page's blocks, what trafilatura kept of it and its main text; None when the HTML holds no
    document.

    `tree`: the page as `htmlpage.parse_html` parsed it (left untouched: the blocks come from a copy), so
    the HTML is not parsed again, here or by trafilatura (the same trees, the same features).
    `known`: trafilatura's main and comments text when the caller already has them (else it runs here,
    as `mode` says).
    """
    root = B.parse(html) if tree is None else copy.deepcopy(tree)
    if root is None:
        return None
    main, comments = known if known is not None else reference(html if tree is None else tree, url, mode)
    B.clean(root)
    return B.segment(root), features.Reference.of(main, comments), main


def keep_mask(analysis: Analysis, prob: np.ndarray | None = None) -> np.ndarray:
    """Which blocks are main content."""
    if not analysis.blocks:
        return np.zeros(0, dtype=bool)
    keep = (probabilities(analysis) if prob is None else prob) >= THRESHOLD
    in_main = analysis.matrix[:, features.IN_MAIN] > 0
    if not keep.any():  # the model found nothing: fall back to what trafilatura kept
        keep = in_main
    keep = _with_like_siblings(analysis.blocks, keep, in_main)
    keep = _with_last_section(analysis.blocks, keep, in_main)
    return _without_menu_entries(analysis.blocks, _with_code_beside_content(analysis.blocks, keep))


def _with_last_section(blocks: list[B.Block], keep: np.ndarray, in_main: np.ndarray) -> np.ndarray:
    """`keep` with the headings, tables and code that trafilatura kept right after the last kept block
    of a parent, in that parent (a heading counts as trafilatura's, whose text it may not repeat; a
    heading over nothing kept is not kept). The classifier rates these low at the end of a long page,
    and no kept block after them frames them (`LIKE_SIBLINGS`): a guide lost its last subsection, a
    heading over a table and code."""
    if not LAST_SECTION:
        return keep
    keep = keep.copy()
    parents = [b.element.getparent() for b in blocks]
    last = {id(parents[i]): int(i) for i in np.flatnonzero(keep)}
    for i in last.values():
        run = []
        for j in range(i + 1, len(blocks)):
            tag = blocks[j].element.tag
            if parents[j] is not parents[i] or tag not in _LAST_TAGS or not (in_main[j] or tag in _HEADINGS):
                break
            run.append(j)
        while run and blocks[run[-1]].element.tag in _HEADINGS:
            run.pop()
        keep[run] = True
    return keep


def _without_menu_entries(blocks: list[B.Block], keep: np.ndarray) -> np.ndarray:
    """`keep` without the entries of the page's menus: a block of links only inside a `<nav>` (a docs
    site's sidebar of its other pages, which the classifier rated about 0.5 beside a long guide, and
    the Markdown of a whole page leaves out as navigation)."""
    if not MENU_ENTRIES:
        return keep
    keep = keep.copy()
    for i, block in enumerate(blocks):
        if keep[i] and block.link_chars >= MENU_LINKS * len(block.text) and _in_nav(block.element):
            keep[i] = False
    return keep


def _in_nav(element: lxml.html.HtmlElement) -> bool:
    return element.tag == "nav" or any(True for _ in element.iterancestors("nav"))


def spared(blocks: list[B.Block], prob: np.ndarray, cut: float) -> np.ndarray:
    """`prob` with the blocks of long reads (`LIKE_SIBLINGS`) raised to 1, for a trim of trafilatura's
    choice at `cut` (every block counts as one trafilatura kept: a trim only drops its paragraphs)."""
    keep = prob >= cut
    whole = _with_like_siblings(blocks, keep, np.ones(len(blocks), dtype=bool))
    return np.where(whole & ~keep, 1.0, prob)


def _with_like_siblings(blocks: list[B.Block], keep: np.ndarray, in_main: np.ndarray) -> np.ndarray:
    """`keep` with the runs of like paragraphs read whole (see `LIKE_SIBLINGS`)."""
    if LIKE_SIBLINGS <= 0:
        return keep
    keep = keep.copy()
    parents = [b.element.getparent() for b in blocks]
    groups: dict[tuple[int, str], list[int]] = {}
    for i, block in enumerate(blocks):
        groups.setdefault((id(parents[i]), block.signature), []).append(i)
    for members in groups.values():
        kept = int(keep[members].sum())
        if len(members) < LIKE_RUN or kept < LIKE_SIBLINGS or kept < LIKE_SHARE * len(members):
            continue
        for i in members:
            keep[i] = keep[i] or bool(in_main[i])
    kept_at = np.flatnonzero(keep)
    for before, after in itertools.pairwise(kept_at):
        if after - before > 1 and parents[before] is parents[after]:
            for i in range(before + 1, after):
                tag = blocks[i].element.tag
                known = bool(in_main[i]) or (GAP_HEADINGS and tag in _HEADINGS)
                keep[i] = keep[i] or (tag in GAP_TAGS and known and parents[i] is parents[before])
    return keep


def probabilities(analysis: Analysis) -> np.ndarray:
    """Per block, the probability that it is main content."""
    return load_default().predict(analysis.matrix)


def _with_code_beside_content(blocks: list[B.Block], keep: np.ndarray) -> np.ndarray:
    """A code block next to kept content belongs to it (the prose explains the code): keep it too."""
    keep = keep.copy()
    for i, block in enumerate(blocks):
        if keep[i] or not _is_code(block):
            continue
        before = i > 0 and keep[i - 1]
        after = i + 1 < len(blocks) and keep[i + 1]
        keep[i] = before or after
    return keep


def _is_code(block: B.Block) -> bool:
    element = block.element
    return element.tag == "pre" or element.find(".//pre") is not None


def choice(analysis: Analysis, defer: bool = True) -> np.ndarray | None:
    """The blocks kept; None when there are none, or (with `defer`) when the page-level chooser
    prefers trafilatura's selection."""
    if not analysis.blocks:
        return None
    return _judge(analysis, defer)[1]


def _judge(analysis: Analysis, defer: bool) -> tuple[np.ndarray, np.ndarray | None]:
    """Every block's probability, and the blocks kept (None when, with `defer`, the page-level
    chooser prefers trafilatura's selection). The page has blocks."""
    prob = probabilities(analysis)
    texts = [b.text for b in analysis.blocks]
    if defer and chooser.prefer_reference(texts, prob, THRESHOLD, analysis.reference_text, analysis.matrix):
        return prob, None
    return prob, keep_mask(analysis, prob)


@dataclass
class Selection:
    """The classifier's verdict on a page: its blocks kept, or a deferral to trafilatura's selection
    (`deferred`), with every block's probability either way."""

    blocks: list[B.Block]
    prob: np.ndarray
    element: lxml.html.HtmlElement | None
    deferred: bool


def select(
    html: str,
    url: str | None,
    defer: bool = True,
    tree: lxml.html.HtmlElement | None = None,
    known: tuple[str, str] | None = None,
) -> Selection | None:
    """The classifier's selection of the page's main content; None when the page has no blocks.
    `tree`, `known`: the page already parsed, trafilatura's texts already made (see `cut`)."""
    analysis = analyse(html, url, tree, known)
    if analysis is None or not analysis.blocks:
        return None
    prob, mask = _judge(analysis, defer)
    if mask is None:
        return Selection(analysis.blocks, prob, None, True)
    kept = [b for b, keep in zip(analysis.blocks, mask, strict=True) if keep]
    return Selection(analysis.blocks, prob, assemble(kept) if kept else None, False)


def select_main(html: str, url: str | None, defer: bool = True) -> lxml.html.HtmlElement | None:
    """A new element holding the page's main-content blocks in document order.

    None if nothing is kept, or (with `defer`) when trafilatura's selection is judged the better one
    for this page.
    """
    selection = select(html, url, defer)
    return None if selection is None else selection.element


def extract_text(html: str, url: str | None) -> str:
    """Plain text of the main content, one block per paragraph (the benchmark's view of the extractor)."""
    analysis = analyse(html, url)
    if analysis is None:
        return ""
    mask = choice(analysis)
    if mask is None:
        return analysis.reference_text
    kept = [b.text for b, keep in zip(analysis.blocks, mask, strict=True) if keep]
    return "\n\n".join(kept)


def assemble(kept: list[B.Block]) -> lxml.html.HtmlElement:
    """Copy the kept blocks under one <div>, in their structure: list items regrouped into their list (a
    nested list into its item), the paragraphs of a list item into that item, a definition list's
    terms and definitions into their list, and blocks that stand inside a block quote into a quote."""
    return _Assembly().of(kept)


class _Assembly:
    """The copy being built, and the copies of the source containers (lists, items, quotes) made so far:
    a block goes into the copy of its container while that copy is still the last thing written."""

    def __init__(self) -> None:
        self.out = lxml.html.Element("div")
        self.copies: dict[lxml.html.HtmlElement, lxml.html.HtmlElement] = {}

    def of(self, kept: list[B.Block]) -> lxml.html.HtmlElement:
        for block in _in_reading_order(kept):
            el = block.element
            target = self.out
            for quote in reversed([q for q in el.iterancestors("blockquote") if not _holds_a_post(q)]):
                target = self._container(quote, "blockquote", target)  # a quote in a quote stays in it
            piece = copy_block(block)
            parent = el.getparent()
            if el.tag == "li" and parent is not None:
                target = self._list(parent, target)
                self.copies[el] = piece
            elif parent is not None and parent.tag == "li" and parent.getparent() is not None:
                target = self._container(parent, "li", self._list(parent.getparent(), target))
            elif el.tag in ("dt", "dd") and parent is not None and _one_line_terms(parent):
                target = self._container(parent, "dl", target)  # a term with its definition
            target.append(piece)
        return self.out

    def _list(self, source: lxml.html.HtmlElement, target: lxml.html.HtmlElement) -> lxml.html.HtmlElement:
        """The copy of list `source`: inside the copy of its own item when it is a nested list."""
        item = source.getparent()
        item_copy = self.copies.get(item) if item is not None and item.tag == "li" else None
        if item_copy is not None and self._open(item_copy):
            target = item_copy
        tag = source.tag if source.tag in ("ol", "ul", "menu") else "ul"
        return self._container(source, tag, target)

    def _container(
        self, source: lxml.html.HtmlElement, tag: str, parent: lxml.html.HtmlElement
    ) -> lxml.html.HtmlElement:
        made = self.copies.get(source)
        if made is None or made.getparent() is not parent or not self._open(made):
            made = lxml.html.Element(tag)
            parent.append(made)
            self.copies[source] = made
        return made

    def _open(self, node: lxml.html.HtmlElement) -> bool:
        """Whether nothing was written after `node` (it is on the right edge of the copy)."""
        while node is not self.out:
            parent = node.getparent()
            if parent is None or parent[-1] is not node:
                return False
            node = parent
        return True


def _in_reading_order(kept: list[B.Block]) -> list[B.Block]:
    """`kept` in the order their words are read. A block is listed where its element opens, so the
    words a container holds after a block of its own came before that block: Kubernetes' note,
    `<div class="alert"><h4>Note:</h4>You need to install...</div>`, read "You need to install...",
    then "Note:". Such a container opening with a heading (not a list's item, whose words regroup
    with it) goes after the blocks of that heading."""
    late = {id(block): after for block in kept if (after := _opened_by_blocks(block)) is not None}
    if not late:
        return kept
    order: list[B.Block] = []
    waiting: list[tuple[B.Block, lxml.html.HtmlElement]] = []
    for block in kept:
        while waiting and not _inside(block.element, waiting[-1][1]):
            order.append(waiting.pop()[0])
        if id(block) in late:
            waiting.append((block, late[id(block)]))
        else:
            order.append(block)
    order.extend(block for block, _ in reversed(waiting))
    return order


_HEADINGS = frozenset(("h1", "h2", "h3", "h4", "h5", "h6"))


def _opened_by_blocks(block: B.Block) -> lxml.html.HtmlElement | None:
    """The heading a container's own words follow when it opens with one (no words before it)."""
    el = block.element
    if block.atomic or el.tag in ("li", "dt", "dd") or (el.text or "").strip():
        return None
    first = next((child for child in el if isinstance(child.tag, str)), None)
    return first if first is not None and first.tag in _HEADINGS else None


def _inside(el: lxml.html.HtmlElement, part: lxml.html.HtmlElement) -> bool:
    """Whether `el` is `part` or inside it."""
    return el is part or any(up is part for up in el.iterancestors())


_POST_BODY = re.compile(r"(?:message|post)[-_]?(?:text|content|body)", re.I)


def _holds_a_post(quote: lxml.html.HtmlElement) -> bool:
    """A `<blockquote>` that forum software uses as the body of a post (XenForo's `messageText`,
    vBulletin's `postcontent`), not as a quotation."""
    return _POST_BODY.search(quote.get("class") or "") is not None


def copy_block(block: B.Block) -> lxml.html.HtmlElement:
    el = block.element
    has_nested = not block.atomic and any(
        isinstance(child.tag, str) and child.tag in B.BLOCK_TAGS for child in el.iterdescendants()
    )
    if not has_nested:
        piece = copy.deepcopy(el)
        piece.tail = None
        return piece
    tag = el.tag if el.tag not in ("html", "body") else "div"
    piece = lxml.html.Element(tag)
    piece.text = el.text
    for child in el:
        if isinstance(child.tag, str) and child.tag not in B.BLOCK_TAGS and not _holds_blocks(child):
            inline = copy.deepcopy(child)
            piece.append(inline)
        elif child.tail:
            _append_text(piece, child.tail)
    return piece


def _one_line_terms(dl: lxml.html.HtmlElement) -> bool:
    """Whether `dl` is a definition list whose terms and definitions are each one block (a reference's
    function, its signature over paragraphs and code, is read as those blocks)."""
    return dl.tag == "dl" and not any(_holds_blocks(child) for child in dl if isinstance(child.tag, str))


def _holds_blocks(el: lxml.html.HtmlElement) -> bool:
    return any(isinstance(d.tag, str) and d.tag in B.BLOCK_TAGS for d in el.iterdescendants())


def _append_text(piece: lxml.html.HtmlElement, text: str) -> None:
    if len(piece):
        last = piece[-1]
        last.tail = (last.tail or "") + text
    else:
        piece.text = (piece.text or "") + text
