"""URL rewrites to the form of a page that reads best: pure functions, no network.

- Wikipedia article `https://LANG.wikipedia.org/wiki/TITLE` (also `LANG.m.wikipedia.org`)
  -> `https://LANG.wikipedia.org/api/rest_v1/page/mobile-html/TITLE`
- GitHub file `https://github.com/OWNER/REPO/blob/REF/PATH`
  -> `https://raw.githubusercontent.com/OWNER/REPO/REF/PATH`
- Reddit thread `https://(www|old).reddit.com/r/SUB/comments/ID/SLUG/`
  -> `https://www.reddit.com/r/SUB/comments/ID/SLUG.json?raw_json=1` (rendered by `extract/reddit.py`)

Anything else (and special pages, old revisions, history views) is left as it is.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

_WIKI_HOST = re.compile(r"(?P<lang>[a-z][a-z0-9-]*)(?:\.m)?\.wikipedia\.org")
_WIKI_SKIP = ("Special:", "Spezial:", "Especial:", "Spécial:")


def rewrite_url(url: str) -> str:
    """The URL to fetch for `url` (the same URL when no rule applies)."""
    try:
        parts = urlsplit(url)
        host = (parts.hostname or "").lower()
        port = parts.port  # raises for a port out of range
    except ValueError:
        return url
    if parts.scheme not in ("http", "https") or port not in (None, 80, 443):
        return url
    wiki = _WIKI_HOST.fullmatch(host)
    if wiki:
        return _wikipedia(wiki.group("lang"), parts.path, parts.query) or url
    if host in ("github.com", "www.github.com"):
        return _github(parts.path) or url
    from webferret.extract.reddit import thread_json_url

    return thread_json_url(url) or url


def _wikipedia(lang: str, path: str, query: str) -> str | None:
    if not path.startswith("/wiki/") or query:
        return None
    title = path.removeprefix("/wiki/")
    if not title or title.startswith(_WIKI_SKIP):
        return None
    return f"https://{lang}.wikipedia.org/api/rest_v1/page/mobile-html/{title}"


def _github(path: str) -> str | None:
    parts = path.strip("/").split("/")
    if len(parts) < 5 or parts[2] != "blob" or not all(parts[:2]):
        return None
    owner, repo, _, ref, *rest = parts
    if not all(rest):
        return None
    return f"https://raw.githubusercontent.com/{owner}/{repo}/{ref}/{'/'.join(rest)}"
