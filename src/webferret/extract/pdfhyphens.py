"""A word hyphenated at a line's end in a PDF: made whole, unless it is a compound that keeps its hyphen.

A typesetter breaks `information` as `infor-` + `mation`, and the hyphen is only the break's: the
word is made whole. But it also breaks a compound at its own hyphen (`self-` + `contained`), and
then the hyphen is the word's. Which one a break is, the document itself says: a compound is written
whole on one line somewhere else in it (`self-contained`), and a word made with `self` keeps its
hyphen in English.
"""

from __future__ import annotations

import re

_COMPOUND = re.compile(r"\w+(?:-\w+)+")
_BREAK = re.compile(r"(\S*\w)-\n(\w+)")
_LAST_WORD = re.compile(r"\w+$")
_ADDRESS = re.compile(r"://|^(?:www\.|\.{0,2}/|~/)|\.\w+/|/[^/]*/")
"""What a web address or a path holds (`https://`, `www.`, a leading `/`, `./`, `~/`, a `host.org/`,
two slashes: `tests/unit/test-`), which a word joined by a slash (`client/server`, `and/or`) does not."""
_HEADS = frozenset({"self"})
"""Words that open a hyphenated compound, not a word broken at a line's end."""


def compounds_of(texts: list[str]) -> frozenset[str]:
    """The hyphenated words these texts write whole on one line (casefolded): `self-contained`."""
    return frozenset(word.casefold() for text in texts for word in _COMPOUND.findall(text))


def keeps_hyphen(before: str, after: str, compounds: frozenset[str]) -> bool:
    """Whether `before-` at a line's end and `after` on the next line are one compound, hyphen kept;
    `before` is all the line's last word up to the hyphen, so that a web address or a path broken at
    a hyphen of its own (`.../overview-` + `with-routes.html`) keeps it: typesetters break an address
    at its own marks and add none; words a slash joins (`client/ser-` + `ver`) are words."""
    if _ADDRESS.search(before):
        return True
    found = _LAST_WORD.search(before)
    head = found.group().casefold() if found else ""
    return head in _HEADS or f"{head}-{after}".casefold() in compounds


def unbroken(text: str, compounds: frozenset[str]) -> str:
    """`text` (lines) with each word hyphenated at a line's end made whole, or a compound kept."""

    def whole(found: re.Match[str]) -> str:
        before, after = found.group(1), found.group(2)
        if not after[0].islower():  # `COVID-` + `19`, `Anglo-` + `Saxon`: not a broken word
            return found.group()
        return f"{before}-{after}" if keeps_hyphen(before, after, compounds) else before + after

    return _BREAK.sub(whole, text)
