"""Reading a search's first results in the same call (`search --read N`, `web_search(read=N)`).

A search verifies its results by fetching them, and keeps each in the store: their text is already
read. The first `n` results with a handle are answered as their first page (`open` page 1, at the
page size asked), each with the call that reads on, so an agent gets the answers' text without a
second round trip, and a long page never floods it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from webferret.models import ErrorCode, FerretError
from webferret.search.types import SearchResult

if TYPE_CHECKING:
    from webferret.ferret import Ferret
    from webferret.search.types import SearchOptions
    from webferret.store.types import OpenedPage


def check_read(
    read: int | None, verify: bool, page_tokens: int | None = None, size: str = "page_tokens"
) -> None:
    """Refuse (`invalid_argument`) a read the search cannot answer: pages read without verification
    (which is what reads them), or a page size (named as the caller's face names it, `size`) without
    pages to read."""
    if read and not verify:
        message = "read answers the pages the search's verification read: it cannot go without verify"
        raise FerretError(ErrorCode.INVALID_ARGUMENT, message)
    if page_tokens is not None and not read:
        raise FerretError(ErrorCode.INVALID_ARGUMENT, f"{size} is the size of read's pages: give read N")


async def search_and_read(
    ferret: Ferret,
    query: str,
    options: SearchOptions,
    read: int | None,
    page_tokens: int | None,
    answer_tokens: int | None = None,
) -> tuple[SearchResult, list[OpenedPage], dict[str, int]]:
    """The search, the first `read` results' first pages (none when no engine answered) and the page
    size each was read at when they share `answer_tokens` (an agent's answer: `shared_sizes`, for
    `mark_shares`; else empty): the CLI's `search --read` and the HTTP API's `/search?read=`."""
    check_read(read, options.verify, page_tokens)
    result = await ferret.search(query, options)
    if not (read and result.answered):
        return result, [], {}
    return result, *await read_shared(ferret, result, read, page_tokens, answer_tokens)


async def read_shared(
    ferret: Ferret, result: SearchResult, read: int, page_tokens: int | None, answer_tokens: int | None
) -> tuple[list[OpenedPage], dict[str, int]]:
    """The first `read` results' first pages at `page_tokens` (None: the `page_tokens` setting), each
    at its share when they share `answer_tokens` (None: no budget), and those shares (`shared_sizes`)."""
    size = page_tokens or ferret.settings.page_tokens
    sizes = shared_sizes(result, read, size, answer_tokens) if answer_tokens else {}
    return await read_results(ferret, result, read, page_tokens, sizes), sizes


def shared_sizes(result: SearchResult, n: int, page_tokens: int, answer_tokens: int) -> dict[str, int]:
    """Handle -> the page size each of the first `n` results with a handle is read at, when they
    share one answer's `answer_tokens` (`present.shares.page_shares`, by each result's `tokens`)."""
    from webferret.present.shares import page_shares

    hits = [hit for hit in result.results if hit.handle][:n]
    sizes = page_shares([hit.tokens or page_tokens for hit in hits], page_tokens, answer_tokens)
    return {str(hit.handle): size for hit, size in zip(hits, sizes, strict=True)}


def share_of(sizes: dict[str, int] | None, handle: str, page_tokens: int | None) -> int | None:
    """The page size `handle` is read at: its share in `sizes`; one read in place of a result whose
    page the store lost has none, and takes the smallest (`page_tokens` would take the answer past
    its budget); without shares, `page_tokens`."""
    if not sizes:
        return page_tokens
    return sizes.get(handle, min(sizes.values()))


def mark_shares(entries: list[dict[str, Any]], sizes: dict[str, int], page_tokens: int) -> None:
    """Each page read (`OpenedPage` as JSON) at its share of the answer (`sizes`), under
    `page_tokens`, says that size as `page_tokens`: the size its next page is read at."""
    for entry in entries:
        size = share_of(sizes, entry["handle"], page_tokens) or page_tokens
        if size < page_tokens and entry["pages"] > 1:
            entry["page_tokens"] = size


async def read_results(
    ferret: Ferret,
    result: SearchResult,
    n: int,
    page_tokens: int | None,
    sizes: dict[str, int] | None = None,
) -> list[OpenedPage]:
    """Page 1 of each of the first `n` results that have a handle (verified and stored), in rank order,
    at `page_tokens` (or the handle's own size in `sizes`: `shared_sizes`); a result whose page the
    store does not hold (its write failed) is left out, and the one read in its place takes the
    smallest share (`share_of`)."""
    pages: list[OpenedPage] = []
    for hit in result.results:
        if len(pages) == n:
            break
        if not hit.handle:
            continue
        try:
            pages.append(await ferret.open(hit.handle, 1, share_of(sizes, hit.handle, page_tokens)))
        except FerretError:
            continue
    return pages
