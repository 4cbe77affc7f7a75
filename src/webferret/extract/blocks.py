"""Cut an HTML page into text blocks: the units the main-content classifier keeps or drops.

A block is a block-level element together with the text of its inline content (nested block-level
elements are blocks of their own). Code blocks and data tables are atomic: all their text is one block.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache

import ahocorasick_rs
import lxml.html
from lxml import etree

from webferret.extract.starttags import parseable

DROP_TAGS = (
    "script", "style", "noscript", "template", "svg", "iframe", "head", "select", "option",
    "textarea", "input", "button", "object", "embed", "canvas", "map", "link", "meta",
)  # fmt: skip
BLOCK_TAGS = frozenset(
    (
        "address", "article", "aside", "blockquote", "body", "caption", "center", "dd", "details", "dialog",
        "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5",
        "h6", "header", "hgroup", "hr", "html", "li", "main", "menu", "nav", "ol", "p", "pre", "section",
        "summary", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul",
    )
)  # fmt: skip
HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
LAYOUT_INSIDE_TABLE = ("table", "div", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "section", "article")

# ancestor flags (bits)
F_NAV, F_HEADER, F_FOOTER, F_ASIDE, F_FORM, F_MAIN, F_ARTICLE = 1, 2, 4, 8, 16, 32, 64
F_LI, F_TABLE, F_HIDDEN, F_LINK, F_BOILER, F_CONTENT, F_COMMENT = 128, 256, 512, 1024, 2048, 4096, 8192
F_HEADING, F_SHOP = 16384, 32768
TAG_FLAGS = {
    "nav": F_NAV, "header": F_HEADER, "footer": F_FOOTER, "aside": F_ASIDE, "form": F_FORM,
    "main": F_MAIN, "article": F_ARTICLE, "li": F_LI, "table": F_TABLE, "a": F_LINK,
    "menu": F_NAV, "h1": F_HEADING, "h2": F_HEADING, "h3": F_HEADING, "h4": F_HEADING,
}  # fmt: skip
# the class, id and role names that flag an element (as substrings of its lower-cased names); a name of
# `WHOLE_WORDS` flags it only where its pattern matches (`ad` in "top ad" or "ads-slot", not in "header")
BOILER_NAMES = (
    "nav", "menu", "foot", "header", "sidebar", "side-bar", "breadcrumb", "share", "social", "related",
    "recommend", "promo", "banner", "cookie", "consent", "newsletter", "subscribe", "signup", "login",
    "widget", "advert", "sponsor", "popup", "modal", "toolbar", "pagination", "pager", "skip", "masthead",
    "copyright", "legal", "authorbio", "author-bio", "byline", "caption", "credit",
)  # fmt: skip
CONTENT_NAMES = (
    "content", "article", "main", "post", "entry", "body", "text", "story", "prose", "markdown",
    "description", "detail", "thread", "message", "answer", "question", "product", "listing", "results",
    "items", "documentation",
)  # fmt: skip
COMMENT_NAMES = ("comment", "reply", "replies", "discussion", "disqus", "respond")
SHOP_NAMES = (
    "price", "cart", "basket", "checkout", "shipping", "delivery", "stock", "rating", "review", "wishlist",
    "sku",
)  # fmt: skip
NAV_NAMES = ("navigation", "banner", "contentinfo")  # ARIA's landmark roles among them
WHOLE_WORDS = {
    "ad": (F_BOILER, re.compile(r"\bads?\b")),
    "tag": (F_BOILER, re.compile(r"tags?\b")),
    "doc": (F_CONTENT, re.compile(r"docs?\b")),
}
"""Names flagged only as words, each under the substring it needs: the flag, and the word's pattern."""
_NAMES = [
    (name, flag)
    for flag, names in (
        (F_BOILER, BOILER_NAMES),
        (F_CONTENT, CONTENT_NAMES),
        (F_COMMENT, COMMENT_NAMES),
        (F_SHOP, SHOP_NAMES),
        (F_NAV, NAV_NAMES),
    )
    for name in names
] + [(name, 0) for name in WHOLE_WORDS]
_NAME_FLAGS = [flag for _, flag in _NAMES]
_FIND_NAMES = ahocorasick_rs.AhoCorasick([name for name, _ in _NAMES])
HIDDEN_RE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden")


