"""Which links a crawl or a map follows, and the checks of their rules.

A link is followed when it is in the scope (a URL prefix: a host and a path; http and https alike),
past the include and exclude globs, a document a reader can use (not an image, media, a font, a
style, a script or an archive), not seen before however it is written, and where robots.txt allows
it. Each is judged as a client requests it, its dot segments resolved (`as_requested`), so `..`
takes no link past a rule. `crawler` and `site_map` both judge by `Follow` and `robots_allowed`;
`crawl_hops` judges where a followed link leads by the same rules.
"""

from __future__ import annotations

import fnmatch
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

from webferret.arguments import check_text, globs_of
from webferret.extract.sitename import INDEX_DOCUMENT
from webferret.models import ErrorCode, FerretError, Page
from webferret.net.canonical import canonical_url, encoded_path
from webferret.net.urlpath import as_requested, without_dot_segments
from webferret.net.urltext import web_url
from webferret.robots_tags import page_directives

T = TypeVar("T")

if TYPE_CHECKING:
    from webferret.crawler import CrawlOptions
    from webferret.ferret import Ferret
    from webferret.site_map import MapOptions

NOT_PAGES = frozenset(
    (
        *(".png", ".jpg", ".jpeg", ".gif", ".webp", ".avif", ".svg", ".ico", ".bmp", ".tif", ".tiff"),
        *(".mp3", ".mp4", ".m4a", ".webm", ".ogg", ".wav", ".mov", ".avi"),
        *(".woff", ".woff2", ".ttf", ".otf", ".eot", ".css", ".js", ".mjs", ".map"),
        *(".zip", ".gz", ".tgz", ".bz2", ".xz", ".7z", ".rar", ".tar", ".jar", ".whl"),
        *(".dmg", ".exe", ".msi", ".deb", ".rpm", ".apk", ".iso"),
    )
)
"""File name endings of links a crawl does not follow: nothing in them reads as text."""


def site_rules(options: CrawlOptions | MapOptions) -> None:
    """Check the rules of a crawl's or a map's `options` (frozen), its scope without spaces around
    it and its globs taken as `globs_of` reads them (one string is one glob); refuse
    (`invalid_argument`) rules that cannot hold: a scope that is no http(s) URL (`check_scope`), a
    blank glob (as an `include` it would keep no link, silently), a glob no path can match (a path
    starts with `/`: `docs/*`, a whole URL)."""
    if isinstance(options.scope, str):  # pasted with a line break or an indent: the URL, as a start is
        object.__setattr__(options, "scope", options.scope.strip())
    if options.scope is not None:
        check_text("scope", options.scope)
    check_scope(options.scope)
    for name in ("include", "exclude"):
        globs = globs_of(name, getattr(options, name))
        object.__setattr__(options, name, globs)
        if any(not glob.strip() for glob in globs):
            raise FerretError(
                ErrorCode.INVALID_ARGUMENT, f"{name}: a glob of paths such as /docs/*, not a blank"
            )
        for glob in globs:
            check_text(name, glob)  # (percent-encoded to be matched: a lone surrogate cannot be)
            if glob[0] not in "/*?[":  # it matches no path: every link left out (or none), silently
                message = (
                    f"{name} {glob[:200]!r}: a glob of a URL's path, which starts with / "
                    f"(such as /docs/* or */changelog/*), not of the whole URL"
                )
                raise FerretError(ErrorCode.INVALID_ARGUMENT, message)


def check_scope(scope: str | None) -> None:
    """Refuse a scope that is no http(s) URL with a host (`invalid_argument`), before any request."""
    if scope is not None and not web_url(scope):
        raise FerretError(ErrorCode.INVALID_ARGUMENT, f"scope {scope!r}: expected an http(s) URL prefix")


def default_scope(start: str) -> str:
    """The start page's folder on its host: `https://docs.x.org/guide/intro` -> `.../guide/` (a start
    that is no URL is its own scope: its page says why it cannot be read)."""
    try:
        parts = urlsplit(start.strip())
    except ValueError:
        return start
    folder = parts.path if parts.path.endswith("/") else parts.path.rsplit("/", 1)[0] + "/"
    return urlunsplit((parts.scheme.lower(), parts.netloc.lower(), folder or "/", "", ""))


def landed_scope(start: str, landed: str) -> str:
    """The default scope of a crawl whose start a redirect took to `landed`: that page's folder; but
    when it is the start's own page with the final `/` dropped (`/docs/` -> `/docs`, as many sites
    write their folders), the folder the start named (`/docs/`, not all of the host)."""
    try:
        parts = urlsplit(landed)
        dropped = urlsplit(start).path.endswith("/") and not parts.path.endswith("/")
    except ValueError:
        return default_scope(landed)
    if INDEX_DOCUMENT.search(parts.path):  # `/docs/` led to `/docs/index.html`: its folder, `/docs/`
        return default_scope(landed)
    if dropped and page_key(start) == page_key(landed):
        return default_scope(urlunsplit(parts._replace(path=parts.path + "/")))
    return default_scope(landed)


