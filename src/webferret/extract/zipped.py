"""Office files are zip archives: which one a body is, and an archive checked before it is unpacked."""

from __future__ import annotations

import io
import zipfile

from webferret.models import ErrorCode, FerretError

UNPACKED_LIMIT = 64 * 1024 * 1024
"""The most bytes an office file's parts may unpack to (a zip bomb is refused before it is read)."""
ZIP_MAGIC = b"PK\x03\x04"


def holds(body: bytes, part: str) -> bool:
    """Is `body` a zip archive holding `part` (a Word document's `word/document.xml`, say)?"""
    if not body.startswith(ZIP_MAGIC):
        return False
    try:
        with zipfile.ZipFile(io.BytesIO(body)) as archive:
            return part in archive.namelist()
    except (zipfile.BadZipFile, ValueError, OSError):
        return False


def checked(body: bytes, what: str) -> zipfile.ZipFile:
    """`body`'s archive, once its parts are known to unpack to at most `UNPACKED_LIMIT`; `what` names
    the file in errors ("the Word document at URL")."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(body))
        unpacked = sum(item.file_size for item in archive.infolist())
    except (zipfile.BadZipFile, ValueError, OSError) as exc:
        raise unreadable(what, exc) from None
    if unpacked > UNPACKED_LIMIT:
        limit = f"{UNPACKED_LIMIT // (1024 * 1024)} MiB"
        raise FerretError(ErrorCode.TOO_LARGE, f"{what} unpacks to more than {limit}")
    return archive


def unreadable(what: str, exc: Exception) -> FerretError:
    """`unsupported_content` saying why `what` cannot be read, in one short line."""
    said = " ".join(str(exc).split())[:200] or type(exc).__name__
    return FerretError(ErrorCode.UNSUPPORTED_CONTENT, f"{what} cannot be read: {said}")
