"""Browser actions: what a reader does to a page before it is read (`--action`, MCP `actions`).

A page that shows its text only after a click ("Load more", "Show all comments", a tab, a cookie
banner's "Accept"), a scroll (an endless list) or a search typed into a form is read after those
steps, in order, by the browser tier:

- `click:CSS`: click the first element matching CSS (waiting for it to be there and visible);
- `type:CSS=TEXT`: type TEXT into the field matching CSS (its value replaced);
- `press:KEY`: press a key in the element that has focus (`Enter`, `Tab`, `PageDown`...);
- `scroll` or `scroll:N`: scroll to the bottom N times (1; at most `MAX_SCROLLS`), letting the page
  load what each brings;
- `wait:S`: wait S seconds (at most `MAX_WAIT`);
- `wait-for:CSS`: wait until an element matching CSS is in the page.

Every request these steps cause passes the same guard as the page's own (the SSRF guard, the
proxy), and they share the page's timeout. A step that cannot be done fails the page with an error
naming the step: `timeout` when its element never came, `invalid_argument` for a bad step.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import time
from dataclasses import dataclass
from typing import Any

from webferret.arguments import check_text
from webferret.models import ErrorCode, FerretError

MAX_ACTIONS = 20
MAX_WAIT = 10.0
MAX_SCROLLS = 20
SETTLE = 2.0
"""Seconds a click, key or scroll waits at most for the page to change (what it loads to arrive)."""
QUIET = 0.3
"""Seconds a changed page must stay the same to count as settled."""
POLL = 0.1
KINDS = ("click", "type", "press", "scroll", "wait", "wait-for")
TO_BOTTOM = """() => {
  window.scrollTo(0, document.documentElement.scrollHeight);
  let pane = null, most = 0;
  const look = (root) => {
    for (const box of root.querySelectorAll('*')) {
      if (box.shadowRoot) look(box.shadowRoot);
      if (box.scrollHeight <= box.clientHeight + 1 || box.clientHeight * box.clientWidth <= most) continue;
      if (!['auto', 'scroll', 'overlay'].includes(getComputedStyle(box).overflowY)) continue;
      pane = box;
      most = box.clientHeight * box.clientWidth;
    }
  };
  look(document);
  if (pane) pane.scrollTop = pane.scrollHeight;
}"""
"""A scroll to the bottom: of the window, and of the page's largest box that scrolls (an app's main
pane, where its endless list is when the window itself does not scroll), in a shadow root too (a
web components app's pane: Ionic's `ion-content`)."""
IN_PLACE = """(element) => {
  if (!element || !element.closest) return;
  const opener = element.form || element.closest('a, area, form');
  if (opener) opener.setAttribute('target', '_self');
  if (element.hasAttribute('formtarget')) element.setAttribute('formtarget', '_self');
}"""
"""Run on what a step clicks, or the element a key is pressed in: a link or form that opens a new
tab (`target="_blank"`, or a `<base target>`) leads the tab itself there, as pop-ups are refused:
the click, or the Enter that submits a form, reads where it leads."""
FOCUSED_IN_PLACE = f"""() => {{
  let focused = document.activeElement;  // in a shadow root, its host: the focus is inside it
  while (focused && focused.shadowRoot && focused.shadowRoot.activeElement) {{
    focused = focused.shadowRoot.activeElement;
  }}
  ({IN_PLACE})(focused);
}}"""


@dataclass(frozen=True)
class Action:
    kind: str
    target: str = ""  # a CSS selector, or the key to press
    value: str = ""  # the text to type, or the seconds or scrolls as text

    def text(self) -> str:
        """The step as one way of writing it (` CLICK: #a ` is `click:#a`): steps written two ways
        are one reading of a page (`store.variants`)."""
        if self.kind == "type":
            return f"type:{self.target}={self.value}"
        return f"{self.kind}:{self.target or self.value}"


def parse_action(text: str) -> Action:
    """`click:#more` -> Action; a step that is not one of `KINDS`, or lacks what it needs, is
    `invalid_argument` saying what was expected."""
    from webferret.fetch.types import check_css

    check_text("action", text)  # a lone surrogate: no element matches it, nor can it be typed
    kind, _, rest = text.strip().partition(":")
    kind, rest = kind.strip().lower(), rest.strip()
    if kind not in KINDS:
        expected = "click:CSS, type:CSS=TEXT, press:KEY, scroll[:N], wait:SECONDS or wait-for:CSS"
        raise FerretError(ErrorCode.INVALID_ARGUMENT, f"action {text!r}: expected {expected}")
    if kind in ("click", "wait-for", "type"):
        css, typed = _typed(rest) if kind == "type" else (rest, None)
        if not css.strip() or (kind == "type" and typed is None):
            shape = "type:CSS=TEXT" if kind == "type" else f"{kind}:CSS"
            raise FerretError(ErrorCode.INVALID_ARGUMENT, f"action {text!r}: expected {shape}")
        check_css(css.strip(), f"{kind} selector")
        return Action(kind, css.strip(), typed or "")
    if kind == "press":
        if not rest:
            raise FerretError(
                ErrorCode.INVALID_ARGUMENT, f"action {text!r}: expected press:KEY, e.g. press:Enter"
            )
        return Action(kind, rest)
    number = _number(text, rest or "1", kind)
    if kind == "scroll" and (number != int(number) or not 1 <= number <= MAX_SCROLLS):
        raise FerretError(ErrorCode.INVALID_ARGUMENT, f"action {text!r}: scroll 1 to {MAX_SCROLLS} times")
    if kind == "wait" and not 0 < number <= MAX_WAIT:
        raise FerretError(
            ErrorCode.INVALID_ARGUMENT, f"action {text!r}: wait above 0 and at most {MAX_WAIT:g} s"
        )
    return Action(kind, "", rest or "1")


def _typed(rest: str) -> tuple[str, str | None]:
    """`input[name=q]=ferrets` -> (`input[name=q]`, `ferrets`): the text follows the first `=` outside
    the selector's brackets and quotes (None when there is none)."""
    depth, quote = 0, ""
    for at, char in enumerate(rest):
        if quote:
            quote = "" if char == quote else quote
        elif char in "\"'":
            quote = char
        elif char in "[(":
            depth += 1
        elif char in "])":
            depth = max(0, depth - 1)
        elif char == "=" and depth == 0:
            return rest[:at], rest[at + 1 :]
    return rest, None


