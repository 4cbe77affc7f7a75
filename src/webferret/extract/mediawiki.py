"""MediaWiki's pages: their editing chrome gone before anything reads them, their article read where
MediaWiki puts it.

Every MediaWiki site's desktop pages (Wikipedia's, the Arch and Gentoo wikis, a project's own wiki)
put an "[edit]" link after each section heading (`mw-editsection`), "Jump to navigation", "Jump to
search" links before the article (`mw-jump-link`), and before each reference the links back to where
it is cited ("^ a b", `mw-cite-backlink`). None of it is ever content, and the headings read
"## History[[edit](...)]" with them. On a page that MediaWiki made (its `<body class="mediawiki">`
or its generator tag) what its print view leaves out goes too: the navigation boxes and sidebars of
a topic's other articles (`navbox`, `vertical-navbox`, `sidebar`) and the table of contents (`toc`,
whose "Contents" heading stood alone). What the wiki marks `noprint` stays: the Arch wiki's notes
that an article needs expanding are marked so. (Wikipedia itself is fetched as its mobile-html,
which `extract.wikipedia` reads: this is for its desktop pages saved to a file, and for the other
wikis.)

Such a page says where its article is: MediaWiki renders every page's own text into
`#mw-content-text` (a category's list of pages too), and puts the site's chrome, the title, the
categories and the footer around it. `content` reads that element as the page's main content. A
wiki's lists of links (a list of languages, "See also") are its content, where a main-content
extractor takes a list of links for navigation. A reference's `<cite class="citation">` wraps the
whole citation, not a title: it reads as plain text, the work's title in it still in italics.
"""

from __future__ import annotations

from lxml import html

from webferret.extract import hints
from webferret.extract.blocks import holds_text
from webferret.extract.classes import has_class

HINT = hints.word("mw-")
"""In the HTML of every page with the chrome (`strip_chrome` is not run otherwise)."""
_CLASSES = ("mw-editsection", "mw-jump-link", "mw-cite-backlink")
_CHROME = " or ".join(has_class(name) for name in _CLASSES)
_PRINTED = ("navbox", "vertical-navbox", "sidebar", "toc")
_NOT_PRINTED = " or ".join(has_class(name) for name in _CLASSES + _PRINTED)


def has_chrome(text: str) -> bool:
    """Whether the HTML text `text` may hold the chrome (a cheap look before `strip_chrome`)."""
    return hints.holds(text, HINT)


def strip_chrome(tree: html.HtmlElement) -> None:
    """The edit, jump and citation back links of `tree` removed, in place (the text after each kept),
    and on a MediaWiki page what its print view leaves out."""
    for node in tree.xpath(f"//*[{_NOT_PRINTED if _made_by_mediawiki(tree) else _CHROME}]"):
        if node.getparent() is not None:
            node.drop_tree()


def content(tree: html.HtmlElement) -> html.HtmlElement | None:
    """The article of a page MediaWiki made (`#mw-content-text`); None on any other page, or when the
    element holds no text."""
    node = tree.get_element_by_id("mw-content-text", None)
    if node is None or not _made_by_mediawiki(tree) or not holds_text(node):
        return None
    plain_citations(node)
    return node


def plain_citations(node: html.HtmlElement) -> None:
    """Every `<cite class="citation">` under `node` made a plain span, in place: MediaWiki's citation
    templates wrap a whole reference in it (authors, title, journal), not a work's title."""
    for cite in node.xpath(f".//cite[{has_class('citation')}]"):
        cite.tag = "span"


def _made_by_mediawiki(tree: html.HtmlElement) -> bool:
    body = tree.find(".//body")
    if body is not None and "mediawiki" in (body.get("class") or "").split():
        return True
    return any(
        (meta.get("content") or "").startswith("MediaWiki")
        for meta in tree.iterfind(".//meta[@name='generator']")
    )
