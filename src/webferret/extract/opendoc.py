"""OpenDocument text (.odt) as Markdown: the document's body turned into plain semantic HTML (headings
by outline level, paragraphs, bold and italic from their styles, lists, tables, links), rendered by
the same Markdown writer as a page; title, author, dates, description and language from `meta.xml`.
An OpenDocument presentation (.odp) is a section per slide, headed by its title, with its text boxes
(an outline's items as a list), its tables and its speaker notes, as a .pptx is.
An OpenDocument spreadsheet (.ods) is a table per sheet, as a .xlsx is (`sheets`): each cell as the
sheet shows it, empty rows and columns left out, a repeated row or filled cell written out at most
`REPEATS_MAX` times (a sheet's empty tail claims a million rows, and is never written out).

The whole document is its content. Images and drawings are left out (a text box's paragraphs are
read); footnotes, comments, tracked deletions and hidden text (a style's `text:display="none"`) too.
`content.xml` is parsed with lxml (`zipped.SAFE_XML`: no entities, no network), and a file whose
parts unpack too far is refused before it is read (`zipped`).
A repeated table cell is written out at most `REPEATS_MAX` times (a sheet's empty tail claims
thousands).
"""

from __future__ import annotations

import zipfile
from collections.abc import Iterator

from lxml import etree, html

from webferret.extract import zipped
from webferret.extract.dates import iso_date
from webferret.extract.opendraw import shapes
from webferret.extract.pdftitle import usable_title
from webferret.extract.sheets import CellBudget, filled, text_budget, workbook
from webferret.extract.slidefile import SLIDE_LABEL_WORDS
from webferret.extract.types import Extracted, ExtractOptions
from webferret.extract.whole import first_heading, whole_document
from webferret.models import ErrorCode, FerretError
from webferret.net.urlpath import file_name

ODT_TYPE = "application/vnd.oasis.opendocument.text"
ODS_TYPE = "application/vnd.oasis.opendocument.spreadsheet"
ODP_TYPE = "application/vnd.oasis.opendocument.presentation"
COLUMNS_MAX = 16384
"""The most columns of a sheet read (LibreOffice's own limit)."""
REPEATS_MAX = 50
REPEATED_CELLS_MAX = 1_000_000
"""The most cells a spreadsheet's repeats may add to the cells it writes (`Repeats`), and a text's or
presentation's tables `REPEATED_TABLE_CELLS` (written as elements, they weigh more): past them it is
`too_large`. A file of a few KB can repeat rows and cells, again and again, to billions of cells."""
REPEATED_TABLE_CELLS = 100_000
_NS = {
    "office": "urn:oasis:names:tc:opendocument:xmlns:office:1.0",
    "text": "urn:oasis:names:tc:opendocument:xmlns:text:1.0",
    "table": "urn:oasis:names:tc:opendocument:xmlns:table:1.0",
    "style": "urn:oasis:names:tc:opendocument:xmlns:style:1.0",
    "fo": "urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0",
    "draw": "urn:oasis:names:tc:opendocument:xmlns:drawing:1.0",
    "xlink": "http://www.w3.org/1999/xlink",
    "dc": "http://purl.org/dc/elements/1.1/",
    "meta": "urn:oasis:names:tc:opendocument:xmlns:meta:1.0",
    "presentation": "urn:oasis:names:tc:opendocument:xmlns:presentation:1.0",
}
_SKIPPED = frozenset(
    f"{{{_NS[prefix]}}}{name}"
    for prefix, name in (
        ("text", "note"),
        ("office", "annotation"),  # a comment: its author, date and words are no part of the text
        ("text", "tracked-changes"),
        ("text", "table-of-content"),
        ("text", "sequence-decls"),
        ("office", "forms"),
        ("table", "table-header-columns"),
    )
)


def _q(prefix: str, name: str) -> str:
    return f"{{{_NS[prefix]}}}{name}"


