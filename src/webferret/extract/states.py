"""What a page shows only on a reader's action, settled before anything reads the page.

- An accordion's header, or an FAQ entry's, is a disclosure `<button>` (one that says what it opens:
  `aria-expanded`, `aria-controls`, a collapse's `data-target`) that holds a heading: it becomes the
  heading's container. A button is otherwise dropped as a form control, and the question with it,
  leaving its answer without it.
- A form's states that wait hidden for a submission go: Webflow's "Thank you!" (`w-form-done`) and
  "Oops! Something went wrong while submitting the form." (`w-form-fail`), and what its CMS hides by
  condition (`w-condition-invisible`). Their class hides them in the site's CSS, which is not read.
"""

from __future__ import annotations

from lxml import html

from webferret.extract import hints
from webferret.extract.blocks import HEADINGS, drop_outermost

HEADED_BUTTONS = True
HIDDEN_STATES = True
"""False: the rule is off (bench/oof_pipeline.py measures each as a variant)."""
STATE_CLASSES = ("w-form-done", "w-form-fail", "w-condition-invisible")
_OPENS = ("aria-expanded", "aria-controls", "data-target", "data-bs-target")
_BUTTONS = (hints.word("<button"), hints.word("<BUTTON"))
_STATE_HINTS = (hints.word("w-form-"), hints.word("w-condition-invisible"))
"""In the HTML of every page with such a button or state (the tree is not searched otherwise)."""
_STATES = " or ".join(
    f"contains(concat(' ', normalize-space(@class), ' '), ' {name} ')" for name in STATE_CLASSES
)


def settle(tree: html.HtmlElement, text: str) -> None:
    """Open the headed buttons and drop the hidden states of `tree` (the page, `text` its HTML)."""
    if HEADED_BUTTONS and hints.holds_any(text, _BUTTONS):
        for button in list(tree.iter("button")):
            if any(button.get(name) is not None for name in _OPENS) and any(
                True for _ in button.iter(*HEADINGS)
            ):
                button.tag = "div"
    if HIDDEN_STATES and hints.holds_any(text, _STATE_HINTS):
        drop_outermost(tree.xpath(f"//*[{_STATES}]"))
