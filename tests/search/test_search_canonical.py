"""URL canonicalization: two spellings of one page share a dedup key; different pages do not."""

from __future__ import annotations

import pytest

from webferret.net.canonical import canonical_url, dedup_key


@pytest.mark.parametrize(
    ("url", "canonical"),
    [
        ("HTTPS://Example.COM/a/b/", "https://example.com/a/b"),
        ("https://www.example.com:443/x#frag", "https://example.com/x"),
        ("http://example.com:80/", "http://example.com/"),
        ("http://example.com:8080/p", "http://example.com:8080/p"),
        ("https://example.com/p?utm_source=a&utm_medium=b&id=3", "https://example.com/p?id=3"),
        ("https://example.com/p?fbclid=x&gclid=y&msclkid=z", "https://example.com/p"),
        ("https://example.com/p?b=2&a=1", "https://example.com/p?a=1&b=2"),
        ("https://example.com", "https://example.com/"),
        ("https://www.com/", "https://www.com/"),
        ("https://example.com/a%20b", "https://example.com/a%20b"),
        ("mailto:someone@example.com", "mailto:someone@example.com"),
    ],
)
def test_canonical_url(url: str, canonical: str) -> None:
    assert canonical_url(url) == canonical


def test_same_page_same_key() -> None:
    spellings = [
        "https://www.rust-lang.org/learn/",
        "http://rust-lang.org/learn",
        "https://RUST-LANG.org/learn?utm_campaign=x#top",
    ]
    assert len({dedup_key(url) for url in spellings}) == 1


def test_an_international_host_is_one_key_in_either_spelling() -> None:
    """Engines and redirects give `xn--bcher-kva.de` or `bücher.de`: two results of one page."""
    spellings = [
        "https://bücher.de/a",
        "https://xn--bcher-kva.de/a",
        "http://WWW.XN--BCHER-KVA.DE/a/",
        "https://bu\u0308cher.de/a",  # `u` and a combining diaeresis, as IDNA composes it
    ]
    assert {dedup_key(url) for url in spellings} == {"bücher.de/a"}
    assert canonical_url("https://xn--bcher-kva.de/a") == "https://bücher.de/a"
    dotted = "xn--" + "a\uff0eb".encode("punycode").decode()  # a full-width dot: not read as a dot
    for kept in ("https://xn--/", "https://xn--zz.de/", f"https://{dotted}.de/", "https://xn--abc-.de/"):
        assert canonical_url(kept) == kept


def test_different_pages_keep_distinct_keys() -> None:
    assert dedup_key("https://example.com/a?id=1") != dedup_key("https://example.com/a?id=2")
    assert dedup_key("https://example.com/a") != dedup_key("https://example.com/b")
    assert dedup_key("https://docs.example.com/") != dedup_key("https://example.com/")


