"""Code blocks of the original page, kept aside so a selector's flattened copy can be rendered from them."""

from __future__ import annotations

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
    and so does the end of a `<div>` or `<p>` inside it (highlighters that give each line an element
    of its own, as Expressive Code does; an empty one is a blank line). A no-break space (`&nbsp;`,
    how many pages indent code) is a space, so that the code runs when copied."""
    parts: list[str] = []
    ended = False  # a line's element ended: a line break, unless the text after it starts with one
    blank: etree._Element | None = None  # the last empty line's element

    def add(text: str) -> None:
        nonlocal ended
        if ended and not text.startswith(("\n", "\r")):
            parts.append("\n")
        ended = False
        parts.append(text)

    for event, item in etree.iterwalk(node, events=("start", "end")):
        tag = tag_name(item)
        if event == "start":
            if tag in ("br", "lb"):
                add("\n")
            elif tag and tag not in ("script", "style") and item.text:
                add(item.text)
            continue
        if item is node:
            break
        if tag in ("div", "p") and parts:
            empty = not any(item.itertext())
            if ended and empty and (blank is None or item not in blank.iterancestors()):
                parts.append("\n")  # a blank line (once, not again for the elements around it)
            if empty:
                blank = item
            elif not parts[-1].endswith("\n"):
                ended = True
        if item.tail:
            add(item.tail)
    return "".join(parts).replace("\u00a0", " ")


def code_key(node: etree._Element) -> str:
    """A code block's identity across trees that may have lost its whitespace."""
    return _SPACE.sub(" ", "".join(node.itertext())).strip()


def collect_code_blocks(tree: etree._Element) -> dict[str, CodeBlock]:
    """Every multi-line `<pre>` of the original page by `code_key`, so a selector's flattened copy
    can be rendered from the original (indentation and language kept)."""
    found: dict[str, CodeBlock] = {}
    for node in tree.iter("pre"):
        code = code_text(node).strip("\n")
        if code.strip() and (len(code) > 40 or "\n" in code):
            found.setdefault(code_key(node), CodeBlock(code, code_language(node) or ""))
    return found
