"""The page store: every page webferret reads, by handle, in SQLite (see `schema` for the settings).

One `PageStore` wraps one connection, shared by threads under a lock; several processes may open
the same file at once. Every write is one `BEGIN IMMEDIATE` transaction, retried while another
process holds the write lock, so "database is locked" reaches the caller only after the busy
timeout, as an `UnusableStore` naming the file (as every other failure of the file does).
"""

from __future__ import annotations

import re
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NamedTuple, TypeVar
from urllib.parse import urlsplit

from pydantic import ValidationError

from webferret.models import Page
from webferret.sidecar import immediate
from webferret.store import compaction, schema
from webferret.store.changes import change_since, iso
from webferret.store.documents import document_of, ended_at, forget_unstored, target
from webferret.store.freshness import CLOCK_SLACK
from webferret.store.handles import content_hash, handle_for, spellings, with_schemes
from webferret.store.listing import indexed_handles, newest_documents, site_filter
from webferret.store.passages import (
    DamagedIndex,
    Hit,
    PassageIndex,
    chunks_for,
    damaged_index,
    page_ends,
    page_of,
)
from webferret.store.schema import connect, fts5_available, is_locked, retry_locked
from webferret.store.types import ListedPage, Passage, StoredPage, StoredPages, StoreStats
from webferret.store.variants import DOCUMENT, needs_split, page_key, split_old_variants, variant_handle
from webferret.tokens import content_tokens

T = TypeVar("T")
Row = tuple[Any, ...]
STORE_FILE = "store.sqlite3"
HURRIED_BUSY_S = 0.1
"""How long (seconds) a write waits for another process's lock just after a write gave up on it (`_write`)."""
DUPLICATE_ROOM = 3
"""`find` reads this many times `n` hits, so passages repeated under another URL can be left out."""
PAGING_REVISION = 3
"""Raised when `present.paging` cuts pages otherwise: passages numbered by an older cut are counted
again when found (`paged_stamp`). 1: a page ends after a heading only where nothing else fits.
2: a line is cut between characters as a reader sees them, and inside a tag only when it is larger
than a page. 3: nor inside a Markdown link or code span; an HTML reading's `<h1>`-`<h6>` are headings."""
MOST_HITS_READ = 20_000
"""The most hits one `find` reads to find `n` distinct passages among copies."""
_CUT_SHORT = re.compile(r"^[^\s/~]+~[0-9a-fA-F]{1,11}$")
"""A handle cut short: its site and the first of its 12 hex digits."""
_HASH_ALONE = re.compile(r"^(?:[^\s/~]*~)?([0-9a-fA-F]{12})$")
"""A handle's hash without its site, or with another site than the one it has (a 12-hex hash names
one URL: a site dropped or mistyped does not make it another page's)."""
_IN_SITE = r"[^\s/~`'\"<>()\[\]{},;]"
"""A character a handle's site may hold, as it stands in text (no space, mark or bracket)."""
_WITHIN = re.compile(rf"(?<!{_IN_SITE}){_IN_SITE}*~[0-9a-fA-F]{{12}}(?![0-9a-fA-F])")
"""A whole handle inside other text: copied with the marks around it (`` `site~hash12` ``, `site~hash12.`):
a run of site characters, tried from its start only (from each of its characters, a long text was
read once per character), its site from its first letter or digit on (`_handle_within`)."""
_SITE_FROM = re.compile(r"[^\W_]")
_NOT_IN_JSON = {"content", "handle", "tokens", "duplicate_of", "fetched_via", "fetched_at"}
_COLUMNS = (
    "id, handle, page_json, content, content_hash, fetched_at, etag, last_modified, tokens, exempt, private, "
    "document"
)
_OPENED = "ORDER BY variant = '' DESC, fetched_at DESC, id DESC LIMIT 1"
"""Of a document's rows, the one its handle opens: the newest default read, else the newest variant."""


def paged_stamp(page_tokens: int) -> int:
    """What `paged_at` holds for passages numbered at `page_tokens` by this `PAGING_REVISION`."""
    return page_tokens + (PAGING_REVISION << 32)


def header(headers: Mapping[str, str], name: str) -> str | None:
    """A response header by name, whatever its case."""
    wanted = name.lower()
    for key, value in headers.items():
        if key.lower() == wanted:
            return value
    return None


