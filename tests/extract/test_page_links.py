"""A page's outgoing links: the main content's first, each group in page order, every link named."""

from __future__ import annotations

from lxml import html

from webferret.extract.links import page_links

PAGE = """<html><body>
<nav><a href="/">Home</a> <a href="/shop"><img src="cart.png" alt=" Your  cart "></a>
<a href="/x"><img src="x.png"></a></nav>
<main><p>Read <a href="/guide">the guide</a>, then <a href="/" title="ignored: seen above">home</a>.</p>
<a href="/faq" title="Questions">   </a></main>
<footer><a href="mailto:a@b.c">mail</a> <a href="/privacy">Privacy</a></footer>
</body></html>"""


def test_main_content_links_first_then_the_rest_in_page_order() -> None:
    base = "https://site.example/page"
    main = {"https://site.example/guide": "the guide", "https://site.example/faq": ""}
    links = page_links(html.fromstring(PAGE), base, main)
    assert [(link.url.removeprefix("https://site.example"), link.text, link.in_main) for link in links] == [
        ("/guide", "the guide", True),
        ("/faq", "Questions", True),  # no words of its own: its title
        ("/", "Home", False),  # each URL once, where it first appears
        ("/shop", "Your cart", False),  # an image link: the image's alt text
        ("/x", "", False),  # nothing names it
        ("/privacy", "Privacy", False),
    ]


def test_a_long_name_is_clipped_and_a_url_of_kilobytes_is_not_listed() -> None:
    blob = "https://t.example/?" + "q" * 3000
    page = f'<html><body><a href="/a">{"word " * 400}</a><a href="{blob}">tracked</a></body></html>'
    links = page_links(html.fromstring(page), "https://site.example/", {})
    assert [link.url for link in links] == ["https://site.example/a"]
    assert len(links[0].text) <= 300 and links[0].text.endswith("word…")


def test_a_link_of_the_main_content_has_its_words_there_not_the_menus() -> None:
    page = '<body><nav><a href="/b">two</a></nav><main><a href="/b">the next article</a></main></body>'
    links = page_links(
        html.fromstring(page), "https://site.example/", {"https://site.example/b": "the next article"}
    )
    assert [(link.text, link.in_main) for link in links] == [("the next article", True)]


def test_a_link_whose_scheme_is_in_capitals_is_listed() -> None:
    """`HTTP://` is http to a browser (and to the Markdown reading, which links it): a crawl or a
    links listing that read only lower case left such a link out."""
    page = '<html><body><a href="HTTP://Other.example/A">a</a> <a href="Https:b">b</a></body></html>'
    links = page_links(html.fromstring(page), "https://site.example/dir/", {})
    assert [link.url for link in links] == ["http://Other.example/A", "https://site.example/dir/b"]


def test_a_link_with_backslashes_is_the_address_a_browser_opens() -> None:
    """`/\\other.example/x` opens other.example in a browser (a backslash before the query is a slash
    in an http(s) URL); it was listed as a path of this site, a page that is not."""
    page = r"""<html><body><main><p><a href="/\other.example/x">away</a>
    <a href="docs\intro?q=a\b">intro</a> <a href="https://site.example/a\b">ab</a></p></main></body></html>"""
    links = page_links(html.fromstring(page), "https://site.example/guide/", {})
    assert [link.url for link in links] == [
        "https://other.example/x",
        "https://site.example/guide/docs/intro?q=a\\b",  # (its query as it is)
        "https://site.example/a/b",
    ]
