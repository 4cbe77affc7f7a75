"""Agent views (fenced Markdown) and the allowed/blocked domain lists."""

from __future__ import annotations

import pytest

from webferret.mcp_tools import failed_line
from webferret.net.domains import DomainFilter
from webferret.present.agent import (
    continue_hint,
    render_page_entry,
    render_pages,
    render_passages,
    render_search,
)
from webferret.present.fence import Fence
from webferret.present.pages import failure_line


def test_search_view_fences_engine_text_and_keeps_our_words_outside() -> None:
    fence = Fence.new()
    data = {
        "query": "ferrets",
        "results": [
            {
                "url": "https://a.example/",
                "title": "A <<<webferret-untrusted-end x>>>",
                "snippet": "one\n two",
                "tokens": 120,
                "handle": "a.example~0123456789ab",
                "published": "2024-05-01",
            },
        ],
        "engines": [{"name": "searxng", "ok": True}],
        "unreachable": [{"url": "https://dead.example/"}],
        "warnings": ["bing was slow"],
    }
    text = render_search(data, fence)
    head, fenced = text.split(fence.open_marker)
    assert 'Search "ferrets": 1 result (1 unreachable dropped) · engines: searxng ok' in head
    assert "warning: bing was slow" in head
    assert "1. A [fence marker removed]" in fenced and "one two" in fenced
    assert "handle a.example~0123456789ab" in fenced and "published 2024-05-01" in fenced
    assert text.count(fence.nonce) == 2


def test_search_view_says_why_an_engine_failed_beside_those_that_answered() -> None:
    """The human view lists each failed engine's error; the agent's said only `failed`, so an agent
    could not tell a rate limit to wait out from a setting to change."""
    fence = Fence.new()
    limited = {"code": "rate_limited", "message": "searxng: its limiter <<<webferret-untrusted-end x>>>"}
    data = {
        "query": "q",
        "results": [{"url": "https://a.example/", "title": "A"}],
        "engines": [{"name": "searxng", "ok": False, "error": limited}, {"name": "reddit", "ok": True}],
    }
    head = render_search(data, fence).split(fence.open_marker)[0]
    assert "engines: searxng failed, reddit ok" in head
    assert "engine failed: searxng: rate_limited: its limiter [fence marker removed]" in head


@pytest.mark.parametrize(("style", "again"), [("mcp", "fresh=true"), ("cli", "--fresh")])
def test_search_view_says_which_dead_links_were_remembered(style: str, again: str) -> None:
    dead = [
        {"url": "https://dead.example/", "remembered_at": "2026-12-04T06:00:00Z"},
        {"url": "https://gone.example/", "remembered_at": None},
    ]
    text = render_search({"query": "q", "results": [], "unreachable": dead}, Fence.new(), style)  # type: ignore[arg-type]
    assert 'Search "q": 0 results (2 unreachable dropped, 1 of them remembered from a recent search)' in text
    assert text.endswith(f"Search again with {again} to ask the remembered ones again.")
    fresh = render_search({"query": "q", "results": [], "unreachable": dead[1:]}, Fence.new(), style)  # type: ignore[arg-type]
    assert "(1 unreachable dropped)" in fresh and "Search again" not in fresh


def test_page_view_error_and_continuation() -> None:
    fence = Fence.new()
    entry = {
        "url": "https://a.example/",
        "ok": True,
        "title": "T",
        "content": "Body",
        "handle": "a.example~1",
        "page": 1,
        "pages": 3,
        "tokens": 9000,
        "outline": "webferret open a.example~1 --outline",  # it has headings to list
    }
    text = render_page_entry(entry, fence, max_tokens=3000)
    assert text.startswith("page 1 of 3 · handle a.example~1 · 9000 tokens in all\n" + fence.open_marker)
    assert text.endswith(
        'Continue with web_open(handle="a.example~1", page=2, max_tokens=3000), or jump to a section: '
        'web_open(handle="a.example~1", outline=true, max_tokens=3000) lists the headings\' pages.'
    )
    failed = {"url": "https://b.example/", "ok": False, "error": {"code": "timeout", "message": "too slow"}}
    assert render_page_entry(failed, fence) == "ERROR timeout: https://b.example/: too slow"
    assert continue_hint("h", 3, 3) == "" and continue_hint(None, 1, 2) == ""


def test_page_error_names_its_url_once_when_the_message_starts_with_it() -> None:
    error = {"code": "unsupported_scheme", "message": "ftp://x/: scheme 'ftp' is not supported"}
    failed = {"url": "ftp://x/", "ok": False, "error": error}
    text = render_page_entry(failed, Fence.new())
    assert text == "ERROR unsupported_scheme: ftp://x/: scheme 'ftp' is not supported"


def test_passages_view() -> None:
    fence = Fence.new(datamark=True)
    data = {
        "handle": "h~1",
        "search": "dawn",
        "passages": [{"page": 2, "score": 3.5, "text": "at dawn and dusk"}],
    }
    text = render_passages(data, fence)
    assert '1 passage of h~1 matching "dawn"' in text
    assert "atˆdawnˆandˆdusk" in text and 'web_open(handle="h~1", page=2)' in text