def _count(node: etree._Element, prefix: str, name: str) -> int:
    """A count attribute (a repeat, a level), 1 when it is missing or no whole number above 0."""
    value = (node.get(_q(prefix, name)) or "").strip()
    return int(value) if value.isdigit() and int(value) > 0 else 1


class Repeats(CellBudget):
    """What is left of one document's budget of repeated cells (`REPEATED_CELLS_MAX`), shared by its
    tables or sheets; `what` names the document in the error."""

    def __init__(self, what: str, most: int = REPEATED_CELLS_MAX) -> None:
        super().__init__(what, most, "repeats its cells to more than")

    def times(self, wanted: int, cells: int) -> int:
        """How many times to write out a row or cell of `cells` cells that repeats `wanted` times:
        `REPEATS_MAX` at most, and each time past the first spends `cells` of the budget."""
        allowed = min(wanted, REPEATS_MAX)
        self.spend((allowed - 1) * cells)
        return allowed


def _opened(body: bytes, what: str, holder: str) -> tuple[zipfile.ZipFile, etree._Element, etree._Element]:
    """The archive, its parsed `content.xml` and the body element `office:<holder>` in it
    (`unsupported_content` naming `what` when there is none)."""
    archive = zipped.checked(body, what)
    content = zipped.main_part(archive, "content.xml", what)
    node = content.find(f"office:body/office:{holder}", _NS)
    if node is None:
        raise FerretError(ErrorCode.UNSUPPORTED_CONTENT, f"{what} cannot be read: it has no {holder} body")
    return archive, content, node


def _fields(archive: zipfile.ZipFile, title: str | None) -> dict[str, str | None]:
    """The page fields `meta.xml` gives; `title` when it names none."""
    meta = _metadata(archive)
    return {
        "title": usable_title(meta.get("title")) or title,
        "byline": meta.get("creator"),
        "published": iso_date((meta.get("created") or "")[:10]),
        "modified": iso_date((meta.get("modified") or "")[:10]),
        "description": meta.get("description"),
        "language": meta.get("language"),
    }


def extract_odt(body: bytes, url: str | None, options: ExtractOptions) -> Extracted:
    """The OpenDocument text in `body` as Markdown (or text) with its metadata; `FerretError` says why not."""
    what = f"the OpenDocument text at {url or 'input'}"
    archive, content, text_body = _opened(body, what, "text")
    root = html.Element("div")
    _Writer(_styles(content), what).children(text_body, root)
    fields = _fields(archive, first_heading(root) or file_name(url))
    extra = {"document": "odt"}
    return whole_document(root, url, options, what=what, content_type=ODT_TYPE, fields=fields, extra=extra)


def extract_odp(body: bytes, url: str | None, options: ExtractOptions) -> Extracted:
    """Every slide of the OpenDocument presentation in `body` with its text; `FerretError` says why not."""
    what = f"the OpenDocument presentation at {url or 'input'}"
    archive, content, deck = _opened(body, what, "presentation")
    writer = _Writer(_styles(content), what)
    root = html.Element("div")
    titles: list[str] = []
    labels = 0  # the words of each `Slide N` and `Notes:` written, not counted
    for number, slide in enumerate(deck.iterfind("draw:page", _NS), start=1):
        section = _slide(writer, slide, number)
        if section is not None:
            root.append(section)
            titles.append(" ".join(section[0].text_content().split()))
            labels += SLIDE_LABEL_WORDS + (section.find("blockquote") is not None)
    first = titles[0].partition(": ")[2] if titles and ": " in titles[0] else ""
    fields = _fields(archive, first or file_name(url))
    extra = {"document": "odp", "slides": len(titles)}
    return whole_document(
        root, url, options, what=what, content_type=ODP_TYPE, fields=fields, extra=extra, labels=labels
    )


_ENTRIES = frozenset((_q("text", "list-header"), _q("text", "list-item")))
"""A list's entries: its unnumbered opening one, its items."""
_RUNNING = frozenset(("footer", "date-time", "page-number", "header"))
"""The frames of a deck's running footer, date, slide number and header: the same on every slide (the
number is in the slide's heading), left out as a .pptx's are."""


