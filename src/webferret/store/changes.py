"""What changed in a page between two of its stored readings.

Every fetch that stores a page says how its text compares with the reading of that URL (and that way
of reading it: a variant is compared with itself) stored before: `new`, `same` or `changed`, with
when the earlier reading was fetched (`meta.change`). `open --diff` shows the lines that changed
between a document's newest reading and the one before it, so a reader watching a page reads only
what is new.
"""

from __future__ import annotations

import difflib
import sqlite3
from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import TypeAdapter

ChangeStatus = Literal["new", "same", "changed"]


def change_since(conn: sqlite3.Connection, key_url: str, digest: str) -> dict[str, Any]:
    """How a reading whose text hashes to `digest` compares with the newest stored reading of
    `key_url` (run inside the write transaction, before the new reading is written)."""
    row = conn.execute(
        "SELECT content_hash, fetched_at FROM pages WHERE key_url = ? "
        "ORDER BY fetched_at DESC, id DESC LIMIT 1",
        (key_url,),
    ).fetchone()
    if row is None:
        return {"status": "new", "previous_fetched_at": None}
    status: ChangeStatus = "same" if row[0] == digest else "changed"
    return {"status": status, "previous_fetched_at": iso(row[1])}


_STAMP: TypeAdapter[datetime] = TypeAdapter(datetime)


def iso(stamp: float | None) -> str | None:
    """A store time as the JSON of every `fetched_at`, so a reading's `previous_fetched_at` is
    character for character the earlier reading's `fetched_at`."""
    return None if stamp is None else _STAMP.dump_python(datetime.fromtimestamp(stamp, UTC), mode="json")


def changed_lines(before: str, after: str, context: int = 2) -> tuple[str, int, int]:
    """A unified diff of two texts by lines (`context` lines around each change), with how many
    lines were added and removed."""
    old, new = before.splitlines(), after.splitlines()
    lines = list(difflib.unified_diff(old, new, "before", "after", n=context, lineterm=""))
    added = sum(1 for line in lines[2:] if line.startswith("+"))
    removed = sum(1 for line in lines[2:] if line.startswith("-"))
    return "\n".join(lines[2:]), added, removed
