"""Presentations (.pptx) as Markdown: a section per slide in the deck's order, headed by its title, its
text boxes' paragraphs (a bulleted or indented paragraph as a list item at its level), its tables, and
its speaker notes; title, author and dates from the deck's properties.

The slides are read from their XML with lxml (`zipped.SAFE_XML`: no entities, no network), in the
order `ppt/presentation.xml` lists them, each slide's shapes from its top down (`_in_reading_order`).
Pictures, charts and layouts carry no text of their own here, nor the footer, date and slide number
a deck repeats on its slides. A file whose parts unpack too far is
refused before it is read (`zipped`).
"""

from __future__ import annotations

import itertools
import math
import posixpath
import zipfile
from collections.abc import Iterable, Iterator

from lxml import etree

from webferret.extract import zipped
from webferret.extract.markdown import gfm_table
from webferret.extract.types import Extracted, ExtractOptions
from webferret.extract.words import count_words
from webferret.models import ErrorCode, FerretError
from webferret.net.urlpath import file_name

PPTX_TYPE = "application/vnd.openxmlformats-officedocument.presentationml.presentation"
_NS = {
    "p": "http://schemas.openxmlformats.org/presentationml/2006/main",
    "a": "http://schemas.openxmlformats.org/drawingml/2006/main",
    "r": "http://schemas.openxmlformats.org/officeDocument/2006/relationships",
    "rel": "http://schemas.openxmlformats.org/package/2006/relationships",
}
_R_ID = f"{{{_NS['r']}}}id"
_TITLES = ("title", "ctrTitle")
SLIDE_LABEL_WORDS = 2
"""The words of a slide's heading that the reader writes (`Slide 2`), not the deck: not counted."""
_RUNNING = frozenset(("ftr", "dt", "sldNum"))
"""The placeholders of a deck's running footer, date and slide number: the same on every slide (the
number is in the slide's heading), as a PDF's running header and page number are left out."""
_NOTES = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/notesSlide"


def extract_pptx(body: bytes, url: str | None, options: ExtractOptions) -> Extracted:
    """Every slide of the deck in `body` with its text; `FerretError` says why not. A slide whose part
    is missing or no XML is said so in its place (`<!-- slide 3: cannot be read (...) -->`) and in
    `meta.extract.unreadable_slides`, as a PDF's damaged page is."""
    what = f"the presentation at {url or 'input'}"
    archive = zipped.checked(body, what)
    text = options.format == "text"
    sections: list[str] = []
    titles: list[str] = []
    labels = 0  # the words of each `Slide N` and `Notes:` written, not counted
    unreadable: list[dict[str, object]] = []
    notes_read: set[str] = set()
    for number, path in enumerate(_slide_paths(archive, what), start=1):
        slide = zipped.part(archive, path)
        if slide is None:
            why = f"its part {path} is missing or is no XML"
            unreadable.append({"slide": number, "error": why})
            sections += [] if text else [f"<!-- slide {number}: cannot be read ({why}) -->"]
            continue
        title, block, said = _section(archive, path, slide, number, text, notes_read)
        if block:
            sections.append(block)
            titles.append(title)
            labels += said
    if not titles:
        _refuse_empty(what, unreadable)
    content = "\n\n".join(sections) + "\n"
    extra = {"document": "pptx", "slides": len(titles)}
    return Extracted(
        content_type=PPTX_TYPE,
        **zipped.described(archive, next(filter(None, titles), "") or file_name(url)),
        page_type="other",
        format="text" if text else "markdown",
        content=content,
        word_count=count_words(content) - labels,
        extra=extra | ({"unreadable_slides": unreadable} if unreadable else {}),
    )


def _section(
    archive: zipfile.ZipFile, path: str, slide: etree._Element, number: int, text: bool, notes_read: set[str]
) -> tuple[str, str, int]:
    """A slide's title, its section (`## Slide N: title`, its blocks and notes; "" for a slide without
    text) and the words of the labels written in it (`Slide N`, `Notes:`); `notes_read`: the notes
    parts read for the slides before it (`_notes`)."""
    title, lines = _slide(slide, text)
    notes = _notes(archive, path, notes_read)
    if not (title or lines or notes):
        return title, "", 0
    head = f"Slide {number}" + (f": {title}" if title else "")
    block = [head if text else f"## {head}", *lines]
    if notes:
        block.append(f"Notes: {notes}" if text else f"> Notes: {notes}")
    return title, "\n\n".join(block), SLIDE_LABEL_WORDS + bool(notes)


