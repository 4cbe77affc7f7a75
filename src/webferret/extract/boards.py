"""Threads of forum software that marks no microdata, read from its template: each post under who
wrote it and when (as `extract.forum` reads the threads that microdata marks).

Read as any page, such a thread loses posts of a line or two and code boxes along with the profiles
and buttons around them, and every post loses its author. Seven programs say they made the page and
keep one template in every style:
- phpBB (`<body id="phpbb">`): a post is a `div.post` whose `div.postbody` holds a `p.author` line
  ("by ann » Sun Dec 17, 2023 11:23 am", the name a `.username` link, the date a `<time>` in recent
  versions) and a `div.content` with the post's text. The "Code: Select all" header over a code box is
  chrome.
- Invision Community: a post is an `<article>` holding its text as `[data-role="commentContent"]`,
  the author's name in its author pane (`.cAuthorPane_author`, or `.ipsEntry__username` since
  version 5) and its date as a `<time>`.
- Flarum: the page is a script's app, and the thread it draws is also in the page for readers
  without scripts, in `<noscript id="flarum-content">`: an `<article>` per post, its author's name
  in `.PostUser-name` and its text in `.Post-body` (no date).
- FluxBB and PunBB (a topic's `id="punviewtopic"`; the Arch Linux forums): a post is a
  `div.blockpost`, its date the link in its heading, its author's name in the `dt` of its left
  column and its text in `div.postmsg`.
- vBulletin 3 and 4 (where no microdata marks the thread): a post's text is `#post_message_N` in a
  box whose id is `postN` or `post_N`, its author's name `a.bigusername` (3) or `.username` (4), its
  date the post's first header cell (3) or its `span.date` (4).
- SMF (Simple Machines Forum): a post is a `div.post_wrapper`, its author's name the link in the
  poster's `h4`, its date the link in its `div.postinfo`, its text the `div.inner` with id `msg_N`.
- MyBB: a post is a `div.post` whose `div.post_body` (id `pid_N`) holds its text, its author's name
  the `strong` of its author information and its date the `span.post_date` (none when the line also
  says the post was edited: the line is then too long to be a date).
A page of these programs without such posts (a board's index, a forum's list of topics) is read as
any page.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lxml import html

from webferret.extract import hints
from webferret.extract.blocks import holds_text
from webferret.extract.classes import has_class
from webferret.extract.forum import MAX_NAME, Post, assemble


@dataclass(frozen=True)
class Template:
    """Where one forum program puts a thread's posts (XPath expressions; the others relative to a post)."""

    hint: str
    """In the HTML of the program's pages (`thread` is not tried otherwise)."""
    posts: str
    text: str
    names: tuple[str, ...]
    """Where the author's name is, in order of trust (never the post's text: a quotation's author is
    linked the same way)."""
    line: str | None = None
    """The author line, whose `<time>` or words give the date (and the name, "by NAME »", when it
    links none); without it, the post's first `<time>`."""
    chrome: str | None = None
    """What the program writes into a post's text that is not the post (phpBB's code-box header)."""

    def __post_init__(self) -> None:
        hints.word(self.hint)


