"""A page's dates and author are its own: never a comment's, a reply's or a review's."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from webferret.extract.dates import latest_date
from webferret.extract.htmlpage import parse_html
from webferret.extract.metadata import extract_metadata

URL = "https://example.com/blog/a-post"


def _published(body: str) -> str | None:
    return extract_metadata(parse_html(f"<html><head></head><body>{body}</body></html>", URL), URL).published


def test_a_comment_s_time_is_not_the_page_s_date() -> None:
    comment = '<div class="comment"><time datetime="2021-03-04T10:00">March 4</time><p>Nice post!</p></div>'
    assert _published(f"<article><h1>A post</h1><p>Text.</p></article>{comment}") is None
    reply = (
        '<article itemscope itemtype="https://schema.org/Article"><p>Text.</p>'
        '<div itemprop="comment" itemscope itemtype="https://schema.org/Comment">'
        '<time datetime="2021-03-04">March 4</time></div></article>'
    )
    assert _published(reply) is None


def test_a_comment_section_s_time_is_passed_over_for_the_article_s() -> None:
    """And an article's own date in an `<aside>` of its meta (as many blogs have it) is its date."""
    meta = '<aside class="post-meta"><time datetime="2024-05-06">May 6</time></aside>'
    article = f"<article>{meta}<p>Text.</p></article>"
    comments = '<section id="comments"><time datetime="2024-06-01">x</time></section>'
    assert _published(comments + article) == "2024-05-06"
    assert _published(article + comments) == "2024-05-06"


def test_a_comment_s_microdata_date_is_not_the_page_s() -> None:
    for date in (
        '<meta itemprop="datePublished" content="2022-09-09">',
        '<time itemprop="dateCreated" datetime="2022-09-09">x</time>',
    ):
        page = (
            '<article itemscope itemtype="https://schema.org/BlogPosting"><h1 itemprop="headline">A post</h1>'
            '<div itemprop="comment" itemscope itemtype="https://schema.org/Comment">'
            f'<span itemprop="author">Zed</span>{date}<p itemprop="text">Great</p></div></article>'
        )
        assert _published(page) is None
    dated = '<meta itemprop="datePublished" content="2020-01-02">'
    page = page.replace('<h1 itemprop="headline">', f'{dated}<h1 itemprop="headline">')
    assert _published(page) == "2020-01-02"


def test_a_product_s_review_is_not_the_page_s_author_nor_date() -> None:
    review = {
        "@type": "Review",
        "datePublished": "2023-02-02",
        "author": {"@type": "Person", "name": "Grumpy"},
    }
    graph = {"@context": "https://schema.org", "@graph": [{"@type": "Product", "name": "Widget"}, review]}
    head = f'<script type="application/ld+json">{json.dumps(graph)}</script>'
    url = "https://shop.example.com/products/widget"
    meta = extract_metadata(parse_html(f"<html><head>{head}</head><body><p>x</p></body></html>", url), url)
    assert (meta.byline, meta.published) == (None, None)
    alone = f'<script type="application/ld+json">{json.dumps(review)}</script>'  # a critic's review page
    meta = extract_metadata(parse_html(f"<html><head>{alone}</head><body><p>x</p></body></html>", URL), URL)
    assert (meta.byline, meta.published) == ("Grumpy", "2023-02-02")


def test_a_q_and_a_page_s_date_and_author_are_its_question_s() -> None:
    answer = {"@type": "Answer", "dateCreated": "2021-02-02", "author": {"name": "Answerer"}}
    question = {"@type": "Question", "name": "Why?", "dateCreated": "2021-01-01", "author": {"name": "Asker"}}
    page = {
        "@context": "https://schema.org",
        "@type": "QAPage",
        "mainEntity": question | {"acceptedAnswer": answer},
    }
    head = f'<script type="application/ld+json">{json.dumps(page)}</script>'
    meta = extract_metadata(parse_html(f"<html><head>{head}</head><body><p>x</p></body></html>", URL), URL)
    assert (meta.byline, meta.published) == ("Asker", "2021-01-01")


