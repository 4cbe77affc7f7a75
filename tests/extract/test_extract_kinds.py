"""Dispatch by kind: PDF, JSON, XML, text, source files, binary; errors that say why."""

from __future__ import annotations

import gzip
import io
import json
import zipfile
from dataclasses import replace

import pytest
from pypdf import PdfWriter
from pypdf.generic import DecodedStreamObject, DictionaryObject, NameObject
from simweb import SimWeb

from webferret.cli import main
from webferret.extract.document import extract_document
from webferret.extract.types import Extracted, ExtractOptions
from webferret.models import ErrorCode, FerretError

OPTIONS = ExtractOptions()


def make_pdf(pages: list[str], *, password: str | None = None, title: str | None = "Field Notes") -> bytes:
    """A real PDF with Helvetica text, a line per line of each page's string (an empty string: a page
    without text), and `title` as its metadata /Title (None: no /Title)."""
    writer = PdfWriter()
    for line in pages:
        page = writer.add_blank_page(width=612, height=792)
        if line:
            font = DictionaryObject(
                {
                    NameObject("/Type"): NameObject("/Font"),
                    NameObject("/Subtype"): NameObject("/Type1"),
                    NameObject("/BaseFont"): NameObject("/Helvetica"),
                }
            )
            fonts = DictionaryObject({NameObject("/F1"): writer._add_object(font)})
            page[NameObject("/Resources")] = DictionaryObject({NameObject("/Font"): fonts})
            stream = DecodedStreamObject()
            shown = " 0 -16 Td ".join(f"({text}) Tj" for text in line.split("\n"))
            stream.set_data(f"BT /F1 12 Tf 72 720 Td {shown} ET".encode("latin-1"))
            page[NameObject("/Contents")] = writer._add_object(stream)
    info = {"/Author": "Ada Lovelace", "/CreationDate": "D:20240305120000"}
    writer.add_metadata(info | ({"/Title": title} if title is not None else {}))
    if password:
        writer.encrypt(password)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def run(body: bytes, url: str, content_type: str | None, options: ExtractOptions = OPTIONS) -> Extracted:
    return extract_document(body, url=url, content_type=content_type, options=options)


def error_of(
    body: bytes, url: str, content_type: str | None, options: ExtractOptions = OPTIONS
) -> FerretError:
    with pytest.raises(FerretError) as caught:
        run(body, url, content_type, options)
    return caught.value


def test_pdf_text_with_page_markers_and_metadata() -> None:
    page = run(
        make_pdf(["First page words", "Second page words"]), "https://ex.org/notes.pdf", "application/pdf"
    )
    assert page.title == "Field Notes"
    assert page.byline == "Ada Lovelace"
    assert page.published == "2024-03-05"
    assert page.extra["pages"] == 2
    assert page.content.index("<!-- page 1 -->") < page.content.index("First page words")
    assert page.content.index("<!-- page 2 -->") < page.content.index("Second page words")
    text = run(make_pdf(["Only words"]), "https://ex.org/a.pdf", None, ExtractOptions(format="text"))
    assert text.content == "Only words\n"


@pytest.mark.parametrize("title", [None, "", "   ", "untitled", "Microsoft Word - draft3.docx", "Document1"])
def test_pdf_without_a_real_title_is_titled_by_its_first_line(title: str | None) -> None:
    pages = [
        "Ferret Field Journal\n1\nThe Burrow Survey of 2024\nby Ada Lovelace\nWe counted every burrow.",
        "Ferret Field Journal\nMore counting of burrows.\n2",
        "Ferret Field Journal\nThe end of the count.\n3",
    ]
    page = run(make_pdf(pages, title=title), "https://ex.org/report-final.pdf", "application/pdf")
    assert page.title == "The Burrow Survey of 2024"  # not the running header, not the page number
    assert run(make_pdf(["iv\nShort Title\nbody"], title=title), "https://ex.org/x.pdf", None).title == (
        "Short Title"
    )


def test_pdf_first_line_title_falls_back_to_the_file_name() -> None:
    long_line = " ".join(["word"] * 40)
    for text in (long_line, "12", "- 3 -"):
        assert run(make_pdf([text], title=None), "https://ex.org/notes.pdf", None).title == "notes.pdf"
    assert run(make_pdf(["A title"], title="A real title"), "https://ex.org/n.pdf", None).title == (
        "A real title"
    )


