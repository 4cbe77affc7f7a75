"""Pages nested deeper than libxml2 goes, flattened so that the rest of the page is read.

libxml2 (2.14, under lxml, with `huge_tree`) stops a document at 2,048 open elements and drops
everything after that point without a word but an entry in the parser's error log. Broken
templates get there with a start tag never closed (`<div>` or `<font>` once per post of a
forum thread): the page's text was cut at its 2,045th paragraph. A browser reads on. So when the
parse stops there, the page is parsed again with every start tag past `KEPT_DEPTH` open elements
left out (a block's start as a line break, so its text stays a line of its own) together with its
end tag: nothing nests past that depth, and the text stays where it was.

The open elements are counted from the tags as written (each tag read once a pass): an element
libxml2 closes by a sibling of its name (`<p>`, `<li>`, cells; not `<dd>`) is closed so, as is a paragraph
by a block's start, void elements never open, and an end tag closes back to the element it names
(one naming no open element is passed over). It is a count, not a parser: it
needs only be close enough to keep the depth under libxml2's limit.

A page nested deeper than `READ_DEPTH` (yet short of the limit) is read flattened too, and flattening
first closes the elements of a chain: a post's container (`<div class="post">`, `<font>`) left open
once per post, so that each post opens inside the one before. Its like open `CHAINED` times at once
makes a chain, and each is closed where the next starts, as its writer meant: the posts are siblings,
as when closed, and the main-content choice reads them all (it took a third of a 600-post thread).
"""

from __future__ import annotations

import re
from collections import Counter

from lxml import etree

from webferret.extract.blocks import BLOCK_TAGS

KEPT_DEPTH = 200
"""Open elements a flattened page keeps (a real page rarely goes past 40): few enough for what reads
the tree after the parser, which recursion bounds (the Markdown and text renderers take two or three
Python frames a level, under the interpreter's 1,000; the HTML view's cleaning parses again with
libxml2's default limit of 256). At 512 the whole page (`--whole-page`, `--selector`), a thread of
unclosed `<font>` or nested lists failed as `unsupported_content` (RecursionError), and the HTML view
ended at post 251."""

# a tag: its name, and attributes read once (a quoted value is one token; a `<` ends an unclosed
# tag, so text of many `<a` without a `>` is read once, not once per `<`)
_TAG = re.compile(r"""<(/?)([A-Za-z][^\s/><]*+)(?:[^>"'<]++|"[^"]*+"|'[^']*+')*+>""")
_VOID = frozenset((
    "area", "base", "br", "col", "embed", "hr", "img", "input", "keygen", "link", "meta", "param", "source",
    "track", "wbr",
))  # fmt: skip
_SIBLING_CLOSED = frozenset(("p", "li", "option", "tr", "td", "th"))
"""Elements libxml2 closes at the start of another of their name (not `dt` and `dd`: it nests them)."""
_ITEMS = {
    "ul": ("li",), "ol": ("li",), "menu": ("li",), "dl": ("dt", "dd"), "select": ("option", "optgroup"),
    "table": ("tbody", "thead", "tfoot", "tr", "caption"), "tbody": ("tr",), "thead": ("tr",),
    "tfoot": ("tr",), "tr": ("td", "th"),
}  # fmt: skip
"""The items of an element that renders only its items (a list's text outside an `<li>` is read by no
view): past the depth, an item of the innermost open element is kept, at most three levels more
(table, tbody, tr, td), so the text that follows is in an item, not lost in a bare list or table."""
_CLASS = re.compile(r"""\sclass\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))""", re.IGNORECASE)
_CLOSING_P = BLOCK_TAGS - {"body", "caption", "html", "tbody", "td", "tfoot", "th", "thead", "tr"}
"""Start tags that close an open `<p>` (a paragraph holds no block), as browsers and libxml2 do."""


READ_DEPTH = 128
"""A parsed page nested deeper than this is read flattened too (no benchmark page passes 56): a thread
whose every post opens inside the one before is read as its posts (the main-content choice took a
third of a 600-post thread), and nothing renders deeper than Python's recursion goes."""
_PAST_READ_DEPTH = etree.XPath("/" + "/".join(["*"] * (READ_DEPTH + 1)))
"""An element nested past `READ_DEPTH`: libxml2 walks the tree level by level (0.3 ms a page)."""


def too_deep(tree: etree._Element) -> bool:
    """Whether `tree` nests an element deeper than `READ_DEPTH`."""
    return bool(_PAST_READ_DEPTH(tree))


