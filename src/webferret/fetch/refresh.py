"""A `<meta http-equiv="refresh">` redirect (or its HTTP header, `Refresh: 0; url=/new`): the page a
browser goes on to.

Old sites, link shorteners and moved pages answer 200 with a small page whose head says
`<meta http-equiv="refresh" content="0; url=/new">`; the page itself is "Redirecting..." and nothing
else. The fetcher follows it as one more redirect hop (the SSRF guard and `max_redirects` apply).
Only a small HTML page, a delay of a few seconds at most, and a target that is another page: a news
page that reloads itself every five minutes is content, and so is a script app whose `<noscript>`
sends browsers without scripts elsewhere, or an `<!--[if lte IE 9]>` comment for old browsers (both
left out before the head is read).
"""

from __future__ import annotations

import re
from urllib.parse import urldefrag

from webferret.fetch.sniff import HTML_TYPES, mime_of
from webferret.fetch.types import RawResponse
from webferret.net.joined import join_url

MAX_PAGE = 16 * 1024  # bytes: a page that says more than this is content, whatever its head says
MAX_DELAY = 5.0  # seconds: a longer wait is a page meant to be read first
_HEAD = 4096
_UNREAD = re.compile(rb"<noscript\b.*?</noscript\s*>|<!--.*?-->", re.I | re.S)  # and IE's conditionals
_META = re.compile(rb"<meta\b[^>]*>", re.I)
_REFRESH = re.compile(rb"""http-equiv\s*=\s*["']?refresh\b""", re.I)
_CONTENT = re.compile(rb"""content\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""", re.I)
_DELAY = re.compile(r"\s*(\d+(?:\.\d*)?)\s*[;,]?")
"""A refresh's delay in seconds and the separator after it (`0;`); `_URL_KEY` and the target follow."""
_URL_KEY = re.compile(r"url\s*=", re.I)


def refresh_target(raw: RawResponse, url: str) -> str | None:
    """The absolute URL a small HTML page at `url` sends a reader on to, or None."""
    if raw.status != 200 or len(raw.body) > MAX_PAGE:
        return None
    if mime_of(raw.content_type) not in (*HTML_TYPES, ""):
        return None
    # a header's reload (`Refresh: 60`) is no target: the page's `<meta>` may still be one, the sooner
    header = raw.headers.get("refresh")
    if header and (target := _target(header, url)) is not None:
        return target
    head = _UNREAD.sub(b"", raw.body[: _HEAD * 4])[:_HEAD]
    for tag in _META.findall(head):
        if not _REFRESH.search(tag):
            continue
        content = _CONTENT.search(tag)
        value = next((group for group in content.groups() if group), b"") if content else b""
        return _target(value.decode("utf-8", "replace"), url)
    return None


def _target(value: str, url: str) -> str | None:
    """The URL a refresh's value (`0; url=/new`) sends a reader on to from `url`, or None: no target
    (or none a URL parser reads), a delay past `MAX_DELAY`, or `url` itself again (a reload). Read
    part by part: one pattern for the whole value tried each split of a run of spaces among its four
    ways to read them (the value `0`, 500 spaces and `x'y'z` took 16 s, with the event loop held)."""
    found = _DELAY.match(value)
    if found is None or float(found.group(1)) > MAX_DELAY:
        return None
    written = value[found.end() :].strip()
    key = _URL_KEY.match(written)
    written = written[key.end() :].strip() if key else written
    written = written[1:] if written[:1] in ("'", '"') else written  # a quoted target: its quotes
    written = written[:-1] if written[-1:] in ("'", '"') else written
    if not written.strip() or "'" in written or '"' in written:
        return None
    try:
        target = join_url(url, written.strip())
    except ValueError:  # no URL (`http://[::1`): a browser stays on the page, as it does here
        return None
    return None if urldefrag(target)[0] == urldefrag(url)[0] else target
