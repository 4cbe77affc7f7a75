"""EPUB books read as Markdown in reading order, with their metadata (`extract.ebook`)."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest
from rezip import after_declaration, garbled, rezipped
from simweb import SimWeb

from webferret.cli import main
from webferret.extract.document import extract_document
from webferret.extract.ebook import EPUB_TYPE
from webferret.extract.types import Extracted, ExtractOptions
from webferret.extract.zipped import office_kind
from webferret.models import ErrorCode, FerretError

CONTAINER = """<?xml version="1.0" encoding="UTF-8"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
<rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles>
</container>"""
PACKAGE = """<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
<metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
<dc:identifier id="id">urn:uuid:1</dc:identifier>
<dc:title>The Ferret Field Guide</dc:title>
<dc:creator>Ada Burrow</dc:creator><dc:creator>Tom Sett</dc:creator>
<dc:language>en</dc:language><dc:date>2023-06-01T00:00:00Z</dc:date>
<dc:description>&lt;p&gt;A guide to &lt;b&gt;ferrets&lt;/b&gt;.&lt;/p&gt;</dc:description>
</metadata>
<manifest>
<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
<item id="two" href="text/chapter%202.xhtml" media-type="application/xhtml+xml"/>
<item id="one" href="text/one.xhtml" media-type="application/xhtml+xml"/>
<item id="note" href="text/note.xhtml" media-type="application/xhtml+xml"/>
<item id="css" href="style.css" media-type="text/css"/>
<item id="pic" href="images/map.png" media-type="image/png"/>
</manifest>
<spine><itemref idref="one"/><itemref idref="note" linear="no"/><itemref idref="two"/></spine>
</package>"""


def chapter(body: str) -> str:
    return (
        '<?xml version="1.0" encoding="UTF-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head>'
        f"<title>part</title><style>p {{ color: red }}</style></head><body>{body}</body></html>"
    )


ONE = chapter(
    "<h1>Burrows</h1><p>Ferrets are <b>curious</b>; see <a href='chapter%202.xhtml#rivers'>the rivers</a>"
    " and <a href='https://burrow.example/guide'>the web guide</a>.</p>"
    "<p><img src='../images/map.png' alt='Map of the burrows'/></p>"
)
TWO = chapter("<h2 id='rivers'>Rivers</h2><ul><li>Tay</li><li>Spey</li></ul><script>alert(1)</script>")
NOTE = chapter("<p>A pop-up footnote, read only when asked for.</p>")


def epub(package: str = PACKAGE, extra: dict[str, str] | None = None) -> bytes:
    """A real EPUB: `mimetype` first and stored, then the container, the package and the chapters."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(zipfile.ZipInfo("mimetype"), EPUB_TYPE)
        archive.writestr("META-INF/container.xml", CONTAINER)
        archive.writestr("OEBPS/content.opf", package)
        archive.writestr("OEBPS/nav.xhtml", chapter("<nav><ol><li>Burrows</li></ol></nav>"))
        archive.writestr("OEBPS/text/one.xhtml", ONE)
        archive.writestr("OEBPS/text/chapter 2.xhtml", TWO)
        archive.writestr("OEBPS/text/note.xhtml", NOTE)
        archive.writestr("OEBPS/images/map.png", b"\x89PNG\r\n\x1a\n" + b"\0" * 32)
        for name, data in (extra or {}).items():
            archive.writestr(name, data)
    return out.getvalue()


def read(body: bytes, content_type: str | None = EPUB_TYPE, **options: object) -> Extracted:
    return extract_document(
        body,
        url="https://burrow.example/books/guide.epub",
        content_type=content_type,
        options=ExtractOptions(**options),
    )


def test_a_book_is_its_chapters_in_reading_order_with_its_metadata() -> None:
    page = read(epub())
    assert page.content == (
        "# Burrows\n\nFerrets are **curious**; see the rivers and [the web guide](https://burrow.example/guide).\n\n"
        "Map of the burrows\n\n## Rivers\n\n- Tay\n- Spey\n"
    )  # the spine's order, not the manifest's; the nav and the non-linear note left out
    assert (page.title, page.byline, page.published, page.language) == (
        "The Ferret Field Guide",
        "Ada Burrow, Tom Sett",
        "2023-06-01",
        "en",
    )
    assert page.description == "A guide to ferrets."
    assert (page.content_type, page.page_type, page.extra["chapters"]) == (EPUB_TYPE, "other", 2)
    assert [link.url for link in page.links] == ["https://burrow.example/guide"]
    text = read(epub(), format="text").content
    assert (
        text.startswith("Burrows\n\nFerrets are curious; see the rivers and the web guide.")
        and "](" not in text
    )


