"""Render an lxml element tree as GitHub-flavoured Markdown, or as plain text.

Understands HTML and the element names of trafilatura's XML (`head`, `list`/`item`, `hi`, `ref`,
`graphic`, `lb`, `quote`, `row`/`cell`), so either can be handed in. Links and images are made
absolute against the base URL; code blocks are fenced with their language when the page names it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence

from lxml import etree

from webferret.extract.blocks import hidden
from webferret.extract.codeblocks import LINE_NUMBERS, CodeBlock, code_key, code_text, tag_name
from webferret.extract.codelang import code_language
from webferret.extract.emphasis import held, placed, released, settled
from webferret.extract.links import link_scheme
from webferret.extract.superscripts import shifted
from webferret.extract.words import LINK_TARGET
from webferret.net.canonical import strip_tracking
from webferret.net.joined import join_url
from webferret.net.redirects import unwrap_redirect
from webferret.remote_text import url_without_blanks

SKIP = frozenset((
    "script", "style", "noscript", "template", "svg", "math", "canvas", "iframe", "object", "embed", "title",
    "meta", "link", "input", "button", "select", "option", "textarea", "label", "form", "nav", "dialog",
))  # fmt: skip
BLOCK = frozenset((
    "p", "div", "section", "article", "main", "header", "footer", "aside", "address", "body", "html",
    "center", "figure", "figcaption", "dl", "dt", "dd", "details", "summary", "fieldset", "hgroup",
))  # fmt: skip
HEADINGS = {f"h{n}": n for n in range(1, 7)}
# blocks besides: a table's rows and cells outside any table are too (trafilatura leaves a page laid out
# in a table as `<div><row><cell>...`: read inline, its headings and paragraphs ran into one line)
_OTHER_BLOCKS = frozenset(("hr", "head", "li", "item", "row", "cell", "tr", "td", "th"))
EMPHASIS = {"em": "*", "i": "*", "cite": "*", "strong": "**", "b": "**", "del": "~~", "s": "~~"}
HI_MARKS = {"#b": "**", "#i": "*", "#u": "", "#t": "`", "#sub": "", "#sup": ""}
INLINE_CODE = frozenset(("code", "kbd", "samp", "tt", "var"))
_SHIFTS = {"sup": True, "#sup": True, "sub": False, "#sub": False}  # (a `hi` names it by its `rend`)
_SPACE = re.compile(r"\s+")
_BLANKS = re.compile(r"\n{3,}")
_LINE_BREAKS = re.compile(r" ?\n[\n ]*")
_NOT_PROSE = re.compile(r"\s*(?:[-*+] |\d+[.)] |#|>|```|~~~|\|)")
"""A rendered block that is not a paragraph: a list, a heading, a quote, a code block, a table."""
_HEADING_LINE = re.compile(r"(#{1,6} )(.+)")
_TIGHT = re.compile(r"\n\n((?:- |\d+\. ))")
_PERMALINK = re.compile(r"\s*[¶§🔗]+$|\s+#$")
_WORDS = re.compile(r"\w+")
# what opens a block when a line starts with it: a heading, a quote, a list item, a code fence (group 1),
# or the number of an ordered list's item (the escape goes after it, before its `.` or `)`)
_BLOCK_MARK = re.compile(r"(#{1,6}(?=\s|$)|>|[-+*](?=\s|$)|`{3,}|~{3,})|\d{1,9}(?=[.)](?:\s|$))")
# what a block's marks add to its text (an escape before the page's own `*` or `_` among them)
_MARKUP = re.compile(r"^(?:#{1,6} |> ?)|[\[\]*`]|\\(?=[*_])", re.MULTILINE)
_TAG_OPEN = re.compile(r"<(?=[A-Za-z/!?])")  # raw HTML or an autolink, to Markdown
# a backslash that Markdown reads as an escape (before ASCII punctuation), or as a line break at a
# line's end, and what it reads as a character reference (`&copy;`, `&#169;`)
_BACKSLASH = re.compile(r"\\(?=[!-/:-@\[-`{-~]|$)")
_REFERENCE = re.compile(r"&(?=#[0-9]{1,7};|#[xX][0-9a-fA-F]{1,6};|[A-Za-z][A-Za-z0-9]{1,31};)")
_BREAK = re.compile(r"(?:\*\s*){3,}|(?:-\s*){3,}|(?:_\s*){3,}")  # a thematic break
# a formula as `formulas` writes it, `$$...$$` or `$...$` (no space inside its dollars, no digit after
# its closing one: "$5 and $6" is no formula)
_FORMULA = re.compile(r"(\$\$[^$]+\$\$|\$[^\s$](?:[^$]*[^\s$])?\$(?!\d))")
_UNESCAPED_BRACKET = re.compile(r"(?<!\\)[\[\]]")
# what a script-filled element says until its script runs (the page was read without running it)
_PLACEHOLDER = re.compile(r"(?i)(?:loading|please wait)\s*(?:\.\.\.|…)?")
# a line of the page's chrome around the content, alone in its block: the comment section's prompts
# ("Leave a Reply", "12 comments"), the labels of the boxes after an article ("You may also like"),
# an advertisement's slot ("Advertisement", "SKIP ADVERTISEMENT", "Story continues below
# advertisement"), a skip link for screen readers ("Skip to content", "Continue reading the main story"),
# the title of a list of contents its page draws with a script ("Table of contents"),
# and the buttons of a shop's product card or a dialog, which read as text ("Quick view", "Add to
# wishlist", "Compare", "Close")
_CHROME_LINE = re.compile(
    r"(?i)(?:leave a (?:reply|comment)|(?:post|add) a comment|[\d,.]+k? comments?|comments?"
    r"|quick (?:view|shop|add|look)|(?:add to )?(?:wish ?list|favou?rites)|compare|view details"
    r"|see all reviews|close|read more"
    r"|you must be logged in to post a comment\.?|tell us what you think\W*|you may also like"
    r"|related (?:posts|articles|stories)|share this (?:article|story|post):?"
    r"|(?:skip )?advertisements?|(?:advertisement\W*)?(?:story|article|page|content) continues below"
    r"(?: (?:this )?advertisement)?"
    r"|skip to (?:the )?(?:main )?(?:content|navigation|text|article|story)|continue reading the main story"
    r"|table of contents?|on this page|in this (?:article|post|guide)|jump to(?: section)?"
    r"|click to (?:expand|shrink)(?:\.\.\.|…)?)"  # a forum quote's fold (XenForo)
)
# an image a class names a user's picture (`avatar`, Discourse's; `user-avatar`, `avatar-img`...)
_AVATAR = re.compile(r"(?i)(?:^|[\s_-])avatar(?:$|[\s_-])")
# an image's alt text that an editor filled in for the writer (Stack Exchange's)
_NO_ALT = frozenset(("enter image description here", "image description", "alt text"))
_TO_TOP = re.compile(r"(?i)(?:(?:back|return|go|scroll|jump) )?(?:to )?(?:the )?top(?: of (?:the )?page)?")
# a list of contents: at least this many links to places on the page, and nothing else
CONTENTS_MIN_LINKS = 3
_CONTENTS_TITLE = re.compile(
    r"(?i)(?:table of )?contents|on this page|in this (?:article|post|guide|page)|jump to(?: section)?"
    r"|what'?s inside|sections"
)
LAYOUT_PROSE = 200  # characters: a cell this long in a one-row table is prose laid out, not a datum


_CLOSED = (".", ";", ":", "!", "?", ",")  # an item that ends so needs no semicolon after it in a cell


def _collapse(text: str) -> str:
    """Whitespace runs as one space (`re.sub(r"\\s+", " ", text)`): every whitespace character but the
    ASCII space is unprintable, so a printable text without a double space has none (most text nodes)."""
    if text.isprintable() and "  " not in text:
        return text
    return _SPACE.sub(" ", text)


def _says_nothing(text: str) -> bool:
    """Whether a block's whole text (its emphasis marks aside) is a placeholder or a line of chrome."""
    bare = text.strip("*_ ")
    return _PLACEHOLDER.fullmatch(bare) is not None or _CHROME_LINE.fullmatch(bare) is not None