def _refuse_empty(what: str, unreadable: list[dict[str, object]]) -> None:
    """`empty_content` for a deck without text; `unsupported_content` when its slides that could not
    be read may have held it."""
    if not unreadable:
        raise FerretError(ErrorCode.EMPTY_CONTENT, f"{what} has no text")
    numbers = ", ".join(str(slide["slide"]) for slide in unreadable)
    damaged = f"slides {numbers} are" if len(unreadable) > 1 else f"slide {numbers} is"
    first = unreadable[0]["error"]
    raise FerretError(
        ErrorCode.UNSUPPORTED_CONTENT,
        f"{what} cannot be read: no slide gave text, and {damaged} damaged ({first})",
    )


def _slide_paths(archive: zipfile.ZipFile, what: str) -> list[str]:
    """The slides' part names in the deck's order, each once."""
    deck = zipped.main_part(archive, "ppt/presentation.xml", what)
    targets = _relations(archive, "ppt/presentation.xml")
    ids = [node.get(_R_ID) for node in deck.iterfind("p:sldIdLst/p:sldId", _NS)]
    # each once: a deck of a few KB that lists one slide a thousand times had it read as often
    return list(dict.fromkeys(targets[rid][1] for rid in ids if rid in targets))


def _relations(archive: zipfile.ZipFile, name: str) -> dict[str, tuple[str, str]]:
    """A part's relationships within the file: id to its type and the target's part name (resolved
    against the part's folder)."""
    folder, base = posixpath.split(name)
    rels = zipped.part(archive, f"{folder}/_rels/{base}.rels")
    if rels is None:
        return {}
    found = {}
    for node in rels.iterfind("rel:Relationship", _NS):
        target, rid = node.get("Target") or "", node.get("Id") or ""
        if node.get("TargetMode") == "External" or not target:
            continue
        path = target.lstrip("/") if target.startswith("/") else posixpath.normpath(f"{folder}/{target}")
        found[rid] = (node.get("Type") or "", path)
    return found


def _notes(archive: zipfile.ZipFile, slide_path: str, read: set[str]) -> str:
    """The speaker notes of a slide, as one line; "" when their part was `read` for another slide (a
    slide has its own: a few KB of slides sharing one long notes part had it written out by each)."""
    paths = [path for kind, path in _relations(archive, slide_path).values() if kind == _NOTES]
    if not paths or paths[0] in read:
        return ""
    read.add(paths[0])
    notes = zipped.part(archive, paths[0])
    if notes is None:
        return ""
    bodies = [shape for shape in notes.iter(f"{{{_NS['p']}}}sp") if _placeholder(shape) == "body"]
    return _joined(paragraph for shape in bodies for paragraph in shape.iterfind(".//a:p", _NS))


def _slide(slide: etree._Element, text: bool) -> tuple[str, list[str]]:
    """A slide's title and its other text, as Markdown blocks (or plain lines)."""
    title = ""
    blocks: list[str] = []
    for shape in _shapes(slide):
        if shape.tag == f"{{{_NS['p']}}}graphicFrame":
            table = _table(shape, text)
            if table:
                blocks.append(table)
            continue
        paragraphs = shape.findall(".//a:p", _NS)
        placeholder = _placeholder(shape)
        if placeholder in _RUNNING:
            continue
        if placeholder in _TITLES and not title:
            title = _joined(paragraphs)
            continue
        listed = placeholder in ("body", "obj")  # a body placeholder's paragraphs are its bullets
        lines = [_paragraph_line(paragraph, text, listed) for paragraph in paragraphs]
        block = _joined_lines([line for line in lines if line], text)
        if block:
            blocks.append(block)
    return title, blocks


def _shapes(slide: etree._Element) -> Iterator[etree._Element]:
    """The slide's shapes with text and its tables, in reading order (groups opened)."""
    tree = slide.find("p:cSld/p:spTree", _NS)
    if tree is not None:
        yield from _in_reading_order(tree)


