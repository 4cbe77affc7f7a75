"""A page's dates as its `<time datetime>` elements state them, when its markup names none: the
publication's, never a comment's nor a change's, and the last change's ("Last updated: <time>").
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from lxml import html

from webferret.extract.dates import iso_date, local_day
from webferret.extract.microdata import reply_kind


def time_published(tree: html.HtmlElement, url: str | None) -> str | None:
    """The date of a `<time datetime>` marked as the publication's, else of the first one stating a date
    (not a duration such as "5 min read", nor an hour alone) that is not a comment's (the date a reader
    left a comment is not the page's) nor a change's ("Last updated: <time>", `_updated`); on the
    site's own day (`local_day`, `url` the page's address). A `<time>` in one of a list's cards is
    that card's date, not the page's (`Cards.holds`)."""
    every = _stated_times(tree)
    cards = Cards(every)
    times = [t for t in every if not cards.holds(t)]
    marked = [t for t in times if t.get("itemprop") == "datePublished" or t.get("pubdate") is not None]
    for node in marked:
        if date := local_day(node.get("datetime"), url):
            return date
    if marked:
        return None
    first = next((node for node, _ in _dated(times) if not _updated(node)), None)
    return None if first is None else local_day(first.get("datetime"), url)


def time_modified(tree: html.HtmlElement) -> str | None:
    """The date of the first `<time datetime>` that says when the page was last changed (`_updated`)."""
    times = _stated_times(tree)
    return next((date for node, date in _dated(times) if _updated(node)), None)


def _dated(times: list[html.HtmlElement]) -> Iterator[tuple[html.HtmlElement, str | None]]:
    """Each `<time>` stating a day that is no comment's, with its date."""
    for node in times:
        if _DATE_LIKE.search(node.get("datetime", "")) and not _aside(node):
            yield node, iso_date(node.get("datetime"))


# the words that say a date is a change's, in a label before it or in a class name
_UPDATE_LABEL = re.compile(r"\b(?:updated|modified|changed|revised)(?: on| at)?\s*:?\s*$", re.I)
_UPDATE_NAME = re.compile(r"updated|modified|changed|revised|last-?mod", re.I)
_PUBLISH_NAME = re.compile(r"publish|posted|created", re.I)


def _updated(node: html.HtmlElement) -> bool:
    """Whether a `<time>` says when the page was last changed, not when it came out: the text just
    before it says so ("Last updated:", "This page was last modified on"), or the first class name of
    it and its two holders that names either names a change (`theme-last-updated`,
    `field--name-changed`; `published-date` is the publication's)."""
    parent = node.getparent()
    if parent is not None and _UPDATE_LABEL.search(_text_before(node, parent)):
        return True
    holder: html.HtmlElement | None = node
    for _ in range(3):
        if holder is None:
            break
        names = f"{holder.get('class', '')} {holder.get('id', '')}"
        if _PUBLISH_NAME.search(names):
            return False
        if _UPDATE_NAME.search(names):
            return True
        holder = holder.getparent()
    return False


def _text_before(node: html.HtmlElement, parent: html.HtmlElement) -> str:
    """The last words of `parent`'s text before its child `node` (a comment's words left out): the
    last 60 characters, from the few elements just before it (`_LABEL_ELEMENTS`), so a list of
    thousands of `<time>` in one element is read once, not once a `<time>`."""
    text = ""
    sibling = node.getprevious()
    for _ in range(_LABEL_ELEMENTS):
        if sibling is None:
            return ((parent.text or "") + text)[-60:]
        own = sibling.text_content() if isinstance(sibling.tag, str) else ""
        text = own + (sibling.tail or "") + text
        if len(text) >= 60:
            break
        sibling = sibling.getprevious()
    return text[-60:]


_LABEL_ELEMENTS = 4
"""The elements before a `<time>`, at most, whose text is read for its label ("<b>Last</b> updated:")."""


# what a `datetime` attribute holds when it states a day: a year among digits or words, not "PT5M" or "10:30"
_DATE_LIKE = re.compile(r"\d{4}")


