"""Metadata text as a reader wants it: no site name after the title, no "By", no HTML entities."""

from __future__ import annotations

import json

from webferret.extract.htmlpage import parse_html
from webferret.extract.metadata import extract_metadata


def _meta(head: str, url: str = "https://www.accruent.com/resources/plan", ld: object = None):
    script = f'<script type="application/ld+json">{json.dumps(ld)}</script>' if ld else ""
    return extract_metadata(
        parse_html(f"<html><head>{head}{script}</head><body><p>x</p></body></html>", url), url
    )


def test_the_site_s_name_leaves_the_title_by_name_or_by_host() -> None:
    site = '<meta property="og:site_name" content="Al-Bawaba">'
    assert _meta(f"<title>Sweden Drops Case | Al Bawaba</title>{site}").title == "Sweden Drops Case"
    site = '<meta property="og:site_name" content="Inexhibit magazine">'
    assert _meta(f"<title>Light Festival | Inexhibit</title>{site}").title == "Light Festival"
    assert (
        _meta("<title>7 Steps To Planning An Event | Accruent</title>").title
        == "7 Steps To Planning An Event"
    )


def test_a_site_s_name_written_twice_leaves_the_title_twice() -> None:
    """Artlyst's template adds the name to a title that has it already: `... – Artlyst - Artlyst`."""
    site = '<meta property="og:site_name" content="Artlyst">'
    title = "<title>Critics’ Choice: Best UK Art Exhibitions 2025 – Artlyst - Artlyst</title>"
    assert _meta(title + site).title == "Critics’ Choice: Best UK Art Exhibitions 2025"
    assert _meta(f"<title>Artlyst | Artlyst</title>{site}").title == "Artlyst"


def test_a_site_on_a_shared_host_is_named_by_its_own_label() -> None:
    """A Read the Docs project's Sphinx titles end in its name ("— MyLib 2.1 documentation") and a
    GitHub Pages or Blogspot site's in its own; the host's main label was the shared host's."""
    title = "<title>Configuration — MyLib 2.1 documentation</title>"
    assert _meta(title, url="https://mylib.readthedocs.io/en/latest/config.html").title == "Configuration"
    blog = "<title>Why I switched to Helix | Jane Doe's Notes</title>"
    assert _meta(blog, url="https://janedoe.github.io/2023/helix/").title == "Why I switched to Helix"
    assert _meta(title, url="https://docs.example.org/config.html").title == title[7:-8]


def test_a_leading_brand_stays_unless_it_is_the_site_s_own_name() -> None:
    """A home page's `Brand - tagline` keeps its brand; `Site | Headline` loses the exact site name."""
    assert (
        _meta("<title>Accruent - Software for Facilities</title>").title
        == "Accruent - Software for Facilities"
    )
    site = '<meta property="og:site_name" content="Docs Hub">'
    assert _meta(f"<title>Docs Hub | Installing</title>{site}").title == "Installing"
    assert _meta("<title>Opinion | Is Football Violence a Crime?</title>").title == (
        "Opinion | Is Football Violence a Crime?"
    )


def test_by_and_entities_are_taken_out() -> None:
    ld = {
        "@type": "NewsArticle",
        "headline": "&#8216;The Medium&#8217; &amp; More",
        "author": {"name": "By TOM KRISHER, AP Auto Writer"},
        "publisher": {"name": "Camels &amp; Chocolate"},
    }
    meta = _meta("", ld=ld)
    assert meta.title == "‘The Medium’ & More"
    assert meta.byline == "TOM KRISHER, AP Auto Writer"
    assert meta.site_name == "Camels & Chocolate"
    assert _meta('<meta name="author" content="by: Jane Roe">').byline == "Jane Roe"
    analysis = {"@type": "NewsArticle", "author": {"name": "Analysis by Chris Cillizza, CNN Editor-at-large"}}
    assert _meta("", ld=analysis).byline == "Chris Cillizza, CNN Editor-at-large"
    assert _meta('<meta name="author" content="Opinion by Jane Roe">').byline == "Jane Roe"
    assert _meta('<meta name="author" content="Abby Roe">').byline == "Abby Roe"


