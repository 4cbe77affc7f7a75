"""Charset decoding and content sniffing (pure)."""

import codecs
import gzip
import json
import sys
from types import FrameType

import pytest
from simweb import CP1252_HTML, PNG, article_html

from webferret.fetch import charset
from webferret.fetch.charset import decode_body, meta_charset, read_body, short_latin
from webferret.fetch.sniff import sniff_kind

CAFE = "Café crème – naïve “quoted” 3€"


def test_windows_1252_declared_only_in_meta_decodes_without_mojibake() -> None:
    text = decode_body(CP1252_HTML, "text/html")
    assert "Café crème – naïve" in text
    assert "3€ “seulement”" in text
    assert "Ã" not in text and "\ufffd" not in text


def test_header_charset_wins() -> None:
    body = f"<html><meta charset='utf-8'><p>{CAFE}</p></html>".encode("cp1252")
    assert CAFE in decode_body(body, "text/html; charset=windows-1252")


def test_latin1_label_means_windows_1252() -> None:
    body = CAFE.encode("cp1252")
    assert decode_body(body, "text/plain; charset=ISO-8859-1") == CAFE


def test_a_lying_header_falls_back_to_meta() -> None:
    assert "Café crème" in decode_body(CP1252_HTML, "text/html; charset=utf-8")


def test_bom_beats_meta() -> None:
    body = codecs.BOM_UTF8 + f"<meta charset='windows-1252'><p>{CAFE}</p>".encode()
    assert CAFE in decode_body(body, "text/html")
    utf16 = codecs.BOM_UTF16_LE + f"<p>{CAFE}</p>".encode("utf-16-le")
    assert decode_body(utf16, None) == f"<p>{CAFE}</p>"


def test_bom_beats_the_header() -> None:
    """As in browsers: a UTF-8 BOM says more than a header's charset (`CafÃ© crÃ¨me` before)."""
    body = codecs.BOM_UTF8 + f"<p>{CAFE}</p>".encode()
    assert decode_body(body, "text/html; charset=iso-8859-1") == f"<p>{CAFE}</p>"


@pytest.mark.parametrize(
    ("content_type", "meta"),
    [
        ("text/html; charset=iso-8859-1", ""),
        ("text/html", "<meta charset='iso-8859-1'>"),
        ("text/html; charset=koi8-r", ""),
    ],
)
def test_a_single_byte_label_on_utf8_reads_as_utf8(content_type: str, meta: str) -> None:
    body = f"<html>{meta}<p>{CAFE}, à la carte</p></html>".encode()
    assert f"<p>{CAFE}, à la carte</p>" in decode_body(body, content_type)


def test_a_single_byte_page_that_is_no_utf8_keeps_its_label() -> None:
    body = f"<p>{CAFE}</p>".encode("cp1252")
    assert decode_body(body, "text/html; charset=iso-8859-1") == f"<p>{CAFE}</p>"
    russian = "<p>Привет, как дела?</p>"
    assert decode_body(russian.encode("koi8-r"), "text/html; charset=koi8-r") == russian
    assert decode_body(b"<p>plain</p>", "text/html; charset=iso-8859-1") == "<p>plain</p>"


def test_http_equiv_and_xml_declaration() -> None:
    html = b'<meta http-equiv="content-type" content="text/html; charset=koi8-r">'
    assert meta_charset(html) == "koi8-r"
    xml = b'<?xml version="1.0" encoding="ISO-8859-2"?><a/>'
    assert meta_charset(xml) == "iso8859-2"
    assert meta_charset(b'<meta http-equiv="refresh" content="0; charset=koi8-r">') is None


def test_undeclared_text_is_detected() -> None:
    assert decode_body(CAFE.encode("utf-8"), None) == CAFE
    russian = ("Съешь же ещё этих мягких французских булок, да выпей чаю. " * 20).encode("cp1251")
    assert "французских" in decode_body(russian, "text/plain")


