"""`<template>` elements read as a browser shows them, once, right after parsing, so all readers see
the same tree.

A plain `<template>` is inert: a script's stamp, never shown (a card's markup, a row to clone). The
block cutter and the renderer skip it, but trafilatura strips its tag and keeps its words, so a page it
chose showed them. A declarative shadow root (`<template shadowrootmode="open">`, from server-rendered
web components) is shown in place of its host's content: every reader skipped it, and lost the words.
The first is dropped, the second unwrapped, its host's children moved into the `<slot>` they name (the
unnamed slot takes those that name none), as the browser shows them there.
"""

from __future__ import annotations

from lxml import etree, html

from webferret.extract import hints
from webferret.extract.invisible import writable

_TEMPLATE = hints.word("<template")
_SHADOW_ROOT = ("shadowrootmode", "shadowroot")  # (the second, Chrome's first name for it)


def has_templates(page: str) -> bool:
    return hints.holds(page, _TEMPLATE)


def settle_templates(tree: html.HtmlElement) -> None:
    """Drop every inert `<template>` and unwrap every declarative shadow root, in place."""
    for template in reversed(list(tree.iter("template"))):  # the inner ones first
        if any(template.get(name) for name in _SHADOW_ROOT):
            _fill_slots(template)
            template.drop_tag()
        else:
            template.drop_tree()


def _fill_slots(root: html.HtmlElement) -> None:
    """Move the shadow root's host's other children into the root's slots they name."""
    host = root.getparent()
    slots = {slot.get("name") or "": slot for slot in root.iter("slot")}
    if host is None or not slots:
        return
    for child in [c for c in host if c is not root and isinstance(c.tag, str)]:
        slot = slots.get(child.get("slot") or "")
        if slot is not None:
            _keep_tail(child, host)
            slot.append(child)


def _keep_tail(node: etree._Element, parent: etree._Element) -> None:
    """Leave `node`'s tail in `parent` where it is, as `node` moves."""
    if not node.tail:
        return
    before = node.getprevious()
    if before is not None:
        before.tail = writable((before.tail or "") + node.tail)
    else:
        parent.text = writable((parent.text or "") + node.tail)
    node.tail = None
