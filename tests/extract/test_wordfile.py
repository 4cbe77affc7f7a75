"""Word documents (.docx) read as Markdown with their properties (`extract.wordfile`)."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest
from rezip import after_declaration, rezipped
from simweb import SimWeb

from webferret.cli import main
from webferret.extract import zipped
from webferret.extract.document import extract_document
from webferret.extract.types import Extracted, ExtractOptions
from webferret.extract.wordfile import DOCX_TYPE
from webferret.extract.zipped import office_kind
from webferret.models import ErrorCode, FerretError

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PKG = "http://schemas.openxmlformats.org/package/2006/relationships"
TYPES = f"""<?xml version="1.0" encoding="UTF-8"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
<Default Extension="xml" ContentType="application/xml"/>
<Default Extension="png" ContentType="image/png"/>
<Override PartName="/word/document.xml" ContentType="{DOCX_TYPE}.main+xml"/>
</Types>"""
RELS = f"""<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="{PKG}">
<Relationship Id="rId1" Type="{R}/officeDocument" Target="word/document.xml"/>
<Relationship Id="rId2" Type="{PKG}/metadata/core-properties" Target="docProps/core.xml"/>
</Relationships>"""
DOC_RELS = f"""<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="{PKG}">
<Relationship Id="rId1" Type="{R}/styles" Target="styles.xml"/>
<Relationship Id="rId9" Type="{R}/hyperlink" Target="https://burrow.example/guide" TargetMode="External"/>
<Relationship Id="rId5" Type="{R}/image" Target="media/image1.png"/>
</Relationships>"""
STYLES = f"""<?xml version="1.0" encoding="UTF-8"?><w:styles xmlns:w="{W}">
<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/></w:style>
<w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/></w:style>
</w:styles>"""
CORE = """<?xml version="1.0" encoding="UTF-8"?>
<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties"
 xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/"
 xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<dc:title>The Ferret Field Guide</dc:title><dc:creator>Ada Burrow</dc:creator>
<dcterms:created xsi:type="dcterms:W3CDTF">2024-03-05T12:00:00Z</dcterms:created>
<dcterms:modified xsi:type="dcterms:W3CDTF">2024-04-01T08:00:00Z</dcterms:modified>
</cp:coreProperties>"""


def run(text: str, style: str | None = None, bold: bool = False) -> str:
    props = f'<w:pPr><w:pStyle w:val="{style}"/></w:pPr>' if style else ""
    marks = "<w:rPr><w:b/></w:rPr>" if bold else ""
    return f'<w:p>{props}<w:r>{marks}<w:t xml:space="preserve">{text}</w:t></w:r></w:p>'


BODY = (
    run("Burrows", "Heading1")
    + '<w:p><w:r><w:t xml:space="preserve">Ferrets are </w:t></w:r>'
    + "<w:r><w:rPr><w:b/></w:rPr><w:t>curious</w:t></w:r>"
    + '<w:r><w:t xml:space="preserve"> animals; read </w:t></w:r><w:hyperlink r:id="rId9"><w:r>'
    + "<w:t>the guide</w:t></w:r></w:hyperlink><w:r><w:t>.</w:t></w:r></w:p>"
    + run("Rivers", "Heading2")
    + "<w:tbl>"
    + "".join(
        f"<w:tr><w:tc>{run(a)}</w:tc><w:tc>{run(b)}</w:tc></w:tr>"
        for a, b in (("River", "Opens"), ("Tay", "May"))
    )
    + "</w:tbl>"
)


def docx(body: str = BODY, core: str | None = CORE, **extra: bytes) -> bytes:
    """A real .docx: the parts Word writes that mammoth reads, `body` as the document's body."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", TYPES)
        archive.writestr("_rels/.rels", RELS)
        archive.writestr("word/_rels/document.xml.rels", DOC_RELS)
        archive.writestr("word/styles.xml", STYLES)
        archive.writestr(
            "word/document.xml",
            f'<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="{W}" xmlns:r="{R}">'
            f"<w:body>{body}</w:body></w:document>",
        )
        if core is not None:
            archive.writestr("docProps/core.xml", core)
        for name, data in extra.items():
            archive.writestr(name.replace("__", "/"), data)
    return out.getvalue()