# zero-width characters: Webflow's rich text, for one, writes an empty paragraph as `<p>&zwj;</p>`
_ZERO_WIDTH_CHARS = "\u200b\u200c\u200d\u2060\ufeff"
_BLANK_OR_MARK = "*_ \n" + _ZERO_WIDTH_CHARS
_MARKS = frozenset("¶§🔗#")
_PERMALINK_MARKS = frozenset("¶§🔗")
"""The marks a link to a place on its page shows alone to offer its address, wherever it stands (`#`
only in a heading: elsewhere it may be a word)."""


def _anchor_first(heading: etree._Element) -> bool:
    """Whether a heading starts with a link to itself shown as a mark alone (`¶`, `§`, `#`), as
    rustdoc writes `<h2><a class="doc-anchor" href="#examples">§</a>Examples</h2>`."""
    if len(heading) == 0 or (heading.text or "").strip(" \t\n" + _ZERO_WIDTH_CHARS):
        return False
    first = heading[0]
    target = first.get("href") or first.get("target") or ""
    mark = "".join(first.itertext()).strip()
    return tag_name(first) in ("a", "ref") and target.startswith("#") and bool(mark) and set(mark) <= _MARKS


def _address_last(heading: etree._Element) -> str | None:
    """What a heading ends with when its last element is a link to a place in the page showing its
    own target (`<a class="subhead-anchor" href="#section2">#section2</a>`: A List Apart's permalinks)
    or a mark alone, written against the words (Hugo's `Quick start<a class="anchor" href="#q">#</a>`)."""
    if len(heading) == 0 or (heading[-1].tail or "").strip():
        return None
    last = heading[-1]
    target = (last.get("href") or last.get("target") or "").strip()
    shown = "".join(last.itertext()).strip()
    return (
        shown
        if tag_name(last) in ("a", "ref")
        and len(target) > 1
        and target.startswith("#")
        and (shown == target or (bool(shown) and set(shown) <= _MARKS))
        else None
    )


def _invisible(text: str) -> bool:
    """Whether a block shows nothing: zero-width characters, with at most spaces and emphasis marks
    around them (a line of marks alone, a story's "* * *", is left as it is). The strip stops at a
    block's first and last visible character, so a block of words costs next to nothing."""
    return not text.strip(_BLANK_OR_MARK) and any(ch in text for ch in _ZERO_WIDTH_CHARS)


def _escaped(text: str) -> str:
    """`text` with what Markdown would read otherwise escaped: a backslash it reads as an escape, a `&`
    that starts a character reference, a `<` that opens a tag (see `_Renderer._text`)."""
    if "\\" in text:  # `\.` would read as an escaped `.`, its backslash lost
        text = _BACKSLASH.sub(r"\\\\", text)
    if "&" in text:  # the page's words "&copy;" would read as ©
        text = _REFERENCE.sub(r"\\&", text)
    return text if "<" not in text else _TAG_OPEN.sub(r"\\<", text)


def _alone(node: etree._Element) -> bool:
    """Whether `node`'s text is all the text of its parent."""
    parent = node.getparent()
    return parent is None or "".join(parent.itertext()).strip() == "".join(node.itertext()).strip()


def _closes_sentence(node: etree._Element) -> bool:
    """Whether `node` is a paragraph that goes on with the sentence before it: it starts with a
    space, a punctuation mark that continues a sentence, or a lower-case letter."""
    text = node.text or ""
    return (
        node.tag == "p"
        and not node.attrib
        and bool(text)
        and (text[0].isspace() or text[0] in ",.;:)!?" or text[0].islower())
    )


def _fence(code: str) -> str:
    longest = max((len(run) for run in re.findall(r"`+", code)), default=0)
    return "`" * max(3, longest + 1)