def test_an_author_that_is_a_number_or_a_url_is_no_byline() -> None:
    assert _meta('<meta property="article:author" content="262588213843476">').byline is None
    page = '<meta property="article:author" content="2625882"><meta name="dc.creator" content="Jane Roe">'
    assert _meta(page).byline == "Jane Roe"
    assert _meta('<meta property="article:author" content="https://facebook.com/x">').byline is None
    ld = {"@type": "NewsArticle", "author": [{"name": "12345"}, {"name": "Ann Lee"}]}
    assert _meta("", ld=ld).byline == "Ann Lee"


def test_an_author_label_a_link_label_or_a_placeholder_is_no_name() -> None:
    assert _meta('<meta name="author" content="Author: Ashley Roe">').byline == "Ashley Roe"
    assert _meta('<meta name="author" content="Written by Ann Lee">').byline == "Ann Lee"
    assert _meta('<meta name="author" content="page.head.extra.author">').byline is None
    assert _meta('<meta name="author" content="{{ post.author }}">').byline is None
    assert _meta('<meta name="author" content="sara.r.peter">').byline == "sara.r.peter"  # a user name
    ld = {
        "@type": "BlogPosting",
        "author": {"name": "undefined", "url": "https://binariks.com/authors/undefined/"},
    }
    assert _meta("", ld=ld).byline is None  # a script's empty value
    ld = {"@type": "NewsArticle", "author": {"@type": "Person", "name": ", USA TODAY"}}
    assert _meta('<meta name="author" content="Brian Truitt">', ld=ld).byline == "Brian Truitt"
    bio = '<div class="author-bio"><a rel="author" href="/author/d">View more posts</a></div>'
    page = f"<html><body><p>x</p>{bio}<span itemprop='author'>Dee Walter</span></body></html>"
    assert extract_metadata(parse_html(page, None), None).byline == "Dee Walter"


def test_a_cms_default_account_is_no_byline() -> None:
    """WordPress's first user "admin" (or "Administrator", "Unknown") names no writer: no byline, or
    the person another source names."""
    for account in ("admin", "Administrator", "By admin", "Site Admin", "webmaster", "Unknown"):
        assert _meta(f'<meta name="author" content="{account}">').byline is None, account
    ld = {"@type": "BlogPosting", "author": {"@type": "Person", "name": "admin"}}
    assert _meta("", ld=ld).byline is None
    assert _meta('<meta name="author" content="admin">', ld={**ld, "author": "Ann Lee"}).byline == "Ann Lee"
    page = "<html><head><meta name='author' content='admin'></head><body><p>x</p>"
    page += "<span itemprop='author'>Dee Walter</span></body></html>"
    assert extract_metadata(parse_html(page, None), None).byline == "Dee Walter"
    assert _meta('<meta name="author" content="Adminah Rootes">').byline == "Adminah Rootes"


def test_a_shop_customer_s_review_gives_the_product_page_no_byline() -> None:
    """A product's microdata reviews (Thomann's `<meta itemprop="author" content="guitar_00">` in an
    `itemprop="review"` item) are its customers': no author of the page, nor their dates its date. A
    critic's review of a film is the page's own."""
    review = (
        '<div itemprop="review" itemscope itemtype="https://schema.org/Review">'
        '<meta itemprop="author" content="guitar_00"><meta itemprop="datePublished" content="2024-08-09">'
        "<p>Great guitar.</p></div>"
    )
    shop = f'<div itemscope itemtype="https://schema.org/Product"><h1>Strat</h1>{review}</div>'
    page = f"<html><body itemscope itemtype='https://schema.org/WebPage'>{shop}</body></html>"
    meta = extract_metadata(parse_html(page, None), None)
    assert (meta.byline, meta.published) == (None, None)
    film = f'<div itemscope itemtype="https://schema.org/Movie"><h1>Heat</h1>{review}</div>'
    meta = extract_metadata(parse_html(f"<html><body>{film}</body></html>", None), None)
    assert (meta.byline, meta.published) == ("guitar_00", "2024-08-09")