def test_the_navigation_file_in_the_spine_is_no_chapter(
    simweb: SimWeb, capsys: pytest.CaptureFixture[str]
) -> None:
    spine = '<spine><itemref idref="nav"/><itemref idref="one"/><itemref idref="two"/></spine>'
    book = epub(PACKAGE.replace(PACKAGE[PACKAGE.index("<spine>") : PACKAGE.index("</spine>") + 8], spine))
    url = simweb.add("/guide.epub", book, headers={"Content-Type": EPUB_TYPE})
    assert main(["fetch", url, "--json", "--allow-host", "127.0.0.1"]) == 0
    page = json.loads(capsys.readouterr().out)["data"]["pages"][0]
    assert page["content"].startswith("# Burrows\n\nFerrets are **curious**")
    assert page["meta"]["extract"]["chapters"] == 2


@pytest.mark.parametrize("content_type", ["application/octet-stream", "application/zip", None])
def test_a_book_is_told_by_its_parts_whatever_its_type(content_type: str | None) -> None:
    assert office_kind(epub()) == "epub"
    assert read(epub(), content_type).title == "The Ferret Field Guide"


def test_without_a_title_the_first_heading_is_the_title() -> None:
    assert read(epub(PACKAGE.replace("<dc:title>The Ferret Field Guide</dc:title>", ""))).title == "Burrows"


def test_an_encrypted_book_is_said_to_be_and_font_obfuscation_is_not() -> None:
    def encryption(algorithm: str, uri: str) -> str:
        return (
            '<encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" '
            'xmlns:enc="http://www.w3.org/2001/04/xmlenc#"><enc:EncryptedData>'
            f'<enc:EncryptionMethod Algorithm="{algorithm}"/>'
            f'<enc:CipherData><enc:CipherReference URI="{uri}"/></enc:CipherData>'
            "</enc:EncryptedData></encryption>"
        )

    aes = "http://www.w3.org/2001/04/xmlenc#aes128-cbc"
    drm = epub(extra={"META-INF/encryption.xml": encryption(aes, "OEBPS/text/one.xhtml")})
    with pytest.raises(FerretError) as caught:
        read(drm)
    assert caught.value.code == ErrorCode.UNSUPPORTED_CONTENT and "encrypted (DRM)" in caught.value.message
    obfuscated = encryption("http://www.idpf.org/2008/embedding", "OEBPS/text/one.xhtml")
    assert read(epub(extra={"META-INF/encryption.xml": obfuscated})).word_count


def test_a_broken_book_is_unsupported_and_an_empty_one_empty() -> None:
    no_package = epub(PACKAGE).replace(b"OEBPS/content.opf", b"OEBPS/content.xxx")
    with pytest.raises(FerretError) as caught:
        read(no_package)
    assert (
        caught.value.code == ErrorCode.UNSUPPORTED_CONTENT and "no package document" in caught.value.message
    )
    empty = PACKAGE.replace('<itemref idref="one"/>', "").replace('<itemref idref="two"/>', "")
    with pytest.raises(FerretError) as caught:
        read(epub(empty))
    assert caught.value.code == ErrorCode.EMPTY_CONTENT and "has no text" in caught.value.message


def test_a_chapter_whose_compressed_bytes_are_damaged_leaves_the_others_read() -> None:
    """A chapter whose deflated bytes do not inflate (a download damaged in the middle) failed the
    whole book as an `internal` error, zlib's own, where a missing chapter leaves the others read."""
    page = read(garbled(epub(), "OEBPS/text/one.xhtml"))
    assert page.content == "## Rivers\n\n- Tay\n- Spey\n" and page.title == "The Ferret Field Guide"
    assert page.extra["unreadable_chapters"] == ["OEBPS/text/one.xhtml"]