class PageStore:
    """Pages by handle, their versions, freshness data and passages."""

    def __init__(self, path: Path, *, page_tokens: int = 4000, fts: bool | None = None) -> None:
        self.path = path
        self.page_tokens = page_tokens
        self.index = PassageIndex(fts5_available() if fts is None else fts and fts5_available())
        self._conn = connect(path)  # writes, one transaction at a time
        self._lock = threading.Lock()
        # reads have their own connection: in WAL mode a read does not wait for a write under way
        # (a search's look-ups ran behind the last search's store writes, fsync and all)
        try:
            self._reader = connect(path)
        except BaseException:
            self._conn.close()
            raise
        self._read_lock = threading.Lock()
        self._gave_up: float | None = None  # when a write last gave up waiting for another process's lock
        try:
            if self._read(self.index.needs_setup):
                self._write(self.index.ensure)
            if self._read(needs_split):  # a store made before variants had handles of their own
                self._write(lambda conn: split_old_variants(conn, self._index_document))
        except BaseException:  # a damaged file: each call of a long-lived session tries again, so
            self.close()  # no connection (and its three files) is left open by one that failed
            raise

    @classmethod
    def in_home(cls, home: Path, *, page_tokens: int = 4000, fts: bool | None = None) -> PageStore:
        """The store of a webferret home directory (`WEBFERRET_HOME`)."""
        return cls(Path(home) / STORE_FILE, page_tokens=page_tokens, fts=fts)

    def close(self) -> None:
        with self._lock, self._read_lock:
            self._conn.close()
            self._reader.close()

    # -- transactions ---------------------------------------------------------------------------
    def _write(self, action: Callable[[sqlite3.Connection], T]) -> T:
        def transaction(action: Callable[[sqlite3.Connection], T]) -> T:
            with immediate(self._conn):
                return action(self._conn)

        def attempt() -> T:
            try:
                return transaction(action)
            except sqlite3.DatabaseError as exc:
                if not damaged_index(exc):
                    raise
            transaction(self.index.rebuild)  # the passage index, from the passages: then once more
            return transaction(action)

        with self._lock:
            if self._gave_up is None or time.monotonic() - self._gave_up > schema.BUSY_TIMEOUT_S:
                return schema.named_failure(self.path, lambda: self._waited(retry_locked, attempt))
            # a write just waited out the busy timeout: the writes queued behind it try once, briefly,
            # so N pages are not N busy timeouts (a call's close waited for each)
            return schema.named_failure(self.path, lambda: self._waited(self._hurried, attempt))

    def _waited(self, run: Callable[[Callable[[], T]], T], attempt: Callable[[], T]) -> T:
        """`run(attempt)`, remembering when it gave up on another process's lock."""
        try:
            result = run(attempt)
        except sqlite3.OperationalError as exc:
            if is_locked(exc):
                self._gave_up = time.monotonic()
            raise
        self._gave_up = None
        return result

    def _hurried(self, attempt: Callable[[], T]) -> T:
        schema.wait_for_locks(self._conn, HURRIED_BUSY_S)
        try:
            return attempt()
        except sqlite3.OperationalError as exc:
            if not is_locked(exc):
                raise
            raise sqlite3.OperationalError(
                f"database is locked: another process holds the page store (a write waited "
                f"{schema.BUSY_TIMEOUT_S:g} s for it just before)"
            ) from None
        finally:
            schema.wait_for_locks(self._conn)

    def _read(self, action: Callable[[sqlite3.Connection], T]) -> T:
        """`action` on the reader's connection, in one read transaction: its statements see one
        snapshot of the store, so a write (a prune, another process's page) that commits between
        two of them does not leave the second looking for a row the first found."""

        def attempt() -> T:
            self._reader.execute("BEGIN")
            try:
                return action(self._reader)
            finally:
                if self._reader.in_transaction:
                    self._reader.execute("COMMIT")

        with self._read_lock:
            return schema.named_failure(self.path, lambda: retry_locked(attempt))

    # -- pages ----------------------------------------------------------------------------------
    def put(
        self,
        page: Page,
        headers: Mapping[str, str] | None = None,
        *,
        exempt: bool = False,
        private: bool = False,
    ) -> Page:
        """Store `page` (idempotent on canonical URL + content hash); answer it with handle and tokens.

        `exempt`: the page was fetched under an SSRF exemption; `private`: with a caller's own
        headers (see `freshness.usable`).
        """
        return self.put_many([(page, headers or {})], exempt=exempt, private=private)[0]

    def put_many(
        self,
        items: Sequence[tuple[Page, Mapping[str, str]]],
        *,
        exempt: bool = False,
        private: bool = False,
        over_stored: bool = True,
    ) -> list[Page]:
        """Store several pages with their response headers in one transaction. A page another URL
        of it already stored (a redirect's start and its end) joins that document (see `documents`);
        a page that carries a handle (an answer named it before its write) keeps it if it is new.
        A reading of a URL whose text is stored already replaces that reading's metadata (a fetch's
        is the newer), unless `over_stored` is false (an import: the stored reading, its links and
        the fetches it answers, is kept as it is)."""
        prepared = [self._prepare(page, headers, exempt, private) for page, headers in items]

        def write(conn: sqlite3.Connection) -> list[tuple[str, dict[str, Any]]]:
            return [
                self._write_row(conn, row, chunks, page.handle, over_stored)
                for (page, _), (row, chunks) in zip(items, prepared, strict=True)
            ]

        written = self._write(write)
        return [
            page.model_copy(
                update={
                    "handle": handle,
                    "tokens": row[9],
                    "fetched_at": _when(row[4]),
                    "meta": {**page.meta, "change": change},
                }
            )
            for (page, _), (row, _), (handle, change) in zip(items, prepared, written, strict=True)
        ]

    def _prepare(
        self, page: Page, headers: Mapping[str, str], exempt: bool, private: bool
    ) -> tuple[Row, list[tuple[int, str]]]:
        fetched = page.fetched_at or datetime.now(UTC)
        row = (
            page.url, page.final_url, page.canonical_url,
            content_hash(page.content), fetched.timestamp(), header(headers, "etag"),
            header(headers, "last-modified"), page.title, page.format, content_tokens(page),
            page.model_dump_json(exclude=_NOT_IN_JSON), page.content, int(exempt), int(private),
            page_key(page),
        )  # fmt: skip
        return row, chunks_for(page.content, self.page_tokens)

    def _write_row(
        self,
        conn: sqlite3.Connection,
        row: Row,
        chunks: list[tuple[int, str]],
        named: str | None = None,
        over_stored: bool = True,
    ) -> tuple[str, dict[str, Any]]:
        """Write one prepared page under the handle of the document it is (a variant: under its own,
        beside that document's, see `variants`); answer that handle and how the page compares with
        the reading stored before it (`change_since`)."""
        key = row[-1]
        document, key_url = document_of(conn, row[0], row[1], None if key else named)
        handle = (named or variant_handle(document, key)) if key else document
        if key:
            key_url = f"{key_url}\n{key}"  # a variant's text is a version of the variant only
        _date_back(conn, key_url, row[4])
        change = change_since(conn, key_url, row[3])
        kept = (key_url, row[3])
        if not over_stored and (stored := conn.execute(_SAME_READING, kept).fetchone()) is not None:
            return stored[0], change  # kept as it is
        page_id = conn.execute(
            "INSERT INTO pages (handle, document, key_url, url, final_url, canonical_url, content_hash, "
            "fetched_at, etag, last_modified, title, format, tokens, page_json, content, exempt, "
            "private, variant) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (key_url, content_hash) DO UPDATE SET handle = excluded.handle, "
            "document = excluded.document, url = excluded.url, "
            "final_url = excluded.final_url, canonical_url = excluded.canonical_url, "
            "fetched_at = excluded.fetched_at, etag = excluded.etag, "
            "last_modified = excluded.last_modified, title = excluded.title, "
            "page_json = excluded.page_json, content = excluded.content, exempt = excluded.exempt, "
            "private = excluded.private "
            "RETURNING id",
            (handle, document, key_url, *row),
        ).fetchone()[0]
        self._index_document(conn, document, (page_id, chunks))
        return handle, change

    def _index_document(
        self, conn: sqlite3.Connection, document: str, ready: tuple[int, list[tuple[int, str]]] | None = None
    ) -> None:
        """Give `document` the passages of the row its handle opens (`_OPENED`), and no other row
        any; `ready`: a row's chunks already cut (a page being written). A sitemap has none: its
        lines are URLs (a map or crawl reads them), and as passages they would crowd `find`."""
        opened = (  # the row chosen first: the others' JSON is not read (one may be damaged)
            "SELECT id, content, json_extract(page_json, '$.meta.extract.sitemap') "
            f"FROM pages WHERE id = (SELECT id FROM pages WHERE document = ? {_OPENED})"
        )
        row = conn.execute(opened, (document,)).fetchone()
        if row is None:
            return
        page_id, content, sitemap = row
        self.index.remove(
            conn, "document = ? AND id != ?", (document, page_id) if not sitemap else (document, -1)
        )
        if sitemap:
            return
        if conn.execute("SELECT 1 FROM chunks WHERE page_id = ? LIMIT 1", (page_id,)).fetchone():
            return
        chunks = ready[1] if ready and ready[0] == page_id else chunks_for(content, self.page_tokens)
        self.index.add(conn, page_id, chunks)
        conn.execute("UPDATE pages SET paged_at = ? WHERE id = ?", (paged_stamp(self.page_tokens), page_id))

    def get(self, handle: str) -> StoredPage | None:
        """The newest stored version of `handle` (a document's: its newest default read, else its
        newest variant), or None."""

        def read(conn: sqlite3.Connection) -> Row | None:
            exact = f"SELECT {_COLUMNS} FROM pages WHERE handle = ? ORDER BY fetched_at DESC, id DESC LIMIT 1"
            opened = f"SELECT {_COLUMNS} FROM pages WHERE document = ? {_OPENED}"
            row: Row | None = conn.execute(exact, (handle,)).fetchone()
            return row or conn.execute(opened, (handle,)).fetchone()

        return self._reading(read, handle)

    def holds(self, handle: str) -> bool:
        """Does the store hold a version of `handle` (or of the page at a URL)? No page is read."""
        query, key = "SELECT 1 FROM pages WHERE handle = ?1 OR document = ?1 LIMIT 1", self.resolve(handle)
        return self._read(lambda conn: conn.execute(query, (key,)).fetchone()) is not None

    def completions(self, prefix: str, most: int = 3) -> list[str]:
        """The stored documents whose handle starts with `prefix` (a handle cut short: `site~2a82c9`),
        at most `most`, for a `not_found` to name; or those of its hash given alone or under another
        site (`2a82c9d1e0f4`, `wikipedia.org~2a82c9d1e0f4`); or the stored document of a whole handle
        copied with marks around it (`` `site~hash12` ``, `site~hash12.`), or of a URL written without
        its scheme (`example.org/guide`); none for anything else. In any
        case, as a whole handle is read (`BÜCHER.example~D406`: SQL's LIKE folds the case of ASCII
        letters only)."""
        if alone := _HASH_ALONE.match(prefix):
            pattern = f"%~{alone[1].lower()}"
        elif _CUT_SHORT.match(prefix):
            pattern = prefix.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        else:
            within = _handle_within(prefix)
            named = within.lower() if within and within != prefix else None
            if named and self.holds(named):
                return [self.resolve(named)]
            held = (self.resolve(url) for url in with_schemes(prefix) if self.holds(url))
            return list(dict.fromkeys(held))[:most]
        query = (
            "SELECT DISTINCT document FROM pages WHERE document LIKE ? ESCAPE '\\' ORDER BY document LIMIT ?"
        )
        return [
            str(row[0]) for row in self._read(lambda conn: conn.execute(query, (pattern, most)).fetchall())
        ]

    def resolve(self, name: str) -> str:
        """The handle a reader's call names (`open`, `find`): a handle, or a URL's handle, as the
        document it names (itself, or the one it joined: see `documents`); else, for a URL, the
        newest page a redirect ended at it (`final_url`); a URL on an international host in either
        spelling of its name (`handles.spellings`)."""
        if "://" not in name:
            return self._read(lambda conn: target(conn, name) or name)

        def read(conn: sqlite3.Connection) -> str | None:
            found = (target(conn, handle_for(url)) or ended_at(conn, url) for url in spellings(name))
            return next(filter(None, found), None)

        return self._read(read) or handle_for(name)

    def named(self, name: str) -> StoredPage | None:
        """The newest stored version of the page a handle or URL names (see `resolve`)."""
        return self.get(self.resolve(name))

    def lookup(self, url: str, variant: str = DOCUMENT) -> StoredPage | None:
        """The newest stored version of the page at `url` (any spelling of its canonical URL), else of
        the page a redirect ended at `url` (one document, one handle: see `resolve`), read as
        `variant` asks (`variants.key_of`; by default, the document itself)."""
        document = self.resolve(url)
        return self._reading(
            lambda conn: conn.execute(
                f"SELECT {_COLUMNS} FROM pages WHERE document = ? AND variant = ? "
                "ORDER BY fetched_at DESC, id DESC LIMIT 1",
                (document, variant),
            ).fetchone(),
            document,
        )

    def previous(self, stored: StoredPage) -> StoredPage | None:
        """The reading of `stored`'s URL (and way of reading it) stored before it, or None."""
        return self._reading(
            lambda conn: conn.execute(
                f"SELECT {_COLUMNS} FROM pages WHERE key_url = (SELECT key_url FROM pages WHERE id = ?1) "
                "AND id != ?1 AND fetched_at <= ?2 ORDER BY fetched_at DESC, id DESC LIMIT 1",
                (stored.id, stored.fetched_at),
            ).fetchone(),
            stored.handle,
        )

    def _reading(self, read: Callable[[sqlite3.Connection], Row | None], name: str) -> StoredPage | None:
        """The stored reading of `name` (a handle) whose row `read` answers, or None. A row whose
        text SQLite cannot give as UTF-8 (its bytes damaged on disk) is a damaged reading of that
        page, as one whose JSON does not parse: not a store to move away with every other page."""

        def guarded(conn: sqlite3.Connection) -> Row | None:
            try:
                return read(conn)
            except sqlite3.OperationalError as exc:
                if not str(exc).startswith("Could not decode to UTF-8"):
                    raise
                raise _damaged(self.path, name, "its text is not UTF-8") from None

        row = self._read(guarded)
        return _stored(row, self.path) if row else None

    def lookup_many(self, asked: Sequence[tuple[str, str]]) -> list[StoredPage | None]:
        """`lookup` for each (URL, variant) of `asked`, in order (one thread's trip for a search's
        candidates); a damaged reading is None (read anew), not the failure of the others'."""
        return [self._lookup_undamaged(url, variant) for url, variant in asked]

    def _lookup_undamaged(self, url: str, variant: str) -> StoredPage | None:
        try:
            return self.lookup(url, variant)
        except schema.DamagedReading:
            return None

    def revalidated(self, stored: StoredPage, headers: Mapping[str, str] | None = None) -> Page:
        """Record that the server confirmed `stored` is current (a 304); answer its refreshed page.
        A reading removed since it was looked up (a prune or clear in between: a prune removes the
        stale readings a 304 confirms) is written again, so the page answered is in the store."""
        now = time.time()
        etag = header(headers or {}, "etag")
        modified = header(headers or {}, "last-modified")
        refreshed = stored.page.model_copy(update={"fetched_at": _when(now)})

        def write(conn: sqlite3.Connection) -> None:
            updated = conn.execute(
                "UPDATE pages SET fetched_at = ?, etag = coalesce(?, etag), "
                "last_modified = coalesce(?, last_modified) WHERE id = ?",
                (now, etag, modified, stored.id),
            ).rowcount
            if not updated:
                validators = {"etag": etag or stored.etag, "last-modified": modified or stored.last_modified}
                kept = {name: value for name, value in validators.items() if value is not None}
                row, chunks = self._prepare(refreshed, kept, stored.exempt, stored.private)
                self._write_row(conn, row, chunks, stored.handle)

        self._write(write)
        change = {"status": "same", "previous_fetched_at": iso(stored.fetched_at)}  # the server said so
        return refreshed.model_copy(update={"meta": {**stored.page.meta, "change": change}})

    # -- passages -------------------------------------------------------------------------------
    def find(
        self, query: str, handles: Sequence[str] | None = None, n: int = 5, site: str | None = None
    ) -> list[Passage]:
        """The best passages for `query` across stored pages (or the given handles, or URLs; or the
        pages of `site`, a host with its subdomains): of each document, the text its handle opens (a
        variant's handle searches its document)."""
        if handles is not None:
            handles = [self._searched(h) for h in handles]
        if site is not None:
            of_site = self._read(lambda conn: indexed_handles(conn, site))
            kept = set(of_site)  # once, not per handle
            handles = of_site if handles is None else [h for h in handles if h in kept]
            if not handles:
                return []
        if self._read(self.index.needs_rebuild):
            self._write(self.index.ensure)
        kept = self._distinct_hits(query, handles, n)
        pages = self._read(lambda conn: self._pages_at(conn, kept))
        return [
            Passage(handle=h.handle, url=h.url, title=h.title, page=page, text=h.text, score=h.score)
            for h, page in zip(kept, pages, strict=True)
        ]

    def _distinct_hits(self, query: str, handles: Sequence[str] | None, n: int) -> list[Hit]:
        """The `n` best hits for `query` of distinct texts. A document stored under two URLs (a
        redirect's start and its end) has each passage twice, and a crawl can store one text under
        dozens (`?s=1`...`?s=32`): the best-ranked copy of a text is answered once, from `DUPLICATE_ROOM`
        times `n` hits, then more while copies fill them (at most `MOST_HITS_READ`)."""
        limit = n * DUPLICATE_ROOM
        while True:
            hits = self._indexed(query, handles, limit)
            seen: set[str] = set()
            kept: list[Hit] = []
            for h in hits:
                if h.text not in seen and len(kept) < n:
                    seen.add(h.text)
                    kept.append(h)
            if len(kept) == n or len(hits) < limit or limit >= MOST_HITS_READ:
                return kept
            limit = min(limit * 4, MOST_HITS_READ)

    def _indexed(self, query: str, handles: Sequence[str] | None, most: int) -> list[Hit]:
        """The `most` best hits of the passage index; an index found damaged is rebuilt from the
        passages and asked again (once: a store damaged past its index says so)."""
        try:
            return self._read(lambda conn: self.index.search(conn, query, handles, most))
        except DamagedIndex:
            self._write(self.index.rebuild)
        try:
            return self._read(lambda conn: self.index.search(conn, query, handles, most))
        except DamagedIndex as exc:
            raise schema.unusable(self.path, sqlite3.DatabaseError(str(exc))) from None

    def _pages_at(self, conn: sqlite3.Connection, hits: Sequence[Hit]) -> list[int]:
        """The page of each hit at this store's `page_tokens`, what `open` shows: a passage's page was
        counted at the `page_tokens` of the process that wrote it (`paged_at`), maybe another."""
        ends: dict[int, tuple[str, list[int]]] = {}
        numbers = []
        for h in hits:
            row = conn.execute(
                "SELECT p.id, p.tokens, p.paged_at FROM chunks c JOIN pages p ON p.id = c.page_id "
                "WHERE c.id = ?",
                (h.chunk_id,),
            ).fetchone()
            if row is None or row[2] == paged_stamp(self.page_tokens):
                numbers.append(h.page_no)
                continue
            page_id, tokens, _ = row
            if tokens <= self.page_tokens:
                numbers.append(1)
                continue
            if page_id not in ends:
                content = conn.execute("SELECT content FROM pages WHERE id = ?", (page_id,)).fetchone()[0]
                ends[page_id] = (content, page_ends(content, self.page_tokens))
            content, page_offsets = ends[page_id]
            numbers.append(page_of(content, h.text, page_offsets) or h.page_no)
        return numbers

    def _searched(self, name: str) -> str:
        """The handle whose passages stand for the document `name` names (see `_index_document`)."""
        named = self.named(name)
        opened = self.get(named.document) if named is not None and named.document else named
        return opened.handle if opened is not None else self.resolve(name)

    # -- housekeeping ---------------------------------------------------------------------------
    def stats(self) -> StoreStats:
        def read(conn: sqlite3.Connection) -> StoreStats:
            handles, versions, oldest, newest = conn.execute(
                "SELECT count(DISTINCT document), count(*), min(fetched_at), max(fetched_at) FROM pages"
            ).fetchone()
            passages = conn.execute("SELECT count(*) FROM chunks").fetchone()[0]
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            size = sum(_file_size(self.path.with_name(self.path.name + end)) for end in _STORE_FILES)
            return StoreStats(
                path=str(self.path), schema_version=version, search=self.index.mode,
                pages=handles, versions=versions, passages=passages, bytes=size,
                oldest=iso(oldest), newest=iso(newest),
            )  # fmt: skip

        return self._read(read)

    def exempt_documents(self) -> dict[str, set[str]]:
        """The documents holding a reading fetched under an SSRF exemption (`--allow-host`,
        `--allow-private-hosts`), each by handle (its own and its rows') with the hosts it was read
        from: few in a store, so one query answers a face that must not show them."""

        def read(conn: sqlite3.Connection) -> dict[str, set[str]]:
            rows = conn.execute(
                "SELECT handle, document, url, final_url FROM pages WHERE exempt = 1"
            ).fetchall()
            found: dict[str, set[str]] = {}
            for handle, document, url, final_url in rows:
                hosts = {host for link in (url, final_url) if link and (host := urlsplit(link).hostname)}
                for name in {handle, document} - {None}:
                    found.setdefault(name, set()).update(hosts)
            return found

        return self._read(read)

    def listed(self, site: str | None = None, n: int = 20) -> StoredPages:
        """The `n` documents fetched last (of `site`, a host with its subdomains), newest first."""

        def read(conn: sqlite3.Connection) -> StoredPages:
            total, newest = newest_documents(conn, site, n=n)
            pages = []
            for document, versions in newest:
                handle, url, final_url, title, tokens, fmt, fetched_at = conn.execute(
                    "SELECT handle, url, final_url, CAST(title AS BLOB), tokens, format, fetched_at "
                    f"FROM pages WHERE document = ? {_OPENED}",
                    (document,),
                ).fetchone()
                pages.append(
                    ListedPage(
                        handle=handle,
                        url=final_url or url,
                        title=schema.read_text(title),
                        tokens=tokens,
                        format=fmt,
                        fetched_at=_when(fetched_at),
                        versions=versions,
                    )
                )
            return StoredPages(site=site, total=total, pages=pages)

        return self._read(read)

    def readings(
        self, site: str | None = None, since_s: float | None = None, damaged: list[str] | None = None
    ) -> Iterator[StoredPage]:
        """The reading each document's handle opens (of `site`; read in the last `since_s` seconds),
        fetched last first, one at a time: a store of any size is exported without holding it all.
        `damaged`: a reading that cannot be read is said there and passed over (else it raises
        `DamagedReading`), so one damaged row does not end an export of the others."""
        since = time.time() - since_s if since_s is not None else None
        _, documents = self._read(lambda conn: newest_documents(conn, site, since))
        for document, _ in documents:
            try:
                stored = self.get(document)
            except schema.DamagedReading as exc:
                if damaged is None:
                    raise
                damaged.append(exc.message)
                continue
            if stored is not None:  # pruned since the list was read
                yield stored

    def prune(self, older_than_s: float, site: str | None = None) -> tuple[int, int]:
        """Remove every version fetched more than `older_than_s` seconds ago (of `site`'s documents
        only, with one: `listing.site_filter`); answer how many versions, and how many documents lost
        their last one."""
        old = _older_than(older_than_s, site)
        where, args = old.where, old.args

        def write(conn: sqlite3.Connection) -> tuple[int, int]:
            documents = _documents(conn)
            indexed = conn.execute(  # a document whose searched text goes: its variant left is searched
                f"SELECT DISTINCT document FROM pages p WHERE {where} "
                "AND EXISTS (SELECT 1 FROM chunks c WHERE c.page_id = p.id)",
                args,
            ).fetchall()
            self.index.remove(conn, where, args)
            removed = conn.execute(f"DELETE FROM pages WHERE {where}", args).rowcount
            for (document,) in indexed:
                self._index_document(conn, document)
            forget_unstored(conn)
            return removed, documents - _documents(conn)

        return self._write(write)

    def prunable(self, older_than_s: float, site: str | None = None) -> tuple[int, int]:
        """What `prune(older_than_s, site)` would remove now (versions, and documents left with
        none), removing nothing."""
        old = _older_than(older_than_s, site)

        def read(conn: sqlite3.Connection) -> tuple[int, int]:
            versions = conn.execute(f"SELECT count(*) FROM pages WHERE {old.where}", old.args).fetchone()[0]
            documents = conn.execute(
                f"SELECT count(*) FROM (SELECT 1 FROM pages WHERE {old.chosen} GROUP BY document "
                "HAVING max(fetched_at) < ?)",
                (*old.chosen_args, old.cutoff),
            ).fetchone()[0]
            return int(versions), int(documents)

        return self._read(read)

    def compact(self) -> str | None:
        """Give the space of removed pages back to the file system (the passage index merged, so
        the words of removed passages leave it, then VACUUM and the WAL emptied): SQLite otherwise
        keeps a file's free pages for its own reuse. Answer None, or why the space stays in the file
        (too little free disk to write the store again: see `compaction`)."""

        def vacuum() -> str | None:
            compaction.checkpoint(self._conn)  # the WAL's frames are no room VACUUM can use
            if short := compaction.short_of_room(self._conn, self.path):
                return short
            self._conn.execute("VACUUM")
            self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            return None

        try:  # the WAL emptied first: a write that fills the disk leaves it no committed frame to keep
            with self._lock:
                compaction.checkpoint(self._conn)
            self._write(self.index.optimize)  # before VACUUM, which then writes the merged index only
            with self._lock:
                short = schema.named_failure(self.path, lambda: retry_locked(vacuum))
        except schema.UnusableStore as exc:
            if not compaction.disk_full(exc):
                raise
            short = compaction.not_compacted("the disk filled up")
        if short is not None:
            with self._lock:
                compaction.checkpoint(self._conn)
        return short

    def clear(self) -> tuple[int, int]:
        """Remove every page; answer how many versions and documents were removed."""

        def write(conn: sqlite3.Connection) -> tuple[int, int]:
            documents = _documents(conn)
            self.index.clear(conn)
            removed = conn.execute("DELETE FROM pages").rowcount
            forget_unstored(conn)
            return removed, documents

        return self._write(write)