def test_the_writer_of_one_card_of_a_list_is_not_the_page_s_byline() -> None:
    """A blog's index marks each post's writer (`rel="author"`): the first card's writer wrote that
    post, not the index; an article's own writer above a strip of other stories stays its byline."""
    cards = "".join(
        f'<div class="post-block"><h2><a href="/blog/{n}">Post number {n} of the blog</a></h2>'
        f'<div class="author">By <a rel="author" href="/author/{n}">Writer {n}</a></div>'
        f"<p>A teaser of post {n}.</p></div>"
        for n in range(6)
    )
    index = f"<html><body><main><h1>Blog</h1><div class='posts'>{cards}</div></main></body></html>"
    assert extract_metadata(parse_html(index, None), None).byline is None
    own = "<article><h1>Bridges</h1><p>By <a rel='author' href='/author/ann'>Ann Lee</a></p><p>Text.</p>"
    page = f"<html><body>{own}</article><aside><div class='posts'>{cards}</div></aside></body></html>"
    assert extract_metadata(parse_html(page, None), None).byline == "Ann Lee"


def test_the_publisher_among_an_article_s_authors_is_left_out_of_its_byline() -> None:
    """JSON-LD that lists the publisher beside the writer names the site, not a second writer; a
    publisher that is the only author stays the byline."""
    ledger = {"@type": "Organization", "name": "The Daily Ledger"}
    ld = {"@type": "NewsArticle", "author": [{"@type": "Person", "name": "Jane Porter"}, ledger]}
    assert _meta("", ld={**ld, "publisher": ledger}).byline == "Jane Porter"
    assert _meta("", ld={**ld, "author": ledger, "publisher": ledger}).byline == "The Daily Ledger"
    graph = {
        "@graph": [
            {"@type": "Organization", "@id": "#org", "name": "Ledger Media"},
            {"@type": "Article", "publisher": {"@id": "#org"}, "author": [{"@id": "#p"}, {"@id": "#org"}]},
            {"@type": "Person", "@id": "#p", "name": "Jane Porter"},
        ]
    }
    assert _meta("", ld=graph).byline == "Jane Porter"


def test_a_title_whose_own_part_is_empty_is_the_heading() -> None:
    page = "<html><head><title> | Nuts & Volts</title></head><body><h1>Gadgets</h1></body></html>"
    assert extract_metadata(parse_html(page, None), None).title == "Gadgets"
    assert _meta("<title>| Nuts & Volts</title>").title == "Nuts & Volts"
    assert _meta("<title>-40 degrees in Winnipeg</title>").title == "-40 degrees in Winnipeg"


def test_a_language_s_name_is_no_language_tag() -> None:
    """`<meta name="language" content="English">` names the language, not its tag: no `english`; a
    tag stated elsewhere is the page's."""
    assert _meta('<meta name="language" content="English">').language is None
    assert _meta(
        '<meta name="language" content="English"><meta property="og:locale" content="en_GB">'
    ).language == ("en-GB")
    page = "<html lang='{{ lang }}'><head><meta http-equiv='content-language' content='fr'></head></html>"
    assert extract_metadata(parse_html(page, None), None).language == "fr"
    assert _meta('<meta name="language" content="de, en">').language == "de"


def test_the_language_of_an_html_tag_written_after_a_style_is_the_page_s() -> None:
    """A `<style>` before `<html lang>` (Sephora's, an emotion style) does not take the page's language
    away: a browser gives the root the later tag's attributes."""
    style = "<style>.css-r6sydd{height:100vh}</style>"
    rest = "<head><title>t</title></head><body><p>x</p></body></html>"
    page = f'<!DOCTYPE html>{style}<html lang="de-DE" class="css-r6sydd">{rest}'
    assert extract_metadata(parse_html(page, None), None).language == "de-DE"
    page = f"{style}<html xml:lang='fr'><head><title>t</title></head><body><p>x</p></body></html>"
    assert extract_metadata(parse_html(page, None), None).language == "fr"
    page = f"{style}<html><head><title>t</title></head><body><p>lang=en</p></body></html>"
    assert extract_metadata(parse_html(page, None), None).language is None