def test_undeclared_western_text_is_windows_1252_when_detection_ties() -> None:
    """Detection rates cp1250 and cp1252 alike on French text; the web's default wins the tie."""
    french = "<html><body><p>Crème brûlée à la française, où l'on dîne à côté.</p></body></html>" * 20
    text = decode_body(french.encode("cp1252"), "text/html")
    assert "Crème brûlée à la française, où l'on dîne à côté." in text
    russian = ("Съешь же ещё этих мягких французских булок, да выпей чаю. " * 20).encode("cp1251")
    assert "французских" in decode_body(russian, "text/html")


@pytest.mark.parametrize(
    ("body", "content_type", "kind"),
    [
        (PNG, "text/html", "binary"),
        (b"\xff\xd8\xff\xe0\x00\x10JFIF", "text/html; charset=utf-8", "binary"),
        (b"%PDF-1.7\n%\xe2\xe3", "application/octet-stream", "pdf"),
        (b"%PDF-1.4\n", "text/html", "pdf"),
        (b"\r\n\r\n%PDF-1.4\n%\xe2\xe3", "application/octet-stream", "pdf"),  # a script's blank lines first
        (b"\xef\xbb\xbf%PDF-1.7\n", None, "pdf"),
        (b"A note on the %PDF-1.7 header.\n", None, "text"),
        (gzip.compress(b"x"), "text/plain", "binary"),
        (b"PK\x03\x04rest", None, "binary"),
        (bytes(range(256)), "application/octet-stream", "binary"),
        (article_html().encode(), "text/html", "html"),
        (article_html().encode(), "application/octet-stream", "html"),
        (article_html().encode(), None, "html"),
        (b"  <!doctype html><title>x</title>", "text/plain", "text"),
        (b'{"a": [1, 2]}', "application/json", "json"),
        (b'{"a": [1, 2]}', None, "json"),
        (article_html().encode(), "application/json", "html"),  # a wrong label: JSON never opens with `<`
        (article_html().encode(), "application/pdf", "html"),  # nor a PDF
        (b"\n\n%PDF-1.4\n<</Type /Catalog>>", "application/pdf", "pdf"),  # bytes before its header
        (b'  ["<p>", 1]', "application/json", "json"),
        (b"[1, 2", None, "text"),
        (b'<?xml version="1.0"?><feed/>', "application/atom+xml", "xml"),
        (b'<?xml version="1.0"?><rss/>', None, "xml"),
        (b"hello world\n", "text/plain", "text"),
        (b"def f():\n    return 1\n", "text/x-python", "text"),
        (b"console.log(1)", "application/javascript", "text"),
        (b"hello\x00\x01\x02", "image/png", "binary"),
        (b"export const weirs: number = 4;\n", "video/mp2t", "text"),  # TypeScript, as nginx labels it
        (b'{"note": "caf\\u00e9 <b>x</b>"}', "text/html", "json"),  # an API's answer under a wrong label
        (b' [{"a": 1}, {"b": "<p>"}]', "text/html; charset=utf-8", "json"),
        (b"{not json} <p>a page that opens oddly</p>", "text/html", "html"),
        (b"", "text/html", "html"),
        (b"# A heading\n\nSome *markdown* text.\n\n- item one\n- item two\n", "text/html", "text"),
        (b"\n\n  <!doctype html><p>hi</p>", "text/html; charset=utf-8", "html"),
        (codecs.BOM_UTF16_LE + "<p>hi</p>".encode("utf-16-le"), "text/html", "html"),
    ],
)
def test_sniff_kind(body: bytes, content_type: str | None, kind: str) -> None:
    assert sniff_kind(body, content_type) == kind


def test_sniff_json_only_when_it_parses() -> None:
    assert sniff_kind(json.dumps({"k": "v" * 2000}).encode(), None) == "json"


@pytest.mark.parametrize("content_type", [None, "application/octet-stream"])
def test_untyped_json_that_holds_html_in_its_strings_is_json(content_type: str | None) -> None:
    """An API's answer served without a type (or as octet-stream) whose strings hold HTML in its first
    KB was read as an HTML page: its keys, braces and quotes as the page's words."""
    body = json.dumps({"id": 1, "body": "<p>Hello <b>there</b></p>", "tags": ["a"]}).encode()
    assert sniff_kind(body, content_type) == "json"
    assert sniff_kind(b'{"broken": "<p>not json" <div>', content_type) == "html"


