"""Text the remote side controls (a header value, an engine's error body, a malformed HTTP line),
made safe to put inside an error message or warning that an agent reads outside the fence, and JSON
it wrote, read as text every face can write (`json_value`).

`quoted` is for a message builder that puts such a value in its sentence: one line, control and
invisible characters gone, at most `limit` characters, in double quotes, so it reads as a quoted
value and never as a sentence of webferret's own (its own double quotes become single ones: an
escaped quote, `\"`, reads to a model much like the end of the value). `one_line` is the same
without the quotes, for a whole message on an agent face (see `present.agent.safe_message`).
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

QUOTED_CHARS = 100
_SPACE = re.compile(r"\s+")
_INVISIBLE = ("Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp")  # controls, format marks, unassigned, breaks


def one_line(text: str, limit: int) -> str:
    """`text` on one line: every control, format or line/paragraph-break character a space, runs
    of white space one space, cut at `limit` characters with `…`."""
    cleaned = "".join(
        " " if not char.isascii() and unicodedata.category(char) in _INVISIBLE else char
        for char in text.translate(_ASCII_CONTROLS)
    )
    flat = _SPACE.sub(" ", cleaned).strip()
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


_ASCII_CONTROLS = {code: " " for code in (*range(32), 127)}


def quoted(value: object, limit: int = QUOTED_CHARS) -> str:
    """`value` (a string, bytes or anything else) as one short line in double quotes."""
    if isinstance(value, bytes | bytearray):
        value = bytes(value).decode("utf-8", "replace")
    return json.dumps(one_line(str(value), limit).replace('"', "'"), ensure_ascii=False)


_BLANKS = re.compile(r"[\x00-\x20\x7f]")
_HIDDEN = ("Cc", "Cf", "Zl", "Zp", "Zs")  # C1 controls, direction and zero-width marks, breaks, spaces
_AUTHORITY = re.compile(r"[a-z][a-z0-9+.-]*://[^/?#]*", re.IGNORECASE)
_JOINERS = frozenset("\u200c\u200d")
"""The zero-width non-joiner and joiner: IDNA lets a host name hold them where its script joins
letters with them (a Persian `می‌خواهم.ir`, a Sinhala `ශ්‍රී.lk`); percent-encoded, the host is no name
(a client refuses it), so they stay in the host between two such letters, and are encoded elsewhere
as any hidden character (`a\u200db.org` would read as `ab.org`)."""


def url_without_blanks(url: str) -> str:
    """A URL from the remote side (a redirect's `Location`, a link, a result) with its spaces and
    control characters percent-encoded, as a browser sends it: one token in every message that names
    it. So are the characters that show nothing or move what follows (a C1 control such as the
    terminal's CSI, a direction override, a zero-width or line separator, a no-break space), as a
    browser's address bar shows them; letters of any script stay."""
    url = _BLANKS.sub(lambda match: f"%{ord(match.group()):02X}", url)
    if url.isascii():
        return url
    authority = _AUTHORITY.match(url)
    host_end = authority.end() if authority else 0
    return "".join(
        "".join(f"%{byte:02X}" for byte in char.encode())
        if not char.isascii()
        and unicodedata.category(char) in _HIDDEN
        and not (char in _JOINERS and _joins_letters(url, at, host_end))
        else char
        for at, char in enumerate(url)
    )


def _joins_letters(url: str, at: int, host_end: int) -> bool:
    """Whether the joiner at `at` stands in the host between two characters of a script not Latin."""
    return 0 < at < host_end - 1 and not url[at - 1].isascii() and not url[at + 1].isascii()


_ESCAPED_SURROGATE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
_SURROGATE = re.compile("[\ud800-\udfff]")


def json_value(text: str | bytes, **hooks: Any) -> Any:
    """`json.loads(text, **hooks)`, but a lone surrogate escaped in a string (`"\\ud800"`: half of a
    character, which no UTF-8 text can hold, so the page could be neither stored nor answered) is
    read as U+FFFD, as a browser shows it; a pair of them is the character they make, as JSON reads
    it. A byte order mark before it is none of it (RFC 8259 lets a reader pass over it, and a
    browser's `fetch().json()` does). `ValueError` for text that is no JSON."""
    if isinstance(text, bytes | bytearray):
        text = bytes(text).decode(json.detect_encoding(text), "surrogatepass")
    text = text.removeprefix("\ufeff")  # as decoded from UTF-8 (an engine's answer, a page's text)
    value = json.loads(text, **hooks)
    if ("\\u" in text and _ESCAPED_SURROGATE.search(text)) or _SURROGATE.search(text):
        written = json.dumps(value, ensure_ascii=False)  # a pair is one character here already
        if _SURROGATE.search(written):
            value = json.loads(_SURROGATE.sub("\ufffd", written), **hooks)
    return value
