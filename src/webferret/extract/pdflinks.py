"""A PDF's links: the web addresses of its link annotations, each named by the text drawn inside it.

A reader of a paper or a report follows its links as a reader of a web page does; they are kept in the
store and listed with `--links` as a page's are (every one `in_main`: a PDF has no menus). A link to a
place in the document itself (`/Dest`, `/GoTo`) is no outgoing link and is left out.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from typing import Any

from pypdf.generic import ByteStringObject, TextStringObject

from webferret.extract.links import MAX_LINK_URL, absolute
from webferret.models import Link

Placed = tuple[float, float, str]
"""A run of text as drawn: where it starts on the page (x, y) and its text."""


def annotated_links(page: Any, placed: list[Placed], base: str | None) -> list[Link]:
    """The web links of one pypdf page, in the order its annotations come; a damaged annotation is
    passed over (the page's text is read whatever its annotations hold)."""
    try:
        annotations = page.get("/Annots") or []
        if not annotations:
            return []
        runs = Runs(placed)
        found = [_link(annotation.get_object(), runs, base) for annotation in annotations]
    except Exception:  # a damaged annotation list: whatever pypdf raises for it
        return []
    return [link for link in found if link is not None]


class Runs:
    """A page's runs of text, found by height (a page of thousands of links and runs: each link
    looks at the runs of its own lines, not at all of them)."""

    def __init__(self, placed: list[Placed]) -> None:
        self.placed = placed
        self.order = sorted(range(len(placed)), key=lambda index: placed[index][1])
        self.heights = [placed[index][1] for index in self.order]

    def within(self, rect: list[float]) -> str:
        """The text of the runs that start inside `rect` (x1, y1, x2, y2, in either order), in the
        order they were drawn, a point of slack for a baseline drawn on its edge and a run drawn just
        left of it; a run that starts at its right edge or within a point of it is the text after the
        link (Chrome's PDFs start it where the link's box ends), not in it."""
        if len(rect) != 4:
            return ""
        left, right = sorted(rect[0::2])
        low, high = sorted(rect[1::2])
        rows = self.order[bisect_left(self.heights, low - 1) : bisect_right(self.heights, high + 1)]
        inside = sorted(index for index in rows if left - 1 <= self.placed[index][0] < right - 1)
        return " ".join(" ".join(self.placed[index][2] for index in inside).split())


def _link(annotation: Any, runs: Runs, base: str | None) -> Link | None:
    try:
        if annotation.get("/Subtype") != "/Link":
            return None
        action = annotation.get("/A")
        action = action.get_object() if action is not None else None
        if action is None or action.get("/S") != "/URI":
            return None
        uri = action.get("/URI")
        uri = uri.get_object() if uri is not None else None
        if not isinstance(uri, TextStringObject | ByteStringObject):  # a number or name is no address
            return None
        url = absolute(uri.decode("latin-1") if isinstance(uri, bytes) else str(uri), base)
    except Exception:  # a damaged annotation: pypdf raises many kinds
        return None
    if url is None or len(url) > MAX_LINK_URL:
        return None
    try:
        rect = [float(value.get_object()) for value in annotation.get("/Rect") or []]
    except Exception:  # a damaged rectangle: the link without its words
        rect = []
    return Link(url=url, text=runs.within(rect), in_main=True)


def distinct(links: list[Link]) -> list[Link]:
    """Each URL once, where it first comes, named by the first words any of its links has."""
    kept: dict[str, Link] = {}
    for link in links:
        first = kept.get(link.url)
        if first is None:
            kept[link.url] = link
        elif not first.text and link.text:
            kept[link.url] = link.model_copy(update={"text": link.text})
    return list(kept.values())