_USERNAME = f"*[{has_class('username')} or {has_class('username-coloured')}]"
PHPBB = Template(
    hint='id="phpbb"',
    posts=f"//div[{has_class('post')}][.//div[{has_class('postbody')}]]",
    text=f".//div[{has_class('postbody')}]//div[{has_class('content')}]",
    names=(
        f".//p[{has_class('author')}]//{_USERNAME}",
        f".//dl[{has_class('postprofile')}]//{_USERNAME}",
    ),
    line=f".//p[{has_class('author')}]",
    chrome=f".//div[{has_class('codebox')}]/p",
)
INVISION = Template(
    hint='data-role="commentContent"',
    posts="//article[.//*[@data-role='commentContent']]",
    text=".//*[@data-role='commentContent']",
    names=(f".//*[{has_class('cAuthorPane_author')}]", f".//*[{has_class('ipsEntry__username')}]"),
)
FLARUM = Template(
    hint='id="flarum-content"',
    posts=f"//article[div[{has_class('Post-body')}]]",
    text=f"./div[{has_class('Post-body')}]",
    names=(f".//*[{has_class('PostUser-name')}]",),
)
FLUXBB = Template(
    hint='id="punviewtopic"',
    posts=f"//div[{has_class('blockpost')}]",
    text=f".//div[{has_class('postmsg')}]",
    names=(f".//div[{has_class('postleft')}]//dt",),
    line="./h2//a",
)
VBULLETIN = Template(
    hint='id="post_message_',
    posts="//*[starts-with(@id, 'post')][.//*[starts-with(@id, 'post_message_')]]",
    text=".//*[starts-with(@id, 'post_message_')]",
    names=(f".//a[{has_class('bigusername')}]", f".//*[{has_class('username')}]"),
    line=f"(.//span[{has_class('date')}] | .//*[{has_class('thead')}])",
)
SMF = Template(
    hint='class="post_wrapper"',
    posts=f"//div[{has_class('post_wrapper')}]",
    text=f".//div[{has_class('inner')}][starts-with(@id, 'msg_')]",
    names=(f".//div[{has_class('poster')}]//h4//a",),
    line=f".//div[{has_class('postinfo')}]/a[{has_class('smalltext')}]",
)
MYBB = Template(
    hint='id="pid_',
    posts=f"//div[{has_class('post')}][.//div[{has_class('post_body')}][starts-with(@id, 'pid_')]]",
    text=f".//div[{has_class('post_body')}][starts-with(@id, 'pid_')]",
    names=(f".//div[{has_class('author_information')}]//strong",),
    line=f".//span[{has_class('post_date')}]",
)
TEMPLATES = (PHPBB, INVISION, FLARUM, FLUXBB, VBULLETIN, SMF, MYBB)

_BY = re.compile(r"\bby\s+(.+?)\s*»")
_NUMBER = re.compile(r"\s*#\d+$")  # a post's number after its date ("Feb 14, 2026 | 9:05 pm #1")
_DATE_CHARS = 40


def thread(tree: html.HtmlElement, text: str) -> html.HtmlElement | None:
    """The thread as one element (`forum.assemble`) when the page (`text` its HTML) is of a program
    in `TEMPLATES` and has a post with text; else None."""
    for template in TEMPLATES:
        if hints.holds(text, template.hint) and (posts := _posts(tree, template)):
            return assemble(posts)
    return None


def _posts(tree: html.HtmlElement, template: Template) -> list[Post]:
    boxes = tree.xpath(template.posts)
    holding = {outer for box in boxes for outer in box.iterancestors()}
    posts = []
    for box in boxes:
        if box in holding:  # a box around the posts (a whole topic in one <article>), not a post
            continue
        text = next(iter(box.xpath(template.text)), None)
        if text is None or not holds_text(text):
            continue
        if template.chrome:
            for chrome in text.xpath(template.chrome):
                chrome.drop_tree()
        line = next(iter(box.xpath(template.line)), None) if template.line else None
        posts.append(
            Post(text, _author(box, template.names, line), _date(box if line is None else line, line))
        )
    return posts


def _author(box: html.HtmlElement, places: tuple[str, ...], line: html.HtmlElement | None) -> str | None:
    """The first name found in `places`, else the author line's "by NAME »"."""
    for place in places:
        for element in box.xpath(place):
            name = " ".join(element.text_content().split())
            if name and len(name) <= MAX_NAME:
                return name
    found = _BY.search(" ".join(line.text_content().split())) if line is not None else None
    return found.group(1) if found and len(found.group(1)) <= MAX_NAME else None


def _date(place: html.HtmlElement, line: html.HtmlElement | None) -> str | None:
    """The post's date as the page shows it: the first `<time>` in `place`, else what the author line
    says after "»", else the line itself when it is short (a style that shows only the date there)."""
    for stamp in place.iter("time"):
        shown = " ".join(stamp.text_content().split()) or (stamp.get("datetime") or "").strip()
        if shown:
            return shown
    if line is None:
        return None
    shown = _NUMBER.sub("", " ".join(line.text_content().split()))
    if "»" in shown:
        shown = shown.rsplit("»", 1)[1].strip()
    return shown if shown and len(shown) <= _DATE_CHARS and any(c.isdigit() for c in shown) else None
