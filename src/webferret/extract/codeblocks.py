"""Code blocks of the original page, kept aside so a selector's flattened copy can be rendered from them."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from lxml import etree

from webferret.extract.codelang import code_language

_SPACE = re.compile(r"\s+")


_TAG_NAMES: dict[object, str] = {}


def tag_name(node: etree._Element) -> str:
    """Lower-case local name of an element; "" for comments and processing instructions."""
    tag = node.tag
    name = _TAG_NAMES.get(tag)
    if name is None:  # remembered: a page has few distinct tags, and they are asked for many times
        if len(_TAG_NAMES) > 4096:
            _TAG_NAMES.clear()
        name = _TAG_NAMES[tag] = tag.rsplit("}", 1)[-1].lower() if isinstance(tag, str) else ""
    return name


@dataclass(frozen=True)
class CodeBlock:
    """A code block of the original page: its exact text and the language it names."""

    code: str
    language: str


def code_text(node: etree._Element) -> str:
    """The text of a code element with its line breaks and indentation kept: a `<br>` ends a line,
    and so does the end of a `<div>`, `<p>`, `<tr>`, `<li>` or line's `<span>` inside it (highlighters
    that give each line an element of its own, as Expressive Code, Shiki, highlight.js' line numbers
    and prettify do; an empty one is a blank line). A no-break space (`&nbsp;`, how many pages indent
    code) is a space, so that the code runs when copied. Line numbers that a highlighter writes into
    the code (see `_gutter`) are left out."""
    parts: list[str] = []
    ended = False  # a line's element ended: a line break, unless the text after it starts with one
    blank: etree._Element | None = None  # the last empty line's element
    fresh = True  # nothing but white space on the current line yet
    opened = False  # some text other than white space in the block yet
    numbers: list[_Number] = []

    def add(text: str) -> None:
        nonlocal ended, fresh, opened
        if ended and not text.startswith(("\n", "\r")):
            parts.append("\n")
            fresh = True
        ended = False
        parts.append(text)
        head, newline, rest = text.rpartition("\n")
        fresh = not rest.strip() and (fresh or bool(newline))
        opened = opened or bool(rest.strip() or head.strip())

    for event, item in etree.iterwalk(node, events=("start", "end")):
        tag = tag_name(item)
        if event == "start":
            if tag in ("br", "lb"):
                add("\n")
            elif tag and tag not in ("script", "style") and item.text:
                starts, first = fresh or ended, not opened
                add(item.text)
                if len(item) == 0 and item is not node and _DIGITS.fullmatch(item.text):
                    numbers.append(_Number(len(parts) - 1, first, starts, tag))
            continue
        if item is node:
            break
        if parts and (tag in _LINES or (tag == "span" and _is_line(item))):
            empty = not any(item.itertext())
            if empty and _in_cell(item, node):
                pass  # an empty mark beside a line (a gutter's cell), not a line
            elif empty:
                if ended and (blank is None or item not in blank.iterancestors()):
                    parts.append("\n")  # a blank line (once, not again for the elements around it)
                    fresh = True
                blank = item
            elif not parts[-1].endswith("\n"):
                ended = True
        if item.tail:
            add(item.tail)
    if numbers:
        for index in _gutter(parts, numbers):
            parts[index] = ""
    return "".join(parts).replace("\u00a0", " ")


_LINES = ("div", "p", "tr", "li")  # elements that highlighters give each line of code
_DIGITS = re.compile(r"\s*\d+(?:\s*\n\s*\d+)*\s*")
_GLUED = (",", ".", ";", ":")  # after a number on its line: a value of the code, not a line's number


@dataclass(frozen=True)
class _Number:
    """An element inside a code block whose whole text is a number, or a column of numbers."""

    index: int  # of its text in the code's parts
    first: bool  # the first text of the whole block
    line_start: bool  # the first text of its line
    tag: str


def _gutter(parts: list[str], numbers: list[_Number]) -> list[int]:
    """The parts that are a highlighter's line numbers rather than code: either one column of
    consecutive numbers, one a line, that opens the block and is followed by as many lines of code
    (Jekyll's Rouge table), or elements of one tag that each open a line with its number, consecutive
    through the block and followed by that line's code (Pygments' and Hugo's inline numbers, and
    highlighters that mark theirs only with CSS)."""
    column = numbers[0]
    values = parts[column.index].split()
    if column.first and len(values) > 1 and _consecutive(values):
        rest = "".join(parts[column.index + 1 :]).strip("\n")
        if rest.strip() and abs(rest.count("\n") + 1 - len(values)) <= 1:
            return [column.index]
    inline = [n for n in numbers if n.line_start and "\n" not in parts[n.index].strip()]
    if len(inline) < 2 or len({n.tag for n in inline}) > 1:
        return []
    if not _consecutive([parts[n.index] for n in inline]):
        return []
    rests = [_rest_of_line(parts, n.index) for n in inline]
    if any(rest.startswith(_GLUED) for rest in rests) or sum(bool(rest) for rest in rests) * 2 < len(rests):
        return []
    return [n.index for n in inline]


def _is_line(item: etree._Element) -> bool:
    """A `<span>` that holds one line of code: Shiki's and Hugo's `class="line"`, rehype-pretty-code's
    `data-line` (pages that render them as blocks need no line break between them)."""
    return "line" in (item.get("class") or "").split() or item.get("data-line") is not None


def _in_cell(item: etree._Element, node: etree._Element) -> bool:
    """Whether an element of a code block sits in a table cell inside the block."""
    for parent in item.iterancestors():
        if parent is node:
            return False
        if tag_name(parent) in ("td", "th"):
            return True
    return False


def _rest_of_line(parts: list[str], index: int) -> str:
    """What follows the part at `index` on its line, white space before it taken off."""
    rest = []
    for part in parts[index + 1 :]:
        line, newline, _ = part.partition("\n")
        rest.append(line)
        if newline:
            break
    return "".join(rest).strip()


def _consecutive(values: list[str]) -> bool:
    numbers = [int(v) for v in values]
    return all(b == a + 1 for a, b in itertools.pairwise(numbers))


def code_key(node: etree._Element) -> str:
    """A code block's identity across trees that may have lost its whitespace."""
    return _SPACE.sub(" ", "".join(node.itertext())).strip()


