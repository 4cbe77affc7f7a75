"""A PDF's title: its metadata /Title when that is a real title, else the first line of its first page.

Many PDFs carry no /Title, or one their authoring tool made up ("untitled", "(anonymous)", "Microsoft
Word - report.docx", "Document1"); their first page usually opens with the title itself. An /Author a
tool made up ("(anonymous)") is no author either. A first line is
taken only when it reads like one: short, with words, not a page number and not a running header
(a line that also opens or closes other pages), unless it is set larger than all else on the page.
Office files' and OpenDocument files' titles pass `usable_title` too (a deck's "PowerPoint Presentation").
"""

from __future__ import annotations

import re
from collections import Counter

_JUNK_TITLE = re.compile(
    r"""^(?:
        (?:untitled|no\s+title|title|document|presentation|slide)[\s_-]*\d*
      | \(?(?:anonymous|unspecified)\)?
      | microsoft\s+(?:word|powerpoint|excel)\b.*
      | (?:powerpoint|keynote)\s+presentation
      | .*\.(?:docx?|odt|rtf|pptx?|xlsx?|pdf|tex|dvi|ps|indd|qxd|pages|txt|html?|xhtml|php|aspx?)
      | (?:https?|file)://\S*
      | about:blank
      # Chrome's title of a page without one: its address, the host lower-cased (`Node.js/Express`
      # is a title)
      | (?-i:(?:[^\W_A-Z]|[-_])+(?:\.(?:[^\W_A-Z]|[-_])+)+)(?::\d+)?/\S*
    )$""",
    re.IGNORECASE | re.VERBOSE,
)
# a tool's placeholder, or the computer's account the writer's word processor filled in for them
# (Windows's "Windows User", "Owner", "User"; a server's "Administrator", "admin")
_NO_AUTHOR = re.compile(
    r"^(?:\(?(?:anonymous|unspecified|unknown)\)?|(?:windows )?user|owner|admin(?:istrator)?|root|default)$",
    re.IGNORECASE,
)
_PAGE_NUMBER = re.compile(
    r"^(?:(?:page|p\.|seite|página)\s*)?[-–(\[]?\s*(?:\d+|[ivxlc]{1,7})\s*[-–)\]]?"
    r"(?:\s*(?:of|/|von|de)\s*\d+)?$",
    re.IGNORECASE,
)
_LETTERS = re.compile(r"[^\W\d_]", re.UNICODE)
MAX_TITLE_CHARS = 160
MAX_TITLE_WORDS = 25
LINES_LOOKED_AT = 6  # a title opens its page; deeper lines are body text
EDGE_LINES = 3  # lines at each end of a page where running headers and footers sit


def usable_title(value: str | None) -> str | None:
    """The metadata title, or None when it is empty, whitespace or a tool's placeholder."""
    title = " ".join((value or "").split())
    if not title or _JUNK_TITLE.match(title):
        return None
    return title


def usable_author(value: str | None) -> str | None:
    """The metadata author, or None when it is empty or a tool's placeholder (ReportLab's
    `(anonymous)`)."""
    author = " ".join((value or "").split())
    return None if not author or _NO_AUTHOR.match(author) else author


def first_line_title(
    texts: list[str], largest: str | None = None, rows: frozenset[str] = frozenset()
) -> str | None:
    """The first line of the first page that reads like a title, or None. `texts`: each page's text;
    `largest`: the first page's heading set largest, which is its title even when the other pages
    repeat it at their top (a manual's name as its running header), and whole when it takes two lines;
    `rows`: the first page's lines that are a table's rows (casefolded): a title comes before them (a
    page that opens with a table has none: its header, the rows and the lines after are no title)."""
    if not texts or not texts[0]:
        return None
    running = _running_lines(texts[1:])
    lines = [" ".join(line.split()) for line in texts[0].splitlines()]
    looked_at = [line for line in lines if line][:LINES_LOOKED_AT]
    if all(line.casefold() in running for line in looked_at):
        running = set()  # pages all alike (tickets, a flyer): the first page's lines are its own
    for line in looked_at:
        if line.casefold() in rows:
            return None
        if (line.casefold() in running and line != largest) or not _reads_like_title(line):
            continue
        if largest and largest.startswith(line) and _reads_like_title(largest):
            return largest  # a title set on two lines, whole
        return line
    return None


def _reads_like_title(line: str) -> bool:
    if len(line) > MAX_TITLE_CHARS or len(line.split()) > MAX_TITLE_WORDS:
        return False
    if is_page_number(line):
        return False
    return len(_LETTERS.findall(line)) >= 2


def is_page_number(line: str) -> bool:
    """Whether a line is only a page number: `12`, `iv`, `- 3 -`, `Page 2 of 9`."""
    return bool(_PAGE_NUMBER.match(line.strip()))


def _running_lines(texts: list[str]) -> set[str]:
    """Lines (casefolded) at the top or bottom of at least half of these pages: running headers and
    footers, which on the first page are not its title."""
    counts: Counter[str] = Counter()
    for text in texts:
        lines = [" ".join(line.split()).casefold() for line in text.splitlines() if line.strip()]
        counts.update(set(lines[:EDGE_LINES] + lines[-EDGE_LINES:]))
    needed = max(1, len(texts) // 2)
    return {line for line, count in counts.items() if count >= needed}
