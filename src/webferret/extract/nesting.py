"""Pages nested deeper than libxml2 goes, flattened so that the rest of the page is read.

libxml2 (2.14, under lxml, with `huge_tree`) stops a document at 2,048 open elements and drops
everything after that point without a word but an entry in the parser's error log. Broken
templates get there with a start tag never closed (`<div>` or `<font>` once per post of a
forum thread): the page's text was cut at its 2,045th paragraph. A browser reads on. So when the
parse stops there, the page is parsed again with every start tag past `KEPT_DEPTH` open elements
left out (a block's start as a line break, so its text stays a line of its own) together with its
end tag: nothing nests past that depth, and the text stays where it was.

The open elements are counted from the tags as written (one pass, each tag read once): an element
libxml2 closes by a sibling of its name (`<p>`, `<li>`, cells; not `<dd>`) is closed so, as is a paragraph
by a block's start, void elements never open, and an end tag closes back to the element it names
(one naming no open element is passed over). It is a count, not a parser: it
needs only be close enough to keep the depth under libxml2's limit.
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
_CLOSING_P = BLOCK_TAGS - {"body", "caption", "html", "tbody", "td", "tfoot", "th", "thead", "tr"}
"""Start tags that close an open `<p>` (a paragraph holds no block), as browsers and libxml2 do."""


def stopped_deep(parser: etree.HTMLParser) -> bool:
    """Whether `parser`'s last parse stopped at libxml2's depth limit (the rest of the page lost)."""
    return any(
        entry.type_name == "ERR_RESOURCE_LIMIT" and "depth" in entry.message for entry in parser.error_log
    )


def flattened(page: str) -> str:
    """`page` without the start tags (and their end tags) that would open an element deeper than
    `KEPT_DEPTH`; a block's start tag left out is a line break."""
    parts: list[str] = []
    at = 0
    open_names: list[str] = []
    open_count: Counter[str] = Counter()
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
            elif open_count[name]:
                _close(open_names, open_count, name)
            continue
        if name in _CLOSING_P and open_count["p"]:
            _close(open_names, open_count, "p")
        elif name in _SIBLING_CLOSED and open_names and open_names[-1] == name:
            open_count[open_names.pop()] -= 1
        if len(open_names) < KEPT_DEPTH or name in _ITEMS.get(open_names[-1], ()):
            open_names.append(name)
            open_count[name] += 1
            continue
        dropped[name] += 1
        parts += [page[at : tag.start()], "<br>" if name in BLOCK_TAGS else ""]
        at = tag.end()
    if not parts:
        return page
    return "".join([*parts, page[at:]])


def _close(open_names: list[str], open_count: Counter[str], name: str) -> None:
    """Close the innermost open `name` element (one is open) and every element opened inside it."""
    while open_names:
        top = open_names.pop()
        open_count[top] -= 1
        if top == name:
            return