def test_an_html_tag_later_in_the_page_than_its_own_gives_no_language() -> None:
    """A page whose own `<html>` states no language takes none from a code sample's `<html lang>`
    later in it; of IE's conditional `<html>` tags before the page's own, the page's own is read."""
    style = "<style>.a{color:red}</style>"
    sample = '<textarea>&lt;!DOCTYPE html&gt;\n<html lang="fr"></textarea>'
    page = f"{style}<html><head><title>t</title></head><body><p>x</p>{sample}</body></html>"
    assert extract_metadata(parse_html(page, None), None).language is None
    ie = '<!--[if IE 8]><html class="ie8" lang="en"><![endif]-->'
    page = f'{ie}{style}<html lang="de"><head><title>t</title></head><body><p>x</p></body></html>'
    assert extract_metadata(parse_html(page, None), None).language == "de"


def test_language_tags_come_in_their_usual_case() -> None:
    for given, expected in (
        ("en-us", "en-US"),
        ("EN_gb", "en-GB"),
        ("zh-hant-tw", "zh-Hant-TW"),
        ("de", "de"),
    ):
        page = f'<html lang="{given}"><head><title>t</title></head><body><p>x</p></body></html>'
        assert extract_metadata(parse_html(page, None), None).language == expected


def _person(name: str) -> str:
    return (
        '<div itemprop="author" itemscope itemtype="http://schema.org/Person">'
        f'<a href="/users/{name}">{name}</a><meta itemprop="name" content="{name}">'
        "<span>1,234 reputation</span></div>"
    )


def _thread(body: str) -> str | None:
    page = f"<html><head><title>A question</title></head><body>{body}</body></html>"
    return extract_metadata(parse_html(page, None), None).byline


def test_the_byline_of_a_thread_is_its_asker_not_who_answered_or_commented() -> None:
    question = (
        '<div itemscope itemtype="https://schema.org/Question"><p>Why?</p>'
        f'<div itemscope itemtype="https://schema.org/Comment"><p>Is it?</p>{_person("Joe")}</div>'
        f"{_person('Vader')}</div>"
    )
    answer = f'<div itemscope itemtype="https://schema.org/Answer"><p>Because.</p>{_person("Andrej")}</div>'
    assert (
        _thread(f'<main itemscope itemtype="https://schema.org/QAPage">{question}{answer}</main>') == "Vader"
    )
    assert _thread(answer) is None  # only replies are marked (Tom's Hardware): no byline, not a reply's
    lena = _person("Lena")
    comment = f'<article itemscope itemtype="https://schema.org/Comment"><p>First post.</p>{lena}</article>'
    assert _thread(comment + answer) == "Lena"  # a comment on nothing is a forum's post (XenForo)
    nested = f'<div itemscope itemtype="https://schema.org/DiscussionForumPosting">{comment}</div>'
    assert _thread(nested) == "Lena"  # a comment's author when no other mark names one


def test_dates_from_microdata_and_dublin_core_properties() -> None:
    """`<span itemprop="datePublished" content=...>` (WordPress themes, forums) and `dc:modified` as a
    property (Wikipedia's mobile-html) state dates too; a copyright line states none."""

    def dated(head: str, body: str) -> tuple[str | None, str | None]:
        tree = parse_html(f"<html><head>{head}</head><body>{body}</body></html>", "https://ex.org/a")
        meta = extract_metadata(tree, "https://ex.org/a")
        return meta.published, meta.modified

    marked = '<p>By Ana, <span itemprop="datePublished" content="2019-09-09">9 Sept</span>.</p>'
    assert dated("", marked) == ("2019-09-09", None)
    modified = '<meta property="dc:modified" content="2025-11-18T18:29:29.000Z">'
    assert dated(modified, "<p>Text.</p>") == (None, "2025-11-18")
    assert dated("", "<p>© 2021 Stoat Press. All rights reserved.</p>") == (None, None)


def test_a_home_page_keeps_its_whole_title() -> None:
    """On a home page the site is what the page is about: its name stays in the title."""
    site = '<meta property="og:site_name" content="Acme Widgets">'
    head = f"<title>Acme Widgets — quality widgets since 1950</title>{site}"
    assert _meta(head, url="https://acme.example/").title == "Acme Widgets — quality widgets since 1950"
    assert _meta(head, url="https://acme.example/about").title == "quality widgets since 1950"