def test_a_stray_byte_in_a_utf8_page_is_one_replacement_not_mojibake() -> None:
    good = "Grüße aus München, 日本語の本を読む。" * 40
    body = good.encode() + b"\xff" + good.encode()
    for content_type in ("text/html; charset=utf-8", "text/html", None):
        text = decode_body(body, content_type)
        assert text == good + "\ufffd" + good
    french = ("Café au lait et crème brûlée, à la française. " * 20).encode("cp1252")
    assert decode_body(french, None).startswith("Café au lait et crème brûlée")  # not UTF-8 at all


def test_utf16_declared_without_a_bom_is_text() -> None:
    body = (
        "<html><head><title>Wide</title></head><body><p>" + "Ferrets dig. " * 30 + "</p></body></html>"
    ).encode("utf-16le")
    assert sniff_kind(body, "text/html; charset=utf-16le") == "html"
    assert decode_body(body, "text/html; charset=UTF-16LE").startswith("<html><head><title>Wide")
    assert sniff_kind(body, "text/html") == "binary"  # undeclared, without a BOM: NUL bytes


@pytest.mark.parametrize("label", ["utf-16", "UTF-16LE", "utf-32"])
def test_a_utf16_label_on_a_utf8_page_is_a_lie(label: str) -> None:
    body = f"<html><head><title>Narrow</title></head><body><p>{CAFE}</p></body></html>".encode()
    assert CAFE in decode_body(body, f"text/html; charset={label}")
    meta = f"<html><head><meta charset='{label}'><title>x</title></head><body><p>{CAFE}</p></body></html>"
    assert CAFE in decode_body(meta.encode(), "text/html")


def test_a_few_stray_nul_bytes_in_a_page_labelled_html_are_not_binary() -> None:
    body = ("<html><body><p>" + "Ferrets dig. " * 20 + "\x00" * 5 + "</p></body></html>").encode()
    assert sniff_kind(body, "text/html") == "html"
    assert sniff_kind(body, None) == "binary"  # unlabelled: any NUL byte says binary
    assert sniff_kind(b"\x00\x01\x02\x03" * 200, "text/html") == "binary"


def test_a_page_that_says_utf8_and_is_windows_1252_reads_as_1252() -> None:
    from webferret.fetch.charset import decode_body

    french = "Voilà un texte en français: été, ère, à la forêt, ça, côté, sûr, être."
    body = f"<html><head><meta charset='utf-8'></head><body><p>{french}</p></body></html>".encode("cp1252")
    assert french in decode_body(body, "text/html")  # cp1250 read it "Voilŕ … foręt" with less chaos
    polish = "Zażółć gęślą jaźń. Pchnąć w tę łódź jeża lub ośm skrzyń fig, a potem wrócić do domu."
    body = f"<html><head><meta charset='utf-8'></head><body><p>{polish}</p></body></html>".encode("cp1250")
    assert polish in decode_body(body, "text/html")  # a page of another code page keeps its own


@pytest.mark.parametrize(
    "western",
    [
        "Über uns",
        "Ñandú año",
        "Æble og pære",
        "Die Straße ist schön",
        "Él está aquí",
        "I don’t know — café",
        "Zürich–Genève",
        "Sie zögerte—dann ging sie",
        "Warte…schön",
        "M.\xa0Gérard à Paris",
    ],
)
def test_a_short_undeclared_western_text_is_windows_1252(western: str) -> None:
    """Too few accented bytes for detection to tell: it rated Big5 or cp1006 as likely as anything."""
    assert read_body(western.encode("cp1252"), "text/plain") == (western, "cp1252")
    page = f"<html><head><title>{western}</title></head><body><p>{western}</p></body></html>"
    assert read_body(page.encode("cp1252"), "text/html") == (page, "cp1252")


