"""Whether a page's inline script sends it on to another page as it loads: a "Redirecting..." page's
`location.href = "/next"` (at its top level, in a timer, an `onload`, a block), in place of a `<meta>`
refresh. Not a frame-buster's `top.location = self.location` (it moves nothing outside a frame), a
variable of the script's own named `location`, nor a move the reader makes: inside a function the
script declares by name and never calls itself (a link's `onclick="go(this.href)"` calls it), or a
handler of a click, a change or a key.

The script is read once, its braces counted (not parsed: a brace in a string miscounts, which errs
on either side as rarely), so a large inline script costs a pass, not one per assignment; only the
blocks around a location set are judged by the words before them."""

from __future__ import annotations

import re
from collections import Counter

SETS_LOCATION = re.compile(
    r"(?<![\w.$])(?<!var )(?<!let )(?<!const )(?:(?:window|document|self)\.)?location"
    r"(?:(?:\.href)?\s*=(?!=)|\.(?:replace|assign)\s*\()",
)
"""Setting the page's location (`location = ...`, `window.location.href = ...`, `location.replace(...)`)."""
_LOOKED_BACK = 200
"""The characters before a block's `{` that say what opens it."""
_NAMED = re.compile(
    r"(?:\bfunction\s+([\w$]+)\s*|\b(?:var|let|const)\s+([\w$]+)\s*=\s*(?:function\s*)?)"
    r"(?:\([^()]*\)|[\w$]+)\s*(?:=>\s*)?$"
)
"""A function declared by name (`function go(u)`, `const go = (u) =>`), its body's `{` next."""
_USER_EVENT = r"(?:click|dblclick|change|submit|input|key\w*|mouse\w*|pointer\w*|touch\w*)"
_CALL = re.compile(r"(?<![\w$.])([\w$]+)\s*\(")
_DECLARED = re.compile(r"\bfunction\s+([\w$]+)\s*\(")
"""A function's declaration, which `_CALL` reads as a call of its name (`function go(u)`)."""
_HANDED_ON = re.compile(
    r"(?:\bonload\s*=|\bset(?:Timeout|Interval)\s*\(|addEventListener\s*\(\s*['\"](?:load|DOMContentLoaded)['\"]\s*,)"
    r"\s*([\w$]+)\b"
)
"""A function handed on to run as the page loads or after a time, by its name."""
_HANDLER = re.compile(
    rf"(?:\bon{_USER_EVENT}\s*=|addEventListener\(\s*['\"]{_USER_EVENT}['\"]\s*,)[^;{{}}]*$", re.IGNORECASE
)


def sends_on(script: str, page_code: str | None = None) -> bool:
    """Whether `script` sets the page's location as it runs (see the module); `page_code`: all the
    page's code (its scripts and its `<body onload>`), where a function declared here is called."""
    found = [match.start() for match in SETS_LOCATION.finditer(script)]
    if not found:
        return False
    reader = _ReadersBlocks(script, script if page_code is None else page_code)
    opened: list[int] = []  # the `{` of each open block, outermost first
    # for the outer open blocks judged so far, whether the reader's act runs it (or one around it):
    # judged only around a location set, so a large script's other blocks cost no look back
    held: list[bool] = []
    braces = re.finditer(r"[{}]", script)
    brace = next(braces, None)
    for at in found:
        while brace is not None and brace.start() < at:
            if brace.group() == "{":
                opened.append(brace.start())
            elif opened:
                opened.pop()
                del held[len(opened) :]
            brace = next(braces, None)
        while len(held) < len(opened) and not (held and held[-1]):
            held.append(reader.opens(opened[len(held)]))
        if not (held and held[-1]):
            return True
    return False


class _ReadersBlocks:
    """Which blocks of a script only the reader's act runs: a function's body the script declares by
    name and never calls itself, a handler of a click, a change or a key."""

    def __init__(self, script: str, page_code: str) -> None:
        self.script = script
        self.page_code = page_code
        self._calls: Counter[str] | None = None

    def opens(self, start: int) -> bool:
        """Whether the block whose `{` is at `start` is one (each block asked once)."""
        head = self.script[max(0, start - _LOOKED_BACK) : start]
        named = _NAMED.search(head)
        if named is not None and not self._called(named.group(1) or named.group(2)):
            return True
        return _HANDLER.search(head) is not None

    def _called(self, name: str) -> bool:
        """Whether the page's code calls the function `name` somewhere besides declaring it, or has
        it called as the page loads or after a time (`onload = name`, `setTimeout(name, 3000)`)."""
        if self._calls is None:  # every name's calls, counted in one pass (its declaration is none: a
            # function assigned, `var go = function () {...}`, is declared without one)
            self._calls = Counter(_CALL.findall(self.page_code))
            self._calls.subtract(_DECLARED.findall(self.page_code))
            self._calls.update(_HANDED_ON.findall(self.page_code))
        return self._calls[name] > 0
