"""A task list's boxes as GitHub-flavoured Markdown's: `<li><input type="checkbox" checked> Ship it`
reads `- [x] Ship it`, and an unticked one `- [ ] ...`. A box is a form control, dropped with the
others, and with it went whether the task was done: a project's roadmap read as a list of plans.

Only a box that opens a list item (in the item's `<label>` or `<p>` too) and cannot be ticked is a
task's: a rendered document's, whose boxes are `disabled` (GitHub's, markdown-it's, pymdown's) or whose
item or list is named for tasks (`task-list-item`); one a reader ticks is a form's (a shop's filters).
"""

from __future__ import annotations

from lxml import html

from webferret.extract import hints

_HINT = hints.word("checkbox")
"""In the HTML of every page with a box (the tree is not searched otherwise)."""
_HOLDERS = frozenset(("label", "p", "span"))  # what may hold a task's box inside its item


def has_task_boxes(text: str) -> bool:
    """Whether the page's HTML `text` may hold a task list."""
    return hints.holds(text, _HINT)


def mark_task_boxes(tree: html.HtmlElement) -> None:
    """Write each task's box of `tree` as `[x]` or `[ ]` before the task's words."""
    for box in list(tree.iter("input")):
        if (box.get("type") or "").strip().lower() != "checkbox":
            continue
        item = _item_opened(box)
        if item is None or not (box.get("disabled") is not None or _named_for_tasks(item)):
            continue
        done = box.get("checked") is not None or (box.get("aria-checked") or "").lower() == "true"
        box.tail = ("[x] " if done else "[ ] ") + (box.tail or "").lstrip()
        box.drop_tree()


def _item_opened(box: html.HtmlElement) -> html.HtmlElement | None:
    """The list item `box` stands first in (nothing with words before it), or None."""
    node = box
    for _ in range(3):
        parent = node.getparent()
        if parent is None or (parent.text or "").strip():
            return None
        for before in node.itersiblings(preceding=True):
            words = "".join(before.itertext()) if isinstance(before.tag, str) else ""  # (a comment)
            if words.strip() or (before.tail or "").strip():
                return None
        if parent.tag == "li":
            return parent
        if parent.tag not in _HOLDERS:
            return None
        node = parent
    return None


def _named_for_tasks(item: html.HtmlElement) -> bool:
    lists = item.getparent()
    names = f"{item.get('class') or ''} {lists.get('class') or '' if lists is not None else ''}"
    return "task" in names.lower()
