"""Which stored document a page is: one page read under several URLs is one document, one handle.

A page is stored under the handle of the document its final URL (where a redirect ended) already
belongs to, if that document was last read there (not a page that URL only redirected to), else of
the one stored under the URL asked itself (a page that moved), else under a new one: the handle an
answer already named for it (a search answers before its writes), else the final URL's own handle.
A redirect that ended at one page and now ends at another is not that other page's version of the
first: the first keeps its text, the redirect's handle moves to the new one.
Every other handle the page was reached by becomes an alias of that one (table `aliases`), so a
redirect's start and its end, read at once or one after the other, are one row, one set of passages,
and each URL's handle (as an answer may already have named it) still opens the page.
"""

from __future__ import annotations

import sqlite3

from webferret.store.handles import canonical_url, handle_for


def target(conn: sqlite3.Connection, handle: str) -> str | None:
    """The stored document `handle` names: the one it is an alias of, else itself if stored."""
    row = conn.execute("SELECT target FROM aliases WHERE handle = ?", (handle,)).fetchone()
    if row is not None:
        return str(row[0])
    if conn.execute("SELECT 1 FROM pages WHERE handle = ? LIMIT 1", (handle,)).fetchone():
        return handle
    return None


def _read_itself(conn: sqlite3.Connection, handle: str) -> str | None:
    """The document `handle` names when its newest reading was read at that URL itself (a page that
    moved: its new address joins it); None when it was read where a redirect from there ended, so a
    redirect that now ends at another page (`/latest` to the next release) leaves that one as it was."""
    document = target(conn, handle)
    if document is None:
        return None
    row = conn.execute(
        "SELECT url, final_url FROM pages WHERE document = ? ORDER BY fetched_at DESC, id DESC LIMIT 1",
        (document,),
    ).fetchone()
    return document if row is None or handle_for(row[1] or row[0]) == handle else None


def ended_at(conn: sqlite3.Connection, url: str) -> str | None:
    """The document of the newest page a redirect ended at `url` (pages stored before aliases were)."""
    row = conn.execute(
        "SELECT document FROM pages WHERE final_url = ? ORDER BY fetched_at DESC, id DESC LIMIT 1", (url,)
    ).fetchone()
    return str(row[0]) if row else None


def document_of(
    conn: sqlite3.Connection, url: str, final_url: str | None, named: str | None = None
) -> tuple[str, str]:
    """(handle, key URL) a page read at `url`, ending at `final_url`, is written under (`named`:
    the handle an answer gave it), with its aliases recorded. The key URL is the document's, so the
    same text read under another of its URLs updates the stored version instead of adding a copy.
    Run inside the write transaction."""
    asked, ended = handle_for(url), handle_for(final_url or url)
    known = (
        _read_itself(conn, ended)
        or _read_itself(conn, asked)
        or (ended_at(conn, final_url) if final_url else None)
    )
    handle = known or named or ended
    # a handle a page is kept under names it: no longer the page it once redirected to (`/a`, sent to
    # `/maintenance` for a while, answering itself again is `/a`'s page, not a version of that one)
    conn.execute("DELETE FROM aliases WHERE handle = ?", (handle,))
    for other in dict.fromkeys((ended, named)):  # an alias they had already names this document
        if other and other != handle:
            conn.execute("INSERT OR IGNORE INTO aliases (handle, target) VALUES (?, ?)", (other, handle))
    if asked not in (ended, named, handle):  # a redirect that now ends at another page moves to it
        conn.execute("INSERT OR REPLACE INTO aliases (handle, target) VALUES (?, ?)", (asked, handle))
    row = conn.execute(
        "SELECT key_url FROM pages WHERE handle = ? ORDER BY fetched_at DESC, id DESC LIMIT 1", (handle,)
    ).fetchone()  # a default read's (a variant's key URL is its document's plus its key)
    return handle, str(row[0]) if row else canonical_url(final_url or url)  # a new one's: where it was read


def forget_unstored(conn: sqlite3.Connection) -> None:
    """Drop the aliases of documents no longer stored (after a prune or a clear)."""
    conn.execute("DELETE FROM aliases WHERE target NOT IN (SELECT document FROM pages)")
