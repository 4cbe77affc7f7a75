"""CommonMark's emphasis rules, for the Markdown renderer: which of a page's own `*` and `_` a reader
would take for emphasis marks (and so are escaped), and emphasis marks placed so that they render.

A text node's `*` and `_` are held as stand-ins (`held`) until the line they end up in is whole: only
then are the characters around them known, which decide whether CommonMark reads them as marks
(`settled`). A run of them is escaped when it can open or close emphasis (the left- and right-flanking
rules), so `snake_case` and `2 * 3` read as they are, without backslashes.
"""

from __future__ import annotations

import re
import unicodedata

STAR, UNDERSCORE = "\ufdd0", "\ufdd1"  # noncharacters: no page's text means anything by them
_HOLD = str.maketrans({"*": STAR, "_": UNDERSCORE, STAR: None, UNDERSCORE: None})
_REAL = {STAR: "*", UNDERSCORE: "_"}
_RUN = re.compile(f"{STAR}+|{UNDERSCORE}+")
# a formula as `formulas` writes it, `$...$` or `$$...$$` (pandoc's rule: no space inside the dollars,
# no digit after the closing one, so "$5 and $10" is no formula): its TeX is left as it is
_FORMULA = re.compile(r"(\$\$.+?\$\$|\$(?!\s)[^$]*?(?<!\s)\$(?!\d))")


def held(text: str) -> str:
    """`text` with its `*` and `_` held as stand-ins, but in a formula."""
    if "*" not in text and "_" not in text and STAR not in text and UNDERSCORE not in text:
        return text
    if "$" not in text:
        return text.translate(_HOLD)
    parts = _FORMULA.split(text)  # formulas at the odd places
    return "".join(part if n % 2 else part.translate(_HOLD) for n, part in enumerate(parts))


def punctuation(ch: str) -> bool:
    """CommonMark's punctuation: ASCII's, and Unicode's punctuation and symbols (a stand-in is a mark)."""
    return ch in _REAL or (bool(ch) and unicodedata.category(ch)[0] in "PS")


def _space(ch: str) -> bool:
    return not ch or ch.isspace()  # a line's start or end reads as a space


def _flanking(before: str, after: str) -> tuple[bool, bool]:
    """Whether a run of marks between these characters is left-flanking, right-flanking."""
    left = not _space(after) and (not punctuation(after) or _space(before) or punctuation(before))
    right = not _space(before) and (not punctuation(before) or _space(after) or punctuation(after))
    return left, right


def _emphasis(run: str, before: str, after: str) -> bool:
    """Whether CommonMark could read a run of `*` or `_` between these characters as emphasis."""
    if _REAL.get(before, before) == run[0] or _REAL.get(after, after) == run[0]:
        return True  # it runs on into a mark of the same kind
    left, right = _flanking(_REAL.get(before, before), _REAL.get(after, after))
    if run[0] == "*":
        return left or right
    opens = left and (not right or punctuation(before))
    return opens or (right and (not left or punctuation(after)))


def settled(line: str) -> str:
    """A line of Markdown with its held `*` and `_` put back, escaped where they would read as emphasis."""
    if STAR not in line and UNDERSCORE not in line:
        return line

    def settle(match: re.Match[str]) -> str:
        run = match.group().translate(_BACK)
        before = line[match.start() - 1] if match.start() else ""
        after = line[match.end()] if match.end() < len(line) else ""
        return "".join(f"\\{ch}" for ch in run) if _emphasis(run, before, after) else run

    return _RUN.sub(settle, line)


_BACK = str.maketrans(_REAL)


def released(text: str) -> str:
    """`text` with its held `*` and `_` put back as they were (for a text that is no Markdown line)."""
    return text.translate(_BACK) if STAR in text or UNDERSCORE in text else text


_WHOLE = "`*~"  # a code span's and an inner emphasis's marks (the page's own `*` are stand-ins yet)
_LINK_END = re.compile(r"\]\([^()\s]*\)$")
_LINK = re.compile(r"\[((?:[^\[\]\\]|\\.)+)\](\([^()\s]*\))")  # a link, its text holding no bracket


def placed(piece: str, mark: str, before: str, after: str) -> str:
    """An emphasis run `piece` (`**x**`, spaces around it kept outside its marks) between the characters
    `before` and `after` ("" when not known), with the punctuation at the edge of its words moved
    outside a mark that CommonMark would not read as one: `**Note:**text` is no bold (a punctuation
    mark before the closing `**`, a letter after it), `**Note**:text` is. The words stay as they are;
    a run all of punctuation loses its marks."""
    core = piece.strip()
    if mark == "`" or len(core) < 2 * len(mark) or not (core.startswith(mark) and core.endswith(mark)):
        return piece
    lead, trail = piece[: piece.index(core)], piece[piece.index(core) + len(core) :]
    words = core[len(mark) : -len(mark)]
    before, after = (lead[-1:] or before), (trail[:1] or after)
    link = _LINK.fullmatch(words)
    if link is not None and (_stuck("[", before) or _stuck(")", after)):  # the marks go inside the link
        return f"{lead}[{mark}{link.group(1)}{mark}]{link.group(2)}{trail}"
    head = tail = ""
    if _stuck(words[:1], before):
        cut = _leading_punctuation(words)
        head, words = words[:cut], words[cut:]
    if _stuck(words[-1:], after):
        cut = _trailing_punctuation(words)
        words, tail = words[:cut], words[cut:]
    if not head and not tail:
        return piece
    return f"{lead}{head}{mark}{words}{mark}{tail}{trail}" if words else f"{lead}{head}{tail}{trail}"


def _leading_punctuation(words: str) -> int:
    """How many of the characters `words` starts with are punctuation that can move out of its marks:
    up to a link, an image, a code span or an inner run's mark, which stay whole."""
    cut = 0
    while cut < len(words) and punctuation(words[cut]) and words[cut] not in _WHOLE + "[!":
        cut += 1
    return cut


def _trailing_punctuation(words: str) -> int:
    """Where the punctuation that ends `words` and can move out of its marks starts: back to a link's
    or an image's target, a code span or an inner run's mark, which stay whole."""
    cut = len(words)
    while cut and punctuation(words[cut - 1]) and words[cut - 1] not in _WHOLE:
        if _LINK_END.search(words[:cut]):
            break
        cut -= 1
    return cut


def _stuck(edge: str, beside: str) -> bool:
    """Whether a mark between a word's edge character and the character beside it (outside the run)
    fails to flank: the edge is punctuation and beside it is a letter or a digit."""
    return punctuation(edge) and not _space(beside) and not punctuation(beside)