def test_pdf_sniffed_even_when_served_as_html() -> None:
    page = run(make_pdf(["Sniffed"]), "https://ex.org/x", "text/html")
    assert page.content_type == "application/pdf"


def test_a_page_served_as_a_pdf_is_read_as_the_page_it_is(
    simweb: SimWeb, capsys: pytest.CaptureFixture[str]
) -> None:
    """A login or error page at a report's address, served as application/pdf (or saved as
    `report.pdf`), was handed to the PDF reader: `the PDF cannot be read: Stream has ended
    unexpectedly`. No PDF opens without `%PDF-` in its first KB (nor an object, its header lost)."""
    page = "<html><head><title>Sign in</title></head><body><h1>Sign in to read the report</h1></body></html>"
    url = simweb.add("/report.pdf", page, headers={"Content-Type": "application/pdf"})
    assert main(["fetch", url, "--json", "--allow-host", "127.0.0.1"]) == 0
    fetched = json.loads(capsys.readouterr().out)["data"]["pages"][0]
    assert (fetched["title"], fetched["content_type"]) == ("Sign in", "text/html")
    assert run(b"Plain words, no PDF.\n", "https://ex.org/notes.pdf", "application/pdf").content == (
        "Plain words, no PDF.\n"
    )
    junk_first = b"\r\n<!-- served by a proxy -->\n" + make_pdf(["Still a PDF"])  # readers skip it
    assert "Still a PDF" in run(junk_first, "https://ex.org/a.pdf", "application/pdf").content


@pytest.mark.parametrize("content_type", ["text/html", "application/octet-stream", None])
def test_a_pdf_after_a_scripts_warnings_is_a_pdf(content_type: str | None) -> None:
    """A PHP download script whose warning is printed before the file cannot send its Content-Type:
    the PDF comes as text/html after the warning's HTML, and was read as an HTML page of the PDF's
    source (`%PDF-1.3 %âãÏÓ 1 0 obj << /Producer ...`). PDF readers find its header in the first KB."""
    warning = (
        b"<br />\n<b>Warning</b>:  Cannot modify header information - headers already sent by (output "
        b"started at /var/www/download.php:3) in <b>/var/www/download.php</b> on line <b>12</b><br />\n"
    )
    page = run(warning + make_pdf(["Weir counts"]), "https://ex.org/download.php?id=7", content_type)
    assert (
        page.content_type == "application/pdf" and "Weir counts" in page.content and "obj" not in page.content
    )
    about = b"<html><body><p>A PDF's first line:</p><pre>%PDF-1.7\n</pre><p>Its last: startxref 9 %%EOF</p>"
    assert run(about, "https://ex.org/pdf-format", content_type).content_type != "application/pdf"


def test_a_typescript_file_a_static_server_labels_as_video_is_code(
    simweb: SimWeb, capsys: pytest.CaptureFixture[str]
) -> None:
    """nginx and Python's http.server serve a `.ts` file as video/mp2t (MPEG transport stream): a
    TypeScript file fetched from one failed as unsupported_content, "cannot read content of type
    video/mp2t". Text under a media type is read as the text it is."""
    code = "export function greet(name: string): string {\n  return `Hello, ${name}`;\n}\n"
    url = simweb.add("/src/app.ts", code, headers={"Content-Type": "video/mp2t"})
    assert main(["fetch", url, "--json", "--allow-host", "127.0.0.1"]) == 0
    page = json.loads(capsys.readouterr().out)["data"]["pages"][0]
    assert page["ok"] and page["content"] == f"```typescript\n{code}```\n"


@pytest.mark.parametrize(("said", "language"), [("en-GB", "en-GB"), ("<script>", None)])
def test_a_pdf_names_its_language_in_its_catalog(said: str, language: str | None) -> None:
    """Chrome and Word write the document's language as the catalog's `/Lang`; it was left out, and the
    page had no language where its Word or EPUB twin had one."""
    from pypdf.generic import TextStringObject

    writer = PdfWriter(clone_from=io.BytesIO(make_pdf(["Words"])))
    writer._root_object[NameObject("/Lang")] = TextStringObject(said)
    out = io.BytesIO()
    writer.write(out)
    assert run(out.getvalue(), "https://ex.org/a.pdf", "application/pdf").language == language
    assert run(make_pdf(["Words"]), "https://ex.org/a.pdf", "application/pdf").language is None


