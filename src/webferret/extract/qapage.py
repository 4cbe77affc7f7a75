"""Question-and-answer threads read from their schema.org microdata.

A QAPage (Stack Overflow and every Stack Exchange site, and other Q&A software) marks its question
and each answer as items, with each post's text, its votes, its author and its date as their
properties. Read as any other page, such a thread loses its shape: answers run into one another with
their vote counts as bare numbers between them ("7", "-1"), and a short answer can be dropped with
the page's chrome. So a page whose microdata holds a QAPage with a question that has its own text is
read from that microdata: the question, then each answer that has a text, the accepted one first and
then by votes (the page's order between equals), each under a heading that gives its votes and
whether it was accepted, so a reader short of room reads the best answers first:

    ## Question · 674 votes
    ## Answer 1 · 364 votes · accepted

A post's own headings go two levels down, under its heading. Authors, dates and comments are left
out (the page's byline and date are the question's). A page of frequently asked questions
(`FAQPage`) is not a thread: it is read as any page.
"""

from __future__ import annotations

from copy import deepcopy
from dataclasses import dataclass

from lxml import html

from webferret.extract import hints
from webferret.extract.microdata import Props, item_kind, item_props, value

HINT = hints.word("QAPage")
"""In a page's HTML when it may be a thread (`thread` is not run otherwise)."""


@dataclass
class _Post:
    text: html.HtmlElement
    votes: str | None
    accepted: bool


def thread(tree: html.HtmlElement) -> html.HtmlElement | None:
    """The thread as one element (the question's text, then each answer under its heading), or None
    when the page is not a QAPage whose question has a text of its own."""
    items = tree.xpath("//*[@itemscope][@itemtype]")
    if not any(item_kind(item) == "QAPage" for item in items):
        return None
    props = item_props(tree)
    question = next((_post(item, props) for item in items if item_kind(item) == "Question"), None)
    if question is None:
        return None
    answers = [post for item in items if item_kind(item) == "Answer" and (post := _post(item, props))]
    answers.sort(key=lambda post: (not post.accepted, -_number(post.votes)))  # stable: page order kept
    root = html.Element("div")
    for name, post in [("Question", question), *((f"Answer {n}", a) for n, a in enumerate(answers, 1))]:
        heading = html.Element("h2")
        heading.text = _heading(name, post)
        root.append(heading)
        root.append(_demoted(deepcopy(post.text)))
    return root


def _number(votes: str | None) -> float:
    try:
        return float(votes or "")
    except ValueError:
        return float("-inf")


def _demoted(text: html.HtmlElement) -> html.HtmlElement:
    """A post's headings two levels down (at most `h6`), under the post's own `h2`."""
    for heading in text.iter("h1", "h2", "h3", "h4", "h5"):
        heading.tag = f"h{min(int(heading.tag[1]) + 2, 6)}"
    return text


def _post(item: html.HtmlElement, props: Props) -> _Post | None:
    """A question's or answer's text, votes and whether it was accepted; None when it has no text."""
    own = props.get(item, {})
    text = next((t for t in own.get("text", []) if "".join(t.itertext()).strip()), None)
    if text is None:
        return None
    return _Post(
        text, value(own.get("upvoteCount")), "acceptedAnswer" in (item.get("itemprop") or "").split()
    )


def _heading(name: str, post: _Post) -> str:
    parts = [name]
    if post.votes is not None:
        parts.append(f"{post.votes} vote" if post.votes in ("1", "-1") else f"{post.votes} votes")
    if post.accepted:
        parts.append("accepted")
    return " · ".join(parts)
