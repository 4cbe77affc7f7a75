"""A task list's boxes read as GitHub-flavoured Markdown's `[x]` and `[ ]`; a form's boxes do not."""

from __future__ import annotations

from webferret.extract.htmlpage import extract_html
from webferret.extract.types import ExtractOptions

_PROSE = (
    "<p>The release plan lists what the team has shipped and what is still ahead of it this year. </p>" * 3
)


def _content(body: str) -> str:
    page = f"<html><body><article><h1>Roadmap</h1>{_PROSE}{body}</article></body></html>"
    return extract_html(page, "https://example.org/roadmap", ExtractOptions()).content or ""


def test_a_rendered_task_list_says_which_tasks_are_done() -> None:
    """GitHub's markup (a box of class `task-list-item-checkbox`, disabled), a renderer's bare disabled
    box, and one inside the item's paragraph: the boxes were dropped with the form controls, and
    whether each task was done with them."""
    github = (
        '<ul class="contains-task-list"><li class="task-list-item"><input class="task-list-item-checkbox"'
        ' type="checkbox" disabled checked>Ship the parser</li><li class="task-list-item">'
        '<input class="task-list-item-checkbox" type="checkbox" disabled> Write the docs</li></ul>'
    )
    bare = '<ol><li><input disabled="" type="checkbox" checked="checked"> Book the hall</li>'
    bare += '<li><p><!-- a renderer\'s --><input type="checkbox" disabled> Send the invitations</p></li></ol>'
    content = _content(github + bare)
    assert "- [x] Ship the parser\n- [ ] Write the docs" in content
    assert "1. [x] Book the hall\n2. [ ] Send the invitations" in content


def test_a_form_s_boxes_are_no_tasks() -> None:
    """A shop's filter (a box the reader ticks) and a box after an item's words stay unmarked."""
    filters = '<ul><li><input type="checkbox" name="brand"> Acme</li><li>Pick <input type="checkbox"'
    filters += " disabled> later</li></ul>"
    content = _content(filters)
    assert "[ ]" not in content and "[x]" not in content