class Follow:
    """Whether a link is followed: in scope, past the globs, a document, not seen."""

    def __init__(self, scope: str, include: tuple[str, ...] = (), exclude: tuple[str, ...] = ()) -> None:
        try:  # a start that is no URL is its own default scope: nothing is in it (its page says why)
            parts = urlsplit(scope)
            self._port = _port(parts)
        except ValueError:
            parts, self._port = urlsplit(""), None
        self.scope = scope
        self._host = (parts.hostname or "").lower()
        self._prefix = _judged_path(parts.path)  # as the links' paths are judged
        self._include = tuple(encoded_path(glob, safe="?[]") for glob in include)  # `/docs/café*` too
        self._exclude = tuple(encoded_path(glob, safe="?[]") for glob in exclude)
        self._nofollowed: set[str] = set()  # the URLs counted as `nofollow`, each once

    def links(
        self,
        page: Page,
        seen: set[str],
        skipped: Counter[str],
        deadline: float | None = None,
        *,
        nofollow: bool = False,
    ) -> list[str]:
        """The links of `page` to follow: its main content's first, then the rest, each in the page's
        order, as extraction keeps them (see `judged`; past `deadline`, counted as `budget`); those
        past the links extraction kept (`links_total`: a crawl looks at 1,000 of a page, a map
        5,000) are counted as `past_link_cap`. With `nofollow` (a crawl honouring the site's robots
        rules), none of a page whose robots tags say `nofollow`, nor a link marked `rel=nofollow`:
        each such URL the crawl would follow otherwise counted once as `nofollow`, and not judged
        (another page's plain link to it, or a sitemap's, is followed, and then it is no longer
        counted); one it would not (another site's, out of scope) is judged, and counted by why, as
        it is with robots rules off."""
        if page.final_url:
            seen.add(page_key(page.final_url))  # a page a redirect reached is not read again
        links = page.links or []
        skipped["past_link_cap"] += max(0, int(page.meta.get("links_total") or 0) - len(links))
        urls = [link.url for link in links]
        if nofollow:
            marked = (
                urls if "nofollow" in page_directives(page) else [link.url for link in links if link.nofollow]
            )
            refused = [url for url in marked if self.refusal(as_requested(url)) is not None]
            kept_back = set(marked) - set(refused)
            for key in {page_key(as_requested(url)) for url in kept_back} - seen - self._nofollowed:
                self._nofollowed.add(key)
                skipped["nofollow"] += 1
            urls = [url for url in urls if url not in kept_back]
        return self.judged(urls, seen, skipped, deadline)

    def judged(
        self, urls: list[str], seen: set[str], skipped: Counter[str], deadline: float | None = None
    ) -> list[str]:
        """The `urls` to follow, in their order, each as it is requested (`as_requested`); each is
        judged once (added to `seen`), and those not followed are counted in `skipped` by why. Past
        `deadline` (a `time.monotonic()`), the URLs not judged yet are counted as `budget`: a
        sitemap index can list a million URLs, and judging them all takes many seconds."""
        followed: list[str] = []
        for written in within(urls, deadline, skipped):
            url = as_requested(written)
            key = page_key(url)
            if key in seen:
                continue
            seen.add(key)
            why = self.refusal(url)
            if why is None:
                followed.append(url)
                if key in self._nofollowed:  # a link marked nofollow elsewhere: followed from here
                    self._nofollowed.discard(key)
                    skipped["nofollow"] -= 1
            else:
                skipped[why] += 1
        return followed

    def refusal(self, url: str) -> str | None:
        """Why `url` is not followed (`out_of_scope`, `not_a_page`, `excluded`), or None."""
        try:
            parts = urlsplit(url)
            port = _port(parts)
        except ValueError:
            return "out_of_scope"
        path = _judged_path(parts.path)
        if parts.scheme.lower() not in ("http", "https"):
            return "out_of_scope"
        if (parts.hostname or "").lower() != self._host or port != self._port:
            return "out_of_scope"
        if not path.startswith(self._prefix):
            return "out_of_scope"
        if _file_ending(path) in NOT_PAGES:
            return "not_a_page"
        if self._include and not any(fnmatch.fnmatchcase(path, pattern) for pattern in self._include):
            return "excluded"
        if any(fnmatch.fnmatchcase(path, pattern) for pattern in self._exclude):
            return "excluded"
        return None


def _file_ending(path: str) -> str:
    """The ending of the file `path` names (`.png`), lowercased; none for a folder (`/docs/next.js/`,
    whose page the server answers: a path ending in `/` names no file)."""
    return "" if path.endswith("/") else PurePosixPath(path).suffix.lower()


def _judged_path(path: str) -> str:
    """The path a client requests for `path` as a page wrote it: percent-encoded one way (a page's
    `/dócs/a` and `/d%C3%B3cs/a` are one path, in a scope written either way), its dot segments
    resolved."""
    return without_dot_segments(encoded_path(path)) or "/"