def stopped_deep(parser: etree.HTMLParser) -> bool:
    """Whether `parser`'s last parse stopped at libxml2's depth limit (the rest of the page lost)."""
    return any(
        entry.type_name == "ERR_RESOURCE_LIMIT" and "depth" in entry.message for entry in parser.error_log
    )


CHAINED = 16
"""Elements of one name and class open inside each other this many times at a page's deepest point
are a chain: a post's container left unclosed, so that each post opens inside the one before."""


class _Open:
    """The elements open at a point of the page, counted from its tags as libxml2 nests them."""

    def __init__(self) -> None:
        self.names: list[str] = []
        self.signs: list[str] = []  # each one's name and class (`_sign`)
        self.named: Counter[str] = Counter()
        self.signed: Counter[str] = Counter()
        self.peak: Counter[str] = Counter()  # the most of each sign open at once

    def start(self, name: str) -> None:
        """What a start tag of `name` closes before it opens (a paragraph, a sibling of its name)."""
        if name in _CLOSING_P and self.named["p"]:
            self.close_to(name="p")
        elif name in _SIBLING_CLOSED and self.names and self.names[-1] == name:
            self._pop()

    def push(self, name: str, sign: str) -> None:
        self.names.append(name)
        self.signs.append(sign)
        self.named[name] += 1
        self.signed[sign] += 1
        self.peak[sign] = max(self.peak[sign], self.signed[sign])

    def _pop(self) -> str:
        name, sign = self.names.pop(), self.signs.pop()
        self.named[name] -= 1
        self.signed[sign] -= 1
        return name

    def close_to(self, *, name: str | None = None, sign: str | None = None) -> list[str]:
        """Close the innermost open element of that name (or sign), one is open, and every element
        opened inside it; their names, innermost first."""
        closed: list[str] = []
        while self.names:
            last = self.names[-1] == name or self.signs[-1] == sign
            closed.append(self._pop())
            if last:
                break
        return closed


def _sign(name: str, tag: str) -> str:
    """An element's name and class, as its start tag writes them (`div post`)."""
    found = _CLASS.search(tag)
    if found is None:
        return name
    return " ".join([name, *sorted((found.group(1) or found.group(2) or found.group(3) or "").split())])


def chains(page: str) -> frozenset[str]:
    """The signs (`_sign`) of the elements open inside their like at least `CHAINED` times at once."""
    opened = _Open()
    for tag in _TAG.finditer(page):
        closing, name = tag.group(1), tag.group(2).lower()
        if name in _VOID or tag.group().endswith("/>"):
            continue
        if closing:
            if opened.named[name]:
                opened.close_to(name=name)
            continue
        opened.start(name)
        opened.push(name, _sign(name, tag.group()))
    return frozenset(sign for sign, most in opened.peak.items() if most >= CHAINED)


def flattened(page: str) -> str:
    """`page` with each element of a chain (`chains`) closed where the next of its chain starts, as
    its writer meant, so the posts of a thread are siblings; and without the start tags (and their
    end tags) that would still open an element deeper than `KEPT_DEPTH` (a block's start tag left out
    is a line break)."""
    chained = chains(page)
    parts: list[str] = []
    at = 0
    opened = _Open()
    dropped: Counter[str] = Counter()
    for tag in _TAG.finditer(page):
        closing, name = tag.group(1), tag.group(2).lower()
        if name in _VOID or tag.group().endswith("/>"):
            continue
        if closing:
            if dropped[name]:  # the end of an element left out: left out too
                dropped[name] -= 1
                parts += [page[at : tag.start()]]
                at = tag.end()
            elif opened.named[name]:
                opened.close_to(name=name)
            continue
        opened.start(name)
        sign = _sign(name, tag.group()) if chained else name
        if sign in chained and opened.signed[sign]:  # the one before it left open: closed here
            ends = "".join(f"</{closed}>" for closed in opened.close_to(sign=sign))
            parts += [page[at : tag.start()], ends]
            at = tag.start()
        if len(opened.names) < KEPT_DEPTH or name in _ITEMS.get(opened.names[-1], ()):
            opened.push(name, sign)
            continue
        dropped[name] += 1
        parts += [page[at : tag.start()], "<br>" if name in BLOCK_TAGS else ""]
        at = tag.end()
    if not parts:
        return page
    return "".join([*parts, page[at:]])
