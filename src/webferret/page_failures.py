"""The failed pages of a fetch: a `Page` with `ok=False` and its `error` for a response that could not
be read, an exception out of one URL's fetch, a budget that ran out; and the second reading through the
browser of a page that extraction found to be a JavaScript app's shell (`Ferret._rendered`)."""

from __future__ import annotations

from typing import Any

from webferret.fetch.sniff import mime_of
from webferret.fetch.types import FetchOptions, RawResponse, struck_trail
from webferret.models import ErrorCode, ErrorInfo, FerretError, Page, without_password


def failed_raw(raw: RawResponse, error: ErrorInfo, meta: dict[str, Any] | None = None) -> Page:
    """The failed page for a response in hand: `error`, with what the response says of the page
    (its `meta.trail` too: how it was read, as a page that is read says). Its `content_type` is the
    media type the server gave (`mime_of`), as a page that is read has: never the header's other words."""
    return Page.failed(
        raw.url,
        error,
        final_url=raw.final_url,
        status=raw.status,
        content_type=mime_of(raw.content_type) or None,
        fetched_via=raw.fetched_via,
        meta={"trail": raw.trail, **(meta or {})},
    )


def late_shell(page: Page, raw: RawResponse, opts: FetchOptions) -> bool:
    """Whether the `auto` ladder let through a page that only extraction shows to be a JavaScript app's
    shell (its `empty_shell` veto: under 30 words of content, and an app mount point or scripts): the
    fetch verdict reads the whole page, and a few hundred words of menus or a cookie notice around an
    app that draws its content in the browser passed as content. Such a page is read again by the
    browser (`Ferret._rendered`)."""
    if opts.tier != "auto" or raw.fetched_via == "browser" or not 200 <= raw.status < 300:
        return False
    return page.meta.get("extract", {}).get("quality_veto") == "empty_shell"


def shell_marked(trail: list[dict[str, Any]], page: Page) -> list[dict[str, Any]]:
    """The first reading's hops, the last one marked as the shell extraction found."""
    hops = [dict(hop) for hop in trail]
    if hops:
        words = page.word_count or 0
        reason = f"extraction found a JavaScript app shell ({words} words of content)"
        hops[-1].update(verdict="js_shell", reason=reason)
    return hops


def with_browser_failure(page: Page, raw: RawResponse, exc: FerretError) -> Page:
    """The first reading kept when the browser could not read the page again (`Ferret._rendered`):
    an error says so in its message, a page in its trail."""
    if page.error is not None:
        error = page.error.model_copy(
            update={"message": f"{page.error.message}; the browser tier failed: {exc.message}"}
        )
        return page.model_copy(update={"error": error})
    hop = {"url": without_password(raw.final_url), "via": "browser", "error": exc.message}
    return page.model_copy(update={"meta": {**page.meta, "trail": [*shell_marked(raw.trail, page), hop]}})


def fetch_failed(
    url: str, opts: FetchOptions, exc: Exception, progress: list[dict[str, Any]] | None = None
) -> Page:
    """The failed page for an exception out of one URL's fetch: the budget spent (`TimeoutError`,
    its trail the hops in `progress`), the error a `FerretError` carries, else `internal` (a bug in
    one page's path must not fail the batch)."""
    if isinstance(exc, TimeoutError):
        return budget_spent(url, opts, struck_trail(progress or []))
    if isinstance(exc, FerretError):
        from webferret.extract.reddit import explain_refusal  # not on a search's way to its engines

        exc = explain_refusal(url, exc)
        meta = {"trail": exc.trail} if exc.trail else {}
        return Page.failed(url, exc.info(), status=exc.status, meta=meta)
    message = f"fetching {url} failed: {type(exc).__name__}: {exc}"
    return Page.failed(url, ErrorInfo(code=ErrorCode.INTERNAL, message=message))


def budget_spent(url: str, opts: FetchOptions, trail: list[dict[str, Any]] | None = None) -> Page:
    """The failed page (`timeout`) for `url` when the call's time budget ran out before it was read;
    `trail`: the hops begun."""
    setting = "budget" if opts.timed_by == "timeout" else opts.timed_by
    budget = opts.budget_set or opts.budget
    message = f"the call's time budget of {budget:g} s (setting {setting}) ran out before {url} was read"
    meta = {"trail": trail} if trail else {}
    return Page.failed(url, ErrorInfo(code=ErrorCode.TIMEOUT, message=message), meta=meta)


def never_requested(page: Page) -> bool:
    """Whether `page` failed because the call's time budget ran out before any request for it was
    begun (`budget_spent` without the hops begun): a page not read, rather than one that failed (a
    crawl counts its link as not followed)."""
    return page.error is not None and page.error.code == ErrorCode.TIMEOUT and not page.meta.get("trail")
