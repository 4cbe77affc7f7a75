"""`--format html`: the chosen main content as clean HTML.

The main content element is serialized (trafilatura's own XML is first turned into HTML), then
cleaned: no scripts, styles, event handlers, frames, embedded objects or forms, only plain attributes
(links, images, table spans), and every link and image made absolute.
"""

from __future__ import annotations

from copy import deepcopy

from lxml import etree, html
from lxml_html_clean import Cleaner

from webferret.extract.selector import MainContent

KEPT_ATTRIBUTES = frozenset(("href", "src", "alt", "title", "colspan", "rowspan", "lang", "datetime", "cite"))
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

    return convert_to_html(element)[0]  # `<html><body>...`: the body


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


def clean_html(main: MainContent, base: str | None) -> str:
    """The main content as clean HTML, links absolute against `base` (the page's URL or `<base>`)."""
    element = _as_html(main)
    if isinstance(element.tag, str) and element.tag.lower() in ("body", "html"):
        element.tag = "div"
    fragment = html.fragment_fromstring(etree.tostring(element, encoding="unicode", method="html"))
    cleaned = _CLEANER.clean_html(fragment)
    _tidy(cleaned)
    if base:
        cleaned.make_links_absolute(base, resolve_base_href=False, handle_failures="discard")
    return html.tostring(cleaned, encoding="unicode").strip() + "\n"
