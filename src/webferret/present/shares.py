"""One agent answer's token budget shared among the pages it reads (`web_fetch` of several URLs,
`web_search(read=N)`, `fetch --agent`): each page answers at most `max_tokens`, and all of them
together at most the setting `answer_tokens`, so eight long pages do not make an answer larger than
an agent's client takes (Claude Code refuses a tool answer past 25,000 tokens by default).
"""

from __future__ import annotations

from collections.abc import Sequence

from webferret.limits import MIN_PAGE_TOKENS


def answer_budget(answer_tokens: int, asked: int | None) -> int:
    """The tokens the pages of one answer share: the setting `answer_tokens`, or the `max_tokens`
    the call asked for when that is more (`web_fetch(url, max_tokens=50000)` answers them)."""
    return max(answer_tokens, asked or 0)


def page_shares(sizes: Sequence[int], each: int, total: int) -> list[int]:
    """The page size (tokens) each of the pages of `sizes` (their whole lengths) is answered at:
    at most `each`, and together about `total` at most. A page shorter than its even share is
    answered whole and leaves what it does not use to the longer ones; no share is below
    `MIN_PAGE_TOKENS` (a page of a few words helps no one), which alone may take the sum past
    `total`, with very many pages."""
    shares = [each] * len(sizes)
    left = total
    order = sorted(range(len(sizes)), key=lambda index: sizes[index])
    for done, index in enumerate(order):
        even = left // (len(sizes) - done)
        shares[index] = min(each, max(MIN_PAGE_TOKENS, even))
        left -= min(sizes[index], shares[index])
    return shares