def _inline_code(text: str) -> str:
    text = _SPACE.sub(" ", text).strip()
    if not text:
        return ""
    runs = {len(run) for run in re.findall(r"`+", text)}
    ticks = "`" * next(n for n in range(1, len(runs) + 2) if n not in runs)  # no run inside ends it
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


def _collapse_lines(text: str) -> str:
    """`_collapse` line by line: the line breaks of `<br>`s kept."""
    return "\n".join(_collapse(line) for line in text.split("\n"))


def _edges(inner: str) -> tuple[str, str]:
    """The spaces around an inline element's words as one each: a line break when they hold one."""
    core = inner.strip()
    lead, trail = inner[: len(inner) - len(inner.lstrip())], inner[len(inner.rstrip()) :]
    if not core:
        return "", ""
    return ("\n" if "\n" in lead else lead[:1] and " "), ("\n" if "\n" in trail else trail[:1] and " ")


def _wrap(inner: str, mark: str) -> str:
    """`**x**` with the surrounding spaces (or line breaks) kept outside the marks."""
    core = inner.strip()
    if not core or not mark:
        return inner
    lead, trail = _edges(inner)
    return f"{lead}{mark}{core}{mark}{trail}"


class Renderer:
    """One rendering pass; `text=True` drops every Markdown mark and link target."""

    def __init__(
        self,
        base_url: str | None = None,
        *,
        text: bool = False,
        codes: Mapping[str, CodeBlock] | None = None,
        repeats: bool = True,
        images: bool = True,
    ) -> None:
        self.base_url = base_url or ""
        self.text = text
        self.images = images  # False: an image is left out, as in plain text
        self.codes = codes or {}
        self.repeats = repeats  # False: a long block said again further down is said once
        self._verbatim: set[str] = set()  # code and table blocks, said as often as the page says them
        self._headings: set[str] = set()  # every heading block
        self._titles: set[str] = set()  # the headings that link nowhere else: none of them ends the text
        self._cells = 0  # depth of table cells being rendered as GFM cells
        self._open: list[str] = []  # the emphasis marks of the elements being rendered, outermost first
        self._mark = ""  # the mark the last `inline` call wrapped its text in ("" when none)
        self._blocks: dict[str, Callable[[etree._Element], list[str]]] = {
            "ul": self._list,
            "ol": self._list,
            "list": self._list,
            "dl": self._definitions,
            "table": self._table,
            "pre": self._pre,
            "blockquote": self._quote,
            "quote": self._quote,
        }

    # -- entry points --------------------------------------------------------------------------
    def render(self, root: etree._Element) -> str:
        blocks = list(_once(block for block in self.blocks(root) if block.strip()))
        end = len(blocks)  # headings over nothing: the titles of sections the page left out ("Related Posts")
        while end and blocks[end - 1] in self._titles:
            end -= 1
        said = any(block not in self._headings for block in blocks[:end])
        if said and len(blocks) - end <= TRAILING_TITLES:
            del blocks[end:]
        if not self.repeats:
            blocks = list(_said_once(blocks, self._verbatim, marked=not self.text))
        text = released("\n\n".join(blocks))
        return text.strip("\n") + "\n" if text.strip() else ""

    def url(self, href: str | None) -> str | None:
        href = (href or "").strip()
        if not href or href.startswith("#") or link_scheme(href) not in (None, "http", "https"):
            return None  # a script, a local file, mail: as a browser reads the scheme (`JaVa\tScript:`)
        try:
            return strip_tracking(unwrap_redirect(join_url(self.base_url, href)))
        except ValueError:
            return None

    # -- blocks --------------------------------------------------------------------------------
    def blocks(self, node: etree._Element) -> list[str]:
        """The Markdown blocks of a container: inline runs become paragraphs."""
        out: list[str] = []
        run: list[str] = [self._text(node.text)]
        joinable = ""  # as in `_add_inline`
        broken = False  # the run holds a paragraph that a link cut in two (`_opens_sentence`)
        for child in node:
            block = self._is_block(child)
            opens = block and self._opens_sentence(child)
            closes = broken and block and _closes_sentence(child)
            if opens or closes:
                if not closes:  # a paragraph of its own begins
                    self._flush(run, out)
                    run, joinable = [], ""
                broken = opens
                run.append(self._text(child.text))
                for inner in child:
                    joinable = self._add_inline(run, inner, joinable)
                run.append(self._text(child.tail))
                continue
            broken = broken and not block
            if block:
                self._flush(run, out)
                if self._cells or not self._contents(child):
                    out.extend(self.block(child))
                elif out and _CONTENTS_TITLE.fullmatch(out[-1].lstrip("#").strip(" *_:")):
                    out.pop()  # its title goes with it
                run = [self._text(child.tail)]
                joinable = ""
            else:
                joinable = self._add_inline(run, child, joinable)
        self._flush(run, out)
        return out

    def block(self, node: etree._Element) -> list[str]:
        tag = tag_name(node)
        if not tag or tag in SKIP or hidden(node):
            return []
        if self.codes and tag in ("p", "pre", "code", "quote"):  # trafilatura makes a plain <pre> a quote
            known = self.codes.get(code_key(node))
            if known is not None:
                return self._fenced(known.code, known.language)
        handler = self._blocks.get(tag)
        if handler is not None:
            made = handler(node)
            if tag == "table":
                self._verbatim.update(made)
            return made
        level = HEADINGS.get(tag) or (self._head_level(node) if tag == "head" else 0)
        if level:
            start = 1 if _anchor_first(node) else 0  # rustdoc's "§" link before a heading's words
            title = settled(_collapse(self._inline_children(node, start)).strip())  # one line
            title = _PERMALINK.sub("", title).strip(_ZERO_WIDTH_CHARS)
            if (address := _address_last(node)) and title.endswith(address) and title != address:
                title = title[: -len(address)].rstrip()  # "Why it matters#section2"
            if title.startswith("**") and title.endswith("**") and "**" not in title[2:-2]:
                title = title[2:-2].strip()  # a heading all in bold is a heading: the marks say nothing
            if not title or _says_nothing(title):
                return []
            if self._cells:
                return [title if self.text else _wrap(title, "**")]  # no heading in a cell
            block = title if self.text else f"{'#' * level} {title}"
            self._headings.add(block)
            if all(self._in_page(link) for link in node.iter("a", "ref")):
                self._titles.add(block)
            return [block]
        if tag == "hr":
            return [] if self.text else ["---"]
        if tag == "code":
            return self._pre(node)
        if tag in ("a", "ref"):
            return self._linked(node)
        return self.blocks(node)

    def _contents(self, node: etree._Element) -> bool:
        """Whether `node` is a list of contents: `CONTENTS_MIN_LINKS` links or more, each to a place
        on this page, and no words outside them. Its entries are the headings of the text it sits
        above, which the reader has as they are."""
        if tag_name(node) not in ("ul", "ol", "list") or node.get("rend") == "dl":
            return False
        links = [link for link in node.iter("a", "ref") if isinstance(link.tag, str)]
        if len(links) < CONTENTS_MIN_LINKS or not all(self._in_page(link) for link in links):
            return False
        inside = sum(ch.isalpha() for link in links for ch in "".join(link.itertext()))
        return inside == sum(ch.isalpha() for ch in "".join(node.itertext()))

    def _in_page(self, link: etree._Element) -> bool:
        """Whether a link leads to a place on this page (`#part`, or this page's address with one)."""
        href = (link.get("href") or link.get("target") or "").strip()
        if href.startswith("#"):
            return len(href) > 1 and not href.startswith("#!")
        if "#" not in href or not self.base_url:
            return False
        try:
            where, _, part = join_url(self.base_url, href).partition("#")
        except ValueError:
            return False
        return bool(part) and where == self.base_url.partition("#")[0]

    def _opens_sentence(self, node: etree._Element) -> bool:
        """Whether `node` is a paragraph whose sentence runs on into the link after it: trafilatura,
        reading text that sits right in a `<div>` between `<br>`s, makes each stretch between two
        links a `<p>` and leaves the links between them (`<p>part of its </p><ref>program</ref>
        <p>.</p>`). Its last words end in a space, with no stop before it, and an inline element
        follows."""
        if node.tag != "p" or node.attrib:
            return False
        last = node[-1].tail if len(node) else node.text
        if not last or not last[-1:].isspace() or last.rstrip()[-1:] in ".!?:":
            return False
        after = node.getnext()
        if after is None or not isinstance(after.tag, str) or self._is_block(after):
            return False
        return not any(self._is_block(inner) for inner in node)

    def _is_block(self, node: etree._Element) -> bool:
        tag = tag_name(node)
        if tag in BLOCK or tag in HEADINGS or tag in self._blocks or tag in _OTHER_BLOCKS:
            return True
        if tag in ("a", "ref"):
            return _wraps_heading(node)
        if "-" in tag or tag == "slot":  # a web component's host or slot (`fetch.composed`)
            return any(self._is_block(inner) for inner in node if isinstance(inner.tag, str))
        return tag == "code" and self._is_code_block(node)

    def _linked(self, link: etree._Element) -> list[str]:
        """The heading a link wraps, with the link in it: `## [Title](url)` (in a table cell, where a
        heading is bold, `[**Title**](url)`)."""
        made = self.blocks(link)
        target = None if self.text else self.url(link.get("href") or link.get("target"))
        if target is None:
            return made
        at = next((n for n, block in enumerate(made) if _HEADING_LINE.match(block)), None)
        if at is None:
            at = next((n for n, block in enumerate(made) if not _NOT_PROSE.match(block)), None)
        if at is None or "](" in made[at]:
            return made
        heading = _HEADING_LINE.match(made[at])
        mark, words = heading.groups() if heading else ("", made[at])
        made[at] = f"{mark}[{link_label(words)}]({link_target(target)})"
        if mark:
            self._headings.add(made[at])
        return made

    def _is_code_block(self, node: etree._Element) -> bool:
        """trafilatura's `<code>` is a block when it stands alone, holds several lines, or is one of the
        page's code blocks (`codes`: its text may sit in a `<code>` of its own, in a table cell, say)."""
        parent = node.getparent()
        if parent is None or "\n" in "".join(node.itertext()).strip() or self._known_code(node):
            return True
        if tag_name(parent) in ("body", "doc", "main", "div", "section", "article"):
            return not _in_running_text(node)  # trafilatura's code block, unless prose runs on beside it
        return False

    def _known_code(self, node: etree._Element) -> bool:
        return bool(self.codes) and code_key(node) in self.codes

    def _holds_code(self, cell: etree._Element) -> bool:
        """Whether a table cell holds a code block of several lines: a `<pre>`, or one of the page's
        (`codes`). One line of code stays in its cell, as inline code."""
        for n in cell.iter():
            tag = tag_name(n)
            if tag == "pre" and "\n" in code_text(n).strip():
                return True
            if tag in ("code", "p", "quote") and self.codes:
                known = self.codes.get(code_key(n))
                if known is not None and "\n" in known.code.strip():
                    return True
        return False

    def _layout(self, grid: list[list[etree._Element]]) -> bool:
        """Whether a table lays out blocks rather than holding data, so that a GFM table would mangle
        it: a cell holds a table of its own, a code block, or a heading and more; or, without a header
        row, the table is one column, or one row with a cell of prose (`LAYOUT_PROSE` characters or
        several paragraphs)."""
        for cell in (c for cells in grid for c in cells):
            if self._holds_code(cell) or any(tag_name(n) == "table" for n in cell.iterdescendants()):
                return True
            if any(_heading(n) for n in cell.iterdescendants()) and not _heading_only(cell):
                return True
        if _has_header(grid[0]):
            return False
        if all(len(cells) == 1 for cells in grid):
            return True
        if len(grid) > 1:
            return False
        return any(
            len(_collapse("".join(c.itertext())).strip()) >= LAYOUT_PROSE
            or sum(tag_name(n) in ("p", "ul", "ol", "list") for n in c) > 1
            for c in grid[0]
        )

    def _flush(self, run: list[str], out: list[str]) -> None:
        text = "".join(run)
        lines = (" ".join(line.split()) for line in text.split("\n"))  # spaces collapsed
        if not self.text:
            lines = map(settled, lines)  # the page's own `*` and `_` escaped where they would be marks
        text = "\n".join(lines if self.text or self._cells else map(_literal_start, lines))
        bare = text.strip()
        if bare and not _says_nothing(bare) and not _invisible(bare):
            out.append(_BLANKS.sub("\n\n", text).strip())
        run.clear()

    @staticmethod
    def _head_level(node: etree._Element) -> int:
        rend = node.get("rend") or "h2"
        return int(rend[1]) if len(rend) == 2 and rend[0] == "h" and rend[1].isdigit() else 2

    def _definitions(self, node: etree._Element) -> list[str]:
        """A definition list (HTML's `dl`, trafilatura's `list rend="dl"`) whose every term and
        definition is one line, as `- **term**: definition` (several definitions of a term joined
        by "; "), so each term stays with what it means. Any other block by block: a term, then what
        it means (as bullets, a term and its definition would read as two entries of a list). In plain
        text, trafilatura's `list` item by item, as before."""
        plain = self._items if self.text and tag_name(node) == "list" else self.blocks
        if self.text or any(_holds_definitions(child) for child in node):
            # a definition holding a definition list is no line: rendered once, as blocks (rendered to
            # be looked at, then again as blocks, each level doubled the time: 16 nested took 2 s)
            return plain(node)
        pairs: list[tuple[str, list[str]]] = []
        for child in node:
            if hidden(child):
                continue
            part = _definition_part(child)
            body = self.blocks(child) if part is not None else []
            if part is None or len(body) > 1 or any("\n" in line or _NOT_PROSE.match(line) for line in body):
                return plain(node)  # a definition of several blocks, a list, a code block...
            text = body[0].strip() if body else ""
            if part == "term":
                pairs.append((_PERMALINK.sub("", text).rstrip().removesuffix(":").rstrip(), []))
            elif text and pairs:
                pairs[-1][1].append(text)
            elif text:
                pairs.append(("", [text]))
        lines = []
        for term, meanings in pairs:
            if term and meanings:
                lines.append(f"{_wrap(term, '**')}: {'; '.join(meanings)}")
            elif term or meanings:
                lines.append(_wrap(term, "**") if term else "; ".join(meanings))
        if not lines:
            return []
        return [_in_a_row(lines)] if self._cells else ["\n".join(f"- {line}" for line in lines)]

    def _list(self, node: etree._Element) -> list[str]:
        if tag_name(node) == "list" and node.get("rend") == "dl":
            return self._definitions(node)
        return self._items(node)

    def _items(self, node: etree._Element) -> list[str]:
        ordered = tag_name(node) == "ol" or (node.get("rend") or "").startswith("ol")
        start = int(node.get("start") or 1) if (node.get("start") or "").isdigit() else 1
        items: list[str] = []
        for child in node:
            tag = tag_name(child)
            if tag in ("ul", "ol", "list"):
                items.extend(self._list(child))
                continue
            if tag not in ("li", "item") or hidden(child):
                continue
            body = _TIGHT.sub(r"\n\1", "\n\n".join(self.blocks(child)).strip())
            if not body:
                continue
            marker = f"{start + len(items)}. " if ordered else "- "
            if self._cells:  # a table cell holds one line: its items in a row, without bullets
                items.append(f"{marker if ordered else ''}{' '.join(body.split())}")
                continue
            pad = " " * len(marker)
            lines = body.split("\n")
            rest = [f"{pad}{line}" if line.strip() else "" for line in lines[1:]]
            items.append("\n".join([marker + lines[0], *rest]))
        if not items:
            return []
        return [_in_a_row(items) if self._cells else "\n".join(items)]

    def _table(self, node: etree._Element) -> list[str]:
        grid = self._rows(node)
        if not grid:
            return []
        if self._layout(grid):
            return self._unwrapped(grid)
        title = self._title(node, grid)
        if title is not None and title is grid[0][0]:
            grid = grid[1:]  # the title's row is no row of the table
        lead = self.blocks(title) if title is not None else []
        return lead + self._grid(grid)

    def _title(self, node: etree._Element, grid: list[list[etree._Element]]) -> etree._Element | None:
        """What names the table, said as a line above it: its `<caption>`, or a first row of one
        cell over rows of more (trafilatura's copy makes the caption that row, which would be read
        as the header, and the real header as data)."""
        caption = next((child for child in node if tag_name(child) == "caption"), None)
        if caption is not None and not hidden(caption):
            return caption
        if len(grid) < 2 or max(len(cells) for cells in grid[1:]) < 2:
            return None
        filled = [cell for cell in grid[0] if "".join(cell.itertext()).strip()]
        if len(filled) != 1 or filled[0] is not grid[0][0]:
            return None
        # one cell over wider rows; or, padded to the width (trafilatura's caption), over a header row
        return filled[0] if len(grid[0]) == 1 or _all_headings(grid[1]) else None

    def _grid(self, grid: list[list[etree._Element]]) -> list[str]:
        if not grid:
            return []
        rows: list[list[str | None]] = []  # None: a column a cell to its left or above spans (text)
        header = False
        heads = 0  # the rows of headings the table opens with
        # column -> a cell above reaching down: its text, rows left
        spanned: dict[int, tuple[str | None, int]] = {}
        for cells in grid:
            values: list[str | None] = []
            # a heading names each column it spans (plain text says it once)
            heading = len(rows) == heads and _all_headings(cells) and not self.text
            for cell in cells:
                self._carry(spanned, values)
                self._cells += 1
                try:
                    text = " ".join(self.blocks(cell)).replace("\n", " ").strip()
                finally:
                    self._cells -= 1
                text = text if self.text else text.replace("|", "\\|")
                down = min(cell_span(cell, "rowspan"), 500) - 1
                for column in range(min(cell_span(cell, "colspan"), 20)):
                    shown = text if heading or not column else None if self.text else ""
                    if down:
                        spanned[len(values)] = (shown, down)
                    values.append(shown)
            self._carry(spanned, values)
            if any(values):
                header = header or (not rows and _has_header(cells))
                heads += heading
                rows.append(values)
        if not rows:
            return []
        if self.text:  # an empty cell stays, so that the cells after it keep their columns
            return ["\n".join(" | ".join(v for v in row if v is not None) for row in rows)]
        filled = [[value or "" for value in row] for row in rows]
        if heads > 1:  # rows of headings, `Season` over `Opens | Closes`: one row
            filled = [_merged_headings(filled[:heads]), *filled[heads:]]
        width = max(len(row) for row in filled)
        filled = [row + [""] * (width - len(row)) for row in filled]
        head, body = (filled[0], filled[1:]) if header or len(filled) > 1 else ([""] * width, filled)
        return [gfm_table(head, body)]

    def _carry(self, spanned: dict[int, tuple[str | None, int]], values: list[str | None]) -> None:
        """The columns a cell of a row above still covers, from the next one on: in Markdown its text
        again (each row reads whole), in plain text nothing (the text reads once)."""
        while len(values) in spanned:
            text, left = spanned.pop(len(values))
            if left > 1:
                spanned[len(values)] = (text, left - 1)
            values.append(None if self.text else text)

    def _rows(self, node: etree._Element) -> list[list[etree._Element]]:
        """The table's own rows (not a nested table's) as lists of their cells."""
        grid: list[list[etree._Element]] = []
        for row in node.iter():
            if tag_name(row) not in ("tr", "row") or self._owner_table(row) is not node:
                continue
            cells = [cell for cell in row if tag_name(cell) in ("td", "th", "cell") and not hidden(cell)]
            if cells:
                grid.append(cells)
        return grid

    def _unwrapped(self, grid: list[list[etree._Element]]) -> list[str]:
        """A layout table's cells as the blocks they hold, row by row; a cell of line numbers beside a
        code block (a highlighter's gutter) left out."""
        out: list[str] = []
        for cells in grid:
            code = any(self._holds_code(cell) for cell in cells)
            for cell in cells:
                if code and LINE_NUMBERS.fullmatch("".join(cell.itertext())):
                    continue
                out.extend(self.blocks(cell))
        return out

    @staticmethod
    def _owner_table(row: etree._Element) -> etree._Element | None:
        parent = row.getparent()
        while parent is not None and tag_name(parent) != "table":
            parent = parent.getparent()
        return parent

    def _pre(self, node: etree._Element) -> list[str]:
        code = self._code_text(node).strip("\n")
        if not code.strip():
            return []
        return self._fenced(code, code_language(node) or "")

    def _fenced(self, code: str, lang: str) -> list[str]:
        if self.text:
            self._verbatim.add(code)
            return [code]
        if self._cells and "\n" not in code.strip():  # a fence cannot stand in a table cell
            return [_inline_code(code)]
        fence = _fence(code)
        block = f"{fence}{lang}\n{code}\n{fence}"
        self._verbatim.add(block)
        return [block]

    @staticmethod
    def _code_text(node: etree._Element) -> str:
        return code_text(node)

    def _quote(self, node: etree._Element) -> list[str]:
        body = "\n\n".join(self.blocks(node)).strip()
        if not body:
            return []
        if self.text:
            return [body]
        return ["\n".join(f"> {line}" if line else ">" for line in body.split("\n"))]

    # -- inline --------------------------------------------------------------------------------
    def _text(self, text: str | None) -> str:
        """A text node's words. In Markdown a `<` that would open an HTML tag is escaped: the page's
        "git log <commit>" said `<commit>`, which a Markdown reader takes for a tag and hides; so are
        a backslash a reader would take for an escape and a `&` that starts a character reference
        (not in a formula's TeX);
        its `*` and `_` are held until their line is whole (`emphasis.settled` escapes those read as
        marks)."""
        if not text:
            return ""
        text = _collapse(text)
        if self.text:
            return text
        # a formula's TeX (`formulas`) is read as it is: `\{` escaped read `\\{`, a line break and a brace
        pieces = _FORMULA.split(text) if "$" in text else [text]  # text, formula, text, ...
        return held("".join(piece if i % 2 else _escaped(piece) for i, piece in enumerate(pieces)))

    def _inline_children(self, node: etree._Element, start: int = 0) -> str:
        """The Markdown of `node`'s text and children, from its child `start` on (and that child's
        predecessor's tail)."""
        parts = [self._text(node.text if start == 0 else node[start - 1].tail)]
        joinable = ""
        for child in node[start:]:
            joinable = self._add_inline(parts, child, joinable)
        text = "".join(parts)
        if "\n" not in text:
            return _collapse(text)
        return _LINE_BREAKS.sub("\n", _collapse_lines(text))  # a `<br>`'s break kept, one at most

    def _add_inline(self, parts: list[str], child: etree._Element, joinable: str) -> str:
        """`child`'s Markdown and its tail added to `parts`. `joinable` is the mark that closes `parts[-1]`
        when it is an emphasis that no text follows; two such runs that touch are one (`**a****b**` is
        `**ab**`). Returns the mark that now closes `parts[-1]` so ("" when none)."""
        piece = self.inline(child)
        mark, tail = self._mark, self._text(child.tail)
        last = next((part for part in reversed(parts) if part), "")  # what the piece follows
        if mark and mark == joinable and piece.startswith(mark):
            parts[-1] = parts[-1][: -len(mark)]
            piece = piece[len(mark) :]
            last = next((part for part in reversed(parts) if part), "")
        elif mark:  # marks that render: `**Note**:text`, not `**Note:**text`
            piece = placed(piece, mark, last[-1:], tail[:1] or self._after_empty(child))
        if piece.startswith("`") and last.endswith("`"):
            parts.append(" ")  # two code spans that touch would read as one holding backticks
        parts.append(piece)
        if tail:
            parts.append(tail)
        return mark if mark and not tail and piece.endswith(mark) else ""

    def _after_empty(self, node: etree._Element) -> str:
        """The first character of the words after `node` when only elements with no words come between
        (trafilatura leaves `<hi rend="#b"/>` where a page had `<strong><br></strong>`); "" when not known."""
        for sibling in node.itersiblings():
            if tag_name(sibling) in ("br", "lb") or "".join(sibling.itertext()):
                return ""
            if sibling.tail:
                return self._text(sibling.tail)[:1]
        return ""

    def inline(self, node: etree._Element) -> str:
        self._mark = ""
        tag = tag_name(node)
        if not tag or tag in SKIP or hidden(node):
            return ""
        if tag in ("br", "lb"):
            return "\n"
        if tag in ("img", "graphic"):
            return self._image(node)
        if tag in INLINE_CODE or (tag == "pre"):
            code = "".join(node.itertext())
            return code if self.text else _inline_code(code)
        mark = HI_MARKS.get(node.get("rend") or "", "") if tag == "hi" else EMPHASIS.get(tag, "")
        if self.text or mark in self._open:  # no marks in text; bold inside bold is marked once
            mark = ""
        self._open.append(mark)
        try:
            inner = self._inline_children(node)
        finally:
            self._open.pop()
        if tag in ("a", "ref"):
            if _TO_TOP.fullmatch(inner.strip(" *_↑^")) and self._in_page(node) and _alone(node):
                return ""  # a forum's "Top" after each post: a way back up the page, not its text
            # a link that is one emphasis run and renders as its text (no target: a `mailto:`) is that run
            whole = not (node.text or "").strip() and len(node) == 1 and not (node[0].tail or "").strip()
            inner_mark = self._mark if whole else ""
            out = self._link(node, inner)
            self._mark = inner_mark if out == inner else ""
            return out
        if (shift := _SHIFTS.get(node.get("rend") if tag == "hi" else tag)) is not None:
            inner = shifted(inner, shift)  # `mc<sup>2</sup>`: mc², not mc2
        out = _wrap(inner, mark)
        self._mark = mark if out != inner else ""
        return out

    def _link(self, node: etree._Element, inner: str) -> str:
        raw = (node.get("href") or node.get("target") or "").strip()
        label = inner.strip()
        if len(raw) > 1 and raw.startswith("#") and label and set(label) <= _PERMALINK_MARKS:
            return ""  # a permalink to its own place, Sphinx's `¶` after a function's signature
        target = self.url(node.get("href") or node.get("target"))
        if self.text or target is None or not label:
            return inner
        lead, trail = _edges(inner)
        return f"{lead}[{link_label(label)}]({link_target(target)}){trail}"

    def _image(self, node: etree._Element) -> str:
        if _AVATAR.search(node.get("class") or ""):
            return ""  # a poster's face beside a post or a quote's "ann:", not the post's picture
        alt = _SPACE.sub(" ", node.get("alt") or node.get("title") or "").strip()
        if alt.lower() in _NO_ALT:
            alt = ""
        if self.text or not self.images:
            return ""
        src = self.url(node.get("src") or node.get("data-src") or node.get("data-lazy-src"))
        if src is None:
            return alt
        alt = alt.replace("[", "").replace("]", "")  # a bracket would end the image early
        return f"![{alt}]({link_target(src)})"


