"""Giving the space of removed pages back to the file system, when the disk has room to do it.

VACUUM writes the whole store again (into its WAL, then over the file), after the passage index is
merged (written again too): on a disk with less room than that it fills the disk and fails, and the
store is left larger than before, on a disk with no room for the next write. So it is tried only with
room for the store and a quarter more; a prune or clear that removed pages answers them either way.
"""

from __future__ import annotations

import shutil
import sqlite3
from contextlib import suppress
from pathlib import Path

ROOM_FACTOR = 1.25
"""Free disk space compacting wants, in times the bytes the store's pages hold."""


def short_of_room(conn: sqlite3.Connection, path: Path) -> str | None:
    """Why the store at `path` is not compacted (too little free disk beside it), or None."""
    page_size, pages, unused = (
        conn.execute(f"PRAGMA {name}").fetchone()[0] for name in ("page_size", "page_count", "freelist_count")
    )
    needed = int((pages - unused) * page_size * ROOM_FACTOR)
    free = shutil.disk_usage(path.parent).free
    if free >= needed:
        return None
    return not_compacted(f"compacting needs about {_mb(needed)} free beside it, the disk has {_mb(free)}")


def disk_full(exc: sqlite3.Error) -> bool:
    """Did SQLite fail for want of disk space?"""
    return "full" in str(exc).lower()


def not_compacted(why: str) -> str:
    return (
        f"the space of the removed pages stays in the store file, which reuses it for the pages "
        f"stored next ({why}: free some disk space; the next prune that removes a page, or a "
        f"clear, gives it back)"
    )


def checkpoint(conn: sqlite3.Connection) -> None:
    """Empty the WAL into the store file (what a failed VACUUM wrote there, it leaves out), as far as
    the disk lets it: a store that could not be compacted is not also left with a WAL it outgrew."""
    with suppress(sqlite3.Error):  # another process reads it, or the disk is full: its close tries again
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def _mb(size: int) -> str:
    return f"{size / 1_000_000:.1f} MB"
