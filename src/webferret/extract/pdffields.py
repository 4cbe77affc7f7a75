"""A PDF form's answers: the values its filled-in text fields and choices hold, read where they stand.

pypdf's text of a page is what the page's content draws; a form's answers are drawn by its fields' own
widgets (annotations), so a filled-in application read `Name: City:`, without `Jane Doe` or `Lisbon`.
Each field's value is a run of text (`pdflayout.Run`) on its label's line: right after the run drawn
last left of the field within its height, at that run's height and size; else at the field's own place,
among the runs drawn above it. A hidden field, a password, a button (a check box's `/Yes`) and an empty
field are left out; past `MAX_FIELDS` on a page the rest are too.
"""

from __future__ import annotations

from typing import Any

from pypdf.generic import ArrayObject, StreamObject, create_string_object

from webferret.extract.pdflayout import Run

MAX_FIELDS = 500
"""The most fields of one page whose values are read (each looks at every run of its page)."""
HIDDEN = 2
"""The annotation flag of a widget that is neither shown nor printed (PDF 1.7, 12.5.3)."""
PASSWORD = 1 << 13
"""The field flag of a text field whose value is a password, shown as asterisks (PDF 1.7, 12.7.4.3)."""
_VALUED = ("/Tx", "/Ch")
"""The kinds of field whose value is text: a text field, a list or combo box."""


def with_fields(page: Any, runs: list[Run]) -> tuple[list[Run], list[str]]:
    """`runs` (a page's, in drawing order) with the value of each of `page`'s filled-in fields placed
    among them (see the module), and the values; `runs` alone when a field's dictionary is damaged."""
    try:
        fields = sorted(_fields(page), key=lambda field: field[0][0])
    except Exception:  # a damaged annotation or field: whatever pypdf raises for it
        return runs, []
    placed = list(runs)
    for rect, value in fields:
        placed = _placed(placed, rect, value)
    return placed, [value for _, value in fields]


def _fields(page: Any) -> list[tuple[tuple[float, float, float], str]]:
    """The shown widgets of `page`'s fields whose value is text, each as where it stands (its left
    edge, its bottom and top) and its value on one line."""
    found = []
    for reference in (page.get("/Annots") or [])[: MAX_FIELDS * 4]:
        widget = reference.get_object()
        if widget.get("/Subtype") != "/Widget" or int(widget.get("/F", 0)) & HIDDEN:
            continue
        value = _inherited(widget, "/V")
        if _inherited(widget, "/FT") not in _VALUED or value is None:
            continue
        if int(_inherited(widget, "/Ff") or 0) & PASSWORD:
            continue
        shown = _text(value)
        rect = [float(number) for number in widget.get("/Rect") or []]
        if " ".join(shown.split()) and len(rect) == 4:
            low, high = sorted(rect[1::2])
            found.append(((min(rect[0::2]), low, high), " ".join(shown.split())))
        if len(found) == MAX_FIELDS:
            break
    return found


def _text(value: Any) -> str:
    """A field's value as text: a string, a list's choices joined, or a text stream's text (a long
    answer may be one, PDF 1.7, 12.7.4.3; its dictionary was read as the answer)."""
    if isinstance(value, ArrayObject):
        return ", ".join(_text(item.get_object()) for item in value)
    if isinstance(value, StreamObject):
        return str(create_string_object(value.get_data()))
    return str(value)


def _inherited(widget: Any, key: str) -> Any:
    """A field's `key`, from its widget or the nearest field above it that has it (a field's kids
    share its kind and value)."""
    node, depth = widget, 0
    while node is not None and depth < 32:
        if key in node:
            return node[key].get_object()
        parent = node.get("/Parent")
        node, depth = parent.get_object() if parent is not None else None, depth + 1
    return None


def _placed(runs: list[Run], rect: tuple[float, float, float], value: str) -> list[Run]:
    """`runs` with `value`, a field's at `rect` (its left edge, bottom and top), among them (see the
    module)."""
    left, low, high = rect
    beside = [at for at, run in enumerate(runs) if low - 1 <= run.y <= high + 1 and run.x < left]
    if beside:
        at = max(beside, key=lambda at: (runs[at].x, at))
        label = runs[at]
        return [*runs[: at + 1], Run(label.y, label.size, f" {value}", left), *runs[at + 1 :]]
    size = min(max(high - low, 1.0) * 0.7, 12.0)
    y = low + (high - low - size) / 2
    above = [at for at, run in enumerate(runs) if run.y > y]
    at = above[-1] + 1 if above else 0
    return [*runs[:at], Run(y, size, value, left), *runs[at:]]