def test_every_author_a_page_s_meta_tags_name_is_in_the_byline() -> None:
    """A paper names each author in a `citation_author` tag, a page may write `author` twice: all of them,
    in order (`;` between names written surname first)."""
    paper = "".join(f'<meta name="citation_author" content="{n}">' for n in ("Smith, John", "Doe, Jane"))
    assert _meta(paper).byline == "Smith, John; Doe, Jane"
    page = '<meta name="author" content="Alice Able"><meta name="author" content="Bob Baker">'
    assert _meta(page).byline == "Alice Able, Bob Baker"
    creators = '<meta name="DC.Creator" content="Kooman, F."><meta name="DC.Creator" content="Jong, M.">'
    assert _meta(creators).byline == "Kooman, F.; Jong, M."
    # JMIR's DC.Creator names the first author, its citation_authors every one: the longer list
    jmir = '<meta name="DC.Creator" content="Jennifer Huberty">' + "".join(
        f'<meta name="citation_authors" content="{n}">'
        for n in ("Jennifer Huberty", "Jeni Green", "Chong Lee")
    )
    assert _meta(jmir).byline == "Jennifer Huberty, Jeni Green, Chong Lee"


def test_a_user_name_for_author_yields_to_the_name_the_page_writes() -> None:
    """A CMS's JSON-LD gave its login ("kevin-r") for the author while the page's meta tag named him
    ("Kevin Rebong"): the byline was the login. A user name stays when nothing better is written."""
    ld = {"@type": "NewsArticle", "headline": "Layoffs", "author": {"@type": "Person", "name": "kevin-r"}}
    assert _meta('<meta name="author" content="Kevin Rebong">', ld=ld).byline == "Kevin Rebong"
    assert _meta("", ld=ld).byline == "kevin-r"
    assert _meta('<meta name="author" content="webdesk">', ld=ld).byline == "kevin-r"
    named = {**ld, "author": {"name": "Jane Roe"}}
    assert _meta('<meta name="author" content="Kevin Rebong">', ld=named).byline == "Jane Roe"


def test_a_thread_starter_s_user_name_does_not_yield_to_another_user_s() -> None:
    """XenForo's JSON-LD names a thread's starter ("lulug30") while the first post the page marks is a
    reply's ("ShiftKicker"): the byline was the replier. A user name yields to a name written out."""
    ld = {"@type": "DiscussionForumPosting", "headline": "Early symptoms?", "author": {"name": "lulug30"}}
    post = '<article class="message"><section itemprop="author"><span itemprop="name">{}</span></section>'
    page = "".join(post.format(name) + "<p>Text.</p></article>" for name in ("ShiftKicker", "lulug30"))
    html_page = f'<html><head><script type="application/ld+json">{json.dumps(ld)}</script></head>'
    html_page += f"<body>{page}</body></html>"
    assert extract_metadata(parse_html(html_page, None), None).byline == "lulug30"
    assert _meta('<meta name="author" content="Lulu Grant">', ld=ld).byline == "Lulu Grant"


def test_the_site_s_name_for_author_yields_to_the_person_the_page_marks() -> None:
    """Instructables' JSON-LD names the site as each project's author while the page marks its maker
    (`rel=author`): the byline was the site's name. The site's name stays when no person is named."""
    ld = {"@type": "Article", "author": {"@type": "Organization", "name": "Instructables"}}
    site = '<meta property="og:site_name" content="Instructables">'
    url = "https://www.instructables.com/Mixing-Bowl/"
    maker = '<a rel="author" href="/member/MixmasterFred/">MixmasterFred</a>'
    page = f'<html><head>{site}<script type="application/ld+json">{json.dumps(ld)}</script></head>'
    meta = extract_metadata(parse_html(f"{page}<body><p>x</p>{maker}</body></html>", url), url)
    assert meta.byline == "MixmasterFred"
    meta = extract_metadata(parse_html(f"{page}<body><p>x</p></body></html>", url), url)
    assert meta.byline == "Instructables"


