"""The standard streams as the command line reads and writes them, in any locale.

Python gives stdin and stdout the locale's encoding: in a locale that is not UTF-8 (`LANG=de_DE`
in Latin-1, a C locale without UTF-8 mode, `PYTHONIOENCODING=ascii`), a page holding a character
that encoding lacks (`—`, `日本`, an emoji) failed the whole call as `internal: UnicodeEncodeError`,
its JSON included. What the encoding lacks is written as a JSON escape (`\\u2014`, a surrogate pair
past the BMP), so `--json` stays valid JSON and the text view says which character stood there.
Standard input read as text (`store import -` and `fetch -` read its bytes: `store_import`,
`url_list.list_text`) is read as UTF-8, or as its byte order mark says, as the files it stands for are.
"""

from __future__ import annotations

import codecs
import contextlib
import io
import sys

ESCAPE = "webferret-json-escape"
"""The error handler of a stdout whose encoding cannot say every character."""


_FAILING = ("strict", "surrogateescape")
"""The errors a stdout fails on (Python's own choices); one the user set (`PYTHONIOENCODING=...:replace`)
is kept."""


def _escape(error: UnicodeError) -> tuple[str | bytes, int]:
    """A character `error`'s encoding lacks as `\\uXXXX` (two, a surrogate pair, past U+FFFF); a
    byte that standard input's `surrogateescape` read (an argument's, a file name's) as that byte."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    text = error.object[error.start : error.end]
    if all(0xDC80 <= ord(char) <= 0xDCFF for char in text):
        return bytes(ord(char) - 0xDC00 for char in text), error.end
    return "".join(map(_escaped, text)), error.end


def _escaped(char: str) -> str:
    code = ord(char)
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def _utf(encoding: str | None) -> bool:
    try:
        return codecs.lookup(encoding or "").name.startswith("utf")
    except LookupError:
        return False


def any_locale() -> None:
    """Set stdout to escape what its encoding lacks and stdin to read UTF-8, where the locale
    made them otherwise (a stream that is no file's, a test's, is left as it is)."""
    codecs.register_error(ESCAPE, _escape)
    out, stdin = sys.stdout, sys.stdin
    if isinstance(out, io.TextIOWrapper) and not _utf(out.encoding) and out.errors in _FAILING:
        out.reconfigure(errors=ESCAPE)
    if isinstance(stdin, io.TextIOWrapper) and not _utf(stdin.encoding):
        with contextlib.suppress(OSError, ValueError):  # already read from: it cannot change then
            stdin.reconfigure(encoding="utf-8", errors="replace")