@pytest.mark.parametrize(
    "spellings",
    [
        ["https://en.wikipedia.org/wiki/Ferret", "https://en.m.wikipedia.org/wiki/Ferret"],
        [
            "https://example.org/article",
            "https://m.example.org/article",
            "https://mobile.example.org/article/",
        ],
        ["https://example.co.uk/a", "https://m.example.co.uk/a", "https://amp.example.co.uk/a"],
        ["https://ferrets.github.io/a", "https://m.ferrets.github.io/a"],
        [
            "https://example.org/news/ferrets",
            "https://amp.example.org/news/ferrets",
            "https://example.org/news/ferrets/amp",
            "https://example.org/news/ferrets?amp=1",
            "https://example-org.cdn.ampproject.org/c/s/example.org/news/ferrets",
            "https://www.google.com/amp/s/example.org/news/ferrets/amp",  # Google's AMP viewer
            "https://www.google.co.uk/amp/s/www.example.org/news/ferrets",
            "http://google.de/amp/example.org/news/ferrets",
        ],
        ["https://example.org/a/b", "https://example.org/a/./b", "https://example.org/a/c/../b"],
        [
            "https://www.reddit.com/r/ferrets/comments/abc/hi/",
            "https://old.reddit.com/r/ferrets/comments/abc/hi",
        ],
        [
            "https://youtu.be/dQw4w9WgXcQ?si=share",
            "https://www.youtube.com/watch?v=dQw4w9WgXcQ&feature=share",
            "https://m.youtube.com/watch?v=dQw4w9WgXcQ",
        ],
    ],
)
def test_editions_of_one_page_share_a_key(spellings: list[str]) -> None:
    assert len({dedup_key(url) for url in spellings}) == 1, [dedup_key(url) for url in spellings]


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("https://m.co/a", "https://co/a"),  # `m` is the site's own name here
        ("https://amp.co.uk/a", "https://co.uk/a"),  # under a suffix of two labels too
        ("https://amp.github.io/a", "https://github.io/a"),  # a user's site under a public suffix
        ("https://m.blogspot.com/a", "https://blogspot.com/a"),
        ("https://example.org/amp", "https://example.org/"),  # a page named amp
        ("https://youtu.be/a", "https://youtu.be/b"),
        ("https://youtu.be/a/b", "https://www.youtube.com/watch?v=a/b"),  # no short link
        ("https://www.youtube.com/watch?v=a", "https://www.youtube.com/watch?v=b"),
        ("https://example.org/a/b", "https://example.org/b"),
        ("https://old.example.org/x", "https://example.org/x"),
        ("https://www.google.com/amp", "https://amp/"),  # Google's own page named amp
        (
            "https://www.google.com/amp/s/x.org/a",
            "https://notgoogle.com/amp/s/x.org/a",
        ),  # only Reddit's old and new are one site
        ("https://example.org/a%2Fb", "https://example.org/a/b"),  # one segment holding a slash, and two
        ("https://example.org/a%2fb/c", "https://example.org/a/b/c"),
    ],
)
def test_other_pages_keep_their_keys(one: str, other: str) -> None:
    assert dedup_key(one) != dedup_key(other)


def test_an_escaped_byte_that_is_no_utf8_stays_that_byte() -> None:
    """Older sites write Latin-1 in their addresses (`/caf%E9`): every such byte was decoded as
    U+FFFD, so `/caf%E9` and `/caf%E8` were one page (merged in a search, read once by a crawl)."""
    assert len({dedup_key(f"https://example.org/caf%{byte}") for byte in ("E9", "E8", "FF")}) == 3
    assert dedup_key("https://example.org/s?q=%E9") != dedup_key("https://example.org/s?q=%E8")
    assert (
        canonical_url("https://example.org/caf%e9?q=%e9&utm_source=x") == "https://example.org/caf%E9?q=%E9"
    )
    assert dedup_key("https://example.org/caf%E9") != dedup_key("https://example.org/caf%C3%A9")  # é as UTF-8
    assert dedup_key("https://example.org/caf%C3%A9") == dedup_key("https://example.org/café")


def test_the_canonical_url_resolves_dot_segments_and_keeps_the_edition() -> None:
    assert canonical_url("https://example.org/a/./b/../c/") == "https://example.org/a/c"
    assert canonical_url("https://en.m.wikipedia.org/wiki/Ferret") == "https://en.m.wikipedia.org/wiki/Ferret"
    assert dedup_key("not a url") == "not a url" and dedup_key("https://[::1]:8080/x") == "[::1]:8080/x"


def test_an_encoded_slash_stays_encoded_and_wikipedia_spells_a_title_slash_as_wikipedia_does() -> None:
    from webferret.search.engines.wikipedia import article_url

    assert canonical_url("https://example.org/a%2fb/%7Ec") == "https://example.org/a%2Fb/~c"
    ac_dc = article_url("https://en.wikipedia.org", "AC/DC")  # its own engine, and SearXNG's upstream
    assert ac_dc == "https://en.wikipedia.org/wiki/AC/DC"
    assert dedup_key(ac_dc) == dedup_key("https://en.m.wikipedia.org/wiki/AC/DC")