def _slide(writer: _Writer, slide: etree._Element, number: int) -> html.HtmlElement | None:
    """One slide as a section headed `Slide N: title`, or None when it has no text."""
    section = html.Element("section")
    heading = etree.SubElement(section, "h2")
    title = ""
    for frame in shapes(slide):  # from the top of the slide down, groups opened
        kind = frame.get(_q("presentation", "class")) or ""
        if kind in _RUNNING:
            continue
        if kind == "title" and not title:
            title = one_line(frame)
            continue
        boxes = frame.iterfind("draw:text-box", _NS) if frame.tag == _q("draw", "frame") else [frame]
        for box in boxes:  # (a shape holds its paragraphs itself)
            holder = etree.SubElement(section, "ul") if kind == "outline" else section
            for block in box:
                if kind == "outline" and block.tag == _q("text", "p"):
                    writer.children(block, etree.SubElement(holder, "li"))
                elif kind == "outline" and block.tag == _q("text", "list"):
                    for item in (child for child in block if child.tag in _ENTRIES):  # (a header too)
                        writer.children(item, etree.SubElement(holder, "li"))
                else:
                    writer.element(block, holder)
        for table in frame.iterfind("table:table", _NS):
            writer.table(table, etree.SubElement(section, "table"))
    notes = " ".join(one_line(node) for node in slide.iterfind("presentation:notes", _NS))
    if " ".join(notes.split()):
        etree.SubElement(etree.SubElement(section, "blockquote"), "p").text = "Notes: " + " ".join(
            notes.split()
        )
    if len(section) == 1 and not title:
        return None
    heading.text = f"Slide {number}" + (f": {title}" if title else "")
    return section


def extract_ods(body: bytes, url: str | None, options: ExtractOptions) -> Extracted:
    """Every sheet of the OpenDocument spreadsheet in `body` with its cells; `FerretError` says why not."""
    what = f"the OpenDocument spreadsheet at {url or 'input'}"
    archive, _, book = _opened(body, what, "spreadsheet")
    repeats, shown = Repeats(what), text_budget(what)
    sheets = [
        (node.get(_q("table", "name")) or f"Sheet {number}", filled(_sheet_rows(node, repeats), shown))
        for number, node in enumerate(book.iterfind("table:table", _NS), start=1)
    ]
    fields = _fields(archive, file_name(url))
    return workbook(sheets, options, what=what, content_type=ODS_TYPE, fields=fields, document="ods")


def _sheet_rows(node: etree._Element, repeats: Repeats) -> Iterator[list[str]]:
    """A sheet's rows as the text of their cells; a repeated filled row or cell at most `REPEATS_MAX`
    times (`repeats`), empty cells only before a filled one (an empty tail is the grid, not the sheet)."""
    for row in node.iter(_q("table", "table-row")):
        cells: list[str] = []
        empty = written = 0  # empty cells before the next filled one, and the elements that hold them
        for cell in row:
            if cell.tag not in (_q("table", "table-cell"), _q("table", "covered-table-cell")):
                continue
            count = _count(cell, "table", "number-columns-repeated")
            value = _cell_text(cell)
            if not value:
                empty, written = empty + count, written + 1
                continue
            padding = min(empty, COLUMNS_MAX - len(cells))
            repeats.spend(padding - min(written, padding))
            cells.extend([""] * padding)
            cells.extend([value] * min(repeats.times(count, 1), max(COLUMNS_MAX - len(cells), 0)))
            empty = written = 0
        if any(cells):
            yield from [cells] * repeats.times(_count(row, "table", "number-rows-repeated"), len(cells))


def _cell_text(cell: etree._Element) -> str:
    """What a cell shows: its paragraphs on one line, else its typed value."""
    shown = " ".join(one_line(p) for p in cell.iterfind("text:p", _NS)).strip()
    if shown:
        return shown
    for kind in ("value", "date-value", "time-value", "boolean-value", "string-value"):
        value = cell.get(_q("office", kind))
        if value:
            return value
    return ""


