"""A list that a kept paragraph announces, put back when the choice left it out.

A writer often introduces a list with a sentence ending in a colon ("N8n can help you with any type of
automations, for example:") and the list follows right after it. trafilatura sometimes keeps the
sentence and drops the list: when no container of its rules holds the article, it recovers the page's
paragraphs one by one and leaves lists and headings out; the block classifier may rate short items
low. The reader is then told a list follows, and none does.

A `<ul>` or `<ol>` is put back after the copy of the paragraph in the main content when, on the page:
- it is the very next element after a `<p>` whose text ends with a colon (at least `MIN_WORDS` words);
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
_PARAGRAPHS = ("p",)
_ITEMS = ("li", "item")


def put_back_lists(main: etree._Element, tree: html.HtmlElement) -> int:
    """Put back, in place, after their paragraphs in `main` (the main content, HTML or trafilatura's
    XML), the lists of `tree` (the page) that a kept paragraph announces (see the module); how many."""
    if not ON:
        return 0
    wanted: dict[str, etree._Element] = {}
    for listing in tree.iter("ul", "ol"):  # a walk over the tree: 0.1 ms of an article page
        paragraph = listing.getprevious()
        while paragraph is not None and not isinstance(paragraph.tag, str):  # a comment between them
            paragraph = paragraph.getprevious()
        if paragraph is None or paragraph.tag != "p":
            continue
        text = "".join(paragraph.itertext())
        if not text.rstrip().endswith(":"):
            continue
        key = normalize(text)
        if len(key.split()) >= MIN_WORDS and _plain(listing, text):
            wanted.setdefault(key, listing)
    if not wanted:
        return 0
    places: dict[str, etree._Element] = {}
    for element in main.iter(*_PARAGRAPHS):
        key = normalized(element)
        if key in wanted:
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
        piece.tail = place.tail
        place.tail = None
        place.addnext(piece)
        added += 1
    return added


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