def test_a_json_ld_author_given_by_reference_is_named() -> None:
    """Yoast's `@graph` names the article's author by its `@id`, the Person node elsewhere in the graph."""
    person = "https://acme.test/#/schema/person/1"
    ld = {
        "@context": "https://schema.org",
        "@graph": [
            {"@type": "WebSite", "@id": "https://acme.test/#website", "name": "Acme Blog"},
            {"@type": "Person", "@id": person, "name": "Jane Roe"},
            {"@type": "Article", "headline": "Parsers", "author": {"@id": person}},
        ],
    }
    meta = _meta("", ld=ld)
    assert meta.byline == "Jane Roe"
    assert meta.site_name == "Acme Blog"


def test_dates_the_markup_writes_in_words_are_read() -> None:
    """A stated date with its month in words (JSON-LD, meta tags, `<time datetime>`, an HTTP date) or
    year first with one-digit parts is a date; digits alone in another order (05/03/2021) say none."""
    assert _meta("", ld={"@type": "Article", "datePublished": "Dec 16, 2025"}).published == "2025-12-16"
    assert _meta('<meta name="citation_publication_date" content="2023 Jan 7">').published == "2023-01-07"
    assert _meta('<meta name="citation_publication_date" content="2019/1/22">').published == "2019-01-22"
    assert _meta('<meta name="date" content="16 September 2021">').published == "2021-09-16"
    last = '<meta http-equiv="last-modified" content="Tue, 15 Nov 2022 08:12:31 GMT">'
    assert _meta(last).modified == "2022-11-15"
    page = '<html><body><time datetime="February 24, 2006 02:01am">then</time><p>x</p></body></html>'
    assert extract_metadata(parse_html(page, None), None).published == "2006-02-24"
    assert _meta('<meta name="date" content="05/03/2021">').published is None
    assert _meta('<meta name="date" content="Copyright 2024 Acme">').published is None


def test_a_relative_canonical_and_image_resolve_against_the_base() -> None:
    head = (
        '<base href="https://cdn.example/en/"><link rel="canonical" href="guide/intro">'
        '<meta property="og:image" content="img/cover.png">'
    )
    meta = _meta(head, url="https://www.example.com/blog/post/")
    assert meta.canonical_url == "https://cdn.example/en/guide/intro"
    assert meta.image == "https://cdn.example/en/img/cover.png"
    assert _meta('<link rel="canonical" href="/a/b">').canonical_url == "https://www.accruent.com/a/b"


def test_a_canonical_that_cannot_be_the_page_s_address_is_passed_over() -> None:
    """A template's canonical naming the home page on a deep page, a slug where the host goes or an
    escaped path gives way to `og:url`, else to none; a home page's own canonical stays."""
    post = "https://oneuptime.com/blog/post/2026-01-26-query-optimization/view"
    og = f'<meta property="og:url" content="{post}">'
    assert _meta(f'<link rel="canonical" href="https://oneuptime.com">{og}', url=post).canonical_url == post
    assert _meta('<link rel="canonical" href="https://oneuptime.com/">', url=post).canonical_url is None
    trip = "https://madelinemarquardt.com/packing-list-for-a-backpacking-trip/"
    assert (
        _meta('<link rel="canonical" href="http://packing-list-backpacking-trip">', url=trip).canonical_url
        is None
    )
    escaped = '<meta property="og:url" content="https://blog.example.fr%2Farticles%2F2025-12-15%2BRust">'
    assert _meta(escaped, url="https://blog.example.fr/articles/2025-12-15+Rust").canonical_url is None
    home = "https://liteaf.com/?srsltid=AfmBOoqGgduANbdLFsj1wTx6x5Wo4A0k"
    assert _meta('<link rel="canonical" href="https://liteaf.com/">', url=home).canonical_url == (
        "https://liteaf.com/"
    )
    local = "http://127.0.0.1:8080/docs/page"
    assert _meta('<link rel="canonical" href="/docs/page">', url=local).canonical_url == local


def test_a_home_page_read_at_its_index_document_keeps_its_home_canonical() -> None:
    """`/index.html` and `/default.aspx` are the home page: its canonical `/` is its own address; a
    folder's index (`/blog/index.html`) is a page of its own."""
    canonical = '<link rel="canonical" href="https://www.example.com/">'
    for index in ("index.html", "index.php", "default.aspx"):
        home = f"https://www.example.com/{index}"
        assert _meta(canonical, url=home).canonical_url == "https://www.example.com/"
    assert _meta(canonical, url="https://www.example.com/blog/index.html").canonical_url is None


