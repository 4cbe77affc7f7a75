"""Forum threads read from their schema.org microdata, each post under its author and date
(`extract.forum`)."""

from __future__ import annotations

from webferret.extract import forum
from webferret.extract.htmlpage import extract_html, parse_html
from webferret.extract.types import ExtractOptions

OPENER = (
    "My sourdough starter smells of nail varnish after a week in the fridge, and it no longer rises "
    "when I feed it. Is it dead, or can it be brought back before the weekend bake?"
)
REPLY_ONE = "That smell is hunger, not death: pour off the liquid and feed it twice a day at room heat."
REPLY_TWO = "Agreed. Mine came back after three feeds; use a little rye flour for the first one."
SCHEMA = "https://schema.org/"


def _person(name: str) -> str:
    return (
        f'<span itemprop="author" itemscope itemtype="{SCHEMA}Person">'
        f'<a itemprop="url" href="/u/{name}"><span itemprop="name">{name}</span></a>'
        '<span itemprop="jobTitle">New member</span></span>'
    )


def _reply(name: str, shown: str, text: str, stamp: str = "2024-05-03T11:39:57Z") -> str:
    return (
        f'<div itemprop="comment" itemscope itemtype="{SCHEMA}Comment" class="post">'
        f'<div class="meta">{_person(name)}<time itemprop="datePublished" datetime="{stamp}">{shown}</time>'
        f'</div><div itemprop="text"><p>{text}</p></div>'
        '<div class="likes">2 Likes</div></div>'
    )


def _thread(opener: str = "marked", replies: str | None = None, description: str = OPENER) -> str:
    """A thread page; its opening post `marked` as the posting's text, or unmarked in the `same place`
    of the template as the replies' texts (XenForo), or `elsewhere`."""
    shown = '<time datetime="2024-05-03T08:45:44Z">May 3, 2024, 8:45am</time>'
    posts = {
        "marked": f'<div class="post">{_person("ann")}{shown}<div itemprop="text"><p>{OPENER}</p></div>'
        "</div>",
        "same place": f'<div class="post"><b>ann</b>{shown}<div><p>{OPENER}</p></div></div>',
        "elsewhere": f'<section class="lead"><b>ann</b><p>{OPENER}</p></section>',
    }
    replies = (
        replies
        if replies is not None
        else _reply("bob", "May 3, 2024, 11:39am", REPLY_ONE)
        + _reply("cy", "May 4, 2024, 9:02am", REPLY_TWO, "2024-05-04T09:02:00Z")
    )
    ld = (
        '{"@context": "https://schema.org", "@type": "DiscussionForumPosting", "headline": "Starter",'
        ' "author": {"@type": "Person", "name": "ann"}, "datePublished": "2024-05-03T08:45:44+00:00"}'
    )
    return (
        f"<html><head><title>Starter smells of varnish - Baking</title>"
        f'<meta name="description" content="{description[:150]}&hellip;">'
        f'<script type="application/ld+json">{ld}</script></head><body>'
        "<header><a href='/'>Home</a> <a href='/latest'>Latest</a> <a href='/top'>Top</a></header>"
        f'<div itemscope itemtype="{SCHEMA}DiscussionForumPosting">'
        '<meta itemprop="headline" content="Starter smells of varnish">'
        '<meta itemprop="datePublished" content="2024-05-03T08:45:44Z">'
        f"<h1>Starter smells of varnish</h1>{posts[opener]}{replies}</div>"
        "<footer>Powered by forum software. Terms of service. Privacy.</footer></body></html>"
    )


def _read(page: str, fmt: str = "markdown"):  # type: ignore[no-untyped-def]
    return extract_html(page, "https://bakers.example/t/starter-smells/42", ExtractOptions(format=fmt))


def test_each_post_reads_under_its_author_and_date() -> None:
    extracted = _read(_thread())
    paragraphs = extracted.content.strip().split("\n\n")
    assert paragraphs == [
        "**ann** · 2024-05-03",  # the opener's date only in its markup: its day
        OPENER,
        "**bob** · May 3, 2024, 11:39am",  # as the page shows it
        REPLY_ONE,
        "**cy** · May 4, 2024, 9:02am",
        REPLY_TWO,
    ]
    assert extracted.page_type == "forum" and extracted.extra["selector"] == "forum"


def test_plain_text_names_the_author_without_marks() -> None:
    assert _read(_thread(), "text").content.startswith(f"ann · 2024-05-03\n\n{OPENER}")


