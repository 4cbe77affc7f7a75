"""Reddit threads: the post plus top comments by score; a refusal of anonymous JSON said clearly."""

from __future__ import annotations

from pathlib import Path

import pytest

from webferret.extract.reddit import extract_thread, reddit_refusal, render_thread, thread_json_url
from webferret.fetch.types import RawResponse
from webferret.models import ErrorCode, FerretError

THREAD = "reddit/thread_3hahrw_oauth_limit10_2017-03-16.json"


def test_render_post_and_top_comments_by_score(engine_fixtures: Path) -> None:
    page = render_thread((engine_fixtures / THREAD).read_bytes(), max_comments=3)
    assert page.title == "Ba Dum Tsss"
    assert page.byline == "your_local_librarian" and page.published == "2015-08-17"
    assert page.page_type == "forum" and page.site_name == "Reddit"
    lines = page.content.splitlines()
    assert lines[0] == "# Ba Dum Tsss"
    heads = [line for line in lines if line.startswith("### ")]
    assert heads == [
        "### u/frittenlord · 1445 points",
        "### u/johnnwho · 1127 points",
        "### u/TheProphetBroses · 336 points",
    ]
    assert page.extra["comments_shown"] == 3


def test_default_shows_every_top_level_comment_up_to_ten(engine_fixtures: Path) -> None:
    page = render_thread((engine_fixtures / THREAD).read_bytes())
    assert 0 < page.extra["comments_shown"] <= 10
    assert "[deleted]" not in page.content


def test_not_a_thread_is_unsupported_content() -> None:
    with pytest.raises(FerretError) as caught:
        render_thread(b'{"kind": "Listing"}', 10)
    assert caught.value.code == ErrorCode.UNSUPPORTED_CONTENT


def test_refusals() -> None:
    html_wall = reddit_refusal(200, "text/html", b"<!DOCTYPE html><title>Welcome to Reddit</title>")
    assert html_wall is not None and html_wall.code == ErrorCode.BLOCKED_BY_SITE
    assert "refused anonymous JSON" in html_wall.message
    forbidden = reddit_refusal(403, "application/json", b'{"reason": "blocked"}')
    assert forbidden is not None and "HTTP 403" in forbidden.message
    limited = reddit_refusal(429, "text/html", b"")
    assert limited is not None and limited.code == ErrorCode.RATE_LIMITED
    assert reddit_refusal(200, "application/json; charset=UTF-8", b"[{}]") is None


@pytest.mark.parametrize(
    ("url", "json_url"),
    [
        (
            "https://old.reddit.com/r/funny/comments/3hahrw/ba_dum_tsss/",
            "https://www.reddit.com/r/funny/comments/3hahrw/ba_dum_tsss.json?raw_json=1",
        ),
        (
            "https://reddit.com/r/rust/comments/abc123",
            "https://www.reddit.com/r/rust/comments/abc123.json?raw_json=1",
        ),
        ("https://www.reddit.com/r/rust/", None),
        ("https://example.com/r/x/comments/abc/", None),
    ],
)
def test_thread_json_url(url: str, json_url: str | None) -> None:
    assert thread_json_url(url) == json_url


def raw(url: str, status: int, content_type: str, body: bytes) -> RawResponse:
    return RawResponse(
        url=url, final_url=url, status=status, headers={"content-type": content_type}, body=body
    )


def test_fetch_hook(engine_fixtures: Path) -> None:
    url = "https://www.reddit.com/r/funny/comments/3hahrw/ba_dum_tsss.json?raw_json=1"
    body = (engine_fixtures / THREAD).read_bytes()
    page = extract_thread(raw(url, 200, "application/json", body), 2)
    assert page is not None and page.extra["comments_shown"] == 2
    assert extract_thread(raw("https://example.com/x.json", 200, "application/json", body), 2) is None
    with pytest.raises(FerretError) as caught:
        extract_thread(raw(url, 403, "text/html", b"<html>blocked</html>"), 2)
    assert caught.value.code == ErrorCode.BLOCKED_BY_SITE


def test_thread_urls_are_rewritten_and_extracted_through_the_pipeline(engine_fixtures: Path) -> None:
    from webferret.extract.document import extract_document
    from webferret.extract.types import ExtractOptions
    from webferret.net.rewrite import rewrite_url

    asked = "https://old.reddit.com/r/funny/comments/3hahrw/ba_dum_tsss/"
    fetched = rewrite_url(asked)
    assert fetched == "https://www.reddit.com/r/funny/comments/3hahrw/ba_dum_tsss.json?raw_json=1"
    body = (engine_fixtures / THREAD).read_bytes()
    page = extract_document(
        body, url=fetched, content_type="application/json", options=ExtractOptions(max_comments=2)
    )
    assert page.page_type == "forum" and page.extra["comments_shown"] == 2
    with pytest.raises(FerretError) as refused:
        extract_document(
            b"<html>log in</html>", url=fetched, content_type="text/html", options=ExtractOptions()
        )
    assert refused.value.code == ErrorCode.BLOCKED_BY_SITE and "anonymous JSON" in refused.value.message


def test_a_refused_thread_fetch_says_why() -> None:
    from webferret.extract.reddit import explain_refusal

    url = "https://www.reddit.com/r/funny/comments/3hahrw/ba_dum_tsss/"
    http_403 = FerretError(ErrorCode.HTTP_ERROR, "HTTP 403", status=403)
    explained = explain_refusal(url, http_403)
    assert explained.code == ErrorCode.BLOCKED_BY_SITE and "anonymous JSON" in explained.message
    assert explain_refusal("https://example.org/r/x/comments/1/", http_403) is http_403
    assert explain_refusal(url, FerretError(ErrorCode.TIMEOUT, "slow")).code == ErrorCode.TIMEOUT