def test_a_date_ahead_of_today_is_no_page_s_but_tomorrow_in_another_time_zone_is() -> None:
    """A page is not published later than it is read: a date months ahead (a scheduled post's, a
    course's registration deadline, a template's) was taken as the publication's, as any date up to
    a year ahead was. The site's day may be a day ahead of UTC."""
    assert latest_date(datetime(2028, 2, 29, 12, tzinfo=UTC)) == datetime(2028, 3, 2, 12, tzinfo=UTC)
    now = datetime.now(UTC)
    ahead, tomorrow = (f"{(now + timedelta(days=n)):%Y-%m-%d}" for n in (90, 1))
    meta = f'<meta property="article:published_time" content="{ahead}">'
    assert _published(f"{meta}<article><p>Text.</p></article>") is None
    deadline = f'<p>Register by <time datetime="{ahead}T12:00:00+00:00">then</time></p>'
    assert _published(f"<article>{deadline}<p>Text.</p></article>") is None
    meta = f'<meta property="article:published_time" content="{tomorrow}T01:00:00+14:00">'
    assert _published(f"{meta}<article><p>Text.</p></article>") == tomorrow


def test_a_reading_time_or_an_hour_before_the_date_is_passed_over() -> None:
    byline = '<p><time datetime="PT5M">5 min read</time> · <time datetime="10:30">10:30</time></p>'
    assert _published(f'<article>{byline}<time datetime="2024-05-03">May 3</time><p>Text.</p></article>') == (
        "2024-05-03"
    )


def _dates(head: str) -> tuple[str | None, str | None]:
    meta = extract_metadata(parse_html(f"<html><head>{head}</head><body><p>x</p></body></html>", URL), URL)
    return meta.published, meta.modified


def test_a_modified_date_earlier_than_the_publication_is_not_answered() -> None:
    """A page is not changed before it is out: a stated change before the publication is no change."""
    ld = {"@type": "Article", "datePublished": "Aug 21, 2025", "dateModified": "Aug 20, 2025"}
    assert _dates(f'<script type="application/ld+json">{json.dumps(ld)}</script>') == ("2025-08-21", None)
    later = '<meta property="article:modified_time" content="2025-09-02T10:00:00+00:00">'
    assert _dates(f'<meta property="article:published_time" content="2025-08-21">{later}') == (
        "2025-08-21",
        "2025-09-02",
    )
    same = '<meta property="article:modified_time" content="2025-08-21T18:00:00+00:00">'
    assert _dates(f'<meta property="article:published_time" content="2025-08-21T09:00:00+00:00">{same}') == (
        "2025-08-21",
        "2025-08-21",
    )


def test_a_change_the_day_before_a_publication_moved_to_its_address_s_day_is_that_day() -> None:
    """WordPress states both times in UTC: published 23:30 and changed 23:45 on the 17th are the 18th
    on the site's own clock, the day its address states; the change was dropped as before the
    publication once the publication alone had moved."""
    url = "https://blog.example/2025/12/18/ferrets/"
    head = (
        '<meta property="article:published_time" content="2025-12-17T23:30:00+00:00">'
        '<meta property="article:modified_time" content="2025-12-17T23:45:00+00:00">'
    )
    meta = extract_metadata(parse_html(f"<html><head>{head}</head><body><p>x</p></body></html>", url), url)
    assert (meta.published, meta.modified) == ("2025-12-18", "2025-12-18")
    earlier = head.replace("2025-12-17T23:45", "2025-12-16T23:45")  # two days before: still wrong markup
    meta = extract_metadata(parse_html(f"<html><head>{earlier}</head><body><p>x</p></body></html>", url), url)
    assert (meta.published, meta.modified) == ("2025-12-18", None)


def _body_dates(body: str) -> tuple[str | None, str | None]:
    meta = extract_metadata(parse_html(f"<html><head></head><body>{body}</body></html>", URL), URL)
    return meta.published, meta.modified


