"""A PDF's title, author and dates from its XMP packet (Dublin Core and XMP's own), which PDF 2.0 has
in place of the Info dictionary.

Each is read on its own: a packet whose one field is damaged (a `ModifyDate` written as a PDF date,
`D:20240401`, which pypdf's parser refuses) keeps the others. A date is the day the document writes,
as the Info dictionary's is read (`2024-03-05T00:30:00+01:00` is March 5, not March 4 in UTC).
"""

from __future__ import annotations

from collections.abc import Callable

from pypdf import PdfReader
from pypdf.xmp import XMP_NAMESPACE, XmpInformation

from webferret.extract.dates import iso_date
from webferret.extract.pdftitle import usable_author, usable_title

_FIELDS = ("title", "author", "created", "modified")


def xmp_info(reader: PdfReader) -> dict[str, str | None]:
    """Title, author, created and modified days from `reader`'s XMP metadata, each None where the
    packet does not hold it usable; {} without a readable packet."""
    try:
        xmp = reader.xmp_metadata
    except Exception:  # a damaged packet: pypdf and its XML parser raise many kinds
        return {}
    if xmp is None:
        return {}
    readers: tuple[Callable[[XmpInformation], str | None], ...] = (
        _title,
        _author,
        lambda x: _day(x, "CreateDate"),
        lambda x: _day(x, "ModifyDate"),
    )
    return {field: _guarded(read, xmp) for field, read in zip(_FIELDS, readers, strict=True)}


def _guarded(read: Callable[[XmpInformation], str | None], xmp: XmpInformation) -> str | None:
    try:
        return read(xmp)
    except Exception:  # one damaged field: pypdf raises many kinds
        return None


def _title(xmp: XmpInformation) -> str | None:
    titles = xmp.dc_title or {}
    title = (
        (titles.get("x-default") or next(iter(titles.values()), None)) if isinstance(titles, dict) else None
    )
    return usable_title(title) if isinstance(title, str) else None


def _author(xmp: XmpInformation) -> str | None:
    author = ", ".join(
        name.strip() for name in xmp.dc_creator or [] if isinstance(name, str) and name.strip()
    )
    return usable_author(author) if author else None


def _day(xmp: XmpInformation, name: str) -> str | None:
    """The day of XMP's date `name` as the packet writes it (an attribute or an element)."""
    for node in xmp.get_element("", XMP_NAMESPACE, name):
        written = (
            node.value if node.nodeType == node.ATTRIBUTE_NODE else node.firstChild and node.firstChild.data
        )
        if isinstance(written, str) and (day := iso_date(written.strip()[:10])):
            return day
    return None