def test_a_pdf_after_a_scripts_blank_lines_is_a_pdf(
    simweb: SimWeb, capsys: pytest.CaptureFixture[str]
) -> None:
    """A download script that prints a blank line before the file sends `\\r\\n%PDF-...` as
    application/octet-stream: readers skip the blank line; it was read as text, the PDF's source."""
    url = simweb.add(
        "/download/7",
        b"\r\n\r\n" + make_pdf(["Weir counts"]),
        headers={"Content-Type": "application/octet-stream"},
    )
    assert main(["fetch", url, "--json", "--allow-host", "127.0.0.1"]) == 0
    fetched = json.loads(capsys.readouterr().out)["data"]["pages"][0]
    assert (fetched["title"], fetched["content_type"]) == ("Field Notes", "application/pdf")
    assert "Weir counts" in fetched["content"] and "obj" not in fetched["content"]


def test_encrypted_pdf_is_unsupported_and_says_why() -> None:
    error = error_of(make_pdf(["secret"], password="hunter2"), "https://ex.org/locked.pdf", "application/pdf")
    assert error.code == ErrorCode.UNSUPPORTED_CONTENT
    assert "encrypted" in error.message and "locked.pdf" in error.message


def test_image_only_pdf_is_empty_content() -> None:
    error = error_of(make_pdf(["", ""]), "https://ex.org/scan.pdf", "application/pdf")
    assert error.code == ErrorCode.EMPTY_CONTENT
    assert "no text layer" in error.message


def test_a_pdf_lists_the_web_links_of_its_annotations() -> None:
    """A paper's links are followed as a page's are: its link annotations were not read at all."""
    from pypdf.annotations import Link as LinkAnnotation
    from pypdf.generic import ArrayObject

    writer = PdfWriter(clone_from=io.BytesIO(make_pdf(["See the guide\nhttps://example.org/guide", "Two"])))
    writer.add_annotation(0, LinkAnnotation(rect=(70, 700, 300, 715), url="https://example.org/guide"))
    writer.add_annotation(0, LinkAnnotation(rect=(70, 715, 300, 730), target_page_index=1))  # in itself
    writer.add_annotation(1, LinkAnnotation(rect=(0, 0, 9, 9), url="../data/set.csv"))
    writer.add_annotation(1, LinkAnnotation(rect=(0, 0, 9, 9), url="mailto:ada@example.org"))
    writer.add_annotation(1, LinkAnnotation(rect=(0, 0, 9, 9), url="https://example.org/guide"))
    writer.add_annotation(1, LinkAnnotation(rect=(0, 0, 9, 9), url="https://example.org/odd"))
    odd = writer.pages[1][NameObject("/Annots")][-1].get_object()
    odd[NameObject("/Rect")] = ArrayObject([NameObject("/x")])  # a damaged rectangle: no words
    writer.pages[1][NameObject("/Annots")].append(ArrayObject())  # a damaged one: no dictionary
    out = io.BytesIO()
    writer.write(out)
    page = run(out.getvalue(), "https://ex.org/papers/notes.pdf", "application/pdf")
    assert [(link.url, link.text, link.in_main) for link in page.links] == [
        ("https://example.org/guide", "https://example.org/guide", True),  # the words drawn inside it
        ("https://ex.org/data/set.csv", "", True),
        ("https://example.org/odd", "", True),
    ]
    assert "Two" in page.content


def test_a_pdf_link_whose_address_is_no_string_is_left_out() -> None:
    """A damaged link whose /URI is a number or a name was read as a relative link ("5": .../5)."""
    from pypdf.annotations import Link as LinkAnnotation
    from pypdf.generic import NumberObject, TextStringObject

    writer = PdfWriter(clone_from=io.BytesIO(make_pdf(["Links"])))
    for url in ("https://example.org/one", "https://example.org/two", "https://example.org/three"):
        writer.add_annotation(0, LinkAnnotation(rect=(0, 0, 9, 9), url=url))
    annotations = writer.pages[0][NameObject("/Annots")]
    annotations[0].get_object()["/A"][NameObject("/URI")] = NumberObject(5)
    annotations[1].get_object()["/A"][NameObject("/URI")] = NameObject("/guide")
    annotations[2].get_object()["/A"][NameObject("/URI")] = writer._add_object(TextStringObject("kept.html"))
    out = io.BytesIO()
    writer.write(out)
    page = run(out.getvalue(), "https://ex.org/papers/notes.pdf", "application/pdf")
    assert [link.url for link in page.links] == ["https://ex.org/papers/kept.html"]


