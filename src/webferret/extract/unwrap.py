"""Content that sits inside an element every reader drops: that element unwrapped, its content kept.

Every reader of a page (trafilatura, the block cutter, the whole-page view) drops `<noscript>` and
`<button>` with all they hold. Two kinds of page put their content there:
- a page served for readers without JavaScript inside one `<noscript>` (a Discourse forum's posts, for
  instance);
- a `<button>` the markup never closed, so that the parser nests the rest of the page in it.
Such an element, when it holds blocks (paragraphs, headings...) and most of the page's text, is replaced
by its children, once, right after parsing, so all readers see the same tree. A button or noscript
that holds a few blocks among others (an accordion's heading, a shop's option list) stays dropped.

A `<time>` inside a sentence is another (`times_in_sentences`): trafilatura drops every `<time>` with
its words, so "the market opens at <time>9 am</time> on weekdays" read "opens at on weekdays".

Code in a `<figure>` is the other case (`code_figures`): trafilatura drops every figure when it leaves
images out, and documentation generators frame their code blocks in one (Astro's Starlight and
Expressive Code, mdBook's listings in the Rust book). Such a figure becomes a `div` and its caption
(the file name, "Listing 4-1: ...") a paragraph.
"""

from __future__ import annotations

import re

from lxml import etree, html

from webferret.extract.writable import drop_tag

_HOLDERS = ("noscript", "button")
_BLOCKS = ("p", "h1", "h2", "h3", "article", "main", "table")
_WORD = re.compile(r"\w\w")  # a word, not a comma or a lone letter
MOSTLY = 0.5
"""Share of the body's text (characters) such an element must hold to be read as the page."""


def unwrap_holders(tree: html.HtmlElement) -> None:
    """Unwrap, in place, the outermost `<noscript>` or `<button>` that holds blocks and most of the
    page's text."""
    body = tree.find("body")
    if body is None:
        return
    candidates = [node for node in body.iter(*_HOLDERS) if next(node.iter(*_BLOCKS), None) is not None]
    if not candidates:
        return
    body_chars = _chars(body)
    for node in candidates:
        if any(a.tag in _HOLDERS for a in node.iterancestors()):
            continue  # the outer one decides
        if _chars(node) >= MOSTLY * body_chars:
            drop_tag(node)


def _chars(node: etree._Element) -> int:
    return sum(len(text.strip()) for text in node.itertext())


def code_figures(tree: html.HtmlElement) -> None:
    """Every `<figure>` holding a code block (`<pre>`) made a `div`, its `<figcaption>` a `p`, in place."""
    for figure in tree.iter("figure"):
        if figure.find(".//pre") is not None:
            figure.tag = "div"
            for caption in figure.iter("figcaption"):
                caption.tag = "p"


def times_in_sentences(tree: html.HtmlElement) -> None:
    """Unwrap, in place, every `<time>` with words before and after it in its element (not a line's
    date alone, "Posted <time>", which trafilatura rightly leaves out with the byline). Run after the
    page's dates are read from them (`timetags`)."""
    for node in list(tree.iter("time")):
        parent = node.getparent()
        if parent is None or not _WORD.search(node.tail or ""):
            continue
        previous = node.getprevious()
        before = parent.text if previous is None else (previous.tail or "") + "".join(previous.itertext())
        if _WORD.search(before or ""):
            drop_tag(node)