def test_an_unmarked_opening_post_in_the_replies_place_is_read_first_with_its_json_ld_author() -> None:
    # XenForo marks only the replies; its opening post sits where they sit, its author in JSON-LD
    extracted = _read(_thread(opener="same place"))
    assert extracted.extra["selector"] == "forum"
    assert extracted.content.strip().split("\n\n")[:3] == [
        "**ann** · 2024-05-03",
        OPENER,
        "**bob** · May 3, 2024, 11:39am",
    ]


def test_a_thread_whose_opening_post_cannot_be_found_is_read_as_any_page() -> None:
    # read from the microdata, the thread would lose its question
    extracted = _read(_thread(opener="elsewhere"))
    assert extracted.extra["selector"] != "forum"
    assert OPENER in extracted.content and REPLY_ONE in extracted.content


def test_a_reply_quoting_the_opening_post_is_not_taken_for_it() -> None:
    quoting = (
        f'<div itemprop="comment" itemscope itemtype="{SCHEMA}Comment">{_person("bob")}'
        f'<div itemprop="text"><blockquote><p>ann said:</p><p>{OPENER}</p></blockquote>'
        f"<p>{REPLY_ONE}</p></div></div>"
    )
    assert _read(_thread(opener="elsewhere", replies=quoting)).extra["selector"] != "forum"
    assert _read(_thread(opener="marked", replies=quoting)).extra["selector"] == "forum"


def test_an_opening_post_declared_in_a_meta_must_be_the_first_post_read() -> None:
    # Nairaland gives the opener's text as the posting's `meta` and marks only the replies
    page = _thread(opener="elsewhere", description="").replace(
        '<meta itemprop="headline"', f'<meta itemprop="text" content="{OPENER}"><meta itemprop="headline"'
    )
    assert forum.thread(parse_html(page, None)) is None
    marked = _thread(description="").replace(
        '<meta itemprop="headline"', f'<meta itemprop="text" content="{OPENER}"><meta itemprop="headline"'
    )
    assert forum.thread(parse_html(marked, None)) is not None


def test_a_declared_text_too_short_to_be_a_post_is_not_the_opening_post() -> None:
    # NodeBB gives the thread's title as the posting's `text` and marks the opener as a comment
    replies = _reply("ann", "May 3, 2024", OPENER) + _reply("bob", "May 3, 2024", REPLY_ONE)
    page = _thread(opener="elsewhere", replies=replies, description="").replace(
        '<meta itemprop="headline"',
        '<meta itemprop="text" content="Help wanted please"><meta itemprop="headline"',
    )
    assert _read(page).content.startswith(f"**ann** · May 3, 2024\n\n{OPENER}")


def test_a_page_that_declares_no_opening_words_is_taken_at_its_word() -> None:
    assert forum.thread(parse_html(_thread(opener="elsewhere", description=""), None)) is not None


def test_a_quoted_post_marked_as_an_item_stays_inside_the_post_quoting_it() -> None:
    nested = (
        f'<div itemprop="comment" itemscope itemtype="{SCHEMA}Comment">{_person("bob")}'
        f'<div itemprop="text"><blockquote itemscope itemtype="{SCHEMA}Comment">{_person("ann")}'
        f'<div itemprop="text"><p>Is it dead?</p></div></blockquote><p>{REPLY_ONE}</p></div></div>'
    )
    content = _read(_thread(replies=nested)).content
    assert content.count("Is it dead?") == 1 and "**ann**" in content
    assert content.count("**") == 4  # two attribution lines: ann's opener and bob's reply


def test_an_author_given_as_text_and_a_post_without_author_or_date() -> None:
    replies = (
        f'<div itemscope itemtype="{SCHEMA}Comment"><span itemprop="author">dee</span>'
        f'<div itemprop="text"><p>{REPLY_ONE}</p></div></div>'
        f'<div itemscope itemtype="{SCHEMA}Comment"><div itemprop="text"><p>{REPLY_TWO}</p></div></div>'
        f'<div itemscope itemtype="{SCHEMA}Comment"><meta itemprop="text" content="only a meta">'
        '<span itemprop="author">eve</span></div>'  # no text of its own on the page: not a post
        f'<div itemscope itemtype="{SCHEMA}Comment"><div itemprop="author">fay <ul><li>Joined 2013</li>'
        f"<li>Messages 2,418</li><li>Location: a small village by the sea</li></ul></div>"
        f'<div itemprop="text"><p>{REPLY_ONE[:40]}</p></div></div>'  # a user card is not a name
    )
    paragraphs = _read(_thread(replies=replies)).content.strip().split("\n\n")
    assert paragraphs[2:] == ["**dee**", REPLY_ONE, REPLY_TWO, REPLY_ONE[:40]]


