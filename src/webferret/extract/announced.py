"""A list that a kept paragraph announces, put back when the choice left it out.

A writer often introduces a list with a sentence ending in a colon ("N8n can help you with any type of
automations, for example:") and the list follows right after it. trafilatura sometimes keeps the
sentence and drops the list: when no container of its rules holds the article, it recovers the page's
paragraphs one by one and leaves lists and headings out; the block classifier may rate short items
low. The reader is then told a list follows, and none does.

A `<ul>` or `<ol>` is put back after the copy of the paragraph in the main content when, on the page:
- it is the very next element after a `<p>` whose text ends with a colon (at least `MIN_WORDS` words),
  or it ends a list item whose words before it end so ("Learn what you need to set up a node:", with
  its nested list of links, which trafilatura drops): then it goes back inside the copy of that item;
- it holds at least two items, none of them in the main content already;
- when most of its text is link text (more than `MAX_LINKS`), the paragraph does not announce other
  reading (`ELSEWHERE`: "Related articles:", "More helpful articles by ...", "You might also like:"
  lead to the page's navigation; "For more information, see:" and "the projects I liked most:" lead
  to the article's own list of links).
"""

from __future__ import annotations

import re
from copy import deepcopy

from lxml import etree, html

from webferret.extract.features import normalize, normalized

MIN_WORDS = 3
MAX_LINKS = 0.5
LINK_LISTS = True
"""False: no list that is mostly links put back (bench/oof_pipeline.py measures it as a variant)."""
ELSEWHERE = re.compile(
    r"(?i)\b(?:related|recommended|popular|trending|latest|read (?:next|more)|also (?:like|enjoy|read)"
    r"|more (?:helpful |useful |great )?(?:articles|posts|stories|guides|from|by|on|like)|further reading)\b"
)
ON = True
"""False: no list put back (bench/oof_pipeline.py measures the rule as a variant with it off)."""
ITEM_LISTS = True
"""False: no list that its list item's words announce put back, only those a `<p>` announces."""
_PARAGRAPHS = ("p",)
_ITEMS = ("li", "item")
_BLOCKS = frozenset(
    ("p", "div", "ul", "ol", "dl", "table", "pre", "blockquote", "h1", "h2", "h3", "h4", "h5", "h6")
)


def put_back_lists(main: etree._Element, tree: html.HtmlElement) -> int:
    """Put back, in place, after their paragraphs in `main` (the main content, HTML or trafilatura's
    XML), the lists of `tree` (the page) that a kept paragraph announces (see the module); how many."""
    if not ON:
        return 0
    wanted: dict[str, etree._Element] = {}
    for listing in tree.iter("ul", "ol"):  # a walk over the tree: 0.1 ms of an article page
        text = _announcer(listing)
        if text is None or not text.rstrip().endswith(":"):
            continue
        key = normalize(text)
        if len(key.split()) >= MIN_WORDS and _plain(listing, text):
            wanted.setdefault(key, listing)
    if not wanted:
        return 0
    places: dict[str, etree._Element] = {}
    for element in main.iter(*_PARAGRAPHS, *_ITEMS):
        key = normalized(element)
        if key in wanted and (element.tag in _ITEMS) == _opens_item(wanted[key]):
            places.setdefault(key, element)
    if not places:
        return 0
    items = {normalized(item) for item in main.iter(*_ITEMS)}
    text = f" {' '.join(normalized(element).strip() for element in main.iter(*_PARAGRAPHS))} "
    added = 0
    for key, place in places.items():
        listing = wanted[key]
        if any(_said(normalized(item), items, text) for item in listing.iter("li")):
            continue
        piece = deepcopy(listing)
        if place.tag in _ITEMS:  # a list an item's words announce: inside that item, under them
            piece.tail = None
            place.append(piece)
        else:
            piece.tail = place.tail
            place.tail = None
            place.addnext(piece)
        added += 1
    return added


def _announcer(listing: etree._Element) -> str | None:
    """The text that may announce `listing`: the `<p>` right before it, or, for a list that ends a
    list item after its words alone ("Learn what you need to set up a node:"), those words."""
    before = _before(listing)
    if before is not None and before.tag == "p":
        return "".join(before.itertext())
    parent = listing.getparent()
    if not ITEM_LISTS or parent is None or parent.tag != "li" or listing.getnext() is not None:
        return None
    words = [parent.text or ""]
    for child in parent:
        if child is listing:
            return "".join(words)
        if child.tag in _BLOCKS:
            return None
        words.extend((*child.itertext(), child.tail or ""))
    return None


def _before(listing: etree._Element) -> etree._Element | None:
    """The element right before `listing` (a comment between them aside)."""
    before = listing.getprevious()
    while before is not None and not isinstance(before.tag, str):
        before = before.getprevious()
    return before


def _opens_item(listing: etree._Element) -> bool:
    """Whether `listing` is announced by its list item's words, not by a `<p>`."""
    before = _before(listing)
    return before is None or before.tag != "p"


def _said(item: str, items: set[str], text: str) -> bool:
    """Whether the main content has a list item already (all three normalized and padded): as an item,
    or (three words or more) inside a paragraph."""
    return item in items or (len(item.split()) >= 3 and item in text)


def _plain(listing: etree._Element, intro: str) -> bool:
    """A list of at least two items with some text; mostly links only when `intro` does not point
    to other reading."""
    items = [item for item in listing.iter("li") if "".join(item.itertext()).strip()]
    if len(items) < 2:
        return False
    chars = len("".join(listing.itertext()).strip())
    linked = sum(len("".join(a.itertext()).strip()) for a in listing.iter("a"))
    return linked <= MAX_LINKS * chars or (LINK_LISTS and ELSEWHERE.search(intro) is None)
