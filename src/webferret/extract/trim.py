"""Trim trafilatura's choice with the block classifier's verdicts.

A paragraph of trafilatura's tree is dropped when its text is exactly that of blocks the classifier
rates below a cut and of no block rated above it (newsletter lines, "related" links, credits, shop and
share chrome). Two places use it:
- a page the page-level chooser hands to trafilatura: the classifier has already rated every block of
  the page, so this costs next to nothing (`DEFERRED_CUT`);
- a page that declares itself an article (`article_edit`): trafilatura's choice is kept, and the page is
  cut into blocks and rated for it, with trafilatura's own text of that same run as the reference (no
  second trafilatura run), only the blocks that are trafilatura's paragraphs rated (`ARTICLE_CUT`).
  There the choice is also extended: blocks trafilatura left out that sit where blocks it kept sit in
  the page's template, and that the classifier rates high, are put in (`EXTEND_CUT`).
Both put back the headings trafilatura left out over sections it kept (`extract.headings`; `lost`,
`headed`).
bench/train_blocks.py estimates both the same way on trafilatura's text (--trim-sweep for articles).
"""

from __future__ import annotations

from copy import deepcopy
from dataclasses import dataclass, field

import numpy as np
from lxml import etree, html
from trafilatura.settings import Document

from webferret.extract import embeds, features, main_content
from webferret.extract.blocks import Block, drop_keep_tail
from webferret.extract.codeblocks import tag_name
from webferret.extract.features import block_norm, normalize, normalized
from webferret.extract.headings import TAGS as HEADING_TAGS
from webferret.extract.headings import lost_headings, page_title
from webferret.extract.words import count_words

# chosen by cross-validation on the multitype pages the chooser hands to trafilatura (0.03 to 0.15 tried)
DEFERRED_CUT = 0.1
# chosen by cross-validation on the multitype set's declared articles (0.2 to 0.5 tried: see
# docs/extraction-rounds.md); the article set is only measured, never tuned on
ARTICLE_CUT = 0.3
# chosen on the multitype set's declared articles, out of fold (0.3 to 0.9 tried, a plateau from 0.3 to
# 0.6: bench/article_extend.py); the article set only measured
EXTEND_CUT = 0.6
EXTEND_WORDS = 8
EXTEND_NEW = 0.5  # share of an added block's word trigrams that trafilatura's text does not hold
_PARAGRAPHS = ("p", "head", "item", "quote")
_HELD = ("p", "head", "item")  # what a list or quote holds as its paragraphs
REJECTED_KEEP = 0.5
"""A declared article whose trim keeps under this share of trafilatura's words is read as any other
page (`rejects_choice`)."""


@dataclass
class ArticleEdit:
    """What the classifier changes in trafilatura's choice of a declared article: the paragraphs to drop
    (normalized texts) and the page's blocks to add (`extended`), each after `after[i]` (the normalized
    text of the block before it that trafilatura kept, "" when none)."""

    drop: set[str] = field(default_factory=set)
    add: list[Block] = field(default_factory=list)
    after: list[str] = field(default_factory=list)
    headings: list[tuple[Block, str]] = field(default_factory=list)
    """Headings trafilatura left out (`headings.lost_headings`), each with the normalized text of the
    paragraph it goes before (`headed`)."""
    blocks: list[Block] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    """The page's blocks, when it was cut into them, and their normalized texts (`whole_runs`)."""


def rejects_choice(document: Document, edit: ArticleEdit) -> bool:
    """Whether the classifier rejects trafilatura's choice of a declared article as a whole: the edit
    drops all but under `REJECTED_KEEP` of its words and adds no block (a documentation page whose
    text trafilatura took from the site's banner, a recipe index marked as an article)."""
    if edit.add or not edit.drop:
        return False
    words, dropped = _paragraph_words(document.body, edit.drop)
    return words > 0 and words - dropped < REJECTED_KEEP * words


def _paragraph_words(body: etree._Element, drop: set[str]) -> tuple[int, int]:
    """The words of trafilatura's paragraphs, and of those the drop takes, each word counted once: a
    paragraph inside another (a `p` in a `quote` or an `item`) is part of the outer one's words, and
    is dropped with it or on its own."""
    words = dropped = 0
    gone: set[etree._Element] = set()  # the paragraphs dropped, and those inside them
    for element in body.iter(*_PARAGRAPHS):
        outer = next(element.iterancestors(*_PARAGRAPHS), None)
        if outer is not None and outer in gone:
            gone.add(element)
            continue
        text = "".join(element.itertext())
        count = count_words(text)
        if outer is None:
            words += count
        if normalize(text) in drop:
            dropped += count
            gone.add(element)
    return words, dropped


def article_drop(document: Document, page: str, url: str | None, tree: html.HtmlElement) -> set[str]:
    """Normalized texts of trafilatura's paragraphs (in `document`, its run on `tree`) that the classifier
    rejects as blocks of the page and keeps nowhere else on it; `page` is the HTML text."""
    return article_edit(document, page, url, tree).drop


