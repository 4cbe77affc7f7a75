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


def test_different_pages_keep_distinct_keys() -> None:
    assert dedup_key("https://example.com/a?id=1") != dedup_key("https://example.com/a?id=2")
    assert dedup_key("https://example.com/a") != dedup_key("https://example.com/b")
    assert dedup_key("https://docs.example.com/") != dedup_key("https://example.com/")
