"""Forum threads read from their schema.org microdata: each post under who wrote it and when.

Discourse, XenForo, vBulletin, NodeBB, Invision and other forum software mark a thread as a
`DiscussionForumPosting` item and each reply as a `Comment` item, with the post's text, its author
and its date as their properties. Read as any other page, a thread keeps the posts' words but loses
who said them: the author's name is a short link and the date a short line, both dropped with the
page's chrome, and a reply reads as a continuation of the post above it. So a page that declares a
forum posting and marks at least one post with a text of its own is read from that microdata, each
post in page order under a line that names its author and date:

    **raoul** · May 3, 2024, 8:45am

A post's text is its `text` (or `articleBody`, `commentText`) property as the page shows it;
signatures, vote buttons and the page's chrome are not in it. A quotation of posts already read in
the thread is left out of the reply quoting it (a quote of an older post stays). A post nested in
another post's text (a quoted post marked as an item) is part of that text, not a post of its own.

The first marked post must be the opening one, as the page declares its words elsewhere (its
description, or the posting's `text` as a `meta`). Where the page marks only the replies (XenForo
declares its opening post in JSON-LD alone), the opening post is looked for where the replies' texts
sit in the template, with its author and date from the JSON-LD; where it cannot be found, the page is
read as any page, so a thread never loses its question.
"""

from __future__ import annotations

import re
from copy import deepcopy
from dataclasses import dataclass

from lxml import html

from webferret.extract import hints
from webferret.extract.blocks import holds_text
from webferret.extract.metadata import jsonld_blocks, ld_nodes, ld_types, names
from webferret.extract.microdata import Props, item_kind, item_props, value

HINT = hints.word("DiscussionForumPosting")
"""In a page's HTML (its microdata or JSON-LD) when it may be a thread (`thread` is not run otherwise)."""

POSTS = frozenset(("DiscussionForumPosting", "Comment", "UserComments"))
TEXTS = ("text", "articleBody", "commentText")
DATES = ("datePublished", "dateCreated", "commentTime")
WORD = re.compile(r"\w+")
MAX_NAME = 60
QUOTED = 0.8
ATTRIBUTION_WORDS = 6
"""At most, besides a quotation, in the container that holds it with its attribution ("ann said:")."""


@dataclass
class Post:
    """One post of a thread: its text as the page shows it, who wrote it and when."""

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
    marked = set(texts)
    posts = [post for post in posts if not any(a in marked for a in post.text.iterancestors())]
    if not posts:
        return None
    said = _declared_opening(items, props, tree)
    if not _opens(posts[0], said):
        opener = _unmarked_opener(posts[0], said, texts, tree)
        if opener is None:
            return None
        posts.insert(0, opener)
    return assemble(posts)


def assemble(posts: list[Post]) -> html.HtmlElement:
    """The thread as one element: each post's attribution line, then its text, less its quotations of
    posts already read."""
    root = html.Element("div")
    read: set[tuple[str, ...]] = set()
    for post in posts:
        if post.author or post.date:
            root.append(_attribution(post))
        text = deepcopy(post.text)
        for quote in text.xpath(".//blockquote"):
            if _read_before(quote, read):
                _with_attribution(quote, text).drop_tree()
        read |= _shingles(_words(" ".join(post.text.itertext())))
        root.append(text)
    return root


def _read_before(quote: html.HtmlElement, read: set[tuple[str, ...]]) -> bool:
    """Whether a quotation is of posts already read in this thread: most of its word 5-grams are theirs
    (its own attribution line, "ann said:", is a few of them)."""
    shingles = _shingles(_words(" ".join(quote.itertext())))
    return bool(shingles) and len(shingles & read) >= QUOTED * len(shingles)


