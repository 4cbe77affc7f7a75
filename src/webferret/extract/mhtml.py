"""A web page saved as one file, an MHTML archive (`.mhtml`, `.mht`: Chrome's and Edge's "Webpage,
Single File", Internet Explorer's "Web Archive"): a MIME message of type `multipart/related` whose
first part (or the one its `start` parameter names) is the page's HTML, the others its images and
styles. The page is taken out of it, decoded from its transfer encoding (quoted-printable, base64),
to be read as any HTML page is."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from webferret.models import ErrorCode, FerretError
from webferret.net.urltext import web_url

if TYPE_CHECKING:
    import email.message

HEAD_BYTES = 8192
"""How far into a body its message header is looked for: a saved page's is a few hundred bytes."""
_HEADER_END = re.compile(rb"\r?\n\r?\n")
_FIRST_FIELD = re.compile(rb"\A[A-Za-z][A-Za-z0-9-]*:")
_RELATED = re.compile(
    rb"^content-type:[ \t]*(?:\r?\n[ \t]+)?multipart/related\b", re.IGNORECASE | re.MULTILINE
)
PAGE_TYPES = ("text/html", "application/xhtml+xml")


@dataclass(frozen=True)
class SavedPage:
    """The page an archive holds: its bytes, its content type (with the charset its part declares)
    and the web address it was saved from (`Content-Location`, else the archive's
    `Snapshot-Content-Location`), when it names one: what its relative links are relative to."""

    body: bytes
    content_type: str
    location: str | None


def is_mhtml(body: bytes) -> bool:
    """Whether `body` opens with a MIME message header (its first line a header field, after a BOM or
    blank lines) that declares `multipart/related`: an HTML page, a feed or a text never does."""
    head = body[:HEAD_BYTES].lstrip(b"\xef\xbb\xbf \t\r\n")
    if _FIRST_FIELD.match(head) is None:
        return False
    ended = _HEADER_END.search(head)
    return _RELATED.search(head[: ended.start()] if ended else head) is not None


def saved_page(body: bytes, where: str) -> SavedPage:
    """The page the MHTML archive `body` holds; `FerretError` (`unsupported_content`, naming `where`)
    when it holds none."""
    import email
    import email.policy  # only for an archive: a page or a feed imports no mail parser

    message = email.message_from_bytes(body.lstrip(b"\xef\xbb\xbf \t\r\n"), policy=email.policy.compat32)
    parts = [part for part in message.walk() if not part.is_multipart()]
    start = (message.get_param("start") or "").strip("<> ") if message.is_multipart() else ""
    root = next((part for part in parts if _content_id(part) == start), None) if start else None
    page = root if root is not None and _is_page(root) else next(filter(_is_page, parts), None)
    payload = page.get_payload(decode=True) if page is not None else None
    if page is None or not isinstance(payload, bytes):
        raise FerretError(ErrorCode.UNSUPPORTED_CONTENT, f"the MHTML archive at {where} holds no HTML page")
    charset = page.get_content_charset()
    location = page.get("Content-Location") or message.get("Snapshot-Content-Location")
    return SavedPage(
        body=payload,
        content_type=page.get_content_type() + (f"; charset={charset}" if charset else ""),
        location=_web_address(str(location or "")),
    )


def _web_address(location: str) -> str | None:
    """`location` (a header's value, its folds undone) when it is an http(s) URL, else None (a
    `cid:` or `file:` address, or none)."""
    text = "".join(location.split())
    return text if web_url(text) else None


def _is_page(part: email.message.Message) -> bool:
    return part.get_content_type() in PAGE_TYPES


def _content_id(part: email.message.Message) -> str:
    return str(part.get("Content-ID") or "").strip("<> ")
