"""Characters that show nothing inside a word, taken out once, right after parsing.

German and Dutch sites write their long words with soft hyphens (`Ver&shy;kehrs&shy;minister`), and
pages break long addresses and names with zero-width spaces: the browser shows one word, but the text
kept the invisible character in it, so a search of the page's text for "Verkehrsminister" found
nothing, and a word was counted or matched as two. (A zero-width joiner stays: it joins emoji.)
"""

from __future__ import annotations

from lxml import html

from webferret.extract import hints

_INVISIBLE = str.maketrans(dict.fromkeys("\u00ad\u200b\u2060\ufeff"))
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
        if node.text and isinstance(node.tag, str):
            node.text = node.text.translate(_INVISIBLE)
        if node.tail:
            node.tail = node.tail.translate(_INVISIBLE)
