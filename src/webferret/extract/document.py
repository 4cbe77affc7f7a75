"""Bytes and a content type in, an `Extracted` page out. Pure: no network, no event loop.

Dispatches by the kind the bytes show (`sniff_kind`): HTML, PDF, JSON, XML, text/source; an RSS or Atom
feed (`feed`), a JSON Feed (`jsonfeed`) or a sitemap (`sitemap`) among them, and a Word document
(`wordfile`), a spreadsheet (`sheetfile`), a presentation (`slidefile`), an EPUB book (`ebook`) or an
OpenDocument text, spreadsheet or presentation (`opendoc`) among binary files, by what they hold; other
binary is `unsupported_content`. A gzip file (a `.json.gz` or `.xml.gz` download, or a page its server
compressed twice) is unpacked once, up to `ExtractOptions.unpack_limit` (a fetch's `max_bytes`, 10 MiB
at least), and its content read as any other; a page saved as an MHTML archive (`mhtml`), packed
in gzip or not, is read as the HTML page it holds.
"""

from __future__ import annotations

import importlib
import zlib
from dataclasses import replace

from webferret.extract import mhtml
from webferret.extract.reddit import is_thread_json_url, thread_from_answer
from webferret.extract.types import Extracted, ExtractOptions, scope_ignored
from webferret.fetch.charset import decode_body
from webferret.fetch.sniff import (
    FEED_ROOTS,
    SITEMAP_ROOTS,
    ZIP_MAGIC,
    declares_text,
    mime_of,
    sniff_kind,
    xml_root,
)
from webferret.models import ErrorCode, FerretError, without_userinfo
from webferret.net.urlpath import file_name
from webferret.remote_text import quoted

GZIP_MAGIC = b"\x1f\x8b"
OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
"""A compound document's first bytes: a legacy .doc, .xls or .ppt, or an encrypted .docx, .xlsx or .pptx."""


def extract_document(
    body: bytes, *, url: str | None, content_type: str | None, options: ExtractOptions
) -> Extracted:
    """Extract the main content and metadata of one document; raises `FerretError` with a reason.
    The user and password in `url` are left out: links made absolute against it would carry them."""
    url = without_userinfo(url)
    if url and is_thread_json_url(url):
        return thread_from_answer(200, content_type, body, options.max_comments)
    inner = _gunzipped(body, url, options.unpack_limit)
    if inner is not None:  # "application/gzip" says nothing of what is inside; a textual type does
        inside = content_type if declares_text(mime_of(content_type)) else _named_inside(url)
        return _unarchived(inner, url, inside, options)
    return _unarchived(body, url, content_type, options)


def _unarchived(body: bytes, url: str | None, content_type: str | None, options: ExtractOptions) -> Extracted:
    """`body` read as its content says, a page saved as one file (MHTML, a gzip file's too: a
    `.mht.gz`) as the HTML page it holds, at the address it was saved from."""
    if not mhtml.is_mhtml(body):
        return _extract(body, url, content_type, options)
    saved = mhtml.saved_page(body, url or "input")
    extracted = _extract(saved.body, saved.location or url, saved.content_type, options)
    extracted.extra["archive"] = "mhtml"
    if saved.location:
        extracted.extra["saved_from"] = saved.location
    return extracted


def _named_inside(url: str | None) -> str | None:
    """The type of the text a gzip file's name says it holds (`rivers.csv.gz`: `text/csv`, so a
    table; `tool.py.gz`: Python), or None: a name such as `page.gz` says nothing of it."""
    import mimetypes

    name = file_name(url)
    # its endings in any case (`RIVERS.CSV.GZ`): `guess_type` knows the packing in small letters only
    inside, packing = mimetypes.guess_type(name.lower()) if name else (None, None)
    return inside if packing == "gzip" and inside and declares_text(inside) else None


def _extract(body: bytes, url: str | None, content_type: str | None, options: ExtractOptions) -> Extracted:
    kind = sniff_kind(body, content_type)
    extracted = _extract_kind(kind, body, url, content_type, options)
    if kind != "html":  # a PDF, JSON or text: read alike in every format but html, whatever the scope
        extracted.extra["kind"] = kind
        if options.scope() is not None:
            extracted.extra["scope_ignored"] = scope_ignored(kind)
    return extracted


def _extract_kind(
    kind: str, body: bytes, url: str | None, content_type: str | None, options: ExtractOptions
) -> Extracted:
    mime = mime_of(content_type)
    if kind != "html" and options.format == "html":  # `--format html` is for HTML; others answer Markdown
        options = replace(options, format="markdown")
    if kind == "pdf":
        from webferret.extract.pdf import extract_pdf

        return extract_pdf(body, url, options)
    if kind == "binary":
        if (office := _office(body, url, options)) is not None:
            return office
        if body.startswith(OLE_MAGIC):
            raise FerretError(ErrorCode.UNSUPPORTED_CONTENT, _compound_reason(body, url or "input"))
        raise FerretError(ErrorCode.UNSUPPORTED_CONTENT, f"{_binary_reason(body, mime)} at {url or 'input'}")
    if kind in ("xml", "html", "text") and (listing := _listing(body, url, content_type, options)):
        return listing
    text = decode_body(body, content_type)
    if kind != "html" and "\r" in text:  # a CRLF or a lone CR (old Mac) ends a line, as in a text file
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if kind == "text" and mime in ("", "text/plain"):  # URLs alone, a line each: a text sitemap
        from webferret.extract.sitemap import extract_text_sitemap

        if listed := extract_text_sitemap(text, url, options):
            return listed
    if kind == "html":
        from webferret.extract.htmlpage import extract_html

        return extract_html(text, url, options)
    from webferret.extract import jsonfeed, textual

    if kind == "json":
        if jsonfeed.MARK in body and (feed := jsonfeed.extract_json_feed(text, url, content_type, options)):
            return feed
        return textual.extract_json(text, mime, url, options)
    if kind == "xml":
        return textual.extract_xml(text, mime, url, options)
    return textual.extract_text(text, mime, url, options)


