"""A shop's grid of products that the main-content choice left out, put back.

A category page (a shop's "Shoes", a best-seller list) is its grid of products: cards of one shape,
each a link with a name and a price. Both trafilatura and the block classifier tend to drop such a
grid as navigation (short, link-dense blocks repeated many times) and keep the few sentences of
selling text above it, so the reader learns what the shop says about the category but not what it
sells. Here the page's largest grid is put back at the end of the main content when:
- at least `MIN_CARDS` like siblings (same tag and first class) each hold a link and a price, and
  they are at least `CARD_SHARE` of those siblings;
- it is shown (`blocks.hidden`: not `hidden`, `aria-hidden`, `display: none`, `visibility: hidden`
  or a class that hides it), and neither it nor a container of it
  is named as something other than the page's own list (`ELSEWHERE`: related or recommended items,
  carousels, sliders, filters, an announcement bar);
- fewer than `COVERED` of its cards are in the main content already (half of the words that tell a
  card from the others there);
- the page does not declare one product (a schema.org `Product` without a list around it, or
  `og:type` product) or an article (JSON-LD): a product page's grids are other products, an
  article's what the site sells beside it.
The cards already in the main content are left out of the copy.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from copy import deepcopy

from lxml import etree, html

from webferret.extract.blocks import hidden
from webferret.extract.metadata import ARTICLE_TYPES

ON = True
"""False: no grid put back (bench/oof_pipeline.py measures the rule as a variant with it off)."""
MIN_CARDS = 6
CARD_SHARE = 0.6
COVERED = 0.5
PRICE = re.compile(r"[$€£¥₹]\s?\d|\d[\d.,]*\s?(?:[€£$]|(?:kr|zł|usd|eur|gbp|aud|cad)\b)", re.I)
ELSEWHERE = re.compile(
    r"recommend|related|similar|also|recent|upsell|cross-?sell|carousel|slider|swiper|slick|marquee"
    r"|announcement|filter",
    re.I,
)
LIST_TYPES = frozenset(("ItemList", "CollectionPage", "SearchResultsPage", "OfferCatalog"))
PRODUCT_TYPES = frozenset(("Product", "ProductGroup"))
_SKIPPED = frozenset(("script", "style", "noscript", "template", "svg"))
_WORD = re.compile(r"\w+")


def other_goods(ld_types: Sequence[str], og_type: str | None) -> bool:
    """Whether a page's grids of products are not its content: it declares one product (its grids are
    other products), or an article (JSON-LD; its grids are what the site sells beside it)."""
    declared = set(ld_types)
    product = bool(declared & PRODUCT_TYPES) or "product" in (og_type or "").lower()
    return (product and not declared & LIST_TYPES) or not declared.isdisjoint(ARTICLE_TYPES)


def put_back_grid(main: etree._Element, tree: html.HtmlElement) -> bool:
    """Append to `main` (the main content) the cards of `tree`'s (the page's) grid of products that
    the choice left out (see the module); whether a grid was put back."""
    if not ON:
        return False
    grids = [found for found in _grids(tree) if _shown(found[0])]
    if not grids:
        return False
    _, cards = max(grids, key=lambda found: sum(len(said.split()) for _, said in found[1]))
    kept_words = set(_WORD.findall(" ".join(main.itertext()).lower()))
    own = _own_words([said for _, said in cards])
    fresh = [card for (card, _), words in zip(cards, own, strict=True) if not _said(words, kept_words)]
    if len(cards) - len(fresh) >= COVERED * len(cards):
        return False
    copy = etree.SubElement(main, "div")
    for card in fresh:
        piece = deepcopy(card)
        piece.tail = None
        etree.strip_elements(piece, *_SKIPPED, with_tail=False)  # a card's tracking script is no text
        copy.append(piece)
    return True


Cards = list[tuple[html.HtmlElement, str]]


def _grids(tree: html.HtmlElement) -> list[tuple[html.HtmlElement, Cards]]:
    """Each run of like siblings holding priced links: their parent, and the cards with their text."""
    linked: dict[tuple[html.HtmlElement, str, str], list[html.HtmlElement]] = defaultdict(list)
    for card in _LINKED_CHILDREN(tree):  # the children holding a link, of elements of many children
        parent = card.getparent()
        if isinstance(card.tag, str) and parent is not None and parent.tag not in _SKIPPED:
            linked[parent, card.tag, _first_class(card)].append(card)
    found = []
    for (parent, tag, first), members in linked.items():
        if len(members) < MIN_CARDS:
            continue
        # a cheap look first (its text with any script's), then the card's shown text
        priced = [card for card in members if PRICE.search(card.text_content())]
        siblings = sum(1 for child in parent if child.tag == tag and _first_class(child) == first)
        if len(priced) < MIN_CARDS or len(priced) < CARD_SHARE * siblings:
            continue
        cards = [(card, said) for card in priced if PRICE.search(said := _text(card))]
        if len(cards) >= MIN_CARDS and len(cards) >= CARD_SHARE * siblings:
            found.append((parent, cards))
    return found


_LINKED_CHILDREN = etree.XPath(f"//*[count(*) >= {MIN_CARDS}]/*[descendant-or-self::a[@href]]")


def _first_class(element: html.HtmlElement) -> str:
    return (element.get("class") or "").partition(" ")[0]


def _text(card: html.HtmlElement) -> str:
    """A card's text, without its scripts and styles."""
    return " ".join(" ".join(_SHOWN_TEXT(card)).split())


_SHOWN_TEXT = etree.XPath(
    ".//text()[not(ancestor::script or ancestor::style or ancestor::noscript or ancestor::template)]"
)


def _own_words(cards: list[str]) -> list[list[str]]:
    """Each card's words that tell it from the others: not numbers, and in fewer than half of the
    cards ("Field mug" of "Field mug alder" is every card's)."""
    words = [[word for word in _WORD.findall(card.lower()) if not word.isdigit()] for card in cards]
    shared = Counter(word for card in words for word in set(card))
    return [[word for word in card if shared[word] * 2 < len(cards)] for card in words]


def _said(words: list[str], kept_words: set[str]) -> bool:
    """Half or more of a card's own words are in the main content."""
    return bool(words) and sum(word in kept_words for word in words) >= 0.5 * len(words)


def _shown(grid: html.HtmlElement) -> bool:
    """Neither hidden (`blocks.hidden`) nor named as another list, itself or a container of it."""
    for element in (grid, *grid.iterancestors()):
        if hidden(element) or ELSEWHERE.search(f"{element.get('class') or ''} {element.get('id') or ''}"):
            return False
    return True