def _literal_start(line: str) -> str:
    """A line of a paragraph with the mark it starts with escaped, when Markdown would read that
    mark as a block's (`# `, `> `, `- `, `1. `, a fence): the page's words "2024. A year of..." or
    "# of seats" are a paragraph, not a list or a heading. A line of marks alone, a story's "* * *",
    is left to read as the break it draws."""
    match = _BLOCK_MARK.match(line)
    if match is None or _BREAK.fullmatch(line):
        return line
    at = match.start() if match.group(1) else match.end()
    return f"{line[:at]}\\{line[at:]}"


def _wraps_heading(link: etree._Element) -> bool:
    """Whether a link wraps a heading and nothing else, as a listing's cards do:
    `<a href><h2>Title</h2></a>`."""
    heading = next(link.iterdescendants(*HEADINGS, "head"), None)
    return heading is not None and "".join(link.itertext()).strip() == "".join(heading.itertext()).strip()


def _in_a_row(items: list[str]) -> str:
    """A list's items as a table cell's one line: `10 users; Priority support`."""
    return "".join(f"{item}{'' if item.endswith(_CLOSED) else ';'} " for item in items).rstrip(" ;")


def _in_running_text(node: etree._Element) -> bool:
    """Whether an element has words of running text right before or after it (trafilatura leaves the
    inline code of a paragraph it lost the start of among the blocks: "<code>port</code> to a ...")."""
    if (node.tail or "").strip():
        return True
    previous = node.getprevious()
    parent = node.getparent()
    before = (previous.tail if previous is not None else parent.text if parent is not None else "") or ""
    return bool(before.strip())


