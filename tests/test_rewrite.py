"""URL rewrites (pure)."""

import pytest

from webferret.net.rewrite import rewrite_url


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        (
            "https://en.wikipedia.org/wiki/T-distributed_stochastic_neighbor_embedding",
            "https://en.wikipedia.org/api/rest_v1/page/mobile-html/T-distributed_stochastic_neighbor_embedding",
        ),
        (
            "https://de.m.wikipedia.org/wiki/Frettchen",
            "https://de.wikipedia.org/api/rest_v1/page/mobile-html/Frettchen",
        ),
        (
            "http://fr.wikipedia.org/wiki/Caf%C3%A9#Histoire",
            "https://fr.wikipedia.org/api/rest_v1/page/mobile-html/Caf%C3%A9",
        ),
        (
            "https://github.com/encode/httpx/blob/master/httpx/_client.py",
            "https://raw.githubusercontent.com/encode/httpx/master/httpx/_client.py",
        ),
        (
            "https://github.com/owner/repo/blob/v1.2/docs/a b.md?plain=1",
            "https://raw.githubusercontent.com/owner/repo/v1.2/docs/a b.md",
        ),
    ],
)
def test_rewrites(url: str, expected: str) -> None:
    assert rewrite_url(url) == expected


@pytest.mark.parametrize(
    "url",
    [
        "https://en.wikipedia.org/wiki/Special:Random",
        "https://en.wikipedia.org/w/index.php?title=Ferret&oldid=1",
        "https://en.wikipedia.org/wiki/Ferret?action=history",
        "https://en.wikipedia.org/wiki/",
        "https://wikipedia.org/wiki/Ferret",
        "https://en.wikipedia.org.evil.example/wiki/Ferret",
        "https://github.com/encode/httpx",
        "https://github.com/encode/httpx/tree/master/httpx",
        "https://github.com/encode/httpx/blob/master",
        "https://gist.github.com/a/blob/b/c",
        "https://example.org/wiki/Ferret",
        "http://127.0.0.1:8080/wiki/Ferret",
        "not a url",
        "https://en.wikipedia.org:99999/wiki/Ferret",  # the URL check refuses it, with its own message
    ],
)
def test_left_alone(url: str) -> None:
    assert rewrite_url(url) == url