@dataclass(slots=True)
class Block:
    """One text block of a page, with what the walk learned about its place in the DOM."""

    element: lxml.html.HtmlElement
    atomic: bool
    depth: int
    flags: int
    parts: list[str] = field(default_factory=list)
    link_chars: int = 0
    n_links: int = 0
    signature: str = ""
    text: str = ""
    words: list[str] | None = None  # its lower-case words, read once (`features.block_words`)
    norm: str = ""  # its normalized text (`features.block_norm`), made once


def parse(html: str) -> lxml.html.HtmlElement | None:
    """Parse a page; None when there is no document to speak of."""
    html = html.strip()
    if not html:
        return None
    try:
        root = lxml.html.document_fromstring(
            parseable(html).encode("utf-8", "replace"), parser=_utf8_parser()
        )
    except (etree.ParserError, ValueError):
        return None
    return root


def _utf8_parser() -> lxml.html.HTMLParser:
    """A parser that reads UTF-8 whatever <meta charset> says (the text is already decoded).

    A new one per call: lxml parsers must not be shared between threads.
    """
    return lxml.html.HTMLParser(encoding="utf-8")


def clean(root: lxml.html.HtmlElement) -> None:
    """Remove what never is content: scripts, styles, forms controls, comments."""
    etree.strip_elements(root, *DROP_TAGS, with_tail=False)
    for node in list(root.iter(etree.Comment, etree.ProcessingInstruction)):
        parent = node.getparent()
        if parent is not None:
            drop_keep_tail(node, parent)


def drop_keep_tail(node: etree._Element, parent: etree._Element) -> None:
    """Remove `node` from `parent`, its tail text kept in place."""
    if node.tail:
        previous = node.getprevious()
        if previous is not None:
            previous.tail = (previous.tail or "") + node.tail
        else:
            parent.text = (parent.text or "") + node.tail
    parent.remove(node)


def holds_text(node: etree._Element) -> bool:
    """Whether `node` holds any text other than whitespace."""
    return any(part.strip() for part in node.itertext())


def outermost(nodes: list[etree._Element]) -> list[etree._Element]:
    """`nodes` without those inside another of them, in their order."""
    found = set(nodes)
    return [node for node in nodes if found.isdisjoint(node.iterancestors())]


def drop_outermost(nodes: list[etree._Element], keep: Callable[[etree._Element], bool] | None = None) -> int:
    """Remove each of `nodes` that no other of them holds (one inside another goes with it), and that
    `keep` does not keep, its tail text kept in place; how many went."""
    dropped = 0
    for node in outermost(nodes):
        parent = node.getparent()
        if parent is not None and (keep is None or not keep(node)):
            drop_keep_tail(node, parent)
            dropped += 1
    return dropped


def hidden(node: etree._Element) -> bool:
    """Whether the page hides the element itself: a `hidden` attribute, `aria-hidden="true"`,
    `display: none` or `visibility: hidden` in its style, or a class that means `display: none`
    (`hiding_class`). The walk's `F_HIDDEN` reads the attribute and style marks from the attributes
    it already holds; the block model was trained on those, so it leaves the classes out."""
    if node.get("hidden") is not None or node.get("aria-hidden") == "true":
        return True
    style = (node.get("style") or "").replace(" ", "").lower()
    if "display:none" in style or "visibility:hidden" in style:
        return True
    names = node.get("class")
    return names is not None and hiding_class(names)


HIDING_CLASSES = frozenset(("hide", "hidden", "d-none", "is-hidden", "u-hidden"))
"""Utility classes that CSS frameworks define as `display: none` (Bootstrap's `d-none`, `hidden`
and `hide`, Tailwind's `hidden`, Bulma's `is-hidden`, ...)."""
# a class that shows the element again at some screen width or state ("hidden md:block" in Tailwind,
# "d-none d-lg-flex" in Bootstrap): a page's desktop layout, or what a hover opens, is not hidden
_SHOWN_AGAIN = re.compile(
    r"(?:^|\s)(?:[\w-]+:|d-[a-z]+-)(?:block|flex|grid|inline|table|contents|flow-root|list-item)"
)


@lru_cache(maxsize=1024)
def hiding_class(names: str) -> bool:
    """Whether a `class` attribute hides its element in every layout: one of `HIDING_CLASSES`, and
    nothing that shows it again at some width or state."""
    names = names.lower()
    return not HIDING_CLASSES.isdisjoint(names.split()) and _SHOWN_AGAIN.search(names) is None


