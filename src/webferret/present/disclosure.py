"""Progressive disclosure: a long page answers its first page, its handle and how to read on."""

from __future__ import annotations

from webferret.models import ErrorCode, FerretError, Page
from webferret.present.commands import command
from webferret.present.pages import counted
from webferret.present.paging import paginate
from webferret.store.types import OpenedPage
from webferret.tokens import estimate_tokens

OUTLINE_FROM_PAGES = 3  # a document this long is worth its outline: its first page says how to get it


def _open_command(handle: str, flag: str, page_tokens: int, default_page_tokens: int) -> str:
    """`webferret open HANDLE FLAG`, with `--page-tokens` when the page size is not the default."""
    sized = f" --page-tokens {page_tokens}" if page_tokens != default_page_tokens else ""
    return command(f"open {handle} {flag}{sized}")


def continue_command(handle: str, page: int, page_tokens: int, default_page_tokens: int) -> str:
    """The CLI command that reads page `page` of `handle` with the same page size."""
    return _open_command(handle, f"--page {page}", page_tokens, default_page_tokens)


def outline_command(handle: str, page_tokens: int, default_page_tokens: int) -> str:
    """The CLI command that lists `handle`'s headings with their pages at the same page size."""
    return _open_command(handle, "--outline", page_tokens, default_page_tokens)


def page_holding(content: str, offset: int, page_tokens: int) -> int:
    """The page (from 1) of `content` cut at `page_tokens` that holds character `offset`: where a
    reader of a body clipped at `offset` reads on (`open` pages the same text the same way)."""
    end = 0
    pieces = paginate(content, page_tokens)
    for number, piece in enumerate(pieces, start=1):
        end += len(piece)
        if offset < end:
            return number
    return len(pieces)


def open_document(page: Page, number: int, page_tokens: int, default_page_tokens: int) -> OpenedPage:
    """Page `number` (from 1) of a stored page's content; past the end is `not_found`."""
    handle = page.handle or ""
    pieces = paginate(page.content, page_tokens)
    if not 1 <= number <= len(pieces):
        raise FerretError(
            ErrorCode.NOT_FOUND,
            f"{handle} has {counted(len(pieces), 'page')} of {page_tokens} tokens; there is no page {number}",
        )
    text = pieces[number - 1]  # an exact slice: the pages joined are the document
    following = outline = None
    if number < len(pieces):
        following = continue_command(handle, number + 1, page_tokens, default_page_tokens)
    if number == 1 and len(pieces) >= OUTLINE_FROM_PAGES and _has_outline(page):
        outline = outline_command(handle, page_tokens, default_page_tokens)
    return OpenedPage(
        handle=handle,
        page=number,
        pages=len(pieces),
        content=text,
        title=page.title,
        url=page.final_url or page.url,
        tokens=estimate_tokens(text),
        next=following,
        outline=outline,
        format=page.format,
        fetched_at=page.fetched_at,
    )


def _has_outline(page: Page) -> bool:
    """Whether a document's outline lists more than its title: two headings or more."""
    from itertools import islice

    from webferret.present.outline import iter_headings

    return len(list(islice(iter_headings(page.content, page.format), 2))) == 2


def first_page(page: Page, max_tokens: int, default_page_tokens: int) -> Page:
    """`page` itself when it fits `max_tokens`; else its first page plus a line saying how to go on.

    The page must have a handle (it was stored). `meta["paging"]` tells a program the same.
    """
    if not page.ok or not page.handle or estimate_tokens(page.content) <= max_tokens:
        return page
    opened = open_document(page, 1, max_tokens, default_page_tokens)
    outline = f"; headings and their pages: {opened.outline}" if opened.outline else ""
    note = (
        f"[page 1 of {opened.pages} of {page.handle} ({page.tokens or estimate_tokens(page.content)} "
        f"tokens in all); continue with: {opened.next}{outline}]"
    )
    paging = {"handle": page.handle, "page": 1, "pages": opened.pages, "next": opened.next}
    return page.model_copy(
        update={"content": f"{opened.content}\n\n{note}", "meta": {**page.meta, "paging": paging}}
    )