def cell_span(cell: etree._Element, name: str) -> int:
    """A cell's `colspan` or `rowspan`: at least 1 (an absent, zero or malformed span is 1)."""
    value = (cell.get(name) or "").strip()
    return max(int(value), 1) if value.isdigit() else 1


def _holds_definitions(node: etree._Element) -> bool:
    """Whether a definition list (`dl`, trafilatura's `list`) is inside `node`."""
    return isinstance(node.tag, str) and next(node.iterdescendants("dl", "list"), None) is not None


def _definition_part(node: etree._Element) -> str | None:
    """ "term" for a definition list's term (`dt`, trafilatura's `item rend="dt-N"`), "definition" for
    a definition (`dd`, `item rend="dd-N"`), None for anything else."""
    tag = tag_name(node)
    rend = (node.get("rend") or "") if tag == "item" else tag
    if rend.startswith("dt"):
        return "term"
    return "definition" if rend.startswith("dd") else None


def _merged_headings(rows: list[list[str]]) -> list[str]:
    """Rows of headings as one: each column's headings from the top, a heading repeated down (a cell
    spanning the rows) said once: `River`, `Season Opens`, `Season Closes`."""
    width = max(len(row) for row in rows)
    merged = []
    for column in range(width):
        names: list[str] = []
        for row in rows:
            name = row[column] if column < len(row) else ""
            if name and (not names or names[-1] != name):
                names.append(name)
        merged.append(" ".join(names))
    return merged