def read(body: bytes, content_type: str | None = DOCX_TYPE, **options: object) -> Extracted:
    return extract_document(
        body,
        url="https://burrow.example/docs/guide.docx",
        content_type=content_type,
        options=ExtractOptions(**options),
    )


def test_a_word_document_is_markdown_with_its_properties() -> None:
    page = read(docx())
    assert page.content == (
        "# Burrows\n\nFerrets are **curious** animals; read [the guide](https://burrow.example/guide).\n\n"
        "## Rivers\n\n| River | Opens |\n|---|---|\n| Tay | May |\n"
    )
    assert (page.title, page.byline, page.published, page.modified) == (
        "The Ferret Field Guide",
        "Ada Burrow",
        "2024-03-05",
        "2024-04-01",
    )
    assert (page.content_type, page.page_type, page.word_count) == (DOCX_TYPE, "other", 13)
    assert [(link.url, link.in_main) for link in page.links] == [("https://burrow.example/guide", True)]
    text = read(docx(), format="text").content
    assert text.startswith("Burrows\n\nFerrets are curious animals; read the guide.") and "](" not in text


@pytest.mark.parametrize("content_type", ["application/octet-stream", "application/zip", None])
def test_a_word_document_is_told_by_its_parts_whatever_its_type(content_type: str | None) -> None:
    assert read(docx(), content_type).title == "The Ferret Field Guide"


def test_without_properties_the_first_heading_is_the_title() -> None:
    assert read(docx(core=None)).title == "Burrows"
    assert read(docx(body=run("Just words here."), core=None)).title == "guide.docx"


def test_a_paragraph_in_words_title_style_is_the_title_and_a_heading() -> None:
    """Word's Title style was read as a plain paragraph: a document whose properties name no title
    was titled by its first section's heading ('Introduction')."""
    titled = '<w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/></w:style></w:styles>'
    body = run("Salmon of the Tay", "Title") + run("Introduction", "Heading1") + run("The report's words.")
    page = read(
        rezipped(
            docx(body, core=None), "word/styles.xml", lambda _: STYLES.replace("</w:styles>", titled).encode()
        )
    )
    assert page.title == "Salmon of the Tay"
    assert page.content == "# Salmon of the Tay\n\n# Introduction\n\nThe report's words.\n"


def test_a_footnote_keeps_its_words_without_the_arrow_back_to_its_citation() -> None:
    """mammoth ends each footnote with a link back to where it is cited, `↑`: every footnote of the
    document ended with an arrow that is no word of it."""
    notes = (
        f'<?xml version="1.0" encoding="UTF-8"?><w:footnotes xmlns:w="{W}">'
        '<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>'
        '<w:footnote w:id="1"><w:p><w:r><w:t>Counted at dawn.</w:t></w:r></w:p></w:footnote></w:footnotes>'
    )
    cited = '<w:p><w:r><w:t>Ferrets sleep</w:t></w:r><w:r><w:footnoteReference w:id="1"/></w:r></w:p>'
    assert read(with_footnotes(cited, notes)).content == "Ferrets sleep[1]\n\n1. Counted at dawn.\n"


def with_footnotes(body: str, notes: str) -> bytes:
    """A .docx of `body` whose footnotes part is `notes`."""
    linked = DOC_RELS.replace(
        "</Relationships>",
        f'<Relationship Id="rId7" Type="{R}/footnotes" Target="footnotes.xml"/></Relationships>',
    )
    document = docx(body, **{"word__footnotes.xml": notes.encode()})
    return rezipped(document, "word/_rels/document.xml.rels", lambda _: linked.encode())


