"""Posts a declared article quotes by embedding them (`extract.embeds`)."""

from __future__ import annotations

from webferret.extract.blocks import parse, segment
from webferret.extract.embeds import has_posts, quoted_posts
from webferret.extract.htmlpage import extract_html
from webferret.extract.types import ExtractOptions

STORY = [
    " ".join(
        f"The state launched its campaign on Monday with billboards and spots, part {n}{k}." for k in "abcd"
    )
    for n in range(8)
]


def _tweet(text: str, handle: str) -> str:
    return (
        f'<div class="social-media-embed"><blockquote class="twitter-tweet"><p lang="en" dir="ltr">{text} '
        '<a href="https://t.co/x1">https://t.co/x1</a></p>&#8212; A Reader (@' + handle + ") "
        f'<a href="https://twitter.com/{handle}/status/1?ref_src=twsrc%5Etfw">November 18, 2019</a>'
        "</blockquote></div>"
    )


def _article(*parts: str) -> str:
    return (
        '<html><head><title>A slogan</title><meta property="og:type" content="article"></head><body>'
        '<nav><a href="/">Home</a> <a href="/news">News</a></nav><article class="entry-content">'
        + "".join(parts)
        + "</article><footer>Contact us</footer></body></html>"
    )


def _extract(page: str) -> str:
    return extract_html(page, "https://news.example/slogan", ExtractOptions()).content


def test_a_tweet_between_the_paragraphs_is_quoted_where_it_stands() -> None:
    tweet = _tweet("Yes this is real and the state spent half a million dollars on it", "reader1")
    content = _extract(
        _article(*(f"<p>{p}</p>" for p in STORY[:4]), tweet, *(f"<p>{p}</p>" for p in STORY[4:]))
    )
    quote = "> Yes this is real and the state spent half a million dollars on it"
    assert quote in content
    assert content.index("part 3d") < content.index(quote) < content.index("part 4a")
    assert "> — A Reader (@reader1) [November 18, 2019](https://twitter.com/reader1/status/1)" in content
    assert content.count("half a million") == 1


def test_a_post_after_the_article_or_one_with_no_text_is_not_kept() -> None:
    instagram = (
        '<blockquote class="instagram-media" data-instgrm-permalink="https://instagram.com/p/1">'
        '<div><a href="https://instagram.com/p/1"><div>View this post on Instagram</div></a>'
        '<p><a href="https://instagram.com/p/1">A post shared by A Reader in the city (@reader2)</a></p>'
        "</div></blockquote>"
    )
    after = _tweet("Subscribe to our channel for the latest clips and more news", "site")
    page = _article(
        *(f"<p>{p}</p>" for p in STORY[:4]), instagram, *(f"<p>{p}</p>" for p in STORY[4:]), after
    )
    content = _extract(page)
    assert "part 7d" in content
    assert "View this post" not in content and "Subscribe to our channel" not in content


def test_a_post_is_kept_whole_once_and_only_when_none_of_it_is() -> None:
    tweet = _tweet("The whole point of this ad campaign is to raise awareness", "governor")
    assert has_posts(tweet) and not has_posts('<blockquote class="instagram-media">')
    root = parse(_article(f"<p>{STORY[0]}</p>", tweet, f"<p>{STORY[1]}</p>"))
    assert root is not None
    blocks = segment(root)
    texts = [block.text for block in blocks]
    first = next(i for i, block in enumerate(blocks) if block.element.tag == "blockquote")
    said = next(i for i, text in enumerate(texts) if text.startswith("The whole point"))
    kept = [text.startswith("The state") for text in texts]
    posts = quoted_posts(blocks, kept)
    assert list(posts) == [first] and posts[first].atomic
    assert posts[first].element.get("class") == "twitter-tweet"
    kept[said] = True  # the post's text is kept already: it is not added again
    assert quoted_posts(blocks, kept) == {}