def _office(body: bytes, url: str | None, options: ExtractOptions) -> Extracted | None:
    """A Word, OpenDocument or EPUB text, a spreadsheet or a presentation (a zip archive of one), or None."""
    if not body.startswith(ZIP_MAGIC):  # an image, an archive of another kind: nothing imported for it
        return None
    from webferret.extract import zipped

    kind = zipped.office_kind(body)  # the archive's names read once
    if kind is None:
        zipped.refuse_damaged(body, f"the zip archive at {url or 'input'}")  # a cut .docx: not "a type"
        return None
    module, name = ZIPPED_READERS[kind]  # only the matching reader is imported
    reader = getattr(importlib.import_module(f"webferret.extract.{module}"), name)
    return reader(body, url, options)  # type: ignore[no-any-return]


ZIPPED_READERS = {
    "docx": ("wordfile", "extract_docx"),
    "xlsx": ("sheetfile", "extract_xlsx"),
    "pptx": ("slidefile", "extract_pptx"),
    "epub": ("ebook", "extract_epub"),
    "odt": ("opendoc", "extract_odt"),
    "ods": ("opendoc", "extract_ods"),
    "odp": ("opendoc", "extract_odp"),
}
"""The reader of each kind `zipped.office_kind` tells: its module in this package and its function."""


def _listing(
    body: bytes, url: str | None, content_type: str | None, options: ExtractOptions
) -> Extracted | None:
    """An RSS or Atom feed, or a sitemap, as the list it is (whatever type it was served as), else None."""
    root = xml_root(body)
    if root in FEED_ROOTS:
        from webferret.extract.feed import extract_feed

        return extract_feed(body, url, content_type, options)
    if root in SITEMAP_ROOTS:
        from webferret.extract.sitemap import extract_sitemap

        return extract_sitemap(body, url, options)
    return None  # an HTML page (or other XML): nothing imported for it


def _binary_reason(body: bytes, mime: str | None) -> str:
    """Why binary bytes cannot be read: named by their declared type, and by what they are when a
    type webferret reads was declared for them (a gzip file served as text/html, a zip archive served
    as a PDF: not "cannot read content of type application/pdf")."""
    if not mime:
        return "cannot read content of an unknown binary type"
    if not declares_text(mime) and not _read_type(mime):
        return f"cannot read content of type {quoted(mime)}"  # the server's words: quoted
    if body[:2] == GZIP_MAGIC:
        what = "gzip-compressed data"
    elif body.startswith(ZIP_MAGIC):
        what = "a zip archive that holds no document webferret reads"
    else:
        what = "binary data"
    return f"the body is {what}, though declared {quoted(mime)}"


def _read_type(mime: str) -> bool:
    """Whether `mime` names a binary document kind webferret reads: a PDF, an Office Open XML or
    OpenDocument file, an EPUB book."""
    return mime in ("application/pdf", "application/epub+zip") or mime.startswith(
        ("application/vnd.openxmlformats-officedocument.", "application/vnd.oasis.opendocument.")
    )


def _compound_reason(body: bytes, where: str) -> str:
    """Why a compound document (OLE) cannot be read: a .docx, .xlsx or .pptx a password encrypts is
    one, and so are the Office files of before 2007 (.doc, .xls, .ppt)."""
    if "EncryptedPackage".encode("utf-16-le") in body:  # the stream that holds the encrypted file
        return f"the Office document at {where} is encrypted: a password protects it"
    kinds = "a .doc, .xls or .ppt of before 2007, an Outlook .msg, an .msi"
    return f"the file at {where} is an OLE compound document ({kinds}), which webferret does not read"


def _gunzipped(body: bytes, url: str | None, most: int) -> bytes | None:
    """The file inside a gzip body (its first member), or None when the body is no gzip file;
    `FerretError` when it is a corrupt or cut one, or unpacks to more than `most` bytes."""
    if body[:2] != GZIP_MAGIC:
        return None
    unpacker = zlib.decompressobj(16 + zlib.MAX_WBITS)
    where = f"the gzip file at {url or 'input'}"
    try:
        inner = unpacker.decompress(body, most)
    except zlib.error:
        raise FerretError(ErrorCode.UNSUPPORTED_CONTENT, f"{where} is corrupt") from None
    if unpacker.unconsumed_tail:
        limit = f"{most / (1024 * 1024):g} MiB"
        raise FerretError(ErrorCode.UNSUPPORTED_CONTENT, f"{where} unpacks to more than {limit}")
    if not unpacker.eof:  # it ends before its end
        raise FerretError(ErrorCode.UNSUPPORTED_CONTENT, f"{where} is cut short")
    return inner
