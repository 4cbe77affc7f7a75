"""What kind of document a body is, from its bytes first and its declared content type second.

Stand-in for `fetch/sniff.py` (`sniff_kind`) until that lands: one function, same signature.
"""

from __future__ import annotations

import re
from typing import Literal

Kind = Literal["html", "pdf", "json", "xml", "text", "binary"]

MAGIC: tuple[tuple[bytes, Kind], ...] = (
    (b"%PDF-", "pdf"),
    (b"\x89PNG", "binary"),
    (b"\xff\xd8\xff", "binary"),
    (b"GIF8", "binary"),
    (b"PK\x03\x04", "binary"),
    (b"\x1f\x8b", "binary"),
    (b"RIFF", "binary"),
    (b"\x00\x00\x01\x00", "binary"),
    (b"wOFF", "binary"),
    (b"wOF2", "binary"),
    (b"\x7fELF", "binary"),
    (b"BZh", "binary"),
    (b"7z\xbc\xaf", "binary"),
    (b"OggS", "binary"),
    (b"ID3", "binary"),
    (b"\x00\x00\x00 ftyp", "binary"),
)
_HTML_TAG = re.compile(rb"<(p|div|span|a|h[1-6]|table|ul|ol|article|section|title|meta|br|img)[\s>/]")
HTML_TYPES = ("text/html", "application/xhtml+xml")
XML_TYPES = ("application/xml", "text/xml", "application/rss+xml", "application/atom+xml")
TEXT_TYPES = ("application/javascript", "application/x-sh", "application/toml", "application/yaml")


def mime_of(content_type: str | None) -> str:
    return (content_type or "").split(";")[0].strip().lower()


def _looks_binary(head: bytes) -> bool:
    if not head:
        return False
    if b"\x00" in head and not head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return True
    controls = sum(1 for byte in head if byte < 9 or 13 < byte < 32)
    return controls > len(head) // 20


def _from_markup(head: bytes) -> Kind | None:
    start = head.lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    if start.startswith((b"<!doctype html", b"<html", b"<head", b"<body")) or b"<html" in start[:1024]:
        return "html"
    if start.startswith(b"<") and _HTML_TAG.search(start):
        return "html"
    if start.startswith(b"<?xml") or start.startswith(b"<rss") or start.startswith(b"<feed"):
        return "html" if b"<html" in start[:2048] else "xml"
    if start.startswith((b"{", b"[")):
        return "json"
    return None


def sniff_kind(body: bytes, content_type: str | None) -> Kind:
    """The document's kind; a PNG served as text/html is `binary`, not HTML."""
    head = body[:2048]
    for magic, kind in MAGIC:
        if head.startswith(magic):
            return kind
    if _looks_binary(head):
        return "binary"
    mime = mime_of(content_type)
    if mime in HTML_TYPES:
        return "html"
    if mime == "application/json" or mime.endswith("+json"):
        return "json"
    if mime in XML_TYPES or mime.endswith("+xml"):
        return "xml"
    if mime.startswith("text/") or mime in TEXT_TYPES:
        return "text"
    if mime == "application/pdf":
        return "binary"  # declared PDF without the %PDF- magic: not a PDF we can read
    return _from_markup(head) or ("text" if not mime or mime == "application/octet-stream" else "binary")