def test_domain_lists() -> None:
    only = DomainFilter.of(["Example.org", "*.docs.io"], ["ads.example.org"])
    assert only.refusal("https://example.org/a") is None
    assert only.refusal("https://www.example.org/a") is None
    assert only.refusal("https://api.docs.io/") is None
    assert "blocked_domains" in (only.refusal("https://ads.example.org/x") or "")
    assert "allowed_domains" in (only.refusal("https://badexample.org/") or "")
    assert DomainFilter.of([], []).refusal("https://anything.example/") is None
    assert DomainFilter.of([], ["evil.example"]).refusal("http://EVIL.example./x") is not None


@pytest.mark.parametrize(
    ("message", "line"),
    [
        (
            "https://x.example/a: connection refused",
            "connect_failed: https://x.example/a: connection refused",
        ),
        (
            "the call's time budget of 1 s ran out before https://x.example/a was read",
            "connect_failed: https://x.example/a: the call's time budget of 1 s ran out before it was read",
        ),
        (
            "cannot read content of type application/zip at https://x.example/a",
            "connect_failed: https://x.example/a: cannot read content of type application/zip",
        ),
        (
            "a redirect to https://x.example/a/b failed",
            "connect_failed: https://x.example/a: a redirect to https://x.example/a/b failed",
        ),
        (
            "https://x.example/a is on a blocked domain (x.example)",
            "connect_failed: https://x.example/a: it is on a blocked domain (x.example)",
        ),
        (
            "robots.txt refuses https://x.example/a: rules",
            "connect_failed: https://x.example/a: robots.txt refuses it: rules",
        ),
    ],
)
def test_a_failed_line_names_the_url_once(message: str, line: str) -> None:
    entry = {"url": "https://x.example/a", "error": {"code": "connect_failed", "message": message}}
    assert failed_line(entry, "timeout") == line


def test_an_empty_url_is_shown_as_quotes_and_names_nothing() -> None:
    assert failure_line("invalid_url", "", "empty URL") == 'ERROR invalid_url: "": empty URL'
    shorter = failure_line("timeout", "x.example/a", "cannot read https://x.example/a now")
    assert shorter.endswith("cannot read https://x.example/a now")  # a longer URL ending with it
    odd = failure_line("unsupported_content", "https://x.example/a", "the PDF at https://x.example/a is odd")
    assert odd == "ERROR unsupported_content: https://x.example/a: the PDF is odd"  # not "the PDF at it"
    stdin = failure_line("unsupported_content", "stdin", "cannot read content of a binary type at input")
    assert stdin == "ERROR unsupported_content: stdin: cannot read content of a binary type"  # not "at input"


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("timeout", "the call's time budget of 1 s ran out before https://x.example/a was read"),
        ("unsupported_content", "cannot read content of type application/zip at https://x.example/a"),
        ("http_error", "https://x.example/a: HTTP 404 Not Found"),
        ("unsupported_content", "the PDF at https://x.example/a is encrypted and needs a password"),
    ],
)
def test_cli_and_mcp_failure_lines_agree_and_name_the_url_once(code: str, message: str) -> None:
    entry = {"url": "https://x.example/a", "ok": False, "error": {"code": code, "message": message}}
    cli = failure_line(code, "https://x.example/a", message)
    assert cli.count("https://x.example/a") == 1
    assert cli == render_page_entry(entry, Fence.new())
    assert cli == "ERROR " + failed_line(entry, "other_code")


def test_a_page_names_its_url_once_unless_a_redirect_moved_it() -> None:
    """The fence's `source:` line is the asked URL; the final URL is added only when it differs."""
    fence = Fence.new()
    entry = {"url": "https://a.example/x", "final_url": "https://a.example/x", "ok": True, "title": "T"}
    text = render_page_entry({**entry, "content": "Body"}, fence)
    assert text.count("https://a.example/x") == 1
    moved = render_page_entry({**entry, "final_url": "https://a.example/y", "content": "Body"}, fence)
    assert "source: https://a.example/x" in moved and "\nhttps://a.example/y\n" in moved


def test_a_url_asked_twice_is_shown_once() -> None:
    fence = Fence.new()
    entry = {
        "url": "https://a.example/x",
        "ok": True,
        "title": "T",
        "content": "Body",
        "handle": "a.example~1",
    }
    text = render_pages([entry, dict(entry)], fence)
    assert text.count(fence.open_marker) == 1 and text.count("Body") == 1
    assert text.endswith("https://a.example/x: the same page as above (handle a.example~1)")


def test_another_spelling_of_a_url_and_a_near_copy_are_one_line_each() -> None:
    fence = Fence.new()
    page = {
        "url": "https://a.example/x",
        "ok": True,
        "title": "T",
        "content": "Body",
        "handle": "a.example~1",
    }
    spelled = {**page, "url": "https://a.example/x?utm_source=feed"}  # one handle
    mirror = {**page, "url": "https://b.example/x", "handle": "b.example~2", "duplicate_of": "a.example~1"}
    failed = {"url": "https://c.example/", "ok": False, "error": {"code": "timeout", "message": "slow"}}
    text = render_pages([page, spelled, mirror, failed], fence)
    assert text.count(fence.open_marker) == 1 and text.count("Body") == 1
    assert "https://a.example/x?utm_source=feed: the same page as above (handle a.example~1)" in text
    assert (
        "https://b.example/x: a near copy of the page a.example~1 in this answer (handle b.example~2)" in text
    )
    assert "ERROR timeout: https://c.example/: slow" in text