@pytest.mark.parametrize(
    ("text", "encoding"),
    [
        ("Привет мир, как дела", "cp1251"),
        ("Καλημέρα κόσμε", "cp1253"),
        ("Zażółć gęślą jaźń", "cp1250"),
        ("Љубљана је главни град", "cp1251"),  # Serbian: its Љ and љ are cp1250's Š and š
    ],
)
def test_a_short_text_of_another_code_page_is_not_taken_for_western(text: str, encoding: str) -> None:
    assert read_body(text.encode(encoding), "text/plain") == (text, encoding)


@pytest.mark.parametrize(
    "text", ["Příliš žlutý kůň úpěl ďábelské ódy", "Čeština a slovenčina", "Slovenščina je lepa"]
)
def test_a_short_central_european_text_is_windows_1250(text: str) -> None:
    """Read as windows-1252 since short bodies went to it (`Pøíliš`, `Èeština`): its `š` or `ž`,
    beside a letter only windows-1250 has, say which code page wrote it."""
    assert read_body(text.encode("cp1250"), "text/plain") == (text, "cp1250")
    assert read_body("Über uns, schöne Grüße".encode("cp1252"), "text/plain")[1] == "cp1252"


@pytest.mark.parametrize(
    "text",
    [
        "Slavoj Žižek est très connu à Paris.",
        "Il libro di Žižek è famoso, la Škoda è rossa",
        "À Ljubljana, Ž. Šešelj parle très bien",
    ],
)
def test_a_short_western_text_naming_a_czech_or_slovene_name_stays_windows_1252(text: str) -> None:
    """Its `Ž` beside an `è` or `à` made it windows-1250 (`très` read `trčs`, `à` read `ŕ`), the rule
    for `Příliš žlutý`; a word of one such letter (`à`, `è`) is no Czech, Slovak or Slovene word."""
    assert read_body(text.encode("cp1252"), "text/plain") == (text, "cp1252")
    assert read_body("Číslo č. 5 je Ševčíkovo".encode("cp1250"), "text/plain")[1] == "cp1250"


@pytest.mark.parametrize(
    ("text", "encoding"), [("Taipei 台北 city", "big5"), ("ファイル name.txt", "shift_jis")]
)
def test_a_short_east_asian_text_is_not_taken_for_western(text: str, encoding: str) -> None:
    """Its bytes read as signs (`¥x¥_`, no word of accented letters) or as the florin sign beside
    ASCII letters (`ƒtƒ@ƒCƒ‹`) in windows-1252: no Western text, so detection reads it."""
    assert read_body(text.encode(encoding), "text/plain")[0] == text


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be"])
def test_utf16_without_a_byte_order_mark_is_not_taken_for_western(encoding: str) -> None:
    """Its few bytes past ASCII (ü, ö) read as Western letters in windows-1252, a NUL between every
    two: such a body goes to detection, which knows UTF-16 by its NUL bytes."""
    for text in ("Über uns und schöne Grüße", "Hello wörld"):
        assert read_body(text.encode(encoding), "text/plain")[0] == text


def test_a_long_page_with_few_accented_bytes_is_looked_at_only_there() -> None:
    """`short_latin` looks at the few bytes past ASCII and the words holding them, not at every
    character of a page of megabytes one by one (a Python loop: a second for 10 MB). Counted in
    lines run inside it and the module's helpers it calls, which must not grow with the page."""
    body = b"<p>Plain words of a long page.</p>\n" * 30_000 + "Zürich–Genève, schön".encode("cp1252")
    lines = 0

    def local(frame: FrameType, event: str, arg: object) -> object:
        nonlocal lines
        lines += event == "line"
        return local

    def calls(frame: FrameType, event: str, arg: object) -> object:
        return local if frame.f_code.co_filename == charset.__file__ else None

    before = sys.gettrace()
    sys.settrace(calls)
    try:
        short = short_latin(body)
    finally:
        sys.settrace(before)
    assert short is not None and short[0].endswith("Zürich–Genève, schön") and short[1] == "cp1252"
    assert lines < 200, f"{lines} lines run for {len(body)} bytes"