def _aside(node: html.HtmlElement) -> bool:
    """Whether an element stands in a comment (its class or id names a comment section, or it is in a
    `Comment` or `Answer` item, `reply_kind`). An `<aside>` is not enough: many articles hold their own
    date in one (`<article><aside class="post-meta"><time>`), and a forum's wrapper of its posts
    and replies holds the thread's first post."""
    if reply_kind(node) is not None:
        return True
    for ancestor in node.iterancestors():
        names = f"{ancestor.get('class', '')} {ancestor.get('id', '')}".lower()
        if ancestor.tag not in ("html", "body") and any(name in names for name in _COMMENT_NAMES):
            return True
    return False


_COMMENT_NAMES = ("comment", "disqus", "respond")

_CARD_LEVELS = 5
"""Elements above a `<time>`, at most, that may be its card."""
_CARD_CHARS = 1000
"""Of text, at most, in a card: a teaser, not a story (a news site's next stories below its first)."""
_CARD_PEERS = 2
"""Cards alike beside it, at least, that hold a dated `<time>` too: a list of three or more."""


class Cards:
    """The cards of a page's lists, as the marks each card holds show them (`holds`): its dated
    `<time>` elements, or its author marks (a blog index's `rel="author"` on each post's writer)."""

    def __init__(self, times: list[html.HtmlElement]) -> None:
        self._dated: set[html.HtmlElement] = set()
        """Every element that holds a mark (a dated `<time>`): one walk up from each, stopping where
        an earlier walk passed (a page of thousands of times is walked once, not once a time)."""
        for time in times:
            for holder in time.iterancestors():
                if holder in self._dated:
                    break
                self._dated.add(holder)

    def holds(self, node: html.HtmlElement) -> bool:
        """Whether `node` (a `<time>` or what states a date) dates one card of a list (a news index,
        a blog's latest posts, a "more stories" strip): an element a few levels above it, of short
        text, stands among siblings of its tag and class that hold a dated `<time>` each. The date of
        a listing's first card is not the listing's; nor is that of a strip of other stories above
        an article its date. A card is titled (`_titled`), as its peers are: a forum thread's short
        posts, dated alike one after another, are no cards (its first post holding a link of a few
        words too), and its first post's date stays the thread's."""
        holder = node.getparent()
        for _ in range(_CARD_LEVELS):
            parent = None if holder is None else holder.getparent()
            if holder is None or parent is None or holder.tag in ("body", "html"):
                return False
            peers = self._peers(holder)
            if len(peers) >= _CARD_PEERS:  # titled as its peers are: one post's link titles no list
                titled = _titled(holder) and sum(map(_titled, peers)) >= _CARD_PEERS
                return len(holder.text_content()) <= _CARD_CHARS and titled
            holder = parent
        return False

    def _peers(self, card: html.HtmlElement) -> list[html.HtmlElement]:
        """Siblings of `card` (a few each side) of its tag and class that hold a dated `<time>`."""
        kind = (card.tag, card.get("class"))
        peers = []
        for siblings in (card.itersiblings(), card.itersiblings(preceding=True)):
            for _, sibling in zip(range(_CARD_PEERS + 1), siblings, strict=False):
                if sibling in self._dated and (sibling.tag, sibling.get("class")) == kind:
                    peers.append(sibling)
        return peers


def _titled(card: html.HtmlElement) -> bool:
    """Whether a card names what it dates: a heading, or a link of a few words to another page (a
    story's title), not a post's author or its "Reply"."""
    if next(card.iter("h1", "h2", "h3", "h4", "h5", "h6"), None) is not None:
        return True
    return any(
        not (link.get("href") or "#").startswith("#") and len(link.text_content().split()) >= _TITLE_WORDS
        for link in card.iter("a")
    )


_TITLE_WORDS = 3
"""Words, at least, of a link that titles a card (a user's name or "Reply" is shorter)."""


def page_cards(tree: html.HtmlElement, stated: list[html.HtmlElement]) -> Cards:
    """The cards of `tree`'s lists, dated by its `<time>` elements and the other elements of
    `stated` (a card's microdata date, `<meta itemprop="datePublished" content>`)."""
    return Cards([*_stated_times(tree), *stated])


def _stated_times(tree: html.HtmlElement) -> list[html.HtmlElement]:
    """The page's `<time>` elements that state a `datetime`, in page order."""
    return [t for t in tree.iter("time") if t.get("datetime")]
