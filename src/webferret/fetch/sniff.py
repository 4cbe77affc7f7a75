"""What a body really is, whatever its Content-Type says: magic bytes first, then the header, then
a look at the text. A PNG served as text/html is "binary"; an HTML page served as
application/octet-stream is "html".
"""

from __future__ import annotations

import json
import re
from typing import Literal

from webferret.fetch.charset import declared_charset

Kind = Literal["html", "pdf", "json", "xml", "text", "binary"]

__all__ = ["FEED_ROOTS", "SITEMAP_ROOTS", "ZIP_MAGIC", "Kind", "declares_text", "sniff_kind", "xml_root"]

ZIP_MAGIC = b"PK\x03\x04"
"""A zip archive's first bytes: an office file's too (`extract.zipped`)."""
_MAGIC: tuple[tuple[bytes, Kind], ...] = (
    (b"%PDF-", "pdf"),
    (b"\x89PNG\r\n\x1a\n", "binary"),
    (b"\xff\xd8\xff", "binary"),  # JPEG
    (b"GIF87a", "binary"),
    (b"GIF89a", "binary"),
    (ZIP_MAGIC, "binary"),  # zip, docx, xlsx, pptx, epub, jar
    (b"\x1f\x8b", "binary"),  # gzip
    (b"BZh", "binary"),
    (b"7z\xbc\xaf\x27\x1c", "binary"),
    (b"Rar!\x1a\x07", "binary"),
    (b"\x7fELF", "binary"),
    (b"MZ", "binary"),
    (b"\x00asm", "binary"),
    (b"OggS", "binary"),
    (b"ID3", "binary"),  # mp3
    (b"fLaC", "binary"),
    (b"wOFF", "binary"),
    (b"wOF2", "binary"),
    (b"\x00\x00\x01\x00", "binary"),  # ico
    (b"\x1a\x45\xdf\xa3", "binary"),  # webm/mkv
)
_HTML = re.compile(
    rb"<(!doctype\s+html|html|head|body|title|meta|script|style|div|p|h[1-6]|table|a\s|br|iframe)\b",
    re.IGNORECASE,
)
_TEXT_TYPES = ("javascript", "ecmascript", "x-sh", "x-python", "x-yaml", "yaml", "toml", "csv", "markdown")
_BINARY_PREFIXES = ("image/", "audio/", "video/", "font/")
SNIFF_BYTES = 1024
HTML_TYPES = ("text/html", "application/xhtml+xml")
_ANY_TAG = re.compile(rb"<[a-zA-Z!/?]")
_PDF_PARTS = re.compile(rb"%PDF-|\d+\s+\d+\s+obj\b")
"""What a PDF's first KB holds: its header (a reader finds it past leading junk), or, its header
lost, an object."""
_CONTROLS = bytes(b for b in range(32) if b not in (9, 10, 12, 13, 27))
"""The control bytes that text holds few of (tab, line breaks, form feed and escape are text's own)."""


_ROOT = re.compile(
    rb"\A(?:\xef\xbb\xbf)?(?:\s|<\?[^>]*\?>|<!--.*?-->|<!DOCTYPE[^>\[]*(?:\[.*?\])?\s*>)*<([A-Za-z_][\w.:-]*)[\s>/]",
    re.DOTALL | re.IGNORECASE,
)
ROOT_BYTES = 4096
FEED_ROOTS = frozenset(("rss", "feed", "rdf:rdf"))
"""The root elements of RSS 2.0, Atom and RSS 1.0 feeds (`extract.feed`)."""
SITEMAP_ROOTS = frozenset(("urlset", "sitemapindex"))
"""The root elements of sitemaps and sitemap indexes (`extract.sitemap`)."""


def xml_root(body: bytes) -> str | None:
    """The name of the element a markup document starts with (past an XML declaration, stylesheets,
    comments and a doctype, its internal subset included), lower-cased with its prefix: "rss",
    "feed", "rdf:rdf", "urlset", "html"; None when the body starts with no element."""
    found = _ROOT.match(body[:ROOT_BYTES])
    return found.group(1).decode("ascii").lower() if found else None


_MEDIA_TYPE = re.compile(r"[a-z0-9][a-z0-9!#$&^_.+-]{0,126}/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}")
"""A media type's `type/subtype` (RFC 6838's names: at most 127 characters each)."""


def mime_of(content_type: str | None) -> str:
    """The bare media type of a Content-Type value, lower-cased: its first word before any `;`
    (`text/plain junk` is `text/plain`), or "" when absent or no media type (as a browser reads an
    invalid one: no type, the body sniffed), so a sentence a server wrote there is never the type."""
    first = (content_type or "").split(";")[0].strip().lower()
    first = first.split(maxsplit=1)[0] if first else ""
    return first if _MEDIA_TYPE.fullmatch(first) else ""