def test_an_article_that_is_the_web_page_s_main_entity_gives_its_author_and_date() -> None:
    """A WebPage whose `mainEntity` is the article (XenForo's thread, a CMS's article): its author and
    dates, not the page's first reply's."""
    ld = {
        "@context": "https://schema.org",
        "@type": "WebPage",
        "name": "Nested",
        "mainEntity": {
            "@type": "NewsArticle",
            "headline": "Nested article",
            "author": {"@type": "Person", "name": "Jane Roe"},
            "datePublished": "2024-05-06",
        },
    }
    meta = _meta("<title>Nested</title>", ld=ld)
    assert (meta.byline, meta.published) == ("Jane Roe", "2024-05-06")


def test_a_title_that_is_only_the_site_s_name_yields_to_the_page_s_own() -> None:
    """og:title or `<title>` set to the site's name on every page: the page's headline is its title,
    but on the home page, or when nothing else names the page, the site's name is."""
    site = '<meta property="og:site_name" content="Example News">'
    site += '<meta property="og:title" content="Example News">'

    def title(head: str, body: str, url: str = "https://www.example.com/news/story") -> str | None:
        return extract_metadata(
            parse_html(f"<html><head>{head}</head><body>{body}</body></html>", url), url
        ).title

    assert title(f"<title>Real headline | Example News</title>{site}", "<p>x</p>") == "Real headline"
    assert title(f"<title>Example News</title>{site}", "<h1>Real headline</h1><p>x</p>") == "Real headline"
    assert title(f"<title>Example News</title>{site}", "<h1>Welcome</h1>", "https://www.example.com/") == (
        "Example News"
    )
    assert title(f"<title>Example News</title>{site}", "<p>x</p>") == "Example News"


def test_a_site_name_after_a_bullet_with_more_words_or_holding_the_separator_leaves_the_title() -> None:
    """`• Gardenary`, `| EcoFlow ZA` (the site's name and a word more), `- Nintendo - Official Site`
    and `- BBK Marketing - BlackBoxKey` (a site name holding the separator) all name the site."""

    def title(text: str, url: str, site: str | None = None) -> str | None:
        named = f'<meta property="og:site_name" content="{site}">' if site else ""
        return _meta(f"<title>{text}</title>{named}", url).title

    blog = "https://www.gardenary.com/blog/planting"
    assert title("Gardenary Planting vs. Ordinary Planting • Gardenary", blog, "Gardenary") == (
        "Gardenary Planting vs. Ordinary Planting"
    )
    ecoflow = "https://www.ecoflow.com/us/blog/laptop-watts"
    assert title("How Many Watts Does a Laptop Use? | EcoFlow ZA", ecoflow, "EcoFlow") == (
        "How Many Watts Does a Laptop Use?"
    )
    switch = "https://www.nintendo.com/us/gaming-systems/switch/oled-model"
    assert title("Nintendo Switch – OLED Model - Nintendo - Official Site", switch) == (
        "Nintendo Switch – OLED Model"
    )
    guide = "https://bbkmarketing.com/2025/02/11/reviews-guide"
    site = "BBK Marketing - BlackBoxKey"
    assert title(f"A Guide to Product Reviews - {site}", guide, site) == "A Guide to Product Reviews"
    # a last part that only begins with the site's name, in many words, is the page's own
    long = "Review | EcoFlow River 2 Pro portable power station tested for a week"
    assert title(long, ecoflow, "EcoFlow") == long


