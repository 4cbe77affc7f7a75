"""A shop's recommendations of other goods, under a heading of their own, left out.

Product pages sell one thing and then show a rail of others: "Similar items", "Customers who viewed
this item also viewed", "Frequently bought together", "You may also like". Each is a heading over a
list (or a grid) of product cards, and an extractor that keeps the page's lists keeps them too, often
longer than the product itself (a card repeats its price, its delivery and an ad disclosure). A
section goes when its heading is one of those phrases (`_HEADING`, the whole heading) and a list
follows it before a heading of the same or a higher rank: the heading, what stands between it and
the list (a rail's controls), and the list with its cards (their titles may be headings of a lower
rank). A heading of that kind over prose is left, as is a list under any other heading ("Related
products" is not among them: on a manufacturer's page it is content).
"""

from __future__ import annotations

import re

from lxml import etree

from webferret.extract.blocks import HEADINGS, drop_keep_tail

_PHRASES = (
    r"similar (?:items|products)",
    r"(?:people|customers|shoppers)(?: who (?:viewed|bought) this(?: item| product)?)? also"
    r" (?:viewed|bought|liked)(?: or read)?(?: these)?(?: items| products)?",
    r"frequently bought together",
    r"you (?:may|might) also like",
    r"recommended for you",
    r"explore related items",
    r"sponsored (?:items|products)(?: related to this item)?",
)
_HEADING = re.compile(rf"(?:{'|'.join(_PHRASES)})\s*:?", re.I)
_HEADS = (*sorted(HEADINGS), "head")  # trafilatura's XML calls a heading `head`
_LIST_TAGS = ("ul", "ol", "dl", "table", "list")  # `list`: trafilatura's
_LISTS = frozenset(_LIST_TAGS)


def drop_recommended(element: etree._Element) -> int:
    """`element` (the main content) less its sections of recommended goods, in place; how many went."""
    heads = [
        head
        for head in element.iter(*_HEADS)
        if head is not element and _HEADING.fullmatch(" ".join("".join(head.itertext()).split()))
    ]
    dropped = 0
    for head in heads:
        section = _section(head, element)
        if section:
            *inside, last = section
            for node in inside:
                parent = node.getparent()
                if parent is not None:
                    parent.remove(node)  # its tail goes too: text between the heading and the list
            parent = last.getparent()
            if parent is not None:
                drop_keep_tail(last, parent)  # what follows the list is no longer the rail's
            dropped += 1
    return dropped


def _section(head: etree._Element, root: etree._Element) -> list[etree._Element]:
    """The heading's section to drop: from the heading (or the wrapper it opens) up to and with the first
    following sibling that is or holds a list; empty when a heading of the same or a higher rank comes
    first (a card's title inside the list, or inside a wrapper with the list, is of a lower rank), or
    nothing does."""
    rank = _rank(head)
    start = head
    parent = start.getparent()
    # `<div><h2>Similar items</h2></div><ul>...`: the heading alone in a wrapper opens the wrapper's section
    while parent is not None and parent is not root and len(parent) == 1 and not (parent.text or "").strip():
        start, parent = parent, parent.getparent()
    if parent is None:
        return []
    run = [start]
    for sibling in start.itersiblings():
        if not isinstance(sibling.tag, str):
            continue
        run.append(sibling)
        if sibling.tag in _LISTS:
            return run
        if any(_rank(inner) <= rank for inner in sibling.iter(*_HEADS)):
            return []
        if any(True for _ in sibling.iter(*_LIST_TAGS)):
            return run
    return []


def _rank(head: etree._Element) -> int:
    """A heading's rank, 1 the highest: its tag's (`h2`), or for trafilatura's `head` the one it was
    (`rend="h2"`; 2 when it does not say)."""
    tag = head.tag if head.tag != "head" else head.get("rend") or "h2"
    return int(tag[1]) if len(tag) == 2 and tag[0] == "h" and tag[1].isdigit() else 2
