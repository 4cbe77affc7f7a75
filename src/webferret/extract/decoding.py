"""Bytes to text: the declared charset, then a BOM, then `<meta charset>`, then detection.

Stand-in for `fetch/charset.py` (`decode_body`) until that lands: one function, same signature.
"""

from __future__ import annotations

import codecs
import re

from charset_normalizer import from_bytes

_HEADER_CHARSET = re.compile(r"charset\s*=\s*[\"']?([\w.:-]+)", re.I)
_META_CHARSET = re.compile(rb"<meta[^>]+charset\s*=\s*[\"']?\s*([\w.:-]+)", re.I)
_BOMS = ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))
# WHATWG: a page labelled latin-1 or ascii is decoded as windows-1252.
_ALIASES = {
    "iso-8859-1": "cp1252",
    "latin-1": "cp1252",
    "latin1": "cp1252",
    "us-ascii": "cp1252",
    "ascii": "cp1252",
}


def _codec(label: str | None) -> str | None:
    if not label:
        return None
    label = label.strip().lower()
    label = _ALIASES.get(label, label)
    try:
        return codecs.lookup(label).name
    except LookupError:
        return None


def declared_charset(body: bytes, content_type: str | None) -> str | None:
    """The charset named by the header, a BOM or a `<meta>` tag in the first 4 KiB, in that order."""
    match = _HEADER_CHARSET.search(content_type or "")
    codec = _codec(match.group(1)) if match else None
    if codec:
        return codec
    for bom, name in _BOMS:
        if body.startswith(bom):
            return name
    meta = _META_CHARSET.search(body[:4096])
    return _codec(meta.group(1).decode("ascii", "ignore")) if meta else None


def decode_body(body: bytes, content_type: str | None) -> str:
    """Text of a body; never raises (undecodable bytes become U+FFFD as a last resort)."""
    codec = declared_charset(body, content_type)
    if codec:
        try:
            return body.decode(codec).lstrip("\ufeff")
        except UnicodeDecodeError:
            pass
    try:
        return body.decode("utf-8").lstrip("\ufeff")
    except UnicodeDecodeError:
        best = from_bytes(body[:200_000]).best()
        encoding = best.encoding if best is not None else "utf-8"
        return body.decode(encoding, errors="replace")
