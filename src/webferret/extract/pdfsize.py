"""How much a PDF's page draws: what reading its text parses, so a small hostile file cannot hold a
reader for hours.

pypdf parses a page's content streams, unpacked, and each form (XObject) the page draws; a stream
unpacks to at most pypdf's own limit (75 MB), but one such stream that a thousand pages share, a file
of a few hundred KB, was parsed once a page: half an hour and more; and a form a page draws again
and again is parsed each time. A document's pages are read until they have drawn `DRAWN_MAX` bytes
in all (a form as often as it is drawn); the pages after are not read (each says so in its marker).
A real document draws far less: a 500-page book some tens of MB.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from pypdf.generic import ArrayObject, DictionaryObject, StreamObject

DRAWN_MAX = 128 * 1024 * 1024
"""The most bytes of unpacked content streams and forms the pages of one document are read for."""


def drawn_bytes(page: Any) -> int:
    """The unpacked bytes of a pypdf page's content streams, and of the forms they draw each time they
    draw one (a form drawn a thousand times is read a thousand times: a few KB of `/Fm1 Do`, a form of
    5 KB of text, were 5 MB of text and minutes); pypdf keeps what it unpacks, so reading the page's
    text does not unpack them again. What cannot be unpacked counts nothing here (reading the page
    says what is wrong with it)."""
    contents = _resolved(page.get("/Contents"))
    streams = contents if isinstance(contents, ArrayObject) else [contents]
    costs: dict[int, int] = {}
    return sum(_drawn(stream, page.get("/Resources"), costs, 0) for stream in streams)


_DRAWS = re.compile(rb"/([^\s/\[\]()<>{}%]+)\s*Do\b")
"""A content stream's `/Name Do`: it draws the XObject its resources name (an image, or a form)."""
FORMS_DEPTH = 8
"""How deep forms drawn inside forms are weighed (pypdf reads them deeper; past it, a form counts its
own bytes once)."""


def _drawn(stream: Any, resources: Any, costs: dict[int, int], depth: int) -> int:
    """The bytes `stream` draws: its own, and each form's it draws, as many times as it draws it."""
    stream = _resolved(stream)
    size = _unpacked(stream)
    if not size or depth > FORMS_DEPTH:
        return size
    resources = _resolved(resources)
    xobjects = _resolved(resources.get("/XObject")) if isinstance(resources, DictionaryObject) else None
    if not isinstance(xobjects, DictionaryObject):
        return size
    for name, times in Counter(_DRAWS.findall(stream.get_data())).items():
        form = _resolved(xobjects.get("/" + name.decode("latin-1")))
        if isinstance(form, StreamObject) and form.get("/Subtype") == "/Form":
            key = id(form)
            if key not in costs:
                costs[key] = 0  # (a form that draws itself counts once)
                costs[key] = _drawn(form, form.get("/Resources") or resources, costs, depth + 1)
            size += times * costs[key]
    return size


def _resolved(value: Any) -> Any:
    try:
        return value.get_object() if value is not None else None
    except Exception:  # a damaged reference: whatever pypdf raises for it
        return None


def _unpacked(stream: Any) -> int:
    try:
        stream = _resolved(stream)
        return len(stream.get_data()) if isinstance(stream, StreamObject) else 0
    except Exception:  # a stream that does not unpack (pypdf's limit among them): read as pypdf can
        return 0


class Drawn:
    """What the pages of one document read so far draw, in bytes."""

    def __init__(self) -> None:
        self.drawn = 0

    def refused(self, page: Any) -> str | None:
        """Why `page` is not read (the pages before it, or with it, draw more than `DRAWN_MAX`), or
        None: it is, and what it draws is counted."""
        if self.drawn <= DRAWN_MAX:
            self.drawn += drawn_bytes(page)
        if self.drawn <= DRAWN_MAX:
            return None
        return f"the pages up to it draw more than {_sized(DRAWN_MAX)}, the most read in one PDF"


def _sized(size: int) -> str:
    return f"{size // (1024 * 1024)} MiB" if size >= 1024 * 1024 else f"{size} bytes"