def page_key(url: str) -> str:
    """The key of the page at `url` a crawl or a map reads or lists once: its `canonical_url`, http
    and https alike, as a scope takes them (a site's links and sitemaps mix the two schemes, the
    one redirecting to the other), a folder's index document its folder's (`/docs/index.html` is
    `/docs/`, as a server answers it)."""
    key = canonical_url(url)
    try:
        parts = urlsplit(key)
    except ValueError:
        return key
    if parts.scheme in ("http", "https") and INDEX_DOCUMENT.search(parts.path):
        key = canonical_url(urlunsplit(parts._replace(path=INDEX_DOCUMENT.sub("/", parts.path))))
    return "https://" + key[len("http://") :] if key.startswith("http://") else key


def stated_key(page: Page, url: str) -> str | None:
    """The key (`page_key`) of the page `page`, read from the link `url`, says it is a copy of
    (`<link rel="canonical">`), when that is another page of its own site (its host and port; a
    canonical page elsewhere is no page of the crawl's); else None."""
    read = page.final_url or url
    stated = page.canonical_url
    if not stated or site_of(stated) != site_of(read) or not web_url(stated):
        return None
    key = page_key(stated)
    return None if key == page_key(read) else key


def site_of(url: str) -> tuple[str, int | None] | None:
    """The host and port `url` is on as a scope reads them (`Follow`: http's and https's default
    ports alike), or None when it is no URL."""
    try:
        parts = urlsplit(url)
        return (parts.hostname or "").lower(), _port(parts)
    except ValueError:
        return None


def _port(parts: Any) -> int | None:
    """The port, with http's and https's defaults the same (a site's links mix the two schemes)."""
    port = parts.port
    return None if port in (80, 443) else port


async def robots_allowed(
    level: list[tuple[str, str | None]], robots: Any, skipped: Counter[str], deadline: float | None = None
) -> list[tuple[str, str | None]]:
    """The links robots.txt allows (all of them when it is not honoured); the others are counted.
    Each origin's rules are read once and every link judged by them here (a sitemap can list
    50,000 URLs of one site): a link whose robots.txt the guard refuses is kept, so that reading it
    says why; one whose robots.txt is unreachable is not (RFC 9309 reads that as disallowing all).
    Past `deadline` (a `time.monotonic()`), the links not judged yet are counted as `budget`."""
    if robots is None:
        return level
    import asyncio

    from webferret.fetch.robots import POLICY_REFUSALS, origin_of

    def origin(url: str) -> str | None:
        try:
            return origin_of(url)
        except ValueError:
            return None

    async def rules(url: str) -> Any:
        try:
            return await robots.rules_for(url)
        except FerretError as exc:
            return exc.code in POLICY_REFUSALS  # True: every link is read, and says so; False: none
        except ValueError:  # no URL (`Follow` lets none through): nothing to ask robots.txt
            return True

    firsts = {origin(url): url for url, _ in reversed(level)}
    read = dict(zip(firsts, await asyncio.gather(*(rules(url) for url in firsts.values())), strict=True))

    def allowed(url: str) -> bool:
        verdict = read[origin(url)]
        return verdict if isinstance(verdict, bool) else verdict.allows(url, robots.user_agent)

    kept: list[tuple[str, str | None]] = []
    for item in within(level, deadline, skipped):
        if allowed(item[0]):
            kept.append(item)
        else:
            skipped["robots"] += 1
    return kept


def within(items: Sequence[T], deadline: float | None, skipped: Counter[str]) -> Iterator[T]:
    """`items` in order until `deadline` (a `time.monotonic()`; None: no end) passes; those left then
    are counted in `skipped` as `budget` (a sitemap index can list a million URLs, and judging them
    all takes many seconds)."""
    for done, item in enumerate(items):
        if deadline is not None and time.monotonic() >= deadline:
            skipped["budget"] += len(items) - done
            return
        yield item


async def robots_unread(robots: Any, url: str, skipped: Counter[str]) -> str | None:
    """Why the robots.txt of `url`'s site could not be read (a 5xx answer, an outage, a time-out),
    when links were not followed for robots.txt (`skipped`): RFC 9309 reads such a robots.txt as
    disallowing every path, which the counts alone would pass off as the site's rules. None when it
    was read, or not honoured."""
    if robots is None or not skipped.get("robots") or not web_url(url):
        return None
    from webferret.fetch.robots import IGNORE_HINT

    try:
        rules = await robots.rules_for(url)  # read already: a failure is kept for the call
    except FerretError:
        return None
    if rules.verdict != "disallow_all":
        return None
    return f"{rules.reason}: RFC 9309 reads that as disallowing every path ({IGNORE_HINT})"


def site_robots(ferret: Ferret, fetch: Any) -> Any:
    """The robots.txt policy of one crawl or map (`home_robots`): a robots.txt that fails (a 5xx, an
    outage) is asked for once in the call, however many of its links and pages are judged."""
    from webferret.fetch.robots_cache import home_robots

    return home_robots(ferret, fetch, keep_failures=True)