def _own_flags(attrib: dict[str, str], tag: str, cls: str) -> int:
    """The flags an element adds to its ancestors' (`attrib`: its attributes; `cls`: its class or "")."""
    flags = TAG_FLAGS.get(tag, 0)
    if tag in ("html", "body"):
        return flags
    attrs = f"{cls} {attrib.get('id', '')} {attrib.get('role', '')}"
    if len(attrs) > 2:
        flags |= _attribute_flags(attrs)
    style = attrib.get("style")
    if "hidden" in attrib or attrib.get("aria-hidden") == "true" or (style and HIDDEN_RE.search(style)):
        flags |= F_HIDDEN
    return flags


@lru_cache(maxsize=4096)
def _attribute_flags(attrs: str) -> int:
    """The flags that class, id and role names give (pages repeat them, hence the cache). One pass of an
    Aho-Corasick automaton finds every name (a tenth of the time of a regular expression a flag: an
    article page looks up about 130 new strings of names)."""
    attrs = attrs.lower()
    flags = 0
    words: list[str] = []
    for index, _, _ in _FIND_NAMES.find_matches_as_indexes(attrs, overlapping=True):
        flag = _NAME_FLAGS[index]
        if flag:
            flags |= flag
        else:
            words.append(_NAMES[index][0])
    for word in words:  # a whole word's flag, when no plain name gave it
        flag, pattern = WHOLE_WORDS[word]
        if not flags & flag and pattern.search(attrs):
            flags |= flag
    return flags


def _is_atomic(el: lxml.html.HtmlElement, tag: str) -> bool:
    if tag == "pre":
        return True
    if tag != "table":
        return False
    return not any(True for _ in el.iterdescendants(*LAYOUT_INSIDE_TABLE))


def segment(root: lxml.html.HtmlElement) -> list[Block]:
    """The page's text blocks in document order (blocks without any text are left out)."""
    blocks: list[Block] = []
    # the open elements: their block, depth, flags, whether inside a link, the last step of their
    # tag-path signature (their children's signatures start with it), and the element itself (so its
    # Python proxy lives until its "end" event, which then needs no new one)
    stack: list[tuple[Block, int, int, bool, str, lxml.html.HtmlElement]] = []
    body = root.find("body")
    first = (None, 0, 0, False, "", root)  # what the walk's first element opens under
    # elements only: comments and processing instructions, and their tails, are passed over
    for event, el in etree.iterwalk(body if body is not None else root, ("start", "end"), tag=etree.Element):
        if event == "end":
            stack.pop()
            tail = el.tail
            if tail and stack:  # the parent's text, inside a link when the parent is
                _add(stack[-1][0], tail, stack[-1][3])
            continue
        tag = el.tag.lower()
        parent = stack[-1] if stack else first
        parent_block, depth, flags, link, last = parent[0], parent[1] + 1, parent[2], parent[3], parent[4]
        inline = parent_block is not None and (parent_block.atomic or tag not in BLOCK_TAGS)
        if tag == "a":
            link = True
        if inline and not len(el):
            # a leaf in its parent's block: no block below it reads its flags or its signature
            stack.append((parent_block, depth, flags, link, last, el))
            block = parent_block
        else:
            items = el.items()
            if items:
                attrib = dict(items)
                cls = attrib.get("class", "")
                flags |= _own_flags(attrib, tag, cls)
            else:  # no attributes: only the tag's own flags
                cls = ""
                flags |= TAG_FLAGS.get(tag, 0)
            step = f"{tag}.{cls.partition(' ')[0]}"
            if inline:
                block = parent_block
            else:
                block = Block(el, _is_atomic(el, tag), depth, flags, signature=f"{last}/{step}")
                blocks.append(block)
            # what follows the signature's last "/" (a class name may hold one)
            stack.append((block, depth, flags, link, step.rpartition("/")[2], el))
        if tag == "a":
            block.n_links += 1
        elif tag == "br":
            block.parts.append("\n")
        text = el.text
        if text:
            _add(block, text, link)
    for block in blocks:
        # whitespace runs collapsed: " ".join(split()) is re.sub(r"\s+", " ", ...).strip(), and faster
        block.text = " ".join("".join(block.parts).split()) if not block.atomic else _atomic_text(block)
    return [block for block in blocks if block.text]


def _add(block: Block, text: str, in_link: bool) -> None:
    block.parts.append(text)
    if in_link:
        block.link_chars += len(text.strip())


def _atomic_text(block: Block) -> str:
    if block.element.tag == "pre":
        return "".join(block.parts).strip("\n")
    return " ".join(" ".join(block.parts).split())