def _handle_within(text: str) -> str | None:
    """The first whole handle inside `text` (see `_WITHIN`), or None."""
    for found in _WITHIN.finditer(text):
        site = found[0][: -len("~0123456789ab")]
        if first := _SITE_FROM.search(site):
            return found[0][first.start() :]
    return None


_SAME_READING = "SELECT handle FROM pages WHERE key_url = ? AND content_hash = ?"
"""The stored reading of a URL (and way of reading it) with a text's hash, if any."""


def _date_back(conn: sqlite3.Connection, key_url: str, stamp: float) -> None:
    """Date the readings of `key_url` stored ahead of the clock (by a clock since set back) just
    before the reading stamped `stamp` being written: it is the newest the store knows to be, and a
    reading dated ahead would stay opened, listed first and unpruned until the clock caught up."""
    now = time.time()
    conn.execute(
        "UPDATE pages SET fetched_at = ? WHERE key_url = ? AND fetched_at > ?",
        (min(now, stamp) - 0.001, key_url, now + CLOCK_SLACK),
    )


_STORE_FILES = ("", "-wal", "-shm", "-journal")
"""The files SQLite keeps a store in: the store's name with these ends (a copy beside it, such as
`store.sqlite3.bak`, is none of them)."""


def _file_size(path: Path) -> int:
    """The size of `path` in bytes; 0 when there is none (or it went between the listing and now)."""
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return 0