def damaged(body: bytes, *numbers: int) -> bytes:
    """`body` with pages `numbers` (from 1) drawing an inline image cut short, which pypdf cannot read."""
    writer = PdfWriter(clone_from=io.BytesIO(body))
    for number in numbers:
        stream = DecodedStreamObject()
        stream.set_data(b"BT /F1 12 Tf 72 720 Td (Lost words) Tj ET BI /W 1 /H 1 ID \x00\x01")
        writer.pages[number - 1][NameObject("/Contents")] = writer._add_object(stream)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def test_a_damaged_pdf_page_is_marked_and_the_others_are_read() -> None:
    body = damaged(make_pdf(["First page words", "Second page words", "Third page words"]), 2)
    page = run(body, "https://ex.org/notes.pdf", "application/pdf")
    assert page.content.startswith("<!-- page 1 -->\n\nFirst page words\n\n<!-- page 2: cannot be read (")
    assert page.content.endswith("-->\n\n<!-- page 3 -->\n\nThird page words\n")
    assert page.extra["pages"] == 3 and [item["page"] for item in page.extra["unreadable_pages"]] == [2]
    assert page.extra["unreadable_pages"][0]["error"].startswith("PdfReadError: ")
    text = run(body, "https://ex.org/notes.pdf", None, ExtractOptions(format="text"))
    assert text.content == "First page words\n\nThird page words\n" and text.word_count == 6


def test_pages_past_what_one_pdf_may_draw_are_not_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """A content stream that unpacks to 60 MB, shared by 2,000 pages: a 375 KB file held `extract`
    for more than half an hour (each page parsed it anew). The pages are read until they have drawn
    `DRAWN_MAX` bytes; each page after says it was not read."""
    from webferret.extract import pdfsize

    drawn = len(b"BT /F1 12 Tf 72 720 Td (Words one) Tj ET")  # each page's content stream
    monkeypatch.setattr(pdfsize, "DRAWN_MAX", 2 * drawn + 10)
    page = run(make_pdf(["Words one", "Words two", "Words six"]), "https://ex.org/a.pdf", "application/pdf")
    assert page.content.startswith("<!-- page 1 -->\n\nWords one\n\n<!-- page 2 -->\n\nWords two\n\n")
    why = "the pages up to it draw more than 90 bytes, the most read in one PDF"
    assert page.content.endswith(f"<!-- page 3: cannot be read ({why}) -->\n")
    assert [item["page"] for item in page.extra["unreadable_pages"]] == [3]


def test_a_form_a_page_draws_again_and_again_counts_each_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """A page's content stream of `/Fm1 Do` a thousand times (a few KB, compressed) draws a form of 5 KB
    of text a thousand times: the form was counted once against `DRAWN_MAX`, and a 21 KB file gave
    5 MB of text (a hundred thousand times: hours). Each time it is drawn, it counts."""
    from webferret.extract import pdfsize

    writer = PdfWriter(clone_from=io.BytesIO(make_pdf(["Words one"])))
    form = DecodedStreamObject()
    form.set_data(b"BT /F1 12 Tf 72 700 Td (Drawn again and again) Tj ET")
    form.update({NameObject("/Type"): NameObject("/XObject"), NameObject("/Subtype"): NameObject("/Form")})
    page = writer.pages[0]
    font = page["/Resources"]["/Font"]
    form[NameObject("/Resources")] = DictionaryObject({NameObject("/Font"): font})
    page["/Resources"][NameObject("/XObject")] = DictionaryObject(
        {NameObject("/Fm1"): writer._add_object(form)}
    )
    drawing = DecodedStreamObject()
    drawing.set_data(b"q /Fm1 Do Q " * 50)
    page[NameObject("/Contents")] = writer._add_object(drawing)
    out = io.BytesIO()
    writer.write(out)
    drawn_once = len(drawing.get_data()) + len(form.get_data())  # what was counted: the form once
    monkeypatch.setattr(pdfsize, "DRAWN_MAX", drawn_once + 10 * len(form.get_data()))
    with pytest.raises(FerretError) as caught:
        run(out.getvalue(), "https://ex.org/forms.pdf", "application/pdf")
    assert "draw more than" in caught.value.message
    monkeypatch.setattr(pdfsize, "DRAWN_MAX", drawn_once + 50 * len(form.get_data()))
    assert (
        "Drawn again and again" in run(out.getvalue(), "https://ex.org/forms.pdf", "application/pdf").content
    )


