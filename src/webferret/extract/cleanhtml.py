"""`--format html`: the chosen main content as clean HTML.

The main content element is serialized (trafilatura's own XML is first turned into HTML), then
cleaned: no scripts, styles, event handlers, frames, embedded objects or forms, only plain attributes
(links, images, table spans), and every link and image made absolute. Each block element ends its
line and runs of whitespace outside `<pre>` are one space, so a reader paging the document (`open`)
can cut between blocks, never inside a tag.
"""

from __future__ import annotations

import re
from copy import deepcopy

from lxml import etree, html
from lxml_html_clean import Cleaner

from webferret.extract.links import LINK_SCHEMES, link_scheme
from webferret.extract.selector import MainContent
from webferret.extract.writable import writable

BLOCK_TAGS = frozenset((
    "address", "article", "aside", "blockquote", "dd", "details", "div", "dl", "dt", "figcaption", "figure",
    "footer", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li", "main", "nav", "ol", "p", "pre",
    "section", "summary", "table", "tbody", "tfoot", "thead", "tr", "ul",
))  # fmt: skip
_SPACES = re.compile(r"\s+")
KEPT_ATTRIBUTES = frozenset(
    ("href", "src", "alt", "title", "colspan", "rowspan", "lang", "datetime", "cite", "start")
)
_CLEANER = Cleaner(
    scripts=True,
    javascript=True,  # on* handlers and javascript: links
    comments=True,
    style=True,  # <style>, <link rel=stylesheet> and style="" attributes
    inline_style=True,
    links=True,
    meta=True,
    page_structure=False,
    processing_instructions=True,
    embedded=True,  # <object>, <embed>, <applet>
    frames=True,
    forms=True,
    annoying_tags=True,
    remove_unknown_tags=False,
    safe_attrs_only=True,
    safe_attrs=KEPT_ATTRIBUTES,
)


def _as_html(main: MainContent) -> etree._Element:
    """A copy of the main content element as HTML (trafilatura's XML converted)."""
    element = deepcopy(main.element)
    if main.source != "trafilatura":
        return element
    from trafilatura.htmlprocessing import convert_to_html

    inline = [code for code in element.iter("code") if _is_inline(code)]
    for code in inline:  # trafilatura makes every `code` a `pre`, which closes the paragraph around it
        code.tag = _INLINE_CODE
    kinds = _list_kinds(element)  # trafilatura makes every list a `ul` and every item an `li`
    body = convert_to_html(element)[0]  # `<html><body>...`: the body
    for code in body.iter(_INLINE_CODE):
        code.tag = "code"
    for node, tag, start in kinds:
        node.tag = tag
        if start is not None:  # an ordered list's first number, which the conversion drops
            node.set("start", start)
    return body


def _list_kinds(element: etree._Element) -> list[tuple[etree._Element, str, str | None]]:
    """The lists of trafilatura's tree that are not bulleted, with the HTML tag each is and the number
    an ordered one starts at (`<list rend="ol" start="3">`), and the items of its description lists
    with theirs (`<list rend="dl">` of `<item rend="dt-1">`, `"dd-1"`)."""
    kinds = [
        (node, rend, _start(node))
        for node in element.iter("list")
        if (rend := node.get("rend")) in ("ol", "dl")
    ]
    kinds += [
        (node, rend[:2], None)
        for node in element.iter("item")
        if (rend := node.get("rend") or "")[:3] in ("dt-", "dd-")
    ]
    return kinds


def _start(listing: etree._Element) -> str | None:
    start = (listing.get("start") or "").strip()
    return start if start.isdigit() and listing.get("rend") == "ol" else None


_INLINE_CODE = "webferret-inline-code"


def _is_inline(code: etree._Element) -> bool:
    """A `code` in trafilatura's tree that stands in running text (`Use the --fresh flag`), not a block."""
    parent = code.getparent()
    text = "".join(code.itertext())
    return (
        parent is not None
        and parent.tag in ("p", "item", "cell", "head", "quote", "hi", "ref")
        and "\n" not in text
    )


def _tidy(root: html.HtmlElement) -> None:
    """Links the cleaner emptied (`javascript:`) lose their `href`; trafilatura's code inside a
    `<pre>` (both become `pre`) is `<pre><code>` again."""
    for link in root.iter("a"):
        if not (link.get("href") or "").strip():
            link.attrib.pop("href", None)
    for node in root.iter("pre"):
        parent = node.getparent()
        if parent is not None and parent.tag == "pre":
            node.tag = "code"


def _one_block_a_line(root: html.HtmlElement) -> None:
    """Whitespace collapsed outside `<pre>`, each block element on lines of its own (what a browser
    shows is unchanged: HTML renders a run of whitespace between blocks as nothing)."""
    for node in root.iter():
        if (
            not isinstance(node.tag, str)
            or node.tag == "pre"
            or any(a.tag == "pre" for a in node.iterancestors())
        ):
            continue
        if node.text:  # (a page's control character, an escape: lxml writes no text that holds one)
            node.text = writable(_SPACES.sub(" ", node.text))
        for child in node:
            if child.tail:
                child.tail = writable(_SPACES.sub(" ", child.tail))
            if child.tag in BLOCK_TAGS:
                child.tail = "\n" + (child.tail or "").lstrip()
                if not (node.text or "").strip():
                    node.text = "\n"
                previous = child.getprevious()
                if previous is not None and not (previous.tail or "").strip():
                    previous.tail = "\n"


def clean_html(main: MainContent, base: str | None) -> str:
    """The main content as clean HTML, links absolute against `base` (the page's URL or `<base>`); a
    local file's links stay relative (made `file:` links, `_web_links_only` would drop them)."""
    element = _as_html(main)
    if isinstance(element.tag, str) and element.tag.lower() in ("body", "html"):
        element.tag = "div"
    fragment = html.fragment_fromstring(etree.tostring(element, encoding="unicode", method="html"))
    cleaned = _CLEANER.clean_html(fragment)
    _tidy(cleaned)
    _one_block_a_line(cleaned)
    if base and not base.lower().startswith("file:"):
        cleaned.make_links_absolute(base, resolve_base_href=False, handle_failures="discard")
    _web_links_only(cleaned)
    return html.tostring(cleaned, encoding="unicode").strip() + "\n"


def _web_links_only(root: html.HtmlElement) -> None:
    """A link or image to another scheme (`file:`, `data:`, `vbscript:`, `chrome:`) loses it: the
    cleaner drops only `javascript:`, and a reader's browser would open a local file. The scheme is
    read as a browser reads it (tabs and newlines removed): a relative link with a colon after its
    path (`#sec:intro`, `notes.html?q=kind:hob`) has none and stays."""
    for node in root.iter("a", "img"):
        name = "href" if node.tag == "a" else "src"
        scheme = link_scheme(node.get(name) or "")
        if scheme and scheme not in LINK_SCHEMES:
            node.attrib.pop(name)