def _with_attribution(quote: html.HtmlElement, text: html.HtmlElement) -> html.HtmlElement:
    """The quotation with the container that holds only it and its attribution line, inside the post's
    `text`: Discourse writes `<aside class="quote"><div class="title"><img> ann:</div><blockquote>`,
    and the quotation alone left "ann:" (and her avatar) over the reply."""
    holder = quote.getparent()
    if holder is None or holder is text or _text_after(quote):  # a reply after it is no attribution
        return quote
    own = len(_words(" ".join(holder.itertext()))) - len(_words(" ".join(quote.itertext())))
    return holder if own <= ATTRIBUTION_WORDS else quote


def _text_after(element: html.HtmlElement) -> bool:
    """Whether text follows `element` inside its parent."""
    return bool((element.tail or "").strip()) or any(
        "".join(sibling.itertext()).strip() for sibling in element.itersiblings()
    )


def _shingles(words: list[str]) -> set[tuple[str, ...]]:
    return {tuple(words[i : i + 5]) for i in range(len(words) - 4)}


def _declared_opening(
    items: list[html.HtmlElement], props: Props, tree: html.HtmlElement
) -> list[str] | None:
    """The first 12 words of the opening post as the page declares it apart from its posts: a posting's
    `text` given as a `meta` (Nairaland), else the page's description; None when it declares none."""
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
    return next((words[:12] for text in declared if len(words := _words(text)) >= 8), None)


def _opens(post: Post, said: list[str] | None) -> bool:
    """Whether the first marked post is the thread's opening post. Some forums mark only the replies
    (XenForo declares its opening post in JSON-LD alone, Nairaland in a `meta`), and a thread read
    without its question is worse than one read without its authors. The declared opening words must
    be, for the most part, among the first 60 of the post's own words (its quotes of other posts left
    out). A page that declares none is taken at its word."""
    return said is None or _begins(post.text, said)


def _begins(text: html.HtmlElement, said: list[str]) -> bool:
    own = deepcopy(text)
    for quote in own.xpath(".//blockquote"):
        quote.drop_tree()
    opening = set(_words(" ".join(own.itertext()))[:60])
    return sum(word in opening for word in said) >= 0.6 * len(said)


def _unmarked_opener(
    first: Post, said: list[str] | None, texts: list[html.HtmlElement], tree: html.HtmlElement
) -> Post | None:
    """The opening post of a page that marks only its replies, found on the page: an element before
    the first reply's text, in the same place of the template (its tag, in a parent of the same tag
    and class), holding no marked post, that begins with the declared opening words. Its author and
    date are the page's JSON-LD posting's, when it gives them."""
    parent = first.text.getparent()
    if said is None or parent is None:
        return None
    holding = {box for text in texts for box in (text, *text.iterancestors())}
    for element in tree.iter(first.text.tag):
        if element is first.text:
            return None
        holder = element.getparent()
        if (
            holder is not None
            and holder.tag == parent.tag
            and holder.get("class") == parent.get("class")
            and element not in holding
            and _begins(element, said)
        ):
            author, date = _declared_author(tree)
            return Post(element, author, date)
    return None


def _declared_author(tree: html.HtmlElement) -> tuple[str | None, str | None]:
    """The author's name and the day of a JSON-LD `DiscussionForumPosting`."""
    for node in ld_nodes(jsonld_blocks(tree)):
        if HINT in ld_types(node):
            found = names(node.get("author"))
            stamp = node.get("datePublished") or node.get("dateCreated")
            return (found[0] if found else None), (stamp[:10] if isinstance(stamp, str) else None)
    return None, None


def _words(text: str) -> list[str]:
    return WORD.findall(text.lower())


def _post(item: html.HtmlElement, props: Props) -> Post | None:
    own = props.get(item, {})
    text = next((t for name in TEXTS for t in own.get(name, []) if holds_text(t)), None)
    if text is None:
        return None
    return Post(text, _author(own.get("author") or own.get("creator"), props), _date(own))


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


def _attribution(post: Post) -> html.HtmlElement:
    line = html.Element("p")
    if post.author:
        strong = html.Element("strong")
        strong.text = post.author
        line.append(strong)
        strong.tail = f" · {post.date}" if post.date else None
    else:
        line.text = post.date
    return line