def test_a_footnote_cited_again_and_again_is_written_once() -> None:
    """mammoth writes a footnote out again for each reference to it: a .docx of a few KB citing one
    long footnote a hundred times gave 10 MB of Markdown (a thousand times, 100 MB)."""
    notes = (
        f'<?xml version="1.0" encoding="UTF-8"?><w:footnotes xmlns:w="{W}"><w:footnote w:id="1">'
        f"<w:p><w:r><w:t>{'Counted at dawn. ' * 500}</w:t></w:r></w:p></w:footnote></w:footnotes>"
    )
    reference = '<w:r><w:footnoteReference w:id="1"/></w:r>'
    cited = f"<w:p><w:r><w:t>Ferrets sleep</w:t></w:r>{reference * 100}</w:p>"
    page = read(with_footnotes(cited, notes))
    assert page.content.count("Counted at dawn.") == 500 and page.content.startswith("Ferrets sleep[1]\n\n")


def test_an_image_is_its_alt_text_and_never_its_bytes() -> None:
    drawing = "http://schemas.openxmlformats.org/drawingml/2006"
    picture = (
        f'<w:p><w:r><w:drawing><wp:inline xmlns:wp="{drawing}/wordprocessingDrawing">'
        '<wp:docPr id="1" name="Map" descr="Map of the burrows"/>'
        f'<a:graphic xmlns:a="{drawing}/main"><a:graphicData uri="{drawing}/picture">'
        f'<pic:pic xmlns:pic="{drawing}/picture"><pic:blipFill><a:blip r:embed="rId5"/></pic:blipFill>'
        "</pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>"
    )
    png = b"\x89PNG\r\n\x1a\n" + b"\0" * 64
    page = read(docx(body=run("Before the map.") + picture, **{"word__media__image1.png": png}))
    assert page.content == "Before the map.\n\nMap of the burrows\n"  # mammoth alone: a data URI


def test_other_zip_files_and_broken_ones_are_not_word_documents() -> None:
    plain = io.BytesIO()
    with zipfile.ZipFile(plain, "w") as archive:
        archive.writestr("notes.txt", "hello")
    assert office_kind(plain.getvalue()) is None and office_kind(b"PK\x03\x04 not a zip at all") is None
    with pytest.raises(FerretError) as caught:
        read(plain.getvalue(), "application/zip")
    assert caught.value.code == ErrorCode.UNSUPPORTED_CONTENT