def _has_header(cells: list[etree._Element]) -> bool:
    """Whether a table's first row is a header row (`<th>` cells, trafilatura's head role, `<thead>`)."""
    return any(heading_cell(c) for c in cells) or _in_thead(cells)


def _all_headings(cells: list[etree._Element]) -> bool:
    """Whether a row is headings only: `<th>` cells (or trafilatura's head role), or a row of `<thead>`."""
    return all(heading_cell(c) for c in cells) or _in_thead(cells)


def heading_cell(cell: etree._Element) -> bool:
    """A heading cell: `<th>`, or trafilatura's head role."""
    return tag_name(cell) == "th" or cell.get("role") == "head"


def _in_thead(cells: list[etree._Element]) -> bool:
    row = cells[0].getparent()
    parent = None if row is None else row.getparent()
    return parent is not None and tag_name(parent) == "thead"


def _heading(node: etree._Element) -> bool:
    tag = tag_name(node)
    return tag in HEADINGS or tag == "head"


def _heading_only(cell: etree._Element) -> bool:
    """Whether a cell's words are all in its headings (a styled header cell, not a laid-out section)."""
    inside = "".join("".join(n.itertext()) for n in cell.iterdescendants() if _heading(n))
    return len(_collapse(inside).strip()) >= len(_collapse("".join(cell.itertext())).strip())


