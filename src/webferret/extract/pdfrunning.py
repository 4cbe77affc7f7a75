"""A PDF's running headers and footers: the lines that open or close page after page alike.

A report, a paper or a manual repeats its name, its chapter, a page number ("Page 3 of 12") or a
notice at the top or bottom of its pages. Read as text they are noise between each page's last
sentence and the next page's first. A page's first and last blocks (a paragraph of its Markdown,
not a heading) that are short and repeat on many pages, their numbers aside, are left out (page
numbers among them). Pages that hold nothing else (a sheet of tickets, a flyer printed page after page)
keep them: they are the document.
"""

from __future__ import annotations

import re
from collections import Counter

from webferret.extract.pdftitle import is_page_number

EDGE_BLOCKS = 2
"""The blocks at each end of a page where running headers and footers sit."""
MIN_PAGES = 3
SHARE = 0.4
"""A block repeats on at least this share of the pages (and on `MIN_PAGES`) to be a running one:
books alternate two headers, each on half the pages."""
MAX_WORDS = 16
_DIGITS = re.compile(r"\d+")


def without_running(markdowns: list[str]) -> list[str]:
    """Each page's Markdown without its running headers and footers (see the module)."""
    if len(markdowns) < 2:
        return markdowns
    pages = [markdown.split("\n\n") if markdown else [] for markdown in markdowns]
    counts: Counter[tuple[object, ...]] = Counter()
    for number, blocks in enumerate(pages):
        counts.update({mark for at in _edges(blocks) for mark in _marks(blocks, at, number)})
    needed = max(MIN_PAGES, SHARE * sum(1 for blocks in pages if blocks))
    running = {mark for mark, count in counts.items() if count >= needed}
    kept: list[str] = []
    for number, blocks in enumerate(pages):
        edges = _edges(blocks)
        kept.append(
            "\n\n".join(
                block
                for at, block in enumerate(blocks)
                if at not in edges or not running.intersection(_marks(blocks, at, number))
            )
        )
    return kept if any(kept) else markdowns  # pages all alike (tickets, a flyer): nothing else to read


def _edges(blocks: list[str]) -> set[int]:
    """Where the first and last `EDGE_BLOCKS` blocks of a page are."""
    return set(range(min(EDGE_BLOCKS, len(blocks)))) | set(
        range(max(0, len(blocks) - EDGE_BLOCKS), len(blocks))
    )


def _marks(blocks: list[str], at: int, page: int) -> set[tuple[object, ...]]:
    """What makes a page's block (the `at`th of page `page`, from 0) the same as other pages' running
    ones: its words, and either all of its text, or a number of it that is the page's number give or
    take the same offset on every page (`Page 3 of 12`, `Chapter 2: Setup 17`). A number that differs
    otherwise (`The weirs counted 300 fish`) is the page's own. A lone page number without digits
    (`xii`) opening or closing the page is like any other. Short blocks only, not headings."""
    block = blocks[at]
    if block.startswith("#") or len(block.split()) > MAX_WORDS:
        return set()
    text = " ".join(block.split()).casefold()
    if at in (0, len(blocks) - 1) and is_page_number(block) and not _DIGITS.search(block):
        return {("page number",)}
    words = _DIGITS.sub("0", text)
    numbers = [int(found) for found in _DIGITS.findall(block)]
    return {(text,)} | {(words, place, number - page) for place, number in enumerate(numbers)}
