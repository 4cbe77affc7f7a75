"""Forum threads read from their schema.org microdata: each post under who wrote it and when.

Discourse, XenForo, vBulletin, NodeBB, Invision and other forum software mark a thread as a
`DiscussionForumPosting` item and each reply as a `Comment` item, with the post's text, its author
and its date as their properties. Read as any other page, a thread keeps the posts' words but loses
who said them: the author's name is a short link and the date a short line, both dropped with the
page's chrome, and a reply reads as a continuation of the post above it. So a page that declares a
forum posting and marks at least one post with a text of its own is read from that microdata, each
post in page order under a line that names its author and date:

    **raoul** · May 3, 2024, 8:45am

A post's text is its `text` (or `articleBody`, `commentText`) property as the page shows it, quotes
of earlier posts included; signatures, vote buttons and the page's chrome are not in it. A post
nested in another post's text (a quoted post marked as an item) is part of that text, not a post of
its own.
"""

from __future__ import annotations

import re
from copy import deepcopy
from dataclasses import dataclass

from lxml import html

from webferret.extract.microdata import Props, item_kind, item_props, value

HINT = "DiscussionForumPosting"
"""In a page's HTML (its microdata or JSON-LD) when it may be a thread (`thread` is not run otherwise)."""

POSTS = frozenset(("DiscussionForumPosting", "Comment", "UserComments"))
TEXTS = ("text", "articleBody", "commentText")
DATES = ("datePublished", "dateCreated", "commentTime")
WORD = re.compile(r"\w+")
MAX_NAME = 60


@dataclass
class _Post:
    text: html.HtmlElement
    author: str | None
    date: str | None


def thread(tree: html.HtmlElement) -> html.HtmlElement | None:
    """The thread as one element (each post's attribution line, then its text), or None when the
    page marks no post with a text of its own."""
    items = [item for item in tree.xpath("//*[@itemscope][@itemtype]") if item_kind(item) in POSTS]
    if not items:
        return None
    props = item_props(tree)
    posts = [post for item in items if (post := _post(item, props))]
    texts = [post.text for post in posts]
    posts = [post for post in posts if not any(t is not post.text and _within(post.text, t) for t in texts)]
    if not posts or not _opens(posts[0], items, props, tree):
        return None
    root = html.Element("div")
    for post in posts:
        if post.author or post.date:
            root.append(_attribution(post))
        root.append(deepcopy(post.text))
    return root


def _opens(post: _Post, items: list[html.HtmlElement], props: Props, tree: html.HtmlElement) -> bool:
    """Whether the first marked post is the thread's opening post. Some forums mark only the replies
    (XenForo declares its opening post in JSON-LD alone, Nairaland in a `meta`), and a thread read
    without its question is worse than one read without its authors. The opening post's words as the
    page declares them elsewhere (a posting's `text` given as a `meta`, else the page's description)
    must be, for the most part (of the first 12), among the first 60 of the post's own words (its
    quotes of other posts left out). A page that declares none is taken at its word."""
    declared = [
        element.get("content") or ""
        for item in items
        if item_kind(item) == HINT
        for element in props.get(item, {}).get("text", [])
        if element.tag == "meta"
    ]
    declared += tree.xpath(
        "//meta[@name='description' or @property='og:description' or @name='twitter:description']/@content"
    )
    said = next((words[:12] for text in declared if len(words := _words(text)) >= 8), None)
    if said is None:
        return True
    own = deepcopy(post.text)
    for quote in own.xpath(".//blockquote"):
        quote.drop_tree()
    opening = set(_words(" ".join(own.itertext()))[:60])
    return sum(word in opening for word in said) >= 0.6 * len(said)


def _words(text: str) -> list[str]:
    return WORD.findall(text.lower())


def _post(item: html.HtmlElement, props: Props) -> _Post | None:
    own = props.get(item, {})
    text = next((t for name in TEXTS for t in own.get(name, []) if _said(t)), None)
    if text is None:
        return None
    return _Post(text, _author(own.get("author") or own.get("creator"), props), _date(own))


def _said(element: html.HtmlElement) -> bool:
    return any(part.strip() for part in element.itertext())


def _within(element: html.HtmlElement, other: html.HtmlElement) -> bool:
    return any(ancestor is other for ancestor in element.iterancestors())


def _author(elements: list[html.HtmlElement] | None, props: Props) -> str | None:
    """The author's name: a Person's `name`, else the property's own value, when it is short enough
    to be a name (not a whole user card of badges and counts)."""
    for element in elements or []:
        person = element.get("itemscope") is not None
        name = value(props.get(element, {}).get("name")) if person else value([element])
        if name and len(name) <= MAX_NAME:
            return name
    return None


def _date(own: dict[str, list[html.HtmlElement]]) -> str | None:
    """The post's date as the page shows it, else as its markup gives it (an ISO date's day)."""
    for name in DATES:
        for element in own.get(name, []):
            shown = " ".join("".join(element.itertext()).split())
            if shown:
                return shown
            stamp = element.get("datetime") or element.get("content")
            if stamp:
                return stamp.strip()[:10]
    return None


def _attribution(post: _Post) -> html.HtmlElement:
    line = html.Element("p")
    if post.author:
        strong = html.Element("strong")
        strong.text = post.author
        line.append(strong)
        strong.tail = f" · {post.date}" if post.date else None
    else:
        line.text = post.date
    return line
