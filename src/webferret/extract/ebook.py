"""EPUB books as Markdown: the chapters in reading order, rendered by the same writer as a page.

An EPUB is a zip archive: `META-INF/container.xml` names the package document (OPF), whose manifest
lists the files and whose spine gives the reading order. Each chapter (XHTML) in the spine is read
whole, no main-content choice; a part the spine marks `linear="no"` (a pop-up note, a cover) is left
out. Title, authors, language, date and description come from the package's Dublin Core metadata.

Links between the book's own files lead nowhere outside it: they are kept as their text; links to the
web are kept. Images are their alt text. A book whose chapters are encrypted (DRM) is
`unsupported_content`, said so; font obfuscation alone is not encryption of the text. Parts are parsed
without entities or network (`zipped.SAFE_XML`), and an archive that unpacks too far is refused before
it is read (`zipped.checked`).
"""

from __future__ import annotations

import posixpath
import zipfile
from urllib.parse import unquote, urlsplit

from lxml import etree, html

from webferret.extract import zipped
from webferret.extract.dates import iso_date
from webferret.extract.types import Extracted, ExtractOptions
from webferret.extract.whole import first_heading, whole_document
from webferret.fetch.charset import decode_body
from webferret.models import ErrorCode, FerretError
from webferret.net.urlpath import file_name

EPUB_TYPE = "application/epub+zip"
CHAPTER_TYPES = frozenset({"application/xhtml+xml", "text/html"})
CHAPTER_MEDIA = "application/xhtml+xml"
"""What a chapter is read as: XML, whose text is UTF-8 unless its declaration or a BOM says otherwise."""
_NS = {
    "c": "urn:oasis:names:tc:opendocument:xmlns:container",
    "opf": "http://www.idpf.org/2007/opf",
    "dc": "http://purl.org/dc/elements/1.1/",
    "enc": "http://www.w3.org/2001/04/xmlenc#",
}
FONT_OBFUSCATION = frozenset({"http://www.idpf.org/2008/embedding", "http://ns.adobe.com/pdf/enc#RC"})
"""Algorithms that only scramble embedded fonts (the text is readable)."""
_DROPPED = ("script", "style", "head", "svg")


def extract_epub(body: bytes, url: str | None, options: ExtractOptions) -> Extracted:
    """The EPUB book in `body` as Markdown (or text) with its metadata; `FerretError` says why not."""
    what = f"the EPUB book at {url or 'input'}"
    archive = zipped.checked(body, what)
    package_path = _package_path(archive, what)
    package = zipped.part(archive, package_path)
    if package is None:
        raise FerretError(ErrorCode.UNSUPPORTED_CONTENT, f"{what} cannot be read: no package document")
    chapters = _spine(package, posixpath.dirname(package_path))
    _refuse_encrypted(archive, chapters, what)
    root = html.Element("div")
    read = 0
    unreadable: list[str] = []  # chapters missing from the file, or damaged in it
    for name in chapters:
        try:
            data = archive.read(name)
        except (KeyError, *zipped.READ_ERRORS):
            unreadable.append(name)
            continue
        chapter = _chapter(data, name)
        if chapter is not None:
            root.append(chapter)
            read += 1
    if unreadable and not read:
        damaged = ", ".join(unreadable[:3]) + (", ..." if len(unreadable) > 3 else "")
        message = f"{what} cannot be read: its chapters are missing or damaged ({damaged})"
        raise FerretError(ErrorCode.UNSUPPORTED_CONTENT, message)
    meta = _metadata(package)
    fields = {
        "title": meta.get("title") or first_heading(root) or file_name(url),
        "byline": meta.get("creator"),
        "published": iso_date((meta.get("date") or "")[:10]),
        "description": meta.get("description"),
        "language": meta.get("language"),
    }
    extra = {"document": "epub", "chapters": read} | (
        {"unreadable_chapters": unreadable} if unreadable else {}
    )
    return whole_document(root, url, options, what=what, content_type=EPUB_TYPE, fields=fields, extra=extra)


