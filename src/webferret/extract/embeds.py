"""Posts an article quotes by embedding them: a tweet between its paragraphs.

An article about what people said ("a whole lot of people on Twitter pointed it out") quotes the posts
themselves. The page carries each as the post's own markup, a `<blockquote class="twitter-tweet">`
holding the text, the author and the date, which the network's script then draws as a card.
trafilatura leaves these out, and the article's account of the reaction reads with nothing to react
to. In the article benchmark's ground truths, all 17 embedded tweets are part of the text; 10 of them
were missing here.

A declared article (`trim.article_edit`) keeps such a post, whole, where it stands, when it sits
inside the article: a paragraph that the article keeps comes before it and another after it, and none
of the post's text is kept already. Instagram's and TikTok's embeds carry no more than "View this post
on Instagram" and a caption's link: they are not quoted text, and are not kept.
"""

from __future__ import annotations

from lxml import etree

from webferret.extract import hints
from webferret.extract.blocks import Block
from webferret.extract.classes import has_class

_POSTS = (hints.word("twitter-tweet"), hints.word("bluesky-embed"), hints.word("mastodon-embed"))
"""The class of a `<blockquote>` that is an embedded post with its text."""
_FIND = etree.XPath("//blockquote[" + " or ".join(has_class(name) for name in _POSTS) + "]")


def has_posts(text: str) -> bool:
    """Whether the HTML text `text` may embed a post (a cheap look before `quoted_posts`)."""
    return hints.holds_any(text, _POSTS)


def quoted_posts(blocks: list[Block], kept: list[bool]) -> dict[int, Block]:
    """The embedded posts among `blocks` (`kept[i]`: whether block i is kept) to keep, each as one
    block of the whole post (copied whole: `Block.atomic`), by the index of its first block: posts of
    which no block is kept, with a kept block before them and another after them."""
    kept_at = [i for i, keep in enumerate(kept) if keep]
    posts = _FIND(blocks[0].element.getroottree()) if kept_at else []
    if not posts:
        return {}
    at = {block.element: i for i, block in enumerate(blocks)}
    out = {}
    for post in posts:
        rows = sorted(at[node] for node in post.iter() if node in at)
        if not rows:
            continue
        first, last = rows[0], rows[-1]
        if kept_at[0] < first and kept_at[-1] > last and not any(kept[i] for i in rows):
            out[first] = Block(post, atomic=True, depth=blocks[first].depth, flags=blocks[first].flags)
    return out