def collect_code_blocks(tree: etree._Element) -> dict[str, CodeBlock]:
    """Every `<pre>` of the original page by `code_key`, so a selector's flattened copy can be
    rendered from the original (indentation and language kept; a one-line `<pre>` too, whose spaces
    align columns: trafilatura makes it a quotation)."""
    found: dict[str, CodeBlock] = {}
    for node in tree.iter("pre"):
        code = code_text(node).strip("\n")
        if code.strip():
            found.setdefault(code_key(node), CodeBlock(code, code_language(node) or ""))
    return found


LINE_NUMBERS = re.compile(r"[\d\s]+")
"""The whole text of a highlighter's gutter cell beside a code block."""


def unwrap_gutter_tables(tree: etree._Element) -> bool:
    """Replace each highlighter's table of one row, a cell of line numbers beside a cell holding the
    code (Hugo's `lntable`, Pygments' `highlighttable`), by the code cell's content; answer whether
    any was. As a table of links (Hugo makes each number one), trafilatura and the block classifier
    left the whole code block out."""
    changed = False
    for table in list(tree.iter("table")):
        rows = [row for row in table.iter("tr") if next(row.iterancestors("table"), None) is table]
        cells = [cell for cell in rows[0] if tag_name(cell) in ("td", "th")] if len(rows) == 1 else []
        if len(cells) != 2 or not any(True for _ in cells[1].iter("pre")):
            continue
        gutter = "".join(cells[0].itertext())
        if not gutter.strip() or not LINE_NUMBERS.fullmatch(gutter):
            continue
        parent = table.getparent()
        if parent is None:
            continue
        code = cells[1]
        holder = etree.Element("div")
        holder.text = code.text
        holder.extend(list(code))
        holder.tail = table.tail
        parent.replace(table, holder)
        changed = True
    return changed