def test_a_pdf_whose_every_page_is_damaged_says_so() -> None:
    error = error_of(damaged(make_pdf(["One", "Two"]), 1, 2), "https://ex.org/broken.pdf", "application/pdf")
    assert error.code == ErrorCode.UNSUPPORTED_CONTENT
    assert (
        "broken.pdf cannot be read: no page gave text, and pages 1, 2 of 2 are damaged (page 1: "
        in error.message
    )


def test_json_is_pretty_printed_and_fenced() -> None:
    page = run(b'{"b":[1,2],"a":"\xc3\xa9"}', "https://api.ex.org/v1/x", "application/json; charset=utf-8")
    assert page.content == '```json\n{\n  "b": [\n    1,\n    2\n  ],\n  "a": "é"\n}\n```\n'


@pytest.mark.parametrize(
    "body",
    [
        b'{"depth": 1e400, "unit": "m"}',  # no float holds it: parsed, it would read Infinity
        b'{"id": 1, "id": 2, "unit": "m"}',  # parsed, the first id would be lost
        b'{"price": 19.99000000000000000001, "unit": "m"}',  # parsed, it would read 19.99
    ],
)
def test_json_that_parsing_would_change_is_shown_as_it_came(
    body: bytes, simweb: SimWeb, capsys: pytest.CaptureFixture[str]
) -> None:
    url = simweb.add("/v1/reading", body, headers={"Content-Type": "application/json"})
    assert main(["fetch", url, "--json", "--allow-host", "127.0.0.1"]) == 0
    page = json.loads(capsys.readouterr().out)["data"]["pages"][0]
    assert page["content"] == f"```json\n{body.decode()}\n```\n"


def test_json_with_an_escaped_lone_surrogate_is_read_with_a_replacement_character(
    simweb: SimWeb, capsys: pytest.CaptureFixture[str]
) -> None:
    """`"\\ud800"` is half of a character: the page failed as `internal` (UTF-8 cannot write it) and
    `webferret extract -` ended with a UnicodeEncodeError; a pair of them is the character they make."""
    body = b'{"name": "Ferret \\ud800 facts", "face": "\\ud83d\\ude00", "\\udc00": 1}'
    url = simweb.add("/v1/lone", body, headers={"Content-Type": "application/json"})
    assert main(["fetch", url, "--json", "--allow-host", "127.0.0.1"]) == 0
    page = json.loads(capsys.readouterr().out)["data"]["pages"][0]
    assert page["ok"] and '"Ferret \ufffd facts"' in page["content"]
    assert '"face": "\U0001f600"' in page["content"] and '"\ufffd": 1' in page["content"]


def test_source_file_fenced_with_language_from_extension() -> None:
    url = "https://raw.githubusercontent.com/o/r/main/src/lib.rs"
    page = run(b"fn main() {}\n", url, "text/plain; charset=utf-8")
    assert page.content == "```rust\nfn main() {}\n```\n"
    assert run(b"print(1)\n", "https://ex.org/raw", "text/x-python").content.startswith("```python\n")


def test_plain_text_and_xml() -> None:
    assert run(b"just words\n", "https://ex.org/readme", "text/plain").content == "just words\n"
    xml = run(b"<?xml version='1.0'?><rss><channel/></rss>", "https://ex.org/feed", "application/rss+xml")
    assert xml.content.startswith("```xml\n<?xml")


@pytest.mark.parametrize(
    ("url", "mime", "expected"),
    [
        ("https://ex.org/notes.txt", "text/plain", "line one\nline two\n\npara two\nmid\n"),
        ("https://ex.org/notes.md", "text/markdown", "line one\nline two\n\npara two\nmid\n"),
        ("https://ex.org/notes.py", "text/x-python", "```python\nline one\nline two\n\npara two\nmid\n```\n"),
    ],
)
def test_a_texts_crlf_and_lone_cr_line_ends_are_line_ends(url: str, mime: str, expected: str) -> None:
    """A Windows file's CRLF stayed in the content (`\\r\\n` in the JSON, `^M` in an editor), and an
    old Mac file's lone CR was dropped, joining the last word of a line to the next line's first."""
    page = run(b"line one\r\nline two\r\n\r\npara two\rmid\r\n", url, mime)
    assert page.content == expected


