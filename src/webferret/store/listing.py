"""Which documents the store holds: newest first for `store list` and `store export`, one site's
for `find --site`.

A document's time is its newest reading's; a site is a host with its subdomains, matched on the
handles (`site~hash12`), so `docs.python.org` is not `python.org.evil`, and a `_` or `%` in it is
no wildcard.
"""

from __future__ import annotations

import sqlite3

from webferret.net.canonical import in_ascii, in_letters


def site_filter(site: str | None) -> tuple[str, tuple[str, ...]]:
    """The SQL condition (and its arguments) keeping the documents of `site`; always true without one.

    An international name is matched in both its spellings: a page is stored under the handle of the
    URL it was read at, which the client wrote in Punycode (`xn--bcher-kva.example`), while an
    imported page or a URL asked for keeps its letters (`bücher.example`)."""
    if not site:
        return "1", ()
    if _address(site):  # an IP address has no subdomains: `0.0.1` is no parent of 127.0.0.1
        return "document LIKE ? ESCAPE '\\'", (f"{_escaped(site.lower())}~%",)
    hosts = dict.fromkeys(_escaped(host) for host in (in_letters(site.lower()), in_ascii(site.lower())))
    patterns = tuple(pattern for host in hosts for pattern in (f"{host}~%", f"%.{host}~%"))
    return "(" + " OR ".join(["document LIKE ? ESCAPE '\\'"] * len(patterns)) + ")", patterns


def _escaped(host: str) -> str:
    """`host` as a LIKE pattern matches it: its `_` and `%` (and the escape) no wildcards."""
    return host.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _address(site: str) -> bool:
    """Is `site` an IP address (or the end of one, such as `0.0.1`), not a host name?"""
    return (bool(site) and all(part.isdigit() for part in site.strip(".").split("."))) or ":" in site


_READ_AT = "coalesce(max(CASE WHEN variant = '' THEN fetched_at END), max(fetched_at))"
"""When a document was read, as it is listed: its newest default reading (the one its handle opens
and `store list` shows), or, never read by default, its newest variant."""


def newest_documents(
    conn: sqlite3.Connection, site: str | None, since: float | None = None, n: int | None = None
) -> tuple[int, list[tuple[str, int]]]:
    """How many documents match, and the first `n` of them (all without it), each with how many
    readings it has, fetched last first; `since`: only those read at or after that time."""
    where, args = site_filter(site)
    having, extra = (f"HAVING {_READ_AT} >= ?", (since,)) if since is not None else ("", ())
    grouped = f"SELECT document, count(*) FROM pages WHERE {where} GROUP BY document {having}"
    total = conn.execute(f"SELECT count(*) FROM ({grouped})", (*args, *extra)).fetchone()[0]
    limit = "LIMIT ?" if n is not None else ""
    rows = conn.execute(
        f"{grouped} ORDER BY {_READ_AT} DESC, max(id) DESC {limit}",
        (*args, *extra, *((n,) if n is not None else ())),
    ).fetchall()
    return int(total), [(str(document), int(count)) for document, count in rows]


def indexed_handles(conn: sqlite3.Connection, site: str) -> list[str]:
    """The handles whose passages stand for the documents of `site` (the rows that hold passages)."""
    where, args = site_filter(site)
    rows = conn.execute(
        f"SELECT DISTINCT handle FROM pages WHERE {where} "
        "AND EXISTS (SELECT 1 FROM chunks c WHERE c.page_id = pages.id)",
        args,
    )
    return [str(row[0]) for row in rows]