REPEAT_CHARS = 80
"""A block this long (as it reads: its marks and link targets aside), said again word for word further down a
page that is no article, is said once."""
TRAILING_TITLES = 2
"""At most, of headings over nothing at the end of a text, left out (more are a listing's items)."""


def _said_once(blocks: Iterable[str], verbatim: set[str], *, marked: bool) -> Iterator[str]:
    """The blocks, less each long one (`REPEAT_CHARS`) said in the same words earlier on the page: a
    reply's quotation of a post already read, a promotion or a card repeated down a page. Code and
    tables (`verbatim`) are left as they are. `marked`: the blocks are Markdown, measured as they read
    (`_shown`), so that Markdown says again what plain text does."""
    seen: set[str] = set()
    for block in blocks:
        if block not in verbatim and len(_shown(block) if marked else block) >= REPEAT_CHARS:
            if block in seen:
                continue
            seen.add(block)
        yield block


def _shown(block: str) -> str:
    """A block as it reads, without its links' targets and its marks (`#`, `**`, `[`...): a block is
    about as long in Markdown as in plain text."""
    return _MARKUP.sub("", LINK_TARGET.sub("]", block) if "](" in block else block)


def _once(blocks: Iterable[str]) -> Iterator[str]:
    """The blocks, less one that says in the same words what the block before it said: a page's mobile
    and desktop copies of a heading or a menu, rendered one after the other (link targets aside). Two
    blocks' whole words are compared only when their first words are the same."""
    last, last_first, last_words = "", "", None
    for block in blocks:
        first = _first_word(block)
        if first and first == last_first:
            words = _words(block)
            if last_words is None:
                last_words = _words(last)
            if words == last_words:
                continue
            last, last_words = block, words
        else:
            last, last_words = block, None
        last_first = first
        yield block