@pytest.mark.parametrize(
    ("body", "title"),
    [
        (b"Intro line.\n\n```sh\n# not a heading\n```\n\n## Install ##\n\nRun it.\n", "Install"),
        (b"---\ntitle: 'From the front matter'\n---\n# Heading\n", "From the front matter"),
        (b"#hashtag, no heading here\n", "README.md"),  # nothing to take: the file name, as before
        # a YAML comment in the front matter is no heading (it titled the file "Build settings")
        (b"---\n# Build settings\nlayout: post\n---\n\nWords.\n\n## Care\n", "Care"),
    ],
)
def test_markdown_is_titled_by_its_heading(body: bytes, title: str) -> None:
    page = run(body, "https://raw.githubusercontent.com/o/r/main/README.md", "text/markdown")
    assert page.title == title and page.content.startswith(body.decode().strip()[:10])


def test_a_markdown_files_front_matter_gives_its_author_dates_and_description() -> None:
    """Jekyll's and Hugo's front matter says who wrote a post and when: only its title was read, and
    its lines were counted as the page's words."""
    body = (
        b"---\ntitle: Ferret care\nauthor: 'Ada Burrow'\ndate: 2024-03-05T10:00:00+01:00\n"
        b"lastmod: 2024-04-01\ndescription: How to keep a ferret.\ntags: [pets]\n---\n\n"
        b"# Ferret care\n\nFeed them.\n"
    )
    for fmt in ("markdown", "text"):
        page = run(body, "https://ex.org/posts/care.md", "text/markdown", ExtractOptions(format=fmt))
        assert (page.title, page.byline, page.published, page.modified, page.description) == (
            "Ferret care",
            "Ada Burrow",
            "2024-03-05",
            "2024-04-01",
            "How to keep a ferret.",
        )
        assert page.word_count == 4
    assert run(b"# Notes\n\nNo front matter.\n", "https://ex.org/n.md", "text/markdown").byline is None


@pytest.mark.parametrize(
    ("created", "modified"), [("20240305120000Z", "20240401"), ("D:20240305120000+01'00'", "D:20240401")]
)
def test_a_pdfs_dates_are_read_with_or_without_their_d_prefix(created: str, modified: str) -> None:
    """A PDF date written without its `D:` (as many writers do) was read from its third digit on
    ('24030512'), no date: the document had no publication date."""
    writer = PdfWriter(clone_from=io.BytesIO(make_pdf(["Dated words"])))
    writer.add_metadata({"/CreationDate": created, "/ModDate": modified})
    out = io.BytesIO()
    writer.write(out)
    page = run(out.getvalue(), "https://ex.org/dated.pdf", "application/pdf")
    assert (page.published, page.modified) == ("2024-03-05", "2024-04-01")


def test_binary_and_png_served_as_html_are_unsupported() -> None:
    png = b"\x89PNG\r\n\x1a\n" + bytes(range(256))
    error = error_of(png, "https://ex.org/page", "text/html")
    assert error.code == ErrorCode.UNSUPPORTED_CONTENT
    assert error.message == 'the body is binary data, though declared "text/html" at https://ex.org/page'
    blob = error_of(b"\x00\x01\x02" * 100, "https://ex.org/blob", "application/octet-stream")
    assert blob.code == ErrorCode.UNSUPPORTED_CONTENT
    assert blob.message == 'cannot read content of type "application/octet-stream" at https://ex.org/blob'