_APART = frozenset(_q("text", name) for name in ("p", "h", "line-break", "tab", "s"))
"""The elements that set words apart: a paragraph or heading, a line break, a tab, a run of spaces."""


def one_line(node: etree._Element) -> str:
    """The words of `node` on one line, its paragraphs, line breaks, tabs and spaces (`text:s`) as
    spaces: a title set on two lines is not `Salmon countsof the Tay`."""
    pieces: list[str] = []
    for event, element in etree.iterwalk(node, events=("start", "end")):
        if element.tag in _APART:
            pieces.append(" ")
        if event == "start" and isinstance(element.tag, str):  # (a comment's text is none of its words)
            pieces.append(element.text or "")
        elif event == "end" and element is not node:
            pieces.append(element.tail or "")
    return " ".join("".join(pieces).split())


class _Styles:
    """What the document's automatic styles say: which text styles are bold or italic, which hide
    their text (`text:display="none"`, Writer's hidden characters and paragraphs), which list
    styles number their items, and which paragraph styles are Writer's Title (the document's title,
    a heading)."""

    def __init__(self) -> None:
        self.bold: set[str] = set()
        self.italic: set[str] = set()
        self.hidden: set[str] = set()
        self.numbered: set[str] = set()
        self.title: set[str] = {"Title"}


def _styles(content: etree._Element) -> _Styles:
    found = _Styles()
    for style in content.iterfind("office:automatic-styles/style:style", _NS):
        name = style.get(_q("style", "name")) or ""
        if style.get(_q("style", "parent-style-name")) == "Title":
            found.title.add(name)
        props = style.find("style:text-properties", _NS)
        if props is None:
            continue
        if (props.get(_q("fo", "font-weight")) or "") in ("bold", "600", "700", "800", "900"):
            found.bold.add(name)
        if props.get(_q("fo", "font-style")) == "italic":
            found.italic.add(name)
        if props.get(_q("text", "display")) == "none":
            found.hidden.add(name)
    for style in content.iterfind("office:automatic-styles/text:list-style", _NS):
        first = style.find("*", _NS)
        if first is not None and first.tag == _q("text", "list-level-style-number"):
            found.numbered.add(style.get(_q("style", "name")) or "")
    return found


