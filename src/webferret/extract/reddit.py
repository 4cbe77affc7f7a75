"""Reddit threads read in their `.json` form: the post plus its top comments by score, as Markdown.

`render_thread(json_body, max_comments)` is pure; `reddit_refusal(status, content_type, body)` says
clearly when Reddit refused anonymous JSON. `thread_json_url(url)` gives the `.json` URL of a thread.
`extract_thread(raw, max_comments)` is the hook for the fetch path: given the raw answer of a
rewritten thread URL it renders the thread, raises the refusal, or answers None (not a thread).
"""

from __future__ import annotations

import html
import re
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from webferret.extract.types import Extracted
from webferret.extract.words import count_words
from webferret.fetch.types import RawResponse
from webferret.models import ErrorCode, ErrorInfo, FerretError
from webferret.remote_text import json_value
from webferret.tokens import estimate_tokens

_THREAD_PATH = re.compile(r"^/r/[^/]+/comments/[a-z0-9]+(/[^/]*)?/?$", re.IGNORECASE)
_REDDIT_HOSTS = ("reddit.com", "www.reddit.com", "old.reddit.com", "new.reddit.com", "np.reddit.com")
_GONE = ("[deleted]", "[removed]")


def thread_json_url(url: str) -> str | None:
    """`https://www.reddit.com/r/X/comments/ID/slug.json?raw_json=1` for a thread URL, else None."""
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    if host not in _REDDIT_HOSTS or not _THREAD_PATH.match(parts.path):
        return None
    path = parts.path.rstrip("/") + ".json"
    return urlunsplit(("https", "www.reddit.com", path, "raw_json=1", ""))


def reddit_refusal(status: int, content_type: str | None, body: bytes | str) -> ErrorInfo | None:
    """Why Reddit's answer is not a thread's JSON (a refusal of anonymous access), or None."""
    is_json = "json" in (content_type or "").lower() or _looks_like_json(body)
    if status == 429:
        message = "Reddit refused the anonymous .json request (HTTP 429 Too Many Requests); try again later"
        return ErrorInfo(code=ErrorCode.RATE_LIMITED, message=message, status=status)
    if status in (401, 403) or (status == 200 and not is_json):
        message = (
            f"Reddit refused anonymous JSON for this thread (HTTP {status}"
            f"{', an HTML page instead of JSON' if not is_json else ''}): Reddit blocks logged-out API reads "
            "from some networks; open the thread in a browser or use old.reddit.com"
        )
        return ErrorInfo(code=ErrorCode.BLOCKED_BY_SITE, message=message, status=status, vendor="reddit")
    return None


def _looks_like_json(body: bytes | str) -> bool:
    head = body[:64].lstrip() if isinstance(body, str) else body[:64].lstrip().decode("utf-8", "replace")
    return head.startswith(("[", "{"))


def _text(value: Any) -> str:
    return html.unescape(value).strip() if isinstance(value, str) else ""


def _date(stamp: Any) -> str | None:
    if not isinstance(stamp, int | float):
        return None
    return datetime.fromtimestamp(stamp, UTC).date().isoformat()


def top_comments(listing: Any, max_comments: int) -> list[dict[str, Any]]:
    """Top-level comments (not `more` stubs, not deleted), highest score first, at most `max_comments`."""
    children = listing.get("data", {}).get("children", []) if isinstance(listing, dict) else []
    comments = [
        child["data"]
        for child in children
        if isinstance(child, dict) and child.get("kind") == "t1" and isinstance(child.get("data"), dict)
    ]
    comments = [c for c in comments if _text(c.get("body")) not in ("", *_GONE)]
    comments.sort(key=lambda c: c.get("score") if isinstance(c.get("score"), int) else 0, reverse=True)
    return comments[:max_comments]


def _post_lines(post: dict[str, Any]) -> list[str]:
    lines = [f"# {_text(post.get('title'))}", ""]
    facts = [f"r/{_text(post.get('subreddit'))}", f"by u/{_text(post.get('author'))}"]
    facts += [f"{post.get('score', 0)} points", f"{post.get('num_comments', 0)} comments"]
    lines += [" · ".join(facts), ""]
    if not post.get("is_self", True) and post.get("url"):
        lines += [f"Link: {_text(post['url'])}", ""]
    if _text(post.get("selftext")):
        lines += [_text(post["selftext"]), ""]
    return lines


def _comment_lines(comment: dict[str, Any]) -> list[str]:
    head = f"### u/{_text(comment.get('author'))} · {comment.get('score', 0)} points"
    return [head, "", _text(comment.get("body")), ""]


def render_thread(json_body: bytes | str, max_comments: int = 10) -> Extracted:
    """The thread as Markdown: the post, then its top `max_comments` comments by score."""
    try:
        data = json_value(json_body)
        post = data[0]["data"]["children"][0]["data"]
    except (ValueError, LookupError, TypeError) as exc:
        raise FerretError(
            ErrorCode.UNSUPPORTED_CONTENT,
            f"not a Reddit thread's JSON ([post listing, comments listing]): {exc}",
        ) from None
    comments = top_comments(data[1] if len(data) > 1 else {}, max_comments)
    lines = _post_lines(post)
    if comments:
        lines += [
            f"## Top comments ({len(comments)} of {post.get('num_comments', len(comments))}, by score)",
            "",
        ]
        for comment in comments:
            lines += _comment_lines(comment)
    markdown = "\n".join(lines).strip() + "\n"
    permalink = _text(post.get("permalink"))
    return Extracted(
        content_type="application/json",
        title=_text(post.get("title")),
        byline=_text(post.get("author")) or None,
        site_name="Reddit",
        published=_date(post.get("created_utc")),
        canonical_url=f"https://www.reddit.com{permalink}" if permalink else None,
        page_type="forum",
        word_count=count_words(markdown),
        content=markdown,
        extra={
            "subreddit": _text(post.get("subreddit")),
            "score": post.get("score"),
            "num_comments": post.get("num_comments"),
            "comments_shown": len(comments),
            "tokens": estimate_tokens(markdown),
        },
    )


def is_thread_json_url(url: str) -> bool:
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    return (
        host in _REDDIT_HOSTS and parts.path.endswith(".json") and bool(_THREAD_PATH.match(parts.path[:-5]))
    )


def extract_thread(raw: RawResponse, max_comments: int) -> Extracted | None:
    """The thread of a fetched Reddit `.json` URL; raises `FerretError` when Reddit refused; else None."""
    if not is_thread_json_url(raw.final_url) and not is_thread_json_url(raw.url):
        return None
    return thread_from_answer(raw.status, raw.content_type, raw.body, max_comments)


def thread_from_answer(status: int, content_type: str | None, body: bytes, max_comments: int) -> Extracted:
    """Render a thread's `.json` answer, or raise the refusal it really is."""
    refusal = reddit_refusal(status, content_type, body)
    if refusal is not None:
        raise FerretError(refusal.code, refusal.message, status=refusal.status, vendor=refusal.vendor)
    return render_thread(body, max_comments)


def explain_refusal(url: str, error: FerretError) -> FerretError:
    """A fetch of a thread's `.json` that Reddit answered 401/403/429 says plainly why; other errors pass."""
    if error.status is None or (thread_json_url(url) is None and not is_thread_json_url(url)):
        return error
    refusal = reddit_refusal(error.status, "application/json", b"{}")
    if refusal is None:
        return error
    explained = FerretError(refusal.code, refusal.message, status=refusal.status, vendor=refusal.vendor)
    explained.trail = error.trail
    return explained