def test_a_description_written_as_html_is_its_text() -> None:
    """An excerpt escaped into `og:description` as HTML reads as its text; a description naming a tag
    (MDN's "The <table> HTML element") stays as written."""
    markup = (
        "&lt;p&gt;We&#x27;re excited to introduce &lt;strong&gt;Mini-SGLang&lt;/strong&gt;, a fast engine ..."
    )
    assert _meta(f'<meta property="og:description" content="{markup}">').description == (
        "We're excited to introduce Mini-SGLang, a fast engine ..."
    )
    mdn = "The &lt;table&gt; HTML element represents tabular data."
    assert _meta(f'<meta name="description" content="{mdn}">').description == (
        "The <table> HTML element represents tabular data."
    )
    code = "Set &lt;TargetFrameworks&gt;net8.0&lt;/TargetFrameworks&gt; and AddHttpClient&lt;IWeather&gt;()"
    assert _meta(f'<meta name="description" content="{code}">').description == (
        "Set <TargetFrameworks>net8.0</TargetFrameworks> and AddHttpClient<IWeather>()"
    )


def test_a_description_naming_a_paragraph_or_a_line_break_element_stays_as_written() -> None:
    """MDN's pages on `<p>` and `<br>` name the element in their description's first sentence: it is
    no markup; an excerpt that opens with a paragraph or breaks its lines as `<br />` is."""
    for mdn in (
        "The &lt;p&gt; HTML element represents a paragraph.",
        "The &lt;br&gt; HTML element produces a line break in text (carriage-return).",
    ):
        assert _meta(f'<meta name="description" content="{mdn}">').description == (
            mdn.replace("&lt;", "<").replace("&gt;", ">")
        )
    for excerpt in ("&lt;p&gt;Spoilers ahead", "Line one&lt;br /&gt;Line two"):
        described = _meta(f'<meta name="description" content="{excerpt}">').description
        assert described in ("Spoilers ahead", "Line oneLine two")


def test_a_site_name_loses_the_separators_of_an_empty_part() -> None:
    """A template's `{site} | {tagline}` with no tagline leaves "Ambient Air Solutions |"."""
    for given, expected in (
        ("Ambient Air Solutions |", "Ambient Air Solutions"),
        ("MonsGeek - - Make Cool Gears Accessible", "MonsGeek - Make Cool Gears Accessible"),
        ("Nuts & Volts - Electronics", "Nuts & Volts - Electronics"),
    ):
        assert _meta(f'<meta property="og:site_name" content="{given}">').site_name == expected


def test_an_icon_s_svg_title_is_not_the_page_s() -> None:
    """A page that writes no `<title>` of its own in its head takes its heading, not the label of a
    social icon drawn before it (`<svg><title>LinkedIn</title>`)."""
    icons = "".join(
        f"<a href='/s/{n}'><svg><title>{n}</title><path d='M0 0'/></svg></a>"
        for n in ("LinkedIn", "Facebook")
    )
    heading = "<h1>24 inch Deep Standing Desk</h1><p>x</p>"
    page = f"<html><head></head><body><header>{icons}</header>{heading}</body></html>"
    assert extract_metadata(parse_html(page, None), None).title == "24 inch Deep Standing Desk"


def test_a_last_part_whose_first_word_only_begins_with_the_site_s_name_stays_in_the_title() -> None:
    """`Timeline of events` on time.com and `Applesauce recipes` on apple.com begin with the host's name
    but not with a word of it: they are the page's own words; `Doom9's Forum` still names doom9."""
    for text, url in (
        ("Ukraine war, day by day - Timeline of events", "https://time.com/7/ukraine-war/"),
        ("How to peel apples - Applesauce recipes", "https://www.apple.com/newsroom/peel/"),
    ):
        assert _meta(f"<title>{text}</title>", url).title == text
    forum = "https://forum.doom9.org/showthread.php?t=186269"
    assert _meta("<title>Wrong refresh rate - Doom9's Forum</title>", forum).title == "Wrong refresh rate"


def test_a_title_of_thousands_of_parts_is_read_once() -> None:
    """Only a title's last few parts can name its site: a title of ten thousand ` - ` parts (a hostile
    page's) is answered whole, its parts not taken together one more at a time (that took 10 s)."""
    text = "word - " * 10_000 + "end"
    assert _meta(f"<title>{text}</title>", url="https://www.example.com/a/b").title == text
    site = "BBK Marketing - BlackBoxKey"
    named = f'<meta property="og:site_name" content="{site}">'
    guide = "https://bbkmarketing.com/2025/02/11/reviews-guide"
    assert _meta(f"<title>One - two - {site}</title>{named}", url=guide).title == "One - two"
