"""One session's use of the page store: writes that run on after an answer, and reads that wait
for exactly the writes they must see.

A search answers its pages before they are written (`keep_later`); a later read of one of those
pages in the same session (a fetch's look-up) waits for that write, not for the others, so the
next search is not held back by the last one's writes. The look-ups asked in one loop turn go to
the store together (`LookupBatch`). The same page read under two URLs (a redirect's start and its
end) is answered with one handle.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from webferret.models import FerretError, Page
from webferret.store.handles import handle_for, page_names, read_handle
from webferret.store.types import StoredPage
from webferret.store.variants import DOCUMENT, page_key, variant_handle

DOCUMENTS_REMEMBERED = 4096
"""Pages a session remembers the handle of (so the same page read again under another URL, a
redirect's start and its end, is answered with one handle); forgotten, it is still stored once."""


class SessionStore:
    """The store as one session uses it; `store()` gives the `PageStore` (opened on first use)."""

    def __init__(self, store: Callable[[], Any]) -> None:
        self._store = store
        self._work: set[asyncio.Future[Any]] = set()  # store writes and other work still under way
        self._writing: dict[str, set[asyncio.Future[Any]]] = {}  # the store writes under way, by handle
        self._lookups: Any = None  # the store look-ups of one loop turn, answered together
        self.documents: dict[str, str] = {}  # the handle each page got here, by its final URL's handle

    async def stored_copy(self, url: str, variant: str = DOCUMENT) -> StoredPage | None:
        """The stored page for `url`, read as `variant` asks (`variants`); a store that fails is a miss.

        It waits for a write of the same page still under way (`keep_later`): one at `url`, or, when
        the stored page is a redirect's, one at the URL it ended at; not for the others: a search's
        candidates are looked up while the pages of the search before it are written."""
        handle = handle_for(url)
        await self._pending({handle})
        try:
            stored = await self.lookup(url, variant)
            if stored is not None and await self._pending(page_names(stored.page, stored.handle) - {handle}):
                stored = await self.lookup(url, variant)  # the write it waited for
            return stored
        except sqlite3.Error:
            return None

    async def lookup(self, url: str, variant: str = DOCUMENT) -> StoredPage | None:
        """The store's `lookup`, gathered with the others asked in the same loop turn (`LookupBatch`)."""
        if self._lookups is None:
            from webferret.store.batching import LookupBatch

            self._lookups = LookupBatch(lambda asked: self._store().lookup_many(asked))
        found: StoredPage | None = await self._lookups.get((url, variant))
        return found

    async def _pending(self, handles: set[str]) -> bool:
        """Wait for the store writes under way under any of `handles`; answer whether there were."""
        waited = False
        while writes := {write for handle in handles for write in self._writing.get(handle, ())}:
            waited = True
            await asyncio.wait(writes)
        return waited

    async def keep(self, page: Page, headers: Mapping[str, str], exempt: bool, private: bool = False) -> Page:
        """Put a fetched page in the store; it comes back with its handle and token count.
        `exempt`, `private`: as `WebStore.put` has them."""
        if not page.ok:
            return page
        try:
            put = self._store().put
            write = asyncio.ensure_future(
                asyncio.to_thread(put, page, headers, exempt=exempt, private=private)
            )
            try:
                kept: Page = await asyncio.shield(write)
            except asyncio.CancelledError as stop:
                await _kept_anyway(write, stop)
                raise
        except sqlite3.Error as exc:
            return not_kept(page, f"the page store did not keep this page: {exc}")
        except FerretError as exc:  # the session was closed (aclose) while the page was read: said, not lost
            return not_kept(page, f"the page store did not keep this page: {exc.message}")
        if kept.handle is not None and page_key(kept) == DOCUMENT:  # a variant's handle is not its page's
            self.remember(read_handle(kept), kept.handle, replace=True)
        return kept

    def keep_later(self, page: Page, headers: Mapping[str, str], exempt: bool, private: bool = False) -> Page:
        """`keep` started, not awaited: the page is answered now with the handle and token count
        the store write gives it; a write that fails is logged. A page this session already gave a
        handle (the same page read under another URL: a redirect's start and its end) is answered
        with that handle, and the store keeps it under it (or under the one it already had: the
        other is its alias, so either opens it)."""
        if not page.ok:
            return page
        from webferret.tokens import content_tokens  # imported once pages arrive, not on a search's way out

        read_at = read_handle(page)  # a document is named where it was read (its redirects' end)
        handle = self.remember(read_at, read_at, replace=False)
        handle = variant_handle(handle, page_key(page))  # a variant is stored beside its document
        page = page.model_copy(update={"handle": handle, "tokens": content_tokens(page)})
        write = asyncio.create_task(self.keep(page, headers, exempt, private))
        self.track(write, _write_done)
        names = page_names(page, handle)
        for name in names:
            self._writing.setdefault(name, set()).add(write)
        write.add_done_callback(lambda done: self._written_one(names, done))
        return page

    def remember(self, name: str, handle: str, *, replace: bool) -> str:
        """The handle of the page read at `name` in this session: `handle` if none (or `replace`).
        At most `DOCUMENTS_REMEMBERED` are kept (a resident server's session is long), oldest out."""
        known = self.documents.get(name)
        if known is not None and not replace:
            return known
        if known is None and len(self.documents) >= DOCUMENTS_REMEMBERED:
            del self.documents[next(iter(self.documents))]
        self.documents[name] = handle
        return handle

    def _written_one(self, names: set[str], write: asyncio.Future[Any]) -> None:
        for name in names:
            writes = self._writing.get(name, set())
            writes.discard(write)
            if not writes:
                self._writing.pop(name, None)

    def finish_later(self, tasks: Sequence[asyncio.Task[Any]]) -> None:
        """Let cancelled `tasks` wind down after the call that cancelled them has answered; they
        are awaited by `written`, so none is left behind."""
        if any(not task.done() for task in tasks):
            self.track(asyncio.gather(*tasks, return_exceptions=True))

    def track(self, work: asyncio.Future[Any], done: Callable[[Any], None] | None = None) -> None:
        self._work.add(work)
        work.add_done_callback(self._work.discard)
        if done is not None:
            work.add_done_callback(done)

    async def written(self) -> None:
        """Wait for the store writes (`keep_later`) and other work (`finish_later`) still under way."""
        while self._work:
            await asyncio.wait(set(self._work))


def _write_done(write: asyncio.Task[Page]) -> None:
    """A store write started by `keep_later` is over: log it when it failed."""
    failed: str | None
    if write.cancelled():
        failed = "a page's store write was cancelled"
    elif write.exception() is not None:
        failed = f"a page's store write failed: {write.exception()!r}"
    else:
        failed = write.result().meta.get("store_error")
    if failed:
        logging.getLogger("webferret").warning("%s", failed)


KEPT_WAIT = 0.5
"""How long a cancelled call waits for a store write already in its thread (it takes milliseconds)."""


async def _kept_anyway(write: asyncio.Future[Page], stop: asyncio.CancelledError) -> None:
    """A call was cancelled (Ctrl-C) while its page was being written: the write goes on in its
    thread, so the page is stored. Wait for it (`KEPT_WAIT` at most) and hang the stored page on the
    cancellation (`stop.kept`), so the caller can still count the page as finished and show it."""
    try:
        stop.kept = await asyncio.wait_for(asyncio.shield(write), KEPT_WAIT)  # type: ignore[attr-defined]
    except (Exception, asyncio.CancelledError):  # not written in time, or cancelled again: not said
        return


def not_kept(page: Page, why: str) -> Page:
    """`page` answered without the store: `meta.store_error` says `why`, its tokens counted here."""
    from webferret.tokens import content_tokens

    return page.model_copy(update={"tokens": content_tokens(page), "meta": {**page.meta, "store_error": why}})