def _first_word(block: str) -> str:
    match = _WORDS.search(LINK_TARGET.sub("]", block) if "](" in block else block)
    return match.group().lower() if match else ""


def _words(block: str) -> list[str]:
    return _WORDS.findall(LINK_TARGET.sub("]", block).lower())


def to_markdown(
    root: etree._Element,
    base_url: str | None = None,
    *,
    codes: Mapping[str, CodeBlock] | None = None,
    repeats: bool = True,
    images: bool = True,
) -> str:
    """The Markdown of an element (see `Renderer`)."""
    return Renderer(base_url, codes=codes, repeats=repeats, images=images).render(root)


def link_target(url: str) -> str:
    """`url` as a Markdown link's target: a space, a line break or a `)` would end it early, and a `(`
    without its `)` would leave it no link at all (`Python_(language)` is `Python_%28language%29`);
    a character that shows nothing or turns the text's direction is percent-encoded too
    (`url_without_blanks`)."""
    return url_without_blanks(url).replace("(", "%28").replace(")", "%29")


def link_label(label: str) -> str:
    """`label` as a link's text: brackets that pair up (`[1]`) stay as they are; a `]` without its
    `[`, or a `[` without its `]`, would end the link early or leave it no link, so then every
    bracket is escaped."""
    depth = 0
    for ch in _UNESCAPED_BRACKET.findall(label):
        depth += 1 if ch == "[" else -1
        if depth < 0:
            break
    if depth == 0:
        return label
    return _UNESCAPED_BRACKET.sub(r"\\\g<0>", label)


def gfm_cell(text: str) -> str:
    """`text` as a table cell's content: a `|` would end the cell, so it is escaped (and `\\` with it)."""
    return text.replace("\\", "\\\\").replace("|", "\\|")


def gfm_table(head: Sequence[str], body: Iterable[Sequence[str]]) -> str:
    """A GitHub-flavoured Markdown table: the header row, its rule, the body's rows; the cells are
    given escaped (a `|` in a cell as `\\|`) and each row as wide as the header."""
    lines = [f"| {' | '.join(head)} |", "|" + "|".join(["---"] * len(head)) + "|"]
    lines.extend(f"| {' | '.join(row)} |" for row in body)
    return "\n".join(lines)


def to_text(
    root: etree._Element, *, codes: Mapping[str, CodeBlock] | None = None, repeats: bool = True
) -> str:
    """Plain text of an element: the same structure without marks or link targets."""
    return Renderer(None, text=True, codes=codes, repeats=repeats).render(root)