def test_a_time_that_says_when_the_page_was_last_changed_is_its_modified_date_not_its_publication() -> None:
    """A docs page's "Last updated: <time>" footer, MDN's "This page was last modified on <time>" and a
    `<time>` in an element named for a change (`field--name-changed`, `theme-last-updated`) date the
    page's last change; a `<time>` named for the publication beside it is still its date."""
    text = "<article><h1>Fetch API</h1><p>Text.</p></article>"
    assert _body_dates(f'{text}<p>Last updated: <time datetime="2025-08-01T12:36:17Z">Aug 1</time></p>') == (
        None,
        "2025-08-01",
    )
    mdn = '<p>This page was last modified on <time datetime="2025-12-19T19:59:21Z">Dec 19, 2025</time></p>'
    assert _body_dates(text + mdn) == (None, "2025-12-19")
    drupal = '<div class="field--name-changed"><time datetime="2026-02-12T14:36:23">Feb 12</time></div>'
    assert _body_dates(drupal + text) == (None, "2026-02-12")
    both = (
        '<span class="posted-on">Posted on <time class="entry-date published" datetime="2020-06-29">June 29'
        '</time><time class="updated" datetime="2021-11-12">November 12, 2021</time></span>'
    )
    assert _body_dates(both + text) == ("2020-06-29", "2021-11-12")
    assert _body_dates(f'<p>Published <time datetime="2024-05-03">May 3</time></p>{text}') == (
        "2024-05-03",
        None,
    )


def test_a_utc_time_a_day_off_the_day_the_post_s_address_states_is_that_day() -> None:
    """WordPress dates a post's address by the site's own day (`/2025/12/18/`) and its meta tag by UTC
    (`2025-12-19T02:41:41+00:00`, 21:41 on the 18th in New York): the post came out on the 18th."""
    head = '<meta property="article:published_time" content="2025-12-19T02:41:41+00:00">'
    page = f"<html><head>{head}</head><body><p>x</p></body></html>"
    post = "https://whatever.example.com/2025/12/18/comfort-watches/"
    assert extract_metadata(parse_html(page, post), post).published == "2025-12-18"
    later = "https://whatever.example.com/2025/12/10/comfort-watches/"  # written then, out later: its date
    assert extract_metadata(parse_html(page, later), later).published == "2025-12-19"
    assert extract_metadata(parse_html(page, URL), URL).published == "2025-12-19"


def test_a_date_stated_in_the_site_s_own_time_is_kept_when_the_address_states_the_day_before() -> None:
    """A date alone, or a time with the site's own offset, is the site's day already: an address dated a
    day apart names another day (a roundup of the day before posted the next morning), in a meta tag,
    JSON-LD or a `<time>`. A UTC time however written ("GMT+0000", a script's) is still moved."""
    roundup = "https://news.example.com/2025/12/18/daily-roundup/"

    def published(head: str, body: str = "<p>x</p>") -> str | None:
        page = f"<html><head>{head}</head><body>{body}</body></html>"
        return extract_metadata(parse_html(page, roundup), roundup).published

    def tag(value: str) -> str:
        return f'<meta property="article:published_time" content="{value}">'

    assert published(tag("2025-12-19T07:00:00-05:00")) == "2025-12-19"
    assert published(tag("2025-12-19")) == "2025-12-19"
    ld = '<script type="application/ld+json">{"@type": "NewsArticle", "datePublished": "%s"}</script>'
    assert published(ld % "2025-12-19T08:00:00+09:00") == "2025-12-19"
    assert published("", '<p>Posted <time datetime="2025-12-19">Dec 19</time></p>') == "2025-12-19"
    assert published(ld % "Fri Dec 19 2025 03:05:46 GMT+0000") == "2025-12-18"
    assert published("", '<p>Posted <time datetime="2025-12-19T03:05Z">Dec 18</time></p>') == "2025-12-18"


def test_a_list_of_thousands_of_times_is_read_once() -> None:
    """A `<time>`'s label is read from the few elements just before it: a list of two thousand dated
    events in one element (took 4 s) gives its first date, and a label split over elements still
    names a change."""
    events = "".join(
        f'<span>Event {n} on</span> <time datetime="2024-01-{n % 28 + 1:02d}">Jan</time> '
        for n in range(2000)
    )
    changed = '<p>Last <b>updated</b>: <time datetime="2024-03-05">Mar 5</time></p>'
    assert _body_dates(f"<div>{events}</div>{changed}") == ("2024-01-01", "2024-03-05")


def _cards(dates: list[str], words: int = 12) -> str:
    teaser = " ".join(["word"] * words)
    return "".join(
        f'<div class="card"><h2><a href="/news/{n}">Story {n}</a></h2>'
        f'<time datetime="{date}">{date}</time><p>{teaser}</p></div>'
        for n, date in enumerate(dates)
    )


