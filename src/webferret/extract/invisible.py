"""Characters that show nothing inside a word, taken out once, right after parsing.

German and Dutch sites write their long words with soft hyphens (`Ver&shy;kehrs&shy;minister`), and
pages break long addresses and names with zero-width spaces: the browser shows one word, but the text
kept the invisible character in it, so a search of the page's text for "Verkehrsminister" found
nothing, and a word was counted or matched as two. (A zero-width joiner stays: it joins emoji.)
"""

from __future__ import annotations

from lxml import html

from webferret.extract import hints

# (and the control characters libxml2 reads in a page but lxml refuses to write back: a code block's
# vertical tab made the whole extraction fail)
_CONTROL = "".join(map(chr, [*range(9), 11, 12, *range(14, 32)]))
_UNWRITABLE = str.maketrans(dict.fromkeys(_CONTROL))
_INVISIBLE = str.maketrans(dict.fromkeys("\u00ad\u200b\u2060\ufeff" + _CONTROL))
_SPELLINGS = (
    "\u00ad", "\u200b", "\u2060", "\ufeff", "&shy;", "&#173;", "&#xad;", "&#xAD;", "&#8203;", "&#x200b;",
    "&#x200B;", "&ZeroWidthSpace;", "&NoBreak;", "&#8288;",
)  # fmt: skip
_WORDS = tuple(hints.word(spelling) for spelling in _SPELLINGS)


def has_invisible(page: str) -> bool:
    return hints.holds_any(page, _WORDS)


def drop_invisible(tree: html.HtmlElement) -> None:
    """Take, in place, every soft hyphen, zero-width space, word joiner and byte-order mark out of the
    text of `tree`."""
    for node in tree.iter():
        if node.text and isinstance(node.tag, str) and (text := node.text.translate(_INVISIBLE)) != node.text:
            node.text = text
        if node.tail and (tail := node.tail.translate(_INVISIBLE)) != node.tail:
            node.tail = tail


def writable(text: str) -> str:
    """`text` as lxml takes it back: without the control characters a page's text may hold."""
    return text.translate(_UNWRITABLE)
