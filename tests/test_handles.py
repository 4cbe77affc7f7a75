"""Handles are readable and stable per canonical URL."""

from __future__ import annotations

import re

from webferret.arguments import handle_text
from webferret.store.handles import canonical_url, handle_for, looks_like_handle


def test_canonical_form() -> None:
    assert canonical_url("HTTPS://Example.ORG:443/a/b?q=1#frag") == "https://example.org/a/b?q=1"
    assert canonical_url("http://example.org:80") == "http://example.org/"
    assert canonical_url("http://example.org:8080/x") == "http://example.org:8080/x"
    assert canonical_url("http://[::1]:81/x") == "http://[::1]:81/x"


def test_handle_shape_and_stability() -> None:
    handle = handle_for("https://en.wikipedia.org/wiki/Ferret")
    assert re.fullmatch(r"en\.wikipedia\.org~[0-9a-f]{12}", handle)
    assert handle == handle_for("HTTPS://EN.wikipedia.org:443/wiki/Ferret#History")
    assert handle != handle_for("https://en.wikipedia.org/wiki/Otter")
    assert handle != handle_for("https://en.wikipedia.org/wiki/ferret")
    assert looks_like_handle(handle) and not looks_like_handle("https://example.org/")


def test_unparsable_urls_still_have_handles() -> None:
    for text in ("http://[::1/", "http://[zz]/", "not a url", ""):
        assert looks_like_handle(handle_for(text))
    assert canonical_url("http://[::1/") == "http://[::1/"
    assert handle_for("http://[::1/").startswith("local~")


def test_tracking_parameters_are_not_part_of_a_handle() -> None:
    """They never change the page (`net.canonical`): one page with and without them, one handle."""
    plain = handle_for("https://example.org/p?id=7")
    assert handle_for("https://example.org/p?utm_source=feed&id=7&fbclid=x") == plain
    assert canonical_url("https://example.org/p?id=7&utm_medium=mail#top") == "https://example.org/p?id=7"
    assert handle_for("https://example.org/p?id=8") != plain


def test_a_path_and_query_are_percent_encoded_as_a_client_sends_them() -> None:
    """`/café` is sent as `/caf%C3%A9`, and an escape's hex is one in either case (RFC 3986
    6.2.2.1): one page, one handle. A reserved character and its escape stay two (`&`, `%26`)."""
    sent = "https://example.org/caf%C3%A9?q=caf%C3%A9%20au%20lait"
    for written in (
        "https://example.org/café?q=café au lait",
        "https://example.org/caf%c3%a9?q=caf%c3%a9%20au lait",
    ):
        assert canonical_url(written) == sent and handle_for(written) == handle_for(sent)
    assert handle_for("https://example.org/a?x=1&y=2") != handle_for("https://example.org/a?x=1%26y=2")
    assert canonical_url("https://example.org/a%2fb") == "https://example.org/a%2Fb"  # still one segment


def test_dot_segments_are_resolved_as_a_client_sends_the_url() -> None:
    one = handle_for("https://x.org/art/1")
    assert handle_for("https://x.org/./art/1") == handle_for("https://x.org/art/y/../1") == one
    assert handle_for("https://x.org/%2e/art/1") == handle_for("https://x.org/art/y/%2E%2e/1") == one
    assert canonical_url("https://x.org/a/b/..") == "https://x.org/a/"
    assert canonical_url("https://x.org/.well-known/x") == "https://x.org/.well-known/x"  # no dot segment


def test_a_handle_of_any_host_looks_like_one_so_its_case_is_forgiven() -> None:
    """A handle's site is its URL's host, which may hold letters past ASCII or a `_`: such a handle
    did not look like one, so `open` took `BÜCHER.example~…` as written and found no page."""
    for url in (
        "https://bücher.example/a",
        "https://a_b.example/a",
        "http://[::1]:8080/a",
        "https://x.example/",
    ):
        handle = handle_for(url)
        assert looks_like_handle(handle) and handle_text(handle.upper()) == handle
    assert handle_text("https://Example.org/A") == "https://Example.org/A"  # a URL is left as written
