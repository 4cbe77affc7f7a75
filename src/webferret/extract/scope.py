"""Scoping an HTML page by the caller's choice instead of the main-content selector.

`--exclude CSS` drops the matching elements before anything else reads the body; `--selector CSS`
keeps only the matching elements (outermost matches, in document order); `--whole-page` keeps the
whole body minus what never reads as text (scripts, styles, embedded frames).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from lxml import etree, html

from webferret.extract.blocks import outermost
from webferret.models import ErrorCode, FerretError

NEVER_TEXT = ("script", "style", "noscript", "template", "iframe", "object", "embed", "svg", "canvas")
SCOPE_SOURCES = ("selector", "whole_page")


_PROBE = etree.fromstring("<html/>")


@lru_cache(maxsize=64)
def _xpath(css: str) -> etree.XPath:
    """The compiled XPath of a CSS selector; raises `FerretError(invalid_argument)` naming it."""
    from cssselect import HTMLTranslator, SelectorError

    if not css.strip():
        raise FerretError(ErrorCode.INVALID_ARGUMENT, "an empty CSS selector was given")
    try:
        compiled = etree.XPath(HTMLTranslator().css_to_xpath(css))
        compiled(_PROBE)  # a namespace prefix (`svg|a`) compiles, and fails only when evaluated
        return compiled
    except (SelectorError, etree.XPathError) as exc:
        raise FerretError(ErrorCode.INVALID_ARGUMENT, f"bad CSS selector {css!r}: {exc}") from None


def check_scope(selector: str | None, exclude: Sequence[str], whole_page: bool) -> None:
    """Raise `FerretError(invalid_argument)` for a bad selector or a contradictory scope."""
    if selector is not None and whole_page:
        message = "--selector and --whole-page contradict each other: a selector skips the main content"
        raise FerretError(ErrorCode.INVALID_ARGUMENT, message)
    for css in (selector, *exclude):
        if css is not None:
            _xpath(css)


def _matches(tree: html.HtmlElement, css: str) -> list[etree._Element]:
    return [node for node in _xpath(css)(tree) if isinstance(node, etree._Element)]


def drop_excluded(tree: html.HtmlElement, exclude: Sequence[str]) -> int:
    """Remove every element matching one of `exclude` (tail text kept); answer how many."""
    dropped = 0
    for css in exclude:
        for node in _matches(tree, css):
            if node.getparent() is not None:
                node.drop_tree()
                dropped += 1
    return dropped


def _strip_never_text(root: etree._Element) -> None:
    for node in list(root.iter(*NEVER_TEXT)):
        if node is not root and node.getparent() is not None:
            node.drop_tree()


def selected(tree: html.HtmlElement, css: str, url: str | None) -> etree._Element:
    """A container holding copies of the outermost elements matching `css`, in document order.

    Nothing matching is `empty_content` with a message naming the selector (not an empty page).
    """
    from copy import deepcopy

    nodes = outermost(_matches(tree, css))  # one inside another would be read twice
    if not nodes:
        message = f"the CSS selector {css!r} matched no element at {url or 'input'}"
        raise FerretError(ErrorCode.EMPTY_CONTENT, message)
    container = html.Element("div")
    for node in nodes:
        copy = deepcopy(node)
        copy.tail = None
        container.append(copy)
    _strip_never_text(container)
    return container


def whole_body(tree: html.HtmlElement) -> etree._Element:
    """The page's body (or the whole document without one), navigation included, minus scripts,
    styles and frames."""
    bodies = tree.xpath("//body")
    root = bodies[0] if bodies else tree
    _strip_never_text(root)
    for nav in root.iter("nav"):  # the renderer skips navigation as boilerplate; here it is asked for
        nav.tag = "div"
    return root
