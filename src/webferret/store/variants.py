"""Variants: a page read another way than by default (`--format html|text`, `--selector`, `--exclude`,
`--whole-page`, after browser `--action`s, or rendered as a phone with `--mobile`) is kept beside the
document, under a handle of its own.

The document (Markdown of the main content) is what a page's handle opens and what `find` searches;
a variant is opened by the handle its read answered, so paging through it never lands in another
reading, and a later default read is answered from the store even after a variant was read. A
document never read by default opens as its newest variant (and `find` searches that one).
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Callable
from typing import Any

from webferret.models import Page

DOCUMENT = ""
"""The variant key of a default read."""


def key_of(fmt: str, scope: Any, actions: Any = None, mobile: bool = False) -> str:
    """The variant key of a read in format `fmt` with `scope` (`ExtractOptions.scope()`) after the
    browser did `actions` (`FetchOptions.actions`), rendered as a phone or not (`mobile`): empty for
    the default read, else a small JSON text naming them (the actions and `mobile` only when there
    were some: older keys stay as they were)."""
    if fmt == "markdown" and scope is None and not actions and not mobile:
        return DOCUMENT
    named: dict[str, Any] = {"format": fmt, "scope": scope} | ({"actions": list(actions)} if actions else {})
    return json.dumps(named | ({"mobile": True} if mobile else {}), sort_keys=True, separators=(",", ":"))


def scope_of(page: Page) -> object:
    """The scope (`--selector`, `--exclude`, `--whole-page`) `page` was extracted with, or None."""
    extract = page.meta.get("extract")
    return extract.get("scope") if isinstance(extract, dict) else None


def page_key(page: Page) -> str:
    """The variant key of the read that gave `page` (`meta.actions`: the steps done before it;
    `meta.mobile`: rendered as a phone)."""
    return key_of(page.format, scope_of(page), page.meta.get("actions"), bool(page.meta.get("mobile")))


def variant_handle(document: str, key: str) -> str:
    """The handle of variant `key` of the document `document` (itself for the default read): the
    document's site, and 12 hex digits of a hash of both."""
    if key == DOCUMENT:
        return document
    site = document.split("~", 1)[0]
    digest = hashlib.sha256((document + "\n" + key).encode("utf-8")).hexdigest()[:12]
    return f"{site}~{digest}"


SPLIT_FLAG = "variants_split"
"""The `meta` key a store made before schema 6 has as '0' until `split_old_variants` ran."""


def needs_split(conn: sqlite3.Connection) -> bool:
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (SPLIT_FLAG,)).fetchone()
    return bool(row and row[0] == "0")


def split_old_variants(conn: sqlite3.Connection, reindex: Callable[[sqlite3.Connection, str], None]) -> None:
    """Give the variants a store kept as versions of their document (before schema 6) their own
    handles, and index each document's text again (`reindex`). Run once, in a write transaction."""
    rows = conn.execute(
        "SELECT id, handle, key_url, format, page_json FROM pages WHERE variant = '' AND "
        "(format != 'markdown' OR json_extract(page_json, '$.meta.extract.scope') IS NOT NULL)"
    ).fetchall()
    documents = set()
    for page_id, handle, key_url, fmt, page_json in rows:
        key = key_of(fmt, json.loads(page_json).get("meta", {}).get("extract", {}).get("scope"))
        if key == DOCUMENT:
            continue
        conn.execute(
            "UPDATE pages SET handle = ?, variant = ?, key_url = ? WHERE id = ?",
            (variant_handle(handle, key), key, f"{key_url}\n{key}", page_id),
        )
        documents.add(handle)
    for document in sorted(documents):
        reindex(conn, document)
    conn.execute("UPDATE meta SET value = '1' WHERE key = ?", (SPLIT_FLAG,))