def sniff_kind(body: bytes, content_type: str | None) -> Kind:
    """One of "html", "pdf", "json", "xml", "text", "binary" for `body` served as `content_type`."""
    head = body[:SNIFF_BYTES]
    magic = _magic(head)
    if magic is not None:
        return magic
    if _after_warnings(body, head):
        return "pdf"
    declared = _declared(mime_of(content_type))
    if declared == "pdf" and _PDF_PARTS.search(head) is None and _looks_textual(head):
        declared = None  # a login or error page (or text) under a PDF's label: read as what it is
    if declared == "binary" and head.strip() and _looks_textual(head):
        declared = None  # text under a media type: a TypeScript file is video/mp2t to nginx and Python
    wide = head.startswith((b"\xff\xfe", b"\xfe\xff")) or _declares_wide(content_type)  # UTF-16 or -32
    if not wide and not _looks_textual(head, labelled=declared in ("html", "json", "xml", "text")):
        return "binary"
    if declared == "json" and _is_markup(head):  # JSON never opens with `<`: a server's wrong label
        return "html"
    if declared == "html" and not wide and _is_json(body, head):
        return "json"  # an API's answer under a wrong label: no page opens with `{` or `[`
    if declared == "html" and head.strip() and not wide and _ANY_TAG.search(head) is None:
        return "text"  # no tag in its first KB: Markdown or text under a wrong label, its lines kept
    if declared is not None:
        return declared
    return _guess_text(body, head)


def _is_markup(head: bytes) -> bool:
    return head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<") and _HTML.search(head) is not None


def declares_text(mime: str) -> bool:
    """Whether a bare media type (`mime_of`) declares text of some kind: HTML, JSON, XML or text."""
    return _declared(mime) in ("html", "json", "xml", "text")


def _magic(head: bytes) -> Kind | None:
    for prefix, kind in _MAGIC:
        if head.startswith(prefix):
            return kind
    if head.lstrip(b"\xef\xbb\xbf \t\r\n\f\x00").startswith(b"%PDF-"):
        return "pdf"  # a script's stray blank lines or BOM before a PDF: its readers skip them
    if head[:4] == b"RIFF" and head[8:12] in (b"WEBP", b"WAVE", b"AVI "):
        return "binary"
    if head[4:8] == b"ftyp":  # mp4, mov, heic
        return "binary"
    return None


_PDF_HEADER = re.compile(rb"(?:\A|\n)%PDF-\d\.\d[\r\n]")
_PDF_END = re.compile(rb"startxref\s+\d+\s+%%EOF\s*\Z")
PDF_TAIL_BYTES = 2048


def _after_warnings(body: bytes, head: bytes) -> bool:
    """Whether `body` is a PDF that a download script's warnings come before (PHP's `Cannot modify
    header information`, sent before the file and its Content-Type, so served as text/html): a PDF's
    header opening a line of its first KB, where PDF readers look for it, and its trailer's
    `startxref` and end-of-file mark ending it (a page that writes of them is no PDF)."""
    return _PDF_HEADER.search(head) is not None and _PDF_END.search(body[-PDF_TAIL_BYTES:]) is not None


def _declares_wide(content_type: str | None) -> bool:
    """Does the Content-Type name UTF-16 or UTF-32 (whose text is full of NUL bytes)?"""
    charset = (declared_charset(content_type) or "").lower().replace("_", "-")
    return charset.startswith(("utf-16", "utf16", "utf-32", "utf32", "ucs-2", "unicode"))


def _looks_textual(head: bytes, labelled: bool = False) -> bool:
    """Text, not binary: no NUL byte (a few, in a body labelled as text: a server's stray ones) and
    few control characters."""
    if not head:
        return True
    if head.startswith((b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")):
        return True
    if head.count(b"\x00") > (max(8, len(head) // 100) if labelled else 0):
        return False
    controls = len(head) - len(head.translate(None, _CONTROLS))  # the bytes `_CONTROLS` deletes
    return controls <= len(head) // 20


def _declared(mime: str) -> Kind | None:
    if mime in HTML_TYPES:
        return "html"
    if mime == "application/pdf":
        return "pdf"
    if mime in ("application/json", "text/json") or mime.endswith("+json"):
        return "json"
    if mime in ("application/xml", "text/xml") or mime.endswith("+xml"):
        return "xml"
    if mime.startswith("text/") or any(name in mime for name in _TEXT_TYPES):
        return "text"
    if mime.startswith(_BINARY_PREFIXES):
        return "binary"
    return None  # missing, application/octet-stream, or unknown: look at the bytes


def _guess_text(body: bytes, head: bytes) -> Kind:
    start = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if start.startswith(b"<?xml"):
        return "html" if _HTML.search(head) and b"<html" in head.lower() else "xml"
    if _is_json(body, head):  # before the tags: an API's answer may hold HTML in its strings
        return "json"
    return "html" if _HTML.search(head) else "text"


def _is_json(body: bytes, head: bytes) -> bool:
    """Whether `body` opens with `{` or `[` and is JSON, whole."""
    if head.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] not in (b"{", b"["):
        return False
    try:
        json.loads(body)
    except ValueError:
        return False
    return True
