"""An inline quotation (`<q>`) read as the words and quotation marks a browser shows, once, right after
parsing, so all readers see the same.

"The minister said <q>no</q>" is shown "The minister said “no”": the marks come from the style, not
the text. The renderer read "said no", the quotation gone, and trafilatura makes a `<q>` a block
quote, which cut its paragraph there ("The minister said", the rest lost or moved). Each `<q>` is
replaced by its words between quotation marks; one inside another takes the single marks.
"""

from __future__ import annotations

from lxml import html

from webferret.extract import hints
from webferret.extract.writable import drop_tag, writable

_Q = hints.word("<q")
_MARKS = (("“", "”"), ("‘", "’"))  # an outer quotation's, an inner one's


def has_quotations(page: str) -> bool:
    return hints.holds(page, _Q)


def mark_quotations(tree: html.HtmlElement) -> None:
    """Replace, in place, each `<q>` by its words between quotation marks."""
    quotes = [(quote, sum(1 for _ in quote.iterancestors("q")) % 2) for quote in tree.iter("q")]
    for quote, inner in reversed(quotes):  # the inner ones first
        opening, closing = _MARKS[inner]
        quote.text = writable(opening + (quote.text or ""))
        if len(quote):
            last = quote[-1]
            last.tail = writable((last.tail or "") + closing)
        else:
            quote.text += closing
        drop_tag(quote)