def _number(text: str, value: str, kind: str) -> float:
    try:
        number = float(value)
    except ValueError:
        number = math.nan
    if not math.isfinite(number):
        raise FerretError(
            ErrorCode.INVALID_ARGUMENT, f"action {text!r}: {kind} takes a number, not {value!r}"
        )
    return number


def parse_actions(steps: Any) -> tuple[str, ...]:
    """The steps, each checked (`parse_action`) and written one way (`Action.text`), at most
    `MAX_ACTIONS`."""
    if isinstance(steps, str):
        steps = (steps,)
    steps = tuple(steps or ())
    if len(steps) > MAX_ACTIONS:
        raise FerretError(ErrorCode.INVALID_ARGUMENT, f"{len(steps)} actions: at most {MAX_ACTIONS}")
    written = []
    for step in steps:
        if not isinstance(step, str):
            raise FerretError(
                ErrorCode.INVALID_ARGUMENT, f"an action is text such as 'click:#more', not {step!r}"
            )
        written.append(parse_action(step).text())
    return tuple(written)


async def perform(page: Any, steps: tuple[str, ...], deadline: float) -> None:
    """Do each step on the Playwright `page`, in order, by `deadline` (`time.monotonic()`)."""
    from playwright.async_api import Error

    for number, step in enumerate(steps, start=1):
        action = parse_action(step)
        left = max(0.1, deadline - time.monotonic())
        try:
            await _do(page, action, left)
        except Error as exc:
            said = f"action {number} ({step!r})"
            if "Timeout" in type(exc).__name__ or "timeout" in str(exc).lower():
                message = (
                    f"{said} could not be done within the page's timeout ({left:.1f} s left) at {page.url}"
                )
                raise FerretError(ErrorCode.TIMEOUT, message) from None
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise FerretError(ErrorCode.INVALID_ARGUMENT, f"{said} failed: {first}") from None


async def _do(page: Any, action: Action, left: float) -> None:
    from playwright.async_api import Error

    deadline = time.monotonic() + left
    ms = left * 1000
    if action.kind == "type":
        await page.locator(f"css={action.target}").first.fill(action.value, timeout=ms)
    elif action.kind == "wait-for":
        await page.wait_for_selector(f"css={action.target}", state="attached", timeout=ms)
    elif action.kind == "wait":
        await asyncio.sleep(min(float(action.value), left))
    else:  # a step whose effect comes later: what it loads is waited for
        for _ in range(int(float(action.value)) if action.kind == "scroll" else 1):
            before = await _size(page)
            if action.kind == "click":
                element = page.locator(f"css={action.target}").first
                await element.evaluate(IN_PLACE, timeout=ms)
                await element.click(timeout=ms)
            elif action.kind == "press":
                with contextlib.suppress(Error):  # (a page still navigating: no form to lead)
                    await page.evaluate(FOCUSED_IN_PLACE)
                await page.keyboard.press(action.target)
            else:
                await page.evaluate(TO_BOTTOM)
            await _settled(page, before, min(deadline, time.monotonic() + SETTLE))


async def _size(page: Any) -> int:
    """How much the page shows: its text's length (a step that loads more makes it grow)."""
    from playwright.async_api import Error

    with contextlib.suppress(Error):  # a click that navigates leaves no document for a moment
        return int(await page.evaluate("document.body ? document.body.innerText.length : 0"))
    return -1


async def _settled(page: Any, before: int, until: float) -> None:
    """Wait until the page has changed from `before` and stayed the same `QUIET` seconds, or `until`."""
    last, since = before, time.monotonic()
    while time.monotonic() < until:
        await asyncio.sleep(POLL)
        now = await _size(page)
        if now != last:
            last, since = now, time.monotonic()
        elif last != before and time.monotonic() - since >= QUIET:
            return