def article_edit(document: Document, page: str, url: str | None, tree: html.HtmlElement) -> ArticleEdit:
    """The paragraphs to drop (`article_drop`) and the blocks to add: a post the article embeds
    between kept paragraphs (`embeds.quoted_posts`), and a block trafilatura left out, of at least
    `EXTEND_WORDS` words most of which trafilatura's text does not hold (`EXTEND_NEW`), in the same place
    of the page's template (the same tag and class path, `Block.signature`) as a block it kept, that the
    classifier rates at least `EXTEND_CUT`. An article split into several containers of one kind
    (between ads, say) is then read whole, where trafilatura took the first."""
    body = document.body
    paragraphs = {normalized(el) for el in body.iter(*_PARAGRAPHS)}
    cut = main_content.cut(page, url, tree, main_content.document_reference(document))
    if cut is None or not cut[0]:
        return ArticleEdit()
    blocks, ref, main = cut
    texts = [block_norm(b) for b in blocks]
    rows = [i for i, text in enumerate(texts) if text in paragraphs]  # only these can be dropped
    extra = _extension_rows(blocks, texts, set(rows), ref)
    if not rows and not extra:
        return ArticleEdit(blocks=blocks, texts=texts)
    x = features.matrix(blocks, page, url, ref, rows + extra)  # whole in those rows only
    scored = rows + extra
    prob = main_content.probabilities(main_content.Analysis([blocks[i] for i in scored], x[scored], main))
    row_prob = main_content.spared([blocks[i] for i in rows], prob[: len(rows)], ARTICLE_CUT)
    drop = rejected([texts[i] for i in rows], row_prob, ARTICLE_CUT)
    edit = ArticleEdit(drop=drop, blocks=blocks, texts=texts)
    last = ""
    added = {i for i, p in zip(extra, prob[len(rows) :], strict=True) if p >= EXTEND_CUT}
    kept = [i in added or (text in paragraphs and text not in drop) for i, text in enumerate(texts)]
    posts = embeds.quoted_posts(blocks, kept) if embeds.has_posts(page) else {}
    for i, text in enumerate(texts):
        if i in posts:
            edit.add.append(posts[i])
            edit.after.append(last)
        if i in added:
            edit.add.append(blocks[i])
            edit.after.append(last)
        elif kept[i]:
            last = text
    edit.headings = [(blocks[i], texts[i + 1]) for i in lost_headings(blocks, texts, kept, page_title(tree))]
    return edit


def _extension_rows(
    blocks: list[Block], texts: list[str], rows: set[int], ref: features.Reference
) -> list[int]:
    """The blocks that may extend the choice (`article_edit`): in the place of a block that is one of
    trafilatura's paragraphs (`rows`), long enough, and neither kept by trafilatura nor mostly in its
    text. The cheap tests first: most pages have no such block."""
    signatures = {blocks[i].signature for i in rows}
    extra = [
        i
        for i, block in enumerate(blocks)
        if block.signature in signatures and i not in rows and texts[i].count(" ") - 1 >= EXTEND_WORDS
    ]
    extra = [i for i in extra if not ref.kept(texts[i], texts[i].count(" ") - 1)]
    if not extra:
        return extra
    known = _trigrams(ref.main)  # only what trafilatura's text does not hold, in other words or cut otherwise
    return [i for i in extra if _new_share(texts[i], known) >= EXTEND_NEW]


def _trigrams(text: str) -> frozenset[tuple[str, ...]]:
    words = text.split()
    return frozenset(zip(words, words[1:], words[2:], strict=False))


def _new_share(text: str, known: frozenset[tuple[str, ...]]) -> float:
    """The share of a normalized text's word trigrams that are not in `known`."""
    words = text.split()
    grams = list(zip(words, words[1:], words[2:], strict=False))
    return sum(gram not in known for gram in grams) / max(len(grams), 1)


def extended(body: etree._Element, edit: ArticleEdit) -> etree._Element:
    """`body` with the blocks of `edit.add` put in, each after trafilatura's paragraph of the text the
    block before it has (at the start when none); `body` itself when there are none."""
    if not edit.add:
        return body
    out = deepcopy(body)
    places = {normalized(el): el for el in out.iter(*_PARAGRAPHS)}
    previous: dict[str, etree._Element] = {}
    for block, after in zip(edit.add, edit.after, strict=True):
        piece = main_content.copy_block(block)
        anchor = previous.get(after)
        anchor = places.get(after) if anchor is None else anchor
        if anchor is None:
            out.insert(0, piece)
        else:
            anchor.addnext(piece)
            piece.tail, anchor.tail = anchor.tail, None
        previous[after] = piece
    return out


def lost(
    blocks: list[Block], texts: list[str], body: etree._Element, drop: set[str], tree: html.HtmlElement
) -> list[tuple[Block, str]]:
    """The headings among the page's `blocks` (of `tree`; `texts` their normalized texts) that
    trafilatura's choice (`body`, less the paragraphs of `drop`) leaves out while keeping the block
    after them (`headings.lost_headings`), each with the normalized text of that block."""
    if not any(block.element.tag in HEADING_TAGS for block in blocks):
        return []
    paragraphs = {normalized(el) for el in body.iter(*_PARAGRAPHS)} - drop
    found = lost_headings(blocks, texts, [text in paragraphs for text in texts], page_title(tree))
    return [(blocks[i], texts[i + 1]) for i in found]


