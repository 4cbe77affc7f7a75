"""Start tags with thousands of attributes, cut to their first ones before libxml2 parses them.

libxml2's HTML parser (2.14, under lxml) checks each attribute of a start tag against every one
before it, so a tag's time grows with the square of its attributes: one tag of 60,000 short ones
(600 KB) took 75 s to parse, and a 10 MB page can hold a tag of a million (hours), on a thread or
worker nothing can stop early. No page needs more than a few dozen, so past `MOST_ATTRIBUTES` a
tag's attributes are dropped, as the parser drops a repeated one.

One pass of possessive patterns reads the markup: each tag's attributes are read once (a quoted
value is one token, so a `<` inside it starts no tag), and no position is tried twice.
"""

from __future__ import annotations

from typing import AnyStr

from webferret.extract.endtags import for_both, read_on

MOST_ATTRIBUTES = 256
"""Attributes a start tag keeps (libxml2 parses a tag of this many in about 0.2 ms)."""

_TAG = r"<[A-Za-z][^\s/><]*+"
_ATTRIBUTE = r"""[\s/]++[^\s/>=<]++(?:\s*+=\s*+(?:"[^"]*+"|'[^']*+'|[^\s>]++))?+"""
# text, a `<` that opens no tag, and tags of fewer attributes than the cap, as far as they go: the
# match ends at the first tag that holds more (or at the end)
_FEW = for_both(rf"(?:[^<]++|<(?![A-Za-z])|{_TAG}(?:{_ATTRIBUTE}){{0,{MOST_ATTRIBUTES}}}+(?!{_ATTRIBUTE}))*+")
_MANY = for_both(rf"({_TAG}(?:{_ATTRIBUTE}){{{MOST_ATTRIBUTES}}})(?:{_ATTRIBUTE})*+")


def few_attributes(page: AnyStr) -> AnyStr:
    """`page` (its text or bytes) with every start tag cut to its first `MOST_ATTRIBUTES` attributes;
    `page` itself when no tag holds more."""
    as_bytes = isinstance(page, bytes)
    few, many = _FEW[as_bytes], _MANY[as_bytes]
    parts: list[AnyStr] = []
    at = 0
    while (read := few.match(page, at)) is not None and read.end() < len(page):
        tag = many.match(page, read.end())
        assert tag is not None  # `few` stops only at a tag of more attributes than the cap
        parts += [page[at : tag.end(1)]]
        at = tag.end()
    if not parts:
        return page
    return page[:0].join([*parts, page[at:]])


def parseable(page: AnyStr) -> AnyStr:
    """`page` as libxml2 is given it: read on past an early end of the body (`endtags.read_on`), and
    no start tag holding more than `MOST_ATTRIBUTES` attributes."""
    return few_attributes(read_on(page))
