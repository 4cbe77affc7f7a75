"""A data table's cell that shows only a small image with alt text (a check mark, a cross) reads as that
text.

Every reader drops images from a page's text, so a support matrix whose cells hold check-mark images
(`<img src="green-check.svg" alt="yes">`) came out as a table of empty cells: its information lost.
Right after parsing, in a table with a header row, a cell whose only content is one image whose alt
text is a few words gets that text in place of the image (so every reader sees it); other images
(a product photo, a logo, a button in a layout table) are left as they are.
"""

from __future__ import annotations

from lxml import html

ALT_WORDS = 3
"""At most this many words of alt text: a mark's meaning ("yes", "not supported"), not a caption."""


def spell_icons(tree: html.HtmlElement) -> None:
    """Replace, in place, each lone image of a header-row table's cell by its alt text."""
    for table in tree.iter("table"):
        if next(table.iter("th"), None) is None:
            continue
        for cell in table.iter("td", "th"):
            images = list(cell.iter("img"))
            if len(images) != 1 or "".join(cell.itertext()).strip():
                continue
            image = images[0]
            alt = " ".join((image.get("alt") or "").split())
            parent = image.getparent()
            if not alt or len(alt.split()) > ALT_WORDS or parent is None:
                continue
            mark = html.Element("span")
            mark.text, mark.tail = alt, image.tail
            parent.replace(image, mark)