def _in_reading_order(holder: etree._Element) -> Iterator[etree._Element]:
    """The shapes with text and the tables of a shape tree or a group, from the top of the slide down
    and, at one height, from the left: the order they were drawn in (z-order) is the order they were
    added, not read (a text box added last at the top of the slide came last). A shape that sets no
    place of its own (a placeholder where its layout puts it: the slide's title, its body) comes first,
    in drawing order; a group's shapes come in its place, in their own order."""
    for node in sorted(holder, key=_place):  # (a stable sort: shapes at one place keep their order)
        local = etree.QName(node).localname if isinstance(node.tag, str) else ""
        if local == "grpSp":
            yield from _in_reading_order(node)
        elif local == "sp" or (local == "graphicFrame" and node.find(".//a:tbl", _NS) is not None):
            yield node


_OFFSETS = ("p:spPr/a:xfrm/a:off", "p:grpSpPr/a:xfrm/a:off", "p:xfrm/a:off")
"""Where a shape, a group or a table's frame says its top left corner is."""


def _place(node: etree._Element) -> tuple[float, float]:
    """A shape's top left corner as (its height, its left), or the top of the slide for one that
    sets none."""
    for path in _OFFSETS:
        offset = node.find(path, _NS)
        if offset is not None:
            try:
                return float(offset.get("y", 0)), float(offset.get("x", 0))
            except ValueError:  # a damaged number: the place of no place
                break
    return -math.inf, -math.inf


def _placeholder(shape: etree._Element) -> str | None:
    """The placeholder type of a shape ("title", "body", ...), "body" for an untyped placeholder."""
    found = shape.find("p:nvSpPr/p:nvPr/p:ph", _NS)
    return None if found is None else found.get("type", "body")


def _paragraph_text(paragraph: etree._Element) -> str:
    pieces = []
    for node in paragraph.iter(f"{{{_NS['a']}}}t", f"{{{_NS['a']}}}br"):
        pieces.append("\n" if etree.QName(node).localname == "br" else node.text or "")
    return " ".join("".join(pieces).split())


def _paragraph_line(paragraph: etree._Element, text: bool, listed: bool) -> str:
    """A paragraph as a line: a bulleted one as a list item at its level. `listed`: the shape's
    paragraphs are bullets unless they say otherwise (a body placeholder's, whose bullets the
    slide's layout draws); elsewhere only a paragraph that sets its own bullet is one."""
    said = _paragraph_text(paragraph)
    if not said or text:
        return said
    props = paragraph.find("a:pPr", _NS)
    level_text = props.get("lvl", "0") if props is not None else "0"
    level = int(level_text) if level_text.isdigit() else 0
    own = props is not None and any(
        props.find(f"a:{tag}", _NS) is not None for tag in ("buChar", "buAutoNum")
    )
    plain = props is not None and props.find("a:buNone", _NS) is not None
    return f"{'  ' * level}- {said}" if (own or listed) and not plain else said


def _joined_lines(lines: list[str], text: bool) -> str:
    """A shape's lines as one block, a line each; in Markdown a line that is no list item after one
    that is stands apart (a blank line before it): Markdown reads a line right after an item as more
    of the item (`- North bank` then `Dee` is the one item "North bank Dee")."""
    block = lines[0] if lines else ""
    for before, line in itertools.pairwise(lines):
        apart = not text and _is_item(before) and not _is_item(line)
        block += ("\n\n" if apart else "\n") + line
    return block


def _is_item(line: str) -> bool:
    return line.lstrip(" ").startswith("- ")


def _joined(paragraphs: Iterable[etree._Element]) -> str:
    """Paragraphs' text on one line (a title, a table cell, a slide's notes)."""
    return " ".join(said for said in map(_paragraph_text, paragraphs) if said)


def _table(frame: etree._Element, text: bool) -> str:
    rows = [
        [_joined(cell.iterfind(".//a:p", _NS)) for cell in row.iterfind("a:tc", _NS)]
        for row in frame.iterfind(".//a:tbl/a:tr", _NS)
    ]
    rows = [row for row in rows if any(row)]
    if not rows:
        return ""
    if text:
        return "\n".join("\t".join(row) for row in rows)
    width = max(len(row) for row in rows)
    head, *body = [[cell.replace("|", "\\|") for cell in row] + [""] * (width - len(row)) for row in rows]
    return gfm_table(head, body)