class _Writer:
    """ODF body elements to the HTML the Markdown writer reads."""

    def __init__(self, styles: _Styles, what: str) -> None:
        self.styles = styles
        self.repeats = Repeats(what, REPEATED_TABLE_CELLS)
        self.shown = text_budget(what)

    def children(self, source: etree._Element, target: html.HtmlElement) -> None:
        if source.text and source.tag not in _BLOCK_HOLDERS:
            _append_text(target, source.text)
        for child in source:
            if child.tag not in _SKIPPED and isinstance(child.tag, str):
                self.element(child, target)
            if child.tail and source.tag not in _BLOCK_HOLDERS:
                _append_text(target, child.tail)

    def element(self, node: etree._Element, target: html.HtmlElement) -> None:
        tag = node.tag
        if (node.get(_q("text", "style-name")) or "") in self.styles.hidden:
            return  # text the document does not show (the words after it are its parent's)
        if tag == _q("text", "h"):
            level = min(_count(node, "text", "outline-level"), 6)
            self.children(node, etree.SubElement(target, f"h{level}"))
        elif tag == _q("text", "p"):
            titled = (node.get(_q("text", "style-name")) or "") in self.styles.title
            self.children(node, etree.SubElement(target, "h1" if titled else "p"))
        elif tag == _q("text", "list"):
            for header in node.iterfind("text:list-header", _NS):  # its unnumbered opening entry
                self.children(header, target)
            numbered = (node.get(_q("text", "style-name")) or "") in self.styles.numbered
            listed = etree.SubElement(target, "ol" if numbered else "ul")
            for item in node.iterfind("text:list-item", _NS):
                self.children(item, etree.SubElement(listed, "li"))
        elif tag == _q("table", "table"):
            self.table(node, etree.SubElement(target, "table"))
        elif tag == _q("text", "span"):
            style = node.get(_q("text", "style-name")) or ""
            holder = target
            if style in self.styles.bold:
                holder = etree.SubElement(holder, "strong")
            if style in self.styles.italic:
                holder = etree.SubElement(holder, "em")
            self.children(node, holder)
        elif tag == _q("text", "a"):
            link = etree.SubElement(target, "a", href=node.get(_q("xlink", "href")) or "")
            self.children(node, link)
        elif tag == _q("text", "s"):
            _append_text(target, " " * min(_count(node, "text", "c"), 20))
        elif tag == _q("text", "tab"):
            _append_text(target, "\t")
        elif tag == _q("text", "line-break"):
            etree.SubElement(target, "br")
        elif tag == _q("draw", "frame"):
            for box in node.iterfind("draw:text-box", _NS):  # a text box's paragraphs; a picture has none
                self.children(box, target)
        else:  # a section, a bookmark, a field: its text where it stands
            self.children(node, target)

    def table(self, node: etree._Element, target: html.HtmlElement) -> None:
        for row in _table_rows(node):  # a row's repeats are not written out: they are a layout's empty rows
            line = etree.SubElement(target, "tr")
            for cell in row.iterfind("table:table-cell", _NS):  # a covered cell is its spanning cell's
                times = self.repeats.times(_count(cell, "table", "number-columns-repeated"), 1)
                if times > 1:  # its words written again: a long cell repeated is gigabytes of few KB
                    self.shown.spend(len(one_line(cell)) * (times - 1))
                for _ in range(times):
                    td = etree.SubElement(line, "td")
                    for attribute, name in (
                        ("colspan", "number-columns-spanned"),
                        ("rowspan", "number-rows-spanned"),
                    ):
                        span = _count(cell, "table", name)
                        if span > 1:
                            td.set(attribute, str(span))
                    self.children(cell, td)


_ROW_GROUPS = frozenset(_q("table", name) for name in ("table-header-rows", "table-rows", "table-row-group"))
"""Elements that hold a table's rows in their order (a heading's rows, a group a reader may fold)."""


def _table_rows(node: etree._Element) -> Iterator[etree._Element]:
    """A table's rows in order, those its header and row groups hold among them (not a nested table's)."""
    for child in node:
        if child.tag == _q("table", "table-row"):
            yield child
        elif child.tag in _ROW_GROUPS:
            yield from _table_rows(child)


_BLOCK_HOLDERS = frozenset(
    (
        _q("office", "text"),
        _q("text", "list"),
        _q("text", "list-item"),
        _q("table", "table"),
        _q("table", "table-cell"),
    )
)
"""Elements that hold blocks, not text: white space between their children is the file's layout."""


def _append_text(target: html.HtmlElement, text: str) -> None:
    if len(target):
        target[-1].tail = (target[-1].tail or "") + text
    else:
        target.text = (target.text or "") + text


def _metadata(archive: zipfile.ZipFile) -> dict[str, str]:
    """`meta.xml`'s title, author (who made it, else the last to edit it), dates, description, language."""
    meta = zipped.part(archive, "meta.xml")
    node = meta.find("office:meta", _NS) if meta is not None else None
    if node is None:
        return {}
    found: dict[str, str] = {}
    for name, path in (
        ("title", "dc:title"),
        ("creator", "meta:initial-creator"),
        ("creator", "dc:creator"),
        ("description", "dc:description"),
        ("language", "dc:language"),
        ("created", "meta:creation-date"),
        ("modified", "dc:date"),
    ):
        value = " ".join((node.findtext(path, namespaces=_NS) or "").split())
        if value and name not in found:
            found[name] = value
    return found
