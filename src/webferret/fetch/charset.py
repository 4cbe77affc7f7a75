"""Decode a body to text: a BOM (it wins over any label, as in browsers), then the HTTP header's
charset, then `<meta charset>` / `http-equiv` (or an XML declaration), then detection with
charset-normalizer. A single-byte label (windows-1252, ISO 8859-x) on a body that is valid UTF-8 with
wide characters is a wrong label: the body is read as UTF-8.

A declared charset that cannot decode the bytes is treated as a lie and the next source is tried, and
so is a UTF-16 or UTF-32 label (no BOM) on a body without NUL bytes (ASCII markup in UTF-16 has one
every other byte).
Bytes that are UTF-8 but for a few broken sequences (one stray byte in a page of umlauts and kana)
are read as UTF-8 with U+FFFD there, as a browser reads them, not as a single-byte charset (every
character of the page wrong). Labels follow browsers: `iso-8859-1`, `latin1` and `us-ascii` mean windows-1252.
"""

from __future__ import annotations

import codecs
import re
from functools import cache

__all__ = ["bom_charset", "browser_charset", "declared_charset", "decode_body", "meta_charset", "read_body"]

_BOMS = (
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
_ALIASES = {
    "iso-8859-1": "cp1252",
    "iso8859-1": "cp1252",
    "latin1": "cp1252",
    "latin-1": "cp1252",
    "l1": "cp1252",
    "us-ascii": "cp1252",
    "ascii": "cp1252",
    "x-user-defined": "cp1252",
    "unicode": "utf-16",
    "utf8": "utf-8",
}
_CHARSET_PARAM = re.compile(rb"""charset\s*=\s*["']?\s*([A-Za-z0-9._:+-]+)""", re.IGNORECASE)
_META = re.compile(rb"<meta\b[^>]*>", re.IGNORECASE)
_XML_DECL = re.compile(rb"""<\?xml[^>]*\bencoding\s*=\s*["']([A-Za-z0-9._:+-]+)["']""", re.IGNORECASE)
SCAN_BYTES = 4096
DETECT_BYTES = 64 * 1024


def decode_body(body: bytes, content_type: str | None) -> str:
    """The text of `body`, decoded by the first charset source that works (see module docstring)."""
    return read_body(body, content_type)[0]


def read_body(body: bytes, content_type: str | None) -> tuple[str, str]:
    """The text of `body` (`decode_body`) and the Python codec it was read with."""
    for encoding in (bom_charset(body), declared_charset(content_type), meta_charset(body)):
        if encoding and _wide(encoding) and b"\x00" not in body[:SCAN_BYTES]:
            continue  # UTF-16 or -32 text of any markup is full of NUL bytes: this label is wrong
        if encoding and _single_byte(encoding) and not body.isascii():
            text = _try(body, "utf-8")  # valid UTF-8 with wide characters: the label is wrong
            if text is not None:
                return text, "utf-8"
        text = _try(body, encoding)
        if text is not None:
            return text, str(encoding)
    text = _try(body, "utf-8")
    if text is None:
        text = mostly_utf8(body)
    if text is not None:
        return text, "utf-8"
    short = short_latin(body)
    if short is not None:
        return short
    from charset_normalizer import from_bytes  # 30 ms to import: only for a body no label decodes

    guesses = list(from_bytes(body[:DETECT_BYTES]))
    best = guesses[0] if guesses else None
    # windows-1252 is the web's default, and a page that says UTF-8 and is not is mostly one: it wins
    # a near tie (on a short French page cp1250 reads "Voilŕ" with a little less chaos than "Voilà")
    near = [g for g in guesses if best and g.chaos <= best.chaos + CP1252_SLACK]
    encoding = "cp1252" if not best or any(g.encoding == "cp1252" for g in near) else best.encoding
    encoding = _normalize(encoding) or "cp1252"
    return body.decode(encoding, errors="replace"), encoding


def browser_charset(body: bytes, content_type: str | None) -> str:
    """The codec a browser reads an HTML `body` in, right or wrong: its BOM, else the header's label,
    else its `<meta charset>`, else windows-1252 (the web's default)."""
    return bom_charset(body) or declared_charset(content_type) or meta_charset(body) or "cp1252"


SHORT_EVIDENCE = 64
"""Bytes past ASCII below which detection is a guess: rated alike by every code page, a short body
goes to the first of them (`Über uns` was read as Big5, `Ñandú año` as cp1006 "ﺹandﻲ aﮦo")."""
_HIGH = re.compile(rb"[\x80-\xff]")
_LETTER_RUN = re.compile(r"[^\W\d_ƒ]*")
"""Letters, as Western text has them: `ƒ` (0x83) is the florin sign there, never in a word, while
it is the first byte of every katakana in Shift_JIS (`ファイル` reads `ƒtƒ@ƒCƒ‹`)."""
_IN_WORDS = "’‘·–—…\xa0"
"""Marks past ASCII that sit between two letters in Western text (`don’t`, Catalan `l·l`, a dash
or an ellipsis set close, `Zürich–Genève`, a no-break space): the other code pages write dashes,
the ellipsis and the no-break space with the same bytes, so they tell none of them apart."""


_CARONS = frozenset(b"\x8a\x8e\x9a\x9e")
"""`Š Ž š ž`: the same bytes in windows-1250 and -1252, letters of Czech, Slovak, Slovene and
Croatian that Western text hardly writes."""
_CENTRAL = frozenset(
    byte
    for byte in range(0x80, 0x100)
    if bytes([byte]).decode("cp1250", "replace").isalpha()
    and bytes([byte]).decode("cp1250", "replace") != bytes([byte]).decode("cp1252", "replace")
)
"""The bytes windows-1250 reads as a letter other than windows-1252's (`ř` for `ø`, `č` for `è`)."""
_WESTERN_WORD = re.compile(rb"(?<![A-Za-z\x80-\xff])[\xc0\xc8\xe0\xe8](?=[\s,;:!?)]|$)")
"""A word of one such letter: French and Portuguese `à`, Italian `è` (`À`, `È` opening a sentence),
which windows-1250 reads as no word (`ŕ`, `č`; Czech's `č.` has its dot): Western text naming a
person or a place in `š` or `ž` (`Slavoj Žižek est très connu à Paris`)."""


def short_latin(body: bytes) -> tuple[str, str] | None:
    """`body` read in a Latin code page, and which, when it has too few bytes past ASCII for
    detection to tell (`SHORT_EVIDENCE`): windows-1250 when it writes `š` or `ž` beside a letter
    only that code page has (`Příliš žlutý`, which windows-1252 reads `Pøíliš`) and no word only
    windows-1252 reads (`_WESTERN_WORD`), else windows-1252 (the web's default); either when it
    reads as words there (`_reads_as_words`). Else None, for detection to guess."""
    highs = _few_highs(body)
    if highs is None:
        return None
    central = (
        any(body[at] in _CARONS for at in highs)
        and any(body[at] in _CENTRAL for at in highs)
        and not any(_WESTERN_WORD.match(body, at) for at in highs)
    )  # the bytes past ASCII alone are looked at: a long page has too many, and is gone above
    encoding = "cp1250" if central else "cp1252"
    text = _try(body, encoding)
    return None if text is None or not _reads_as_words(text, highs) else (text, encoding)


def _few_highs(body: bytes) -> list[int] | None:
    """Where `body`'s bytes past ASCII are, when they are fewer than `SHORT_EVIDENCE`; else None
    (detection can tell), and None for a body holding a NUL byte too (UTF-16 or -32 without a byte
    order mark, whose text past Latin-1 is short of bytes past ASCII as well)."""
    if b"\x00" in body:
        return None
    highs: list[int] = []
    for match in _HIGH.finditer(body):
        highs.append(match.start())
        if len(highs) >= SHORT_EVIDENCE:
            return None
    return highs


def _reads_as_words(text: str, highs: list[int]) -> bool:
    """Whether `text` (a body read in a code page of one character a byte, so `highs` are where it
    is past ASCII, the only places looked at: a page of megabytes is not read character by character)
    reads as Western text there: each a letter, or a mark that does not split a word (Polish `może` in
    cp1250 reads `mo¿e` in cp1252), and most words that hold one hold plain letters too (`schön`;
    Russian or Greek in cp1251 or cp1253 read as words of accented letters alone, `Ïðèâåò`)."""
    for at in highs:
        char = text[at]
        if (char.isalpha() and char != "ƒ") or char in _IN_WORDS:
            continue
        if 0 < at < len(text) - 1 and text[at - 1].isalpha() and text[at + 1].isalpha():
            return False
    words = _words_at(text, highs)
    accented_only = sum(1 for word in words if all(char >= "\x80" for char in word))
    return bool(words) and accented_only * 2 <= len(words)


def _words_at(text: str, places: list[int]) -> list[str]:
    """The words of `text` (runs of two letters or more) that hold one of `places`, each once."""
    backwards = text[::-1]
    words: dict[int, str] = {}
    for at in places:
        mirrored = len(text) - 1 - at
        back = _LETTER_RUN.match(backwards, mirrored).end() - mirrored  # letters from `at` leftwards
        if back:
            start = at - back + 1
            words[start] = text[start : _LETTER_RUN.match(text, at).end()]
    return [word for word in words.values() if len(word) >= 2]


CP1252_SLACK = 0.025
"""How much more chaos (charset_normalizer's measure) windows-1252 may show and still be chosen."""

UTF8_SHARE = 4
"""Broken sequences a body may have and still be read as UTF-8: one per this many characters that
decode to more than ASCII (a single-byte page is almost never valid UTF-8 by chance)."""
_WIDE = re.compile("[^\x00-\x7f\ufffd]")


def mostly_utf8(body: bytes) -> str | None:
    """`body` as UTF-8 with U+FFFD for its broken sequences, when they are few against the wide
    characters that decode; else None."""
    text = body.decode("utf-8", errors="replace")
    broken = text.count("\ufffd") - body.count("\ufffd".encode())
    return text if broken * UTF8_SHARE <= len(_WIDE.findall(text)) else None


def declared_charset(content_type: str | None) -> str | None:
    """The charset parameter of a Content-Type header, as a Python codec name."""
    if not content_type:
        return None
    match = _CHARSET_PARAM.search(content_type.encode("latin-1", errors="ignore"))
    return _normalize(match.group(1).decode("ascii")) if match else None


def meta_charset(body: bytes) -> str | None:
    """The charset an HTML `<meta>` or an XML declaration in the first bytes names."""
    head = body[:SCAN_BYTES]
    for tag in _META.findall(head):
        lowered = tag.lower()
        if b"charset" not in lowered:
            continue
        if b"http-equiv" in lowered and b"content-type" not in lowered:
            continue
        match = _CHARSET_PARAM.search(tag)
        if match:
            return _normalize(match.group(1).decode("ascii"))
    match = _XML_DECL.search(head)
    return _normalize(match.group(1).decode("ascii")) if match else None


@cache
def _single_byte(encoding: str) -> bool:
    """Whether `encoding` writes every character it has in one byte (windows-1252, the ISO 8859
    family, KOI8-R...). Bytes that decode as UTF-8 and hold a character of more than one byte are
    almost never such a charset's text by chance: a page labelled one of them that is UTF-8 is read as
    UTF-8 (`Café`, not `CafÃ©`)."""
    for probe in "é", "ж", "α", "ש", "あ":
        try:
            if len(probe.encode(encoding)) > 1:
                return False
        except (UnicodeEncodeError, LookupError):
            continue
    return True


def _wide(encoding: str) -> bool:
    """Whether `encoding` is UTF-16 or UTF-32, which decode almost any bytes (into CJK mojibake when
    the label lies), so a failed decode cannot tell the lie."""
    return encoding.replace("_", "-").startswith(("utf-16", "utf-32"))


def bom_charset(body: bytes) -> str | None:
    """The encoding a byte order mark opening `body` names (UTF-8, UTF-16 or UTF-32), else None."""
    for bom, encoding in _BOMS:
        if body.startswith(bom):
            return encoding
    return None


def _normalize(label: str) -> str | None:
    label = label.strip().lower()
    label = _ALIASES.get(label, label)
    try:
        name = codecs.lookup(label).name
    except LookupError:
        return None
    if name in ("utf-16-le", "utf-16-be") and label in ("utf-16", "utf16"):
        return "utf-16"
    return name


def _try(body: bytes, encoding: str | None) -> str | None:
    if not encoding:
        return None
    try:
        return body.decode(encoding)
    except (UnicodeDecodeError, LookupError):
        return None
