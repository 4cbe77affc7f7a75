"""An office file (a zip archive) with one of its parts changed, for the tests of hostile files."""

from __future__ import annotations

import io
import struct
import zipfile
from collections.abc import Callable


def rezipped(body: bytes, part: str, change: Callable[[bytes], bytes]) -> bytes:
    """`body`'s archive with `part` replaced by `change(part's bytes)`, the others as they were."""
    source = zipfile.ZipFile(io.BytesIO(body))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for item in source.infolist():
            data = source.read(item)
            archive.writestr(item, change(data) if item.filename == part else data)
    return out.getvalue()


def after_declaration(extra: bytes) -> Callable[[bytes], bytes]:
    """A change that puts `extra` (a doctype, say) right after a part's XML declaration, or first in
    a part that has none."""

    def change(data: bytes) -> bytes:
        if data.startswith(b"<?xml"):
            return data.replace(b"?>", b"?>" + extra, 1)
        return extra + data

    return change


def garbled(body: bytes, part: str) -> bytes:
    """`body`'s archive with `part`'s compressed bytes made undecodable (its first deflate block of a
    type no deflate stream has), its header and the archive's directory intact: a download damaged in
    the middle, that zlib refuses when the part is unpacked."""
    archive = zipfile.ZipFile(io.BytesIO(body))
    item = archive.getinfo(part)
    assert item.compress_type == zipfile.ZIP_DEFLATED
    damaged = bytearray(body)
    start = item.header_offset + 30 + len(item.filename.encode()) + len(item.extra)
    damaged[start] = 0b111  # final block, of the reserved type 3
    return bytes(damaged)


def relabelled(body: bytes, field: int, value: int, keep: tuple[str, ...] = ("mimetype",)) -> bytes:
    """`body`'s archive with a two-byte field of each member's central directory entry set to `value`
    (and the same field of its local header, 4 bytes nearer its start), but for the members in `keep`:
    `field` 6 is the version needed to unpack it, 10 its compression method (9 is Deflate64, which
    Windows writes for large files). Python's zipfile unpacks neither a Deflate64 member nor one of a
    version past 6.3."""
    archive = zipfile.ZipFile(io.BytesIO(body))
    changed = bytearray(body)
    entry = archive.start_dir
    for item in archive.infolist():
        if item.filename not in keep:
            for at in (entry + field, item.header_offset + field - 2):
                changed[at : at + 2] = struct.pack("<H", value)
        names, extras, comments = struct.unpack("<HHH", changed[entry + 28 : entry + 34])
        entry += 46 + names + extras + comments
    return bytes(changed)
