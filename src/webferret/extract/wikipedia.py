"""Wikipedia's REST mobile-html (PCS) pages: every section shown, lazy images real, references compact.

The page is already only the article, so it is its own main content: no selector runs on it.
"""

from __future__ import annotations

from lxml import html

from webferret.extract.classes import classes
from webferret.extract.mediawiki import plain_citations

_DROP = (
    "pcs-edit-section-link-container",
    "pcs-collapse-table-collapsed-container",
    "pcs-collapse-table-collapsed-bottom",
    "pcs-ref-backlink-container",
    "mw-empty-elt",
    "noprint",
)


def is_mobile_html(tree: html.HtmlElement) -> bool:
    """A PCS page: `<meta property="mw:htmlVersion">` and the `#pcs` wrapper."""
    has_meta = any(meta.get("property") == "mw:htmlVersion" for meta in tree.iter("meta"))
    return has_meta and tree.get_element_by_id("pcs", None) is not None


def prepare(tree: html.HtmlElement) -> html.HtmlElement:
    """The `#pcs` article, cleaned in place for rendering."""
    root = tree.get_element_by_id("pcs")
    for node in list(root.iter()):
        if not isinstance(node.tag, str):
            continue
        names = classes(node)
        if names & set(_DROP) or node.tag in ("script", "style"):
            node.drop_tree()
            continue
        _unhide(node, names)
        if "pcs-lazy-load-placeholder" in names:
            _placeholder_to_image(node)
        elif node.tag == "sup" and "mw-ref" in names:
            _compact_reference(node)
        elif "pcs-ref-item" in names:
            node.tag = "p"
    plain_citations(root)
    return root


def _unhide(node: html.HtmlElement, classes: set[str]) -> None:
    style = (node.get("style") or "").replace(" ", "")
    if "display:none" in style:
        del node.attrib["style"]
    if "pcs-section-hidden" in classes or node.get("hidden") is not None:
        node.attrib.pop("hidden", None)
        node.set("class", " ".join(classes - {"pcs-section-hidden"}))


def _placeholder_to_image(node: html.HtmlElement) -> None:
    src = node.get("data-src") or ""
    alt = node.get("data-alt") or ""
    node.attrib.clear()
    node.tag = "img"
    node.set("src", src)
    node.set("alt", alt)
    node.text = None


def _compact_reference(node: html.HtmlElement) -> None:
    """`<sup><a><span>[</span>2<span>]</span></a></sup>` -> the plain text `[2]`."""
    label = "".join(node.itertext()).strip()
    tail = node.tail
    node.clear()
    node.tag = "span"
    node.text = label
    node.tail = tail