def _documents(conn: sqlite3.Connection) -> int:
    """How many documents the store holds (each with one or more versions)."""
    return int(conn.execute("SELECT count(DISTINCT document) FROM pages").fetchone()[0])


def _when(stamp: float) -> datetime:
    return datetime.fromtimestamp(stamp, UTC)


def _damaged(path: Path, handle: str, why: str) -> schema.DamagedReading:
    return schema.DamagedReading(
        f"the page store at {path} holds a damaged reading of {handle} ({why}): fetch its URL again "
        "to replace it"
    )


def _stored(row: Row, path: Path) -> StoredPage:
    """The stored reading `row` holds (of the store at `path`). One whose page JSON cannot be read
    (damaged, or written by hand) is `UnusableStore`, naming it: a fetch reads its URL anew (and
    the reading it stores replaces it), a reading command says which page and why."""
    page_id, handle, page_json, content, digest, fetched_at, etag, modified, tokens, exempt, private, doc = (
        row
    )
    try:
        read = Page.model_validate_json(page_json)
    except ValidationError as exc:
        raise _damaged(path, handle, exc.errors()[0]["msg"]) from None
    page = read.model_copy(
        update={
            "content": content,
            "handle": handle,
            "tokens": tokens,
            "fetched_at": _when(fetched_at),
        }
    )
    return StoredPage(
        page_id, handle, page, digest, fetched_at, etag, modified, bool(exempt), bool(private), doc
    )


class _Older(NamedTuple):
    """The versions fetched before `cutoff`, of the documents `chosen` keeps (`listing.site_filter`,
    with its arguments `chosen_args`)."""

    cutoff: float
    chosen: str
    chosen_args: tuple[str, ...]

    @property
    def where(self) -> str:
        return f"fetched_at < ? AND {self.chosen}"

    @property
    def args(self) -> tuple[object, ...]:
        return (self.cutoff, *self.chosen_args)


def _older_than(seconds: float, site: str | None) -> _Older:
    """The versions fetched more than `seconds` ago, of `site`'s documents only when one is given."""
    return _Older(time.time() - seconds, *site_filter(site))