def _package_path(archive: zipfile.ZipFile, what: str) -> str:
    """The archive path of the package document that `META-INF/container.xml` names (a container
    missing, damaged or packed in a way that cannot be unpacked is said so, `zipped.main_part`)."""
    container = zipped.main_part(archive, "META-INF/container.xml", what)
    rootfile = container.find(".//c:rootfile", _NS)
    path = rootfile.get("full-path") if rootfile is not None else None
    if not path:
        raise FerretError(
            ErrorCode.UNSUPPORTED_CONTENT, f"{what} cannot be read: its container names no package"
        )
    return path


def _spine(package: etree._Element, folder: str) -> list[str]:
    """The archive paths of the chapters in reading order (the spine's linear XHTML items but the
    navigation file, which some books list there too), each once."""
    manifest = {
        item.get("id"): item
        for item in package.iterfind("opf:manifest/opf:item", _NS)
        if item.get("id") and item.get("href")
    }
    chapters: list[str] = []
    for ref in package.iterfind("opf:spine/opf:itemref", _NS):
        item = manifest.get(ref.get("idref"))
        if item is None or (ref.get("linear") or "yes").strip().lower() == "no":
            continue
        if "nav" in (item.get("properties") or "").split():  # the table of contents, not a chapter
            continue
        if (item.get("media-type") or "").strip().lower() not in CHAPTER_TYPES:
            continue
        href = unquote(urlsplit(item.get("href") or "").path)
        chapters.append(posixpath.normpath(posixpath.join(folder, href)))
    # each once: a spine that lists one file a thousand times would have it read as often (a few KB
    # of book, a chapter of 200 KB: 200 MB of text parsed and held)
    return list(dict.fromkeys(chapters))


def _refuse_encrypted(archive: zipfile.ZipFile, chapters: list[str], what: str) -> None:
    """`unsupported_content` when `META-INF/encryption.xml` encrypts a chapter (DRM)."""
    encryption = zipped.part(archive, "META-INF/encryption.xml")
    if encryption is None:
        return
    wanted = set(chapters)
    for data in encryption.iterfind(".//enc:EncryptedData", _NS):
        method = data.find("enc:EncryptionMethod", _NS)
        algorithm = method.get("Algorithm") if method is not None else ""
        reference = data.find(".//enc:CipherReference", _NS)
        target = unquote(reference.get("URI") or "") if reference is not None else ""
        if algorithm not in FONT_OBFUSCATION and posixpath.normpath(target) in wanted:
            message = f"{what} is encrypted (DRM): its chapters cannot be read"
            raise FerretError(ErrorCode.UNSUPPORTED_CONTENT, message)


def _chapter(data: bytes, name: str) -> html.HtmlElement | None:
    """One chapter's body (`data`, the part `name`) as a `section`: the book's own links as their
    text, images as their alt."""
    from webferret.extract.htmlpage import parse_html
    from webferret.extract.softhyphens import unhyphenated

    try:  # decoded by its XML declaration (UTF-8 without one), parsed as a page is (deep nesting too)
        document = parse_html(unhyphenated(decode_body(data, CHAPTER_MEDIA)), name)
    except FerretError:  # no markup at all
        return None
    etree.strip_elements(document, *_DROPPED, with_tail=False)
    body = document.find("body")
    if body is None:
        return None
    for link in list(body.iter("a")):
        if not (link.get("href") or "").lower().startswith(("http://", "https://")):
            link.drop_tag()  # a note, the next chapter: a place in the book, not on the web
    for image in body.iter("img"):
        image.attrib.pop("src", None)  # a file in the book: its alt text stands for it
    body.tag = "section"
    return body


def _metadata(package: etree._Element) -> dict[str, str]:
    """The package's Dublin Core title, creators (joined), language, date and description."""
    found: dict[str, str] = {}
    for name in ("title", "creator", "language", "date", "description"):
        values = [
            " ".join((node.text or "").split()) for node in package.iterfind(f"opf:metadata/dc:{name}", _NS)
        ]
        values = [_plain(value) if name == "description" else value for value in values if value]
        if values:
            found[name] = ", ".join(values) if name == "creator" else values[0]
    return found


def _plain(text: str) -> str:
    """A description as text: some books write it in HTML."""
    if "<" not in text:
        return text
    try:
        return " ".join(html.fragment_fromstring(text, create_parent="div").text_content().split())
    except (etree.ParserError, ValueError):
        return text