@pytest.mark.parametrize(
    "mime", ["application/pdf", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"]
)
def test_a_zip_archive_served_as_a_document_webferret_reads_is_said_to_be_one(mime: str) -> None:
    """A zip archive (or an image) served as a PDF or a Word document was refused as 'cannot read
    content of type "application/pdf"', as if webferret read no PDF."""
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr("notes.txt", "not a document")
    error = error_of(archive.getvalue(), "https://ex.org/report", mime)
    assert error.code == ErrorCode.UNSUPPORTED_CONTENT
    assert error.message == (
        f'the body is a zip archive that holds no document webferret reads, though declared "{mime}"'
        " at https://ex.org/report"
    )
    png = error_of(b"\x89PNG\r\n\x1a\n" + bytes(range(256)), "https://ex.org/report", mime)
    assert png.message == f'the body is binary data, though declared "{mime}" at https://ex.org/report'


ARTICLE = (
    "<html><head><title>Ferret notes</title></head><body><article><h1>Ferret notes</h1>"
    + "<p>A ferret reads every page it is given, and keeps the words that matter.</p>" * 8
    + "</article></body></html>"
)


def test_a_gzip_file_is_unpacked_once_and_read_as_what_is_inside() -> None:
    page = run(gzip.compress(ARTICLE.encode()), "https://ex.org/page.html", "text/html; charset=utf-8")
    assert page.title and "ferret" in page.content.lower()
    data = gzip.compress(b'{"name": "webferret", "kinds": ["html", "pdf"]}')
    assert '"webferret"' in run(data, "https://ex.org/data.json.gz", "application/gzip").content
    twice = gzip.compress(gzip.compress(ARTICLE.encode()))
    assert error_of(twice, "https://ex.org/x.gz", "application/gzip").message == (
        "cannot read content of an unknown binary type at https://ex.org/x.gz"
    )


def test_a_corrupt_or_oversized_gzip_file_says_so() -> None:
    corrupt = gzip.compress(ARTICLE.encode())[:12] + b"\x00" * 64
    error = error_of(corrupt, "https://ex.org/page.html", "text/html; charset=utf-8")
    assert error.code == ErrorCode.UNSUPPORTED_CONTENT
    assert error.message == "the gzip file at https://ex.org/page.html is corrupt"
    cut = gzip.compress(b'{"a": "' + b"x" * 5000 + b'"}')  # half of it unpacks to nothing yet
    error = error_of(cut[: len(cut) // 2], "https://ex.org/data.json.gz", "application/gzip")
    assert (error.code, error.message) == (
        ErrorCode.UNSUPPORTED_CONTENT,
        "the gzip file at https://ex.org/data.json.gz is cut short",
    )  # it was an empty JSON fence, ok
    bomb = gzip.compress(b"a" * (2 * 1024 * 1024))
    error = error_of(
        bomb, "https://ex.org/big.txt.gz", "application/gzip", replace(OPTIONS, unpack_limit=1024**2)
    )
    assert error.code == ErrorCode.UNSUPPORTED_CONTENT
    assert error.message == "the gzip file at https://ex.org/big.txt.gz unpacks to more than 1 MiB"


def test_windows_1252_declared_in_meta_decodes_without_mojibake() -> None:
    body = '<html><head><meta charset="windows-1252"><title>Caf\xe9</title></head><p>na\xefve</p></html>'
    page = run(body.encode("cp1252"), "https://ex.org/", "text/html")
    assert page.title == "Café"


def test_empty_html_is_empty_content() -> None:
    assert error_of(b"   ", "https://ex.org/empty", "text/html").code == ErrorCode.EMPTY_CONTENT


@pytest.mark.parametrize(
    ("url", "mime"),
    [("https://ex.org/e.json", "application/json"), ("https://ex.org/e.xml", "application/xml"),
     ("https://ex.org/e.py", "text/x-python"), ("https://ex.org/e.json", None)],
)  # fmt: skip
def test_an_empty_fenced_document_is_empty_content(url: str, mime: str | None) -> None:
    """An empty JSON, XML or source file was an empty code fence, ok with no word: it has no
    content, which the pipeline says is `empty_content` (`test_cli_extract`)."""
    page = run(b" \n", url, mime)
    assert (page.content, page.word_count) == ("", 0)


def test_html_fragment_without_content_type_is_sniffed_as_html() -> None:
    page = run(b'<p>hi <a href="a.html">there</a></p>', "https://ex.org/dir/page", None)
    assert page.content == "hi [there](https://ex.org/dir/a.html)\n"
    assert run(b"a < b and c > d\n", "https://ex.org/notes", None).content == "a < b and c > d\n"


def test_markdown_as_text_has_no_marks_nor_link_targets() -> None:
    """`--format text` of a Markdown file was the Markdown itself, marks and link targets and all."""
    body = (
        b"---\ntitle: Notes\n---\n# Notes\n\nSome *intro* and [a link](rel/a.md).\n\n"
        b"| h1 | h2 |\n|---|---|\n| 1 | 2 |\n\n```python\nprint(1)\n```\n"
    )
    page = run(body, "https://ex.org/README.md", "text/markdown", ExtractOptions(format="text"))
    assert page.content == "Notes\n\nSome intro and a link.\n\nh1 | h2\n1 | 2\n\nprint(1)\n", page.content
    assert page.title == "Notes" and page.format == "text" and page.word_count == 11
    # HTML a README holds is no words but its text; front matter of a file with CRLF line ends too
    crlf = b'---\r\ntitle: Hi\r\n---\r\n<p align="center"><img src="a.png"></p>\r\n\r\n'
    crlf += b"Press <kbd>Ctrl</kbd>.\r\n"
    plain = run(crlf, "https://ex.org/README.md", "text/markdown", ExtractOptions(format="text")).content
    assert plain == "Press Ctrl.\n", plain


def test_truncated_pdf_is_unsupported_and_names_the_file() -> None:
    body = make_pdf(["Some words"])[:200]
    error = error_of(body, "https://ex.org/broken.pdf", "application/pdf")
    assert error.code in (ErrorCode.UNSUPPORTED_CONTENT, ErrorCode.EMPTY_CONTENT)
    assert "broken.pdf" in error.message


@pytest.mark.parametrize(
    ("body", "title", "content"),
    [
        (
            b"# A heading\n\nSome *markdown*.\n\n- one\n- two\n",
            "A heading",
            "# A heading\n\nSome *markdown*.\n\n- one\n- two\n",
        ),
        (b"Internal Server Error\nsomething broke\n", None, "Internal Server Error\nsomething broke\n"),
    ],
)
def test_a_body_labelled_html_with_no_tag_keeps_its_lines(
    body: bytes, title: str | None, content: str
) -> None:
    """Markdown or text served as `text/html` was read as HTML and ran onto one line; it is not
    fenced as HTML source either."""
    page = extract_document(
        body, url="https://a.example/notes", content_type="text/html", options=ExtractOptions()
    )
    assert page.content == content and page.title == (title or page.title)


def test_a_links_words_are_found_by_height_in_the_order_drawn() -> None:
    """A link over two lines names its words top line first, as drawn (PDF heights rise upwards)."""
    from webferret.extract.pdflinks import Runs

    runs = Runs(
        [
            (72.0, 700.0, "the first"),
            (300.0, 700.0, "beside"),
            (72.0, 688.0, "line, then"),
            (72.0, 10.0, "far"),
        ]
    )
    assert runs.within([70.0, 686.0, 200.0, 712.0]) == "the first line, then"
    assert runs.within([0.0, 0.0, 1.0]) == ""


def test_a_links_words_end_where_its_box_does() -> None:
    """Chrome starts the words after a link where the link's box ends, or a fraction of a point
    before: they were taken as the link's own (`[full guide and the](...)`)."""
    from webferret.extract.pdflinks import Runs

    runs = Runs([(33.7, 692.3, "Read the "), (91.2, 692.3, "full guide"), (147.1, 692.3, " and the ")])
    assert runs.within([91.5, 689.25, 147.0, 703.5]) == "full guide"
    runs = Runs([(200.8, 692.3, "FAQ page"), (257.9, 692.3, " today. Also ")])
    assert runs.within([201.0, 689.25, 258.0, 703.5]) == "FAQ page"


def test_a_front_matters_values_below_their_keys_are_read() -> None:
    """A YAML value written on the lines below its key (Hugo's `description: >-`, a list of authors)
    was read as the line of its key: the description `>-`, the title `|`, no author. One without a
    title is still titled by its heading."""
    body = (
        b"---\ntitle: |\n  Ferret care\ndescription: >-\n  How to keep\n  a ferret.\nauthor:\n"
        b"  - 'Ada Burrow'\n  - Ben Stoat\ndate: 2024-03-05\n---\n\n# Heading\n\nFeed them.\n"
    )
    page = run(body, "https://ex.org/posts/care.md", "text/markdown")
    assert (page.title, page.description, page.byline, page.published) == (
        "Ferret care",
        "How to keep a ferret.",
        "Ada Burrow, Ben Stoat",
        "2024-03-05",
    )
    untitled = run(
        b"---\nauthor: Ada\n---\n\n# Heading\n\nFeed them.\n", "https://ex.org/c.md", "text/markdown"
    )
    assert (untitled.title, untitled.byline) == ("Heading", "Ada")