def test_a_listing_s_first_card_date_is_not_the_page_s() -> None:
    """A news index or a blog's latest posts: each card's `<time>` dates its story, none the page."""
    dates = ["2024-03-02", "2024-02-20", "2024-02-11", "2024-01-30"]
    assert _published(f"<main><h1>Latest news</h1>{_cards(dates)}</main>") is None
    marked = _cards(dates).replace("<time ", '<time itemprop="datePublished" ')
    assert _published(f"<main><h1>Latest news</h1>{marked}</main>") is None


@pytest.mark.parametrize(
    "stated",
    [
        '<meta itemprop="datePublished" content="{date}"><time datetime="{date}">{date}</time>',
        '<meta itemprop="datePublished" content="{date}">',
        '<span itemprop="datePublished" content="{date}">{date}</span>',
    ],
)
def test_a_listing_s_first_card_microdata_date_is_not_the_page_s(stated: str) -> None:
    """Cards marked as schema.org items state their dates in microdata, most often in a `<meta
    itemprop>` beside the `<time>` a reader sees: the first card's date was the page's all the same
    (only a `<time>` counted as a card's date)."""
    cards = "".join(
        f'<article class="card" itemscope itemtype="https://schema.org/BlogPosting">'
        f'<h2><a href="/news/{n}">Story {n}</a></h2>{stated.format(date=date)}<p>A teaser.</p></article>'
        for n, date in enumerate(["2024-03-02", "2024-02-20", "2024-02-11"])
    )
    assert _published(f"<main><h1>Latest news</h1>{cards}</main>") is None
    article = (
        '<article><h1>A post</h1><meta itemprop="datePublished" content="2024-05-06"><p>Text.</p></article>'
    )
    assert _published(f'{article}<aside class="more">{cards}</aside>') == "2024-05-06"


def test_an_article_s_date_is_its_own_beside_a_strip_of_other_stories() -> None:
    strip = f'<aside class="trending">{_cards(["2024-06-01", "2024-06-02", "2024-06-03"])}</aside>'
    article = '<article><h1>A post</h1><time datetime="2024-05-06">May 6</time><p>Text.</p></article>'
    assert _published(strip + article) == "2024-05-06"
    assert _published(article + strip) == "2024-05-06"


def test_long_stories_one_after_another_are_no_cards() -> None:
    """A news site loads its next stories below the first: the first is the page's."""
    stories = _cards(["2024-05-06", "2024-05-05", "2024-05-04"], words=300)
    assert _published(stories) == "2024-05-06"


def test_a_forum_thread_s_posts_are_no_cards_and_its_first_post_dates_it() -> None:
    """Short posts dated alike one after another, each naming its author and a "Reply": no titles."""
    posts = "".join(
        f'<div class="post"><a href="/u/{who}">{who}</a> <time datetime="2024-04-0{n + 1}">April</time>'
        f'<p>I think ferrets like {who}.</p><a href="/reply/{n}">Reply</a></div>'
        for n, who in enumerate(["ann", "bob", "cy", "dee"])
    )
    assert _published(f"<main><h1>Do ferrets swim?</h1>{posts}</main>") == "2024-04-01"


def test_a_forum_thread_whose_first_post_holds_a_link_is_dated_by_that_post() -> None:
    """An opening post that links to a page with a few words ("the ferret care guide") was taken
    for a titled card among the replies, and the thread was dated by its first reply."""
    posts = "".join(
        f'<div class="post"><a href="/u/{who}">{who}</a> <time datetime="2024-04-0{n + 1}">April</time>'
        f"<p>I think ferrets like {who}.{link if n == 0 else ''}</p><a href='/reply/{n}'>Reply</a></div>"
        for n, who in enumerate(["ann", "bob", "cy", "dee"])
        for link in [' See <a href="/wiki/care">the ferret care guide</a> first.']
    )
    assert _published(f"<main><h1>Do ferrets swim?</h1>{posts}</main>") == "2024-04-01"


def test_cards_titled_by_their_links_alone_are_cards() -> None:
    items = "".join(
        f'<li class="item"><a href="/news/{n}">Ferrets win the cup again</a> '
        f'<time datetime="2024-03-0{n + 1}">March</time></li>'
        for n in range(4)
    )
    assert _published(f"<main><h1>News</h1><ul>{items}</ul></main>") is None
