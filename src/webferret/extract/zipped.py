"""Office files and EPUB books are zip archives: which kind a body is, and an archive checked before it
is unpacked."""

from __future__ import annotations

import io
import zipfile
import zlib

from lxml import etree

from webferret.extract.dates import iso_date
from webferret.extract.pdftitle import usable_title
from webferret.fetch.sniff import ZIP_MAGIC
from webferret.models import ErrorCode, FerretError
from webferret.remote_text import one_line

UNPACKED_LIMIT = 64 * 1024 * 1024
"""The most bytes an office file's parts may unpack to (a zip bomb is refused before it is read)."""
SAFE_XML = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False)
"""How a part is parsed: no entity is expanded, nothing is fetched, no tree past libxml2's limits."""
READ_ERRORS = (
    zipfile.BadZipFile,
    zlib.error,
    EOFError,
    ValueError,
    OSError,
    NotImplementedError,
    RuntimeError,
)
"""What reading a damaged archive or member raises: a bad header or checksum (`BadZipFile`), a member's
compressed bytes that do not inflate (`zlib.error`) or end early (`EOFError`), a member a password
encrypts (`RuntimeError`), and a zip feature Python does not unpack (`NotImplementedError`: Deflate64,
which Windows uses for large files, PPMd, AES or strong encryption, patched data, a version past 6.3)."""
_CORE = {
    "cp": "http://schemas.openxmlformats.org/package/2006/metadata/core-properties",
    "dc": "http://purl.org/dc/elements/1.1/",
    "dcterms": "http://purl.org/dc/terms/",
}


OFFICE_PARTS = {
    "word/document.xml": "docx",
    "xl/workbook.xml": "xlsx",
    "ppt/presentation.xml": "pptx",
    "META-INF/container.xml": "epub",
}
"""The main part of each kind of zipped document this package reads, and the kind's name."""
OPENDOCUMENT_KINDS = {
    "application/vnd.oasis.opendocument.text": "odt",
    "application/vnd.oasis.opendocument.spreadsheet": "ods",
    "application/vnd.oasis.opendocument.presentation": "odp",
}
"""OpenDocument files share their main part (`content.xml`): their `mimetype` member tells them apart."""


def office_kind(body: bytes) -> str | None:
    """The kind of zipped document `body` is (`OFFICE_PARTS`: "docx", "xlsx", "pptx" or "epub", by the
    main part its archive holds; "odt", "ods" or "odp" by its `mimetype`), or None for anything else
    (another archive, a damaged one, no zip)."""
    if not body.startswith(ZIP_MAGIC):
        return None
    try:
        with zipfile.ZipFile(io.BytesIO(body)) as archive:
            names = set(archive.namelist())
            if "content.xml" in names and "mimetype" in names:
                with archive.open("mimetype") as member:  # its first bytes: not a bomb's gigabytes
                    declared = member.read(100).decode("ascii", "replace").strip()
                return OPENDOCUMENT_KINDS.get(declared)
    except READ_ERRORS:
        return None
    return next((kind for part, kind in OFFICE_PARTS.items() if part in names), None)


def checked(body: bytes, what: str) -> zipfile.ZipFile:
    """`body`'s archive, once its parts are known to unpack to at most `UNPACKED_LIMIT`; `what` names
    the file in errors ("the Word document at URL")."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(body))
        unpacked = sum(item.file_size for item in archive.infolist())
    except READ_ERRORS as exc:
        raise unreadable(what, exc) from None
    if unpacked > UNPACKED_LIMIT:
        limit = f"{UNPACKED_LIMIT // (1024 * 1024)} MiB"
        raise FerretError(ErrorCode.TOO_LARGE, f"{what} unpacks to more than {limit}")
    return archive


def refuse_damaged(body: bytes, what: str) -> None:
    """`unsupported_content` when `body`, which opens as a zip file does, is no archive that can be
    read (cut short, damaged); `what` names it in the error. Another kind of archive passes."""
    try:
        zipfile.ZipFile(io.BytesIO(body)).close()
    except READ_ERRORS as exc:
        damage = "uses" if isinstance(exc, NotImplementedError) else "is damaged or cut short:"
        raise FerretError(ErrorCode.UNSUPPORTED_CONTENT, f"{what} {damage} {_why(exc)}") from None


def unreadable(what: str, exc: Exception) -> FerretError:
    """`unsupported_content` saying why `what` cannot be read, in one short line (a part's name or
    text from the file may be in the library's words)."""
    return FerretError(ErrorCode.UNSUPPORTED_CONTENT, f"{what} cannot be read: {_why(exc)}")


def _why(exc: Exception) -> str:
    """What went wrong reading an archive, in one short line: a zip feature Python does not unpack
    named as one (zipfile's words alone, "That compression method is not supported", sound like a
    fault of webferret's)."""
    said = one_line(str(exc), 200) or type(exc).__name__
    return f"a zip feature webferret cannot unpack ({said})" if isinstance(exc, NotImplementedError) else said


def main_part(archive: zipfile.ZipFile, name: str, what: str) -> etree._Element:
    """The part `name` of `archive` parsed (`SAFE_XML`), the one the file is read from (an
    OpenDocument's `content.xml`): `unsupported_content` naming `what` says why it cannot be (missing,
    or no XML lxml parses: damaged, or nested past libxml2's depth)."""
    try:
        data = archive.read(name)
    except KeyError:
        raise FerretError(ErrorCode.UNSUPPORTED_CONTENT, f"{what} cannot be read: it has no {name}") from None
    except READ_ERRORS as exc:
        raise unreadable(what, exc) from None
    try:
        return etree.fromstring(data, SAFE_XML)
    except etree.XMLSyntaxError as exc:
        said = one_line(str(exc), 200) or type(exc).__name__
        raise FerretError(
            ErrorCode.UNSUPPORTED_CONTENT, f"{what} cannot be read: its {name}: {said}"
        ) from None


def part(archive: zipfile.ZipFile, name: str) -> etree._Element | None:
    """The part `name` of `archive` parsed (`SAFE_XML`), or None when it is missing or no XML."""
    try:
        return etree.fromstring(archive.read(name), SAFE_XML)
    except (KeyError, etree.XMLSyntaxError, *READ_ERRORS):
        return None


def core_properties(archive: zipfile.ZipFile) -> dict[str, str]:
    """An office file's core properties (`docProps/core.xml`: title, creator, description, language,
    created, modified), those it has."""
    root = part(archive, "docProps/core.xml")
    if root is None:
        return {}
    found: dict[str, str] = {}
    for name, path in (
        ("title", "dc:title"),
        ("creator", "dc:creator"),
        ("description", "dc:description"),
        ("language", "dc:language"),
        ("created", "dcterms:created"),
        ("modified", "dcterms:modified"),
    ):
        text = " ".join((root.findtext(path, namespaces=_CORE) or "").split())
        if text:
            found[name] = text
    return found


def described(archive: zipfile.ZipFile, title: str | None) -> dict[str, str | None]:
    """The page fields an office file's core properties give (`Extracted`'s title, byline, dates,
    description and language); `title` is the title when its properties name none, or a tool's
    placeholder (`pdftitle.usable_title`: PowerPoint titles every new deck "PowerPoint Presentation")."""
    core = core_properties(archive)
    return {
        "title": usable_title(core.get("title")) or title,
        "byline": core.get("creator"),
        "published": iso_date((core.get("created") or "")[:10]),
        "modified": iso_date((core.get("modified") or "")[:10]),
        "description": core.get("description"),
        "language": core.get("language"),
    }
