"""Words that only the page's style keeps apart.

A shop writes `<span>YETI</span><span>Rambler Bottle</span>` and its stylesheet shows the two spans
as blocks or with a margin; read as text they are one word, "YETIRambler". `space_touching` puts a
space between two inline siblings that touch when the first ends a word and the second opens one with
a capital or a figure: a boundary no word has inside it, except a drop cap ("<b>T</b><span>He</span>"
is rare; "<b>T</b>he" is text, not two elements, and stays as it is).
"""

from __future__ import annotations

from lxml import etree, html

from webferret.extract.markdown import INLINE_CODE

TOUCHING = True  # bench switch: off reads touching spans as one word, as before
LEADING = True  # bench switch: off lets a word run into the next element's capital, as before
TRAILING = True  # bench switch: off lets an element's word run into a capitalized word after it

# inline elements a stylesheet sets apart (not `sup`/`sub`, which touch their word on purpose, nor
# code, whose spans are a highlighter's)
_INLINE = frozenset(
    (
        "a",
        "abbr",
        "b",
        "bdi",
        "cite",
        "data",
        "em",
        "font",
        "i",
        "label",
        "mark",
        "q",
        "small",
        "span",
        "strong",
        "time",
        "u",
    )
)
_SKIP = frozenset(("script", "style", "template", "noscript", "svg", "math"))
_ENDS = frozenset(".!?:;)]%")


def space_touching(tree: html.HtmlElement) -> None:
    """Give a space wherever an inline element of `tree` touches a word across a word boundary: the
    next element (`TOUCHING`), the text before it (`LEADING`), the text after it (`TRAILING`)."""
    for node in tree.iter(*_INLINE):
        if TOUCHING:
            _space_after(node)
        if LEADING:
            _space_before(node)
        if TRAILING:
            _space_tail(node)


def _space_after(node: etree._Element) -> None:
    """A space between `node` and the inline element touching it when `node` ends a word and the
    other opens one with a capital or a figure (`<span>YETI</span><span>Rambler</span>`), outside
    code, whose touching spans are a highlighter's tokens (`apiclient<span>.</span><span>Client`)."""
    if node.tail or (after := _next_element(node)) is None or after.tag not in _INLINE:
        return
    first = _first_char(after)
    if not first or not (first.isupper() or first.isdigit()):
        return
    last = _last_char(node)
    if last and (last.isalnum() or last in _ENDS) and not _in_code(node):
        node.tail = " "


def _space_before(node: etree._Element) -> None:
    """A space between text ending in a lower-case letter and `node` opening with a capital
    (`workflows<strong>Cons:</strong>`), outside code."""
    parent = node.getparent()
    if parent is None:
        return
    before = node.getprevious()
    while before is not None and not isinstance(before.tag, str) and not before.tail:
        before = before.getprevious()  # a comment with nothing after it
    text = parent.text if before is None else before.tail
    if not text or not text[-1].islower() or not text[-2:-1].isalpha():
        return  # `i<span>Phone</span>`, `e<b>Bay</b>`: one letter is a name's start
    first = _first_char(node)
    if first and first.isupper() and not _in_code(node):
        if before is None:
            parent.text = text + " "
        else:
            before.tail = text + " "


def _space_tail(node: etree._Element) -> None:
    """A space between `node` ending in a word (two letters or more) and text after it opening with a
    capitalized word (`<b>Note</b>This`), outside code."""
    tail = node.tail
    if not tail or len(tail) < 2 or not (tail[0].isupper() and tail[1].islower()):
        return
    text = "".join(node.itertext())
    if len(text) >= 2 and text[-2:].isalpha() and not _in_code(node):
        node.tail = " " + tail


_CODE = INLINE_CODE | {"pre"}


def _in_code(node: etree._Element) -> bool:
    """Is `node` inside code (where `foo<span>Bar</span>` is a highlighter's camelCase)?"""
    return any(ancestor.tag in _CODE for ancestor in node.iterancestors())


def _next_element(node: etree._Element) -> etree._Element | None:
    """The sibling after `node`, past comments that nothing separates from it; None when text comes
    between them."""
    after = node.getnext()
    while after is not None and not isinstance(after.tag, str):  # a comment (Vue's `<!--[-->`)
        if after.tail:
            return None
        after = after.getnext()
    return after


def _first_char(node: etree._Element) -> str:
    """The first character of `node`'s text, "" when it has none (a script's is none)."""
    if not isinstance(node.tag, str) or node.tag in _SKIP:
        return ""
    if node.text:
        return node.text[0]
    for child in node:
        if isinstance(child.tag, str) and (found := _first_char(child)):
            return found
        if child.tail:
            return child.tail[0]
    return ""


def _last_char(node: etree._Element) -> str:
    """The last character of `node`'s text, "" when it has none."""
    for child in reversed(node):
        if child.tail:
            return child.tail[-1]
        if isinstance(child.tag, str) and child.tag not in _SKIP and (found := _last_char(child)):
            return found
    return node.text[-1] if node.text else ""