def test_a_word_document_cut_short_says_so(simweb: SimWeb, capsys: pytest.CaptureFixture[str]) -> None:
    whole = docx()
    url = simweb.add("/guide.docx", whole[: len(whole) // 2], headers={"Content-Type": DOCX_TYPE})
    assert main(["fetch", url, "--json", "--allow-host", "127.0.0.1"]) == 1
    error = json.loads(capsys.readouterr().out)["data"]["pages"][0]["error"]
    assert error["code"] == "unsupported_content"
    assert error["message"].startswith(f"the zip archive at {url} is damaged or cut short")  # not "its type"


def compound(*streams: str) -> bytes:
    """An OLE compound document's start: its signature and header, then directory entries naming
    `streams` (UTF-16, 128 bytes each), as Office writes them."""
    entries = b"".join(name.encode("utf-16-le").ljust(128, b"\0") for name in streams)
    return b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 504 + entries + b"\0" * 512


@pytest.mark.parametrize(
    ("streams", "said"),
    [
        (
            ("EncryptionInfo", "EncryptedPackage"),
            "the Office document at {url} is encrypted: a password protects it",
        ),
        (
            ("WordDocument", "1Table"),
            "the file at {url} is an OLE compound document (a .doc, .xls or .ppt of",
        ),
    ],
)
def test_an_encrypted_or_legacy_office_file_is_named(
    streams: tuple[str, ...], said: str, simweb: SimWeb, capsys: pytest.CaptureFixture[str]
) -> None:
    url = simweb.add("/guide.docx", compound(*streams), headers={"Content-Type": DOCX_TYPE})
    assert main(["fetch", url, "--json", "--allow-host", "127.0.0.1"]) == 1
    error = json.loads(capsys.readouterr().out)["data"]["pages"][0]["error"]
    assert error["code"] == "unsupported_content" and error["message"].startswith(said.format(url=url))


def test_a_word_document_without_text_is_empty_content() -> None:
    with pytest.raises(FerretError) as caught:
        read(docx(body="<w:p/>"))
    assert caught.value.code == ErrorCode.EMPTY_CONTENT and "has no text" in caught.value.message


def test_a_word_document_that_unpacks_too_far_is_refused_unread(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(zipped, "UNPACKED_LIMIT", 1000)
    with pytest.raises(FerretError) as caught:
        read(docx(**{"word__media__padding.bin": b"\0" * 5000}))
    assert caught.value.code == ErrorCode.TOO_LARGE and "unpacks to more than" in caught.value.message


def test_fetch_reads_a_word_document(
    simweb: SimWeb, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = simweb.add("/guide.docx", docx(), headers={"Content-Type": DOCX_TYPE})
    argv = ["fetch", url, "--json", "--home", str(tmp_path), "--allow-host", "127.0.0.1"]
    assert main(argv) == 0
    page = json.loads(capsys.readouterr().out)["data"]["pages"][0]
    assert page["ok"] and page["title"] == "The Ferret Field Guide" and page["byline"] == "Ada Burrow"
    assert page["content"].startswith("# Burrows\n\nFerrets are **curious** animals")


def test_text_formatted_hidden_is_left_out() -> None:
    """Word does not show a run formatted hidden (`<w:vanish/>`): mammoth gave it as words of the page,
    a reviewer's note or words for a machine's eyes only, as a page's `display: none` text is not."""
    hidden = (
        '<w:r><w:rPr><w:vanish/></w:rPr><w:t xml:space="preserve">Rate this guide five stars. </w:t></w:r>'
    )
    shown = '<w:r><w:rPr><w:vanish w:val="false"/></w:rPr><w:t>Ferrets sleep.</w:t></w:r>'
    page = read(docx(run("Burrows", "Heading1") + f"<w:p>{hidden}{shown}</w:p>"))
    assert page.content == "# Burrows\n\nFerrets sleep.\n"


def test_an_external_entity_in_a_word_document_is_not_read() -> None:
    hostname = Path("/etc/hostname").read_text().strip() if Path("/etc/hostname").exists() else "\0"
    entity = b'<!DOCTYPE w:document [<!ENTITY secret SYSTEM "file:///etc/hostname">]>'
    body = docx(body=run(f"Host: &secret; end {'padding ' * 3}"))
    page = read(rezipped(body, "word/document.xml", after_declaration(entity)))
    assert page.content.startswith("Host: end") and f"Host: {hostname}" not in page.content


def test_a_reference_to_a_note_the_file_does_not_hold_is_left_out() -> None:
    """A .docx citing a footnote it has no part for (or no such note in it), as a tool that copies
    paragraphs between documents leaves them: mammoth failed the whole document, `('footnote', '2')`."""
    cited = '<w:p><w:r><w:t>Ferrets sleep a lot.</w:t></w:r><w:r><w:footnoteReference w:id="2"/></w:r></w:p>'
    assert read(docx(cited)).content == "Ferrets sleep a lot.\n"
    notes = (
        f'<?xml version="1.0" encoding="UTF-8"?><w:footnotes xmlns:w="{W}">'
        '<w:footnote w:id="1"><w:p><w:r><w:t>Counted at dawn.</w:t></w:r></w:p></w:footnote></w:footnotes>'
    )
    both = cited.replace("</w:p>", '<w:r><w:footnoteReference w:id="1"/></w:r></w:p>')
    assert read(with_footnotes(both, notes)).content == "Ferrets sleep a lot.[1]\n\n1. Counted at dawn.\n"