def test_a_page_without_a_marked_post_text_is_no_thread() -> None:
    page = _thread().replace('itemprop="text"', 'class="text"')
    assert forum.thread(parse_html(page, None)) is None
    assert _read(page).extra["selector"] != "forum"


def test_a_quote_of_a_post_already_read_is_left_out_and_a_quote_of_an_older_one_kept() -> None:
    quoting = (
        f'<div itemscope itemtype="{SCHEMA}Comment">{_person("bob")}<div itemprop="text">'
        f"<blockquote><div>ann said:</div><div><p>{OPENER}</p></div></blockquote>"
        f"<p>{REPLY_ONE}</p></div></div>"
        f'<div itemscope itemtype="{SCHEMA}Comment">{_person("cy")}<div itemprop="text">'
        "<blockquote><div>dan said:</div><div><p>Rye wakes a starter faster than any white flour.</p></div>"
        f'<div class="expandLink">Click to expand...</div></blockquote><p>{REPLY_TWO}</p></div></div>'
    )
    content = _read(_thread(replies=quoting)).content
    assert content.count("nail varnish") == 1 and "ann said:" not in content  # said once, in the opener
    assert "> dan said:" in content and "> Rye wakes a starter" in content  # not read in this thread
    assert "Click to expand" not in content  # the quote's fold, not its words


def test_a_quote_left_out_takes_its_attribution_line_with_it() -> None:
    """Discourse puts a quotation's "ann:" line and avatar beside the quote in one `<aside>`: the quote
    of a post already read went, its attribution stayed over the reply ("![](avatar) ann:"). A short
    reply after a quote, in the same container, is the reply's and stays."""
    quoting = (
        f'<div itemscope itemtype="{SCHEMA}Comment">{_person("bob")}<div itemprop="text">'
        '<aside class="quote"><div class="title"><img class="avatar" src="/a/ann.png" alt=""> ann:</div>'
        f"<blockquote><p>{OPENER}</p></blockquote></aside><p>{REPLY_ONE}</p></div></div>"
        f'<div itemscope itemtype="{SCHEMA}Comment">{_person("cy")}<div itemprop="text"><div>'
        f"<blockquote><p>{REPLY_ONE}</p></blockquote>Agreed, thanks!</div></div></div>"
    )
    content = _read(_thread(replies=quoting)).content
    assert "ann:" not in content and "ann.png" not in content
    assert content.count("pour off the liquid") == 1 and "Agreed, thanks!" in content


def test_a_thread_says_a_long_block_once_even_when_it_declares_itself_an_article() -> None:
    # XenForo declares `og:type` article; a writer's repeats are kept in an article, not in a thread
    notice = "Posted from the Bakers app: download it for free and never miss a reply to your threads again."
    replies = _reply("bob", "May 3", f"{REPLY_ONE}</p><p>{notice}") + _reply(
        "cy", "May 4", f"{REPLY_TWO}</p><p>{notice}"
    )
    page = _thread(replies=replies).replace("<head>", '<head><meta property="og:type" content="article">')
    for fmt in ("markdown", "text"):
        assert _read(page, fmt).content.count(notice) == 1


def test_the_opening_post_found_on_the_page_is_never_a_box_holding_the_replies() -> None:
    # classless boxes: the thread's own box begins with the opener's words too, but it holds the replies
    reply = (
        f'<div itemscope itemtype="{SCHEMA}Comment">{_person("bob")}'
        f'<div><div itemprop="text"><p>{REPLY_ONE}</p></div></div></div>'
    )
    page = _thread(replies="").replace(
        "<h1>Starter smells of varnish</h1>",
        f"<h1>Starter smells of varnish</h1><div><div><div><p>{OPENER}</p></div>{reply}</div></div>",
    )
    page = page.replace(f'<div class="post">{_person("ann")}', '<div class="post">').replace(
        f'<div itemprop="text"><p>{OPENER}</p></div>', ""
    )
    assert _read(page).content.strip().split("\n\n") == ["**ann** · 2024-05-03", OPENER, "**bob**", REPLY_ONE]