def test_a_book_whose_chapters_are_all_damaged_is_unsupported_not_empty() -> None:
    """A book whose chapters are all missing or damaged was `empty_content`, "has no text", as if
    it had been written without words; it is a damaged file, as a deck of damaged slides is."""
    damaged = garbled(garbled(epub(), "OEBPS/text/one.xhtml"), "OEBPS/text/chapter 2.xhtml")
    with pytest.raises(FerretError) as caught:
        read(damaged)
    assert caught.value.code == ErrorCode.UNSUPPORTED_CONTENT
    assert "its chapters are missing or damaged (OEBPS/text/one.xhtml" in caught.value.message


def test_an_external_entity_in_a_book_is_not_read() -> None:
    hostname = Path("/etc/hostname").read_text().strip() if Path("/etc/hostname").exists() else "\0"
    entity = b'<!DOCTYPE package [<!ENTITY secret SYSTEM "file:///etc/hostname">]>'
    title = PACKAGE.replace("The Ferret Field Guide", "Guide &secret; end")
    page = read(rezipped(epub(title), "OEBPS/content.opf", after_declaration(entity)))
    assert page.title.startswith("Guide") and hostname not in page.title


def test_fetch_and_extract_read_a_book(
    simweb: SimWeb, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = simweb.add("/guide.epub", epub(), headers={"Content-Type": EPUB_TYPE})
    assert main(["fetch", url, "--json", "--home", str(tmp_path), "--allow-host", "127.0.0.1"]) == 0
    page = json.loads(capsys.readouterr().out)["data"]["pages"][0]
    assert (
        page["ok"] and page["title"] == "The Ferret Field Guide" and page["byline"] == "Ada Burrow, Tom Sett"
    )
    assert page["content"].startswith("# Burrows\n\nFerrets are **curious**")
    book = tmp_path / "guide.epub"
    book.write_bytes(epub())
    assert main(["extract", str(book), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["data"]["pages"][0]["content"].endswith("- Tay\n- Spey\n")


def with_first_chapter(data: bytes) -> bytes:
    return rezipped(epub(), "OEBPS/text/one.xhtml", lambda _: data)


@pytest.mark.parametrize(
    "data",
    [
        '<html xmlns="http://www.w3.org/1999/xhtml"><body><p>Café “naive”</p></body></html>'.encode(),
        '<?xml version="1.0" encoding="ISO-8859-1"?><html><body><p>Café “naive”</p></body></html>'.encode(
            "cp1252"
        ),
    ],
    ids=["utf-8 without a declaration", "latin-1 declared"],
)
def test_a_chapter_is_read_in_the_encoding_xml_gives_it(data: bytes) -> None:
    """A chapter was parsed as HTML bytes, whose encoding is Latin-1 when no <meta> names one: an
    XHTML chapter without an XML declaration (UTF-8, as XML is) came out as 'CafÃ©', and a declaration's
    own encoding was not read ('Caf�')."""
    assert read(with_first_chapter(data)).content.startswith("Café “naive”\n")


def test_a_chapter_nested_past_the_parsers_depth_keeps_its_words() -> None:
    """A chapter nested deeper than libxml2's limit (256) was dropped whole, and silently."""
    deep = "<div>" * 300 + "<p>Deep in the burrow.</p>" + "</div>" * 300 + "<p>Back out.</p>"
    page = read(with_first_chapter(chapter(deep).encode()))
    assert page.content.startswith("Deep in the burrow.\n\nBack out.\n")


def test_a_chapter_the_spine_lists_again_and_again_is_read_once() -> None:
    """A spine that lists one chapter a thousand times had it parsed and held a thousand times: a
    book of a few KB around a 200 KB chapter held 200 MB of text, and took seconds a hundred refs."""
    again = PACKAGE.replace(
        '<itemref idref="two"/>', '<itemref idref="two"/>' + '<itemref idref="one"/>' * 1000
    )
    page = read(epub(again))
    assert page.extra["chapters"] == 2 and page.content.count("Ferrets are **curious**") == 1


def test_a_chapter_s_soft_hyphens_are_not_read() -> None:
    hyphenated = chapter("<h1>Bur&#173;rows</h1><p>Fer&#xad;rets are extra\u00adordinarily curious.</p>")
    page = read(with_first_chapter(hyphenated.encode()))
    assert page.content.startswith("# Burrows\n\nFerrets are extraordinarily curious.\n")