def headed(body: etree._Element, headings: list[tuple[Block, str]]) -> etree._Element:
    """`body` with each heading of `headings` put in before the paragraph of its text; `body` itself
    when there are none."""
    if not headings:
        return body
    out = deepcopy(body)
    places: dict[str, etree._Element] = {}
    for element in out.iter(*_PARAGRAPHS):
        places.setdefault(normalized(element), element)
    for block, before in headings:
        place = places.get(before)
        anchor = None if place is None else _opening(place, out)
        if anchor is not None:
            anchor.addprevious(main_content.copy_block(block))
    return out


_INLINE = frozenset(("code", "hi", "ref", "del", "sub", "sup"))
RUN_SHARE = 0.25  # at least, of the block that holds it: a run is a sentence's part, not a word of a page


def whole_runs(body: etree._Element, blocks: list[Block], texts: list[str]) -> etree._Element:
    """`body` with each loose run of inline elements at its top level replaced by the whole block of
    the page that holds it. trafilatura drops the text of a `div` that holds inline elements and
    keeps the elements, loose among its paragraphs: "<code>port</code> to a <code>targetPort</code>.
    By default..." without the sentence's start, "A Service can map any incoming". `texts`: the
    blocks' normalized texts. `body` itself when it has no such run."""
    if not blocks or not _loose_runs(body):
        return body
    out = deepcopy(body)
    kept = {normalized(el) for el in out.iter(*_PARAGRAPHS)}
    for run in _loose_runs(out):
        for part, best in _held_parts(run, out, texts, kept):
            if part[0] is run[0]:  # the text before the run is the first part's start
                previous = part[0].getprevious()
                if previous is not None:
                    previous.tail = None
                else:
                    out.text = None
            part[0].addprevious(main_content.copy_block(blocks[best]))
            for element in part:
                out.remove(element)
            kept.add(texts[best])
    return out


def _held_parts(
    run: list[etree._Element], body: etree._Element, texts: list[str], kept: set[str]
) -> list[tuple[list[etree._Element], int]]:
    """A run cut into parts each held whole by one block of the page (one trafilatura may have run
    together from two), with the index of that block: the shortest that holds the part and is not
    kept already, when the part is at least `RUN_SHARE` of it."""
    previous = run[0].getprevious()
    lead = (previous.tail if previous is not None else body.text) or ""
    parts: list[tuple[list[etree._Element], int]] = []
    part: list[etree._Element] = []
    text, holders = lead, list(range(len(texts)))
    for element in [*run, None]:
        piece = "" if element is None else "".join(element.itertext()) + (element.tail or "")
        joined = normalize(text + piece)
        wider = [i for i in holders if joined in texts[i]] if element is not None else []
        if part and not wider:  # the part ends here: the element does not fit the same block
            candidates = [i for i in holders if texts[i] not in kept]
            if candidates:
                best = min(candidates, key=lambda i: len(texts[i]))
                if len(normalize(text)) >= RUN_SHARE * len(texts[best]):
                    parts.append((part, best))
            part, text = [], ""
            alone = normalize(piece)
            wider = [i for i, held in enumerate(texts) if alone in held] if element is not None else []
        if element is not None:
            part.append(element)
            text += piece
            holders = wider
    return parts


def _loose_runs(body: etree._Element) -> list[list[etree._Element]]:
    """The runs of inline elements at the top level of trafilatura's `body` that have running text
    between or after them."""
    runs: list[list[etree._Element]] = [[]]
    for element in body:
        if tag_name(element) in _INLINE:
            runs[-1].append(element)
        elif runs[-1]:
            runs.append([])
    return [run for run in runs if any((el.tail or "").strip() for el in run)]


def _opening(element: etree._Element, body: etree._Element) -> etree._Element | None:
    """Where a heading goes before `element`: before it, or before the list or quote it opens; None
    when it is inside one but not its first part."""
    while (parent := element.getparent()) is not None and parent is not body and tag_name(parent) != "div":
        if element.getprevious() is not None or (parent.text or "").strip():
            return None
        element = parent
    return element


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
    emptied: set[etree._Element] = set()
    for element in list(out.iter(*_PARAGRAPHS)):
        parent = element.getparent()
        if parent is None or normalized(element) not in drop:
            continue
        drop_keep_tail(element, parent)
        removed = True
        emptied.add(parent)
    if not removed or not "".join(out.itertext()).strip():
        return body
    for container in list(out.iter("list", "quote")):
        parent = container.getparent()
        if parent is not None and (not "".join(container.itertext()).strip() or _remnant(container, emptied)):
            drop_keep_tail(container, parent)
    return out


def _remnant(container: etree._Element, emptied: set[etree._Element]) -> bool:
    """Whether `container` lost every paragraph it held, keeping only loose words between them: a
    tweet's "— A Reader (@reader) March 3" without the tweet, which read as a quote of its own (and
    twice, when the tweet was put back whole: `embeds`)."""
    return container in emptied and next(container.iter(*_HELD), None) is None
