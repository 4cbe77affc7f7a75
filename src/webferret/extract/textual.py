"""Documents that are already text: JSON (pretty-printed), XML, plain text, Markdown and source files."""

from __future__ import annotations

import json
import math
import re
from decimal import Decimal
from itertools import takewhile

from webferret.extract.codelang import language_for
from webferret.extract.dates import iso_date
from webferret.extract.types import Extracted, ExtractOptions
from webferret.extract.words import count_words
from webferret.fetch.sniff import HTML_TYPES
from webferret.net.urlpath import file_name
from webferret.remote_text import json_value

_FENCE_RUN = re.compile(r"`{3,}")
MARKDOWN_TYPES = ("text/markdown", "text/x-markdown")
_ATX_HEADING = re.compile(r"^ {0,3}#{1,6}[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*$", re.MULTILINE)
_FRONT_MATTER = re.compile(r"\A---\r?\n(?:.*\n)*?---\r?\n")
_FRONT_FIELD = re.compile(r"([A-Za-z]+):(.*)")
"""A front matter's `key: value` line at its top level."""
_BLOCK_SCALAR = re.compile(r"[|>][+-]?[1-9]?[+-]?")
"""A YAML value written on the lines below its key (`description: >-`, `summary: |`)."""


def fenced(text: str, lang: str = "") -> str:
    """`text` in a code fence longer than any backtick run inside it."""
    longest = max((len(run) for run in _FENCE_RUN.findall(text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{lang}\n{text.rstrip()}\n{fence}\n"


def markdown_title(text: str) -> str | None:
    """A Markdown document's title: its front matter's `title:`, else its first `#` heading (outside
    code fences, within the first 4,000 characters after the front matter), else None."""
    said, body = split_front(text)
    return said.get("title") or _first_heading(body)


def _first_heading(body: str) -> str | None:
    head = body[:4000]
    outside = re.sub(r"(?ms)^ {0,3}(`{3,}|~{3,}).*?^ {0,3}\1[`~]*[ \t]*$", "", head)
    heading = _ATX_HEADING.search(outside)
    return heading.group(1).strip() if heading else None


def split_front(text: str) -> tuple[dict[str, str], str]:
    """A Markdown document's front matter (its top-level fields, `_front_fields`) and the text after
    it: the front matter is the page's metadata, not its words, and a YAML `# comment` in it is no
    heading."""
    front = _FRONT_MATTER.match(text)
    return (_front_fields(front.group()), text[front.end() :]) if front else ({}, text)


def front_matter(said: dict[str, str]) -> dict[str, str | None]:
    """The page fields a Markdown document's front matter fields `said` give (Jekyll's, Hugo's:
    `author:`, `date:`, `lastmod:` or `updated:`, `description:` or `summary:`)."""
    modified = said.get("lastmod") or said.get("updated") or said.get("modified") or ""
    return {
        "byline": said.get("author") or None,
        "published": iso_date(said.get("date", "")[:10]),
        "modified": iso_date(modified[:10]),
        "description": said.get("description") or said.get("summary") or None,
    }


def _front_fields(front: str) -> dict[str, str]:
    """A front matter's top-level fields by their lower-case keys: a value on its key's line as written
    (quotes left out); a block scalar (`description: >-` and the indented lines below it) as its lines
    joined by spaces; a list below its key (`author:` and `- Ada Burrow` lines) as its items joined by
    commas."""
    said: dict[str, str] = {}
    lines = front.splitlines()[1:-1]  # within its `---` lines
    for at, line in enumerate(lines):
        field = _FRONT_FIELD.fullmatch(line)
        if field is None:
            continue
        value = _unquoted(field.group(2).strip())
        if not value or _BLOCK_SCALAR.fullmatch(value):
            below = [row.strip() for row in takewhile(_below_key, lines[at + 1 :]) if row.strip()]
            items = [_unquoted(row[1:].strip()) for row in below if row.startswith("-")]
            if not value and items and len(items) == len(below):
                value = ", ".join(item for item in items if item)
            elif value:
                value = " ".join(below)
        said[field.group(1).lower()] = value
    return said


def _unquoted(value: str) -> str:
    """A YAML value without the quotes around it."""
    quoted = len(value) > 1 and value[0] == value[-1] and value[0] in "'\""
    return value[1:-1] if quoted else value


def _below_key(line: str) -> bool:
    """Whether a front matter's `line` belongs to the key above it: indented, blank, or a list item."""
    return not line.strip() or line[0] in " \t" or line.startswith("- ")


def _result(
    content: str,
    text: str,
    mime: str,
    url: str | None,
    options: ExtractOptions,
    title: str | None = None,
    fields: dict[str, str | None] | None = None,
) -> Extracted:
    return Extracted(
        **(fields or {}),
        content_type=mime,
        title=title or file_name(url),
        format=options.format,
        content="" if not text.strip() else text if options.format == "text" else content,  # no empty fence
        word_count=count_words(text),
    )


def extract_json(text: str, mime: str, url: str | None, options: ExtractOptions) -> Extracted:
    """Pretty-printed and fenced; a body that does not parse, or that parsing would change, is shown as
    it came."""
    pretty = _pretty_json(text)
    return _result(fenced(pretty, "json"), pretty, mime or "application/json", url, options)


def _pretty_json(text: str) -> str:
    """`text` indented, or as it came when it is no JSON or parsing it would change what it says: a
    key written twice (a parse keeps one) or a number a float cannot hold (`1e400` is no infinity,
    `0.10000000000000000555` no `0.1`)."""
    changed = False

    def pairs(items: list[tuple[str, object]]) -> dict[str, object]:
        nonlocal changed
        changed = changed or len({key for key, _ in items}) < len(items)
        return dict(items)

    def number(written: str) -> float:
        nonlocal changed
        value = float(written)
        changed = changed or not math.isfinite(value) or Decimal(repr(value)) != Decimal(written)
        return value

    try:
        parsed = json_value(text, object_pairs_hook=pairs, parse_float=number)
    except ValueError:
        return text
    return text if changed else json.dumps(parsed, indent=2, ensure_ascii=False)


def extract_xml(text: str, mime: str, url: str | None, options: ExtractOptions) -> Extracted:
    return _result(fenced(text.strip(), "xml"), text, mime or "application/xml", url, options)


def extract_text(text: str, mime: str, url: str | None, options: ExtractOptions) -> Extracted:
    """Plain text as is; Markdown as is; a CSV or TSV file as a table (`delimited`); a source file (by
    URL extension or type) fenced with its language."""
    from webferret.extract.delimited import extract_delimited, separator_for

    separator = separator_for(url, mime)
    if separator is not None and (table := extract_delimited(text, separator, mime, url, options)):
        return table
    lang = language_for(url, mime)
    if mime in HTML_TYPES:  # labelled HTML, yet no tag in it (`sniff_kind`): words, not HTML source
        lang = "markdown" if markdown_title(text) else None
    if mime in MARKDOWN_TYPES or lang == "markdown":
        said, body = split_front(text)  # its fields are the page's, not its words (nor counted)
        plain = markdown_as_text(body) if options.format == "text" else body
        title = said.get("title") or _first_heading(body)
        return _result(
            text.strip() + "\n", plain, mime or "text/markdown", url, options, title, front_matter(said)
        )
    if lang:
        return _result(fenced(text, lang), text, mime or "text/plain", url, options)
    return _result(text.strip() + "\n", text, mime or "text/plain", url, options)


def markdown_as_text(body: str) -> str:
    """A Markdown document's `body` (after its front matter) as `--format text` gives an HTML page:
    its words in the same blocks, without marks or link targets (read by markdown-it, CommonMark
    with GFM tables, and rendered as an HTML page's text is)."""
    import lxml.html
    from markdown_it import MarkdownIt

    from webferret.extract.markdown import to_text

    rendered = MarkdownIt("commonmark", {"html": True}).enable("table").render(body)  # its tags: words
    if not rendered.strip():
        return ""
    return to_text(lxml.html.fragment_fromstring(rendered, create_parent="div"))
