"""robots.txt for fetches an agent starts on its own (RFC 9309, parsed by Protego).

- 2xx: the rules apply (the longest match wins, as Protego implements RFC 9309).
- 4xx (robots.txt missing or refused): everything is allowed.
- 5xx, or unreachable (DNS, connect, timeout, a redirect to where the guard refuses to go): everything
  is disallowed. A robots.txt URL the guard refuses itself is raised as that refusal.
- Redirects are followed by the getter (the fetcher follows `max_redirects`, 5 at least); more of them,
  or a loop, reach no file: it is unavailable, as a 4xx (RFC 9309 2.3.1.2), not unreachable.

The answer for an origin is cached (`ttl` seconds, 24 h as RFC 9309 suggests) behind `RobotsCache`
(in memory, or `robots_cache.SqliteRobotsCache` in WEBFERRET_HOME, shared by processes);
the getter is a port, so the live path goes through the normal fetcher and its SSRF guard.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Protocol
from urllib.parse import urlsplit, urlunsplit

from protego import Protego

from webferret import __version__
from webferret.models import ErrorCode, FerretError
from webferret.net.joined import join_url
from webferret.net.urlpath import as_requested
from webferret.remote_text import url_without_blanks

PRODUCT_TOKEN = "webferret"
ROBOT_NAME = f"{PRODUCT_TOKEN}/{__version__}"
"""The name a robots.txt group is matched against (by Protego: a group whose `User-agent` stands in
it at a word's start): the product token, and the token with the version the User-Agent header
sends (`webferret/0.1`), which a site's owner may copy from their logs into robots.txt."""
MAX_ROBOTS_BYTES = 500 * 1024  # RFC 9309: parse at least 500 KiB
ROBOTS_REDIRECTS = 5
"""Redirects of a robots.txt followed at least, whatever the pages' `max_redirects` (RFC 9309 2.3.1.2:
five); past them (or a loop) there is no file: all paths allowed."""
DEFAULT_TTL = 24 * 3600.0
ROBOTS_TIMEOUT = 10.0
"""At most this many seconds for a robots.txt (less when the call's own timeout is shorter): a slow
one holds every page of its site behind it."""
IGNORE_HINT = "the user can turn robots.txt off: setting respect_robots, --ignore-robots"
READS_KEPT = 1024
"""The most origins whose last read one `RobotsPolicy` keeps (the oldest give way): an MCP session's
policy kept every site's robots.txt it had read, up to 500 KiB of text each, for the session's life."""

# refusals that say the URL itself may not be fetched: they pass through instead of "unreachable"
POLICY_REFUSALS = frozenset({ErrorCode.BLOCKED_ADDRESS, ErrorCode.INVALID_URL, ErrorCode.UNSUPPORTED_SCHEME})

# a robots.txt request the server answered with an error status (4xx allows all, 5xx disallows all)
ANSWERED = frozenset({ErrorCode.HTTP_ERROR, ErrorCode.RATE_LIMITED})

RobotsGetter = Callable[[str], Awaitable[tuple[int, bytes]]]
"""Get a robots.txt URL: answers (status, body) after redirects; raises `FerretError` when unreachable."""


@dataclass(frozen=True)
class RobotsRules:
    """What one origin's robots.txt says, reduced to how it was obtained and its rules."""

    origin: str
    verdict: str  # "rules", "allow_all" (4xx) or "disallow_all" (5xx, unreachable)
    reason: str
    text: str = ""
    unreachable: ErrorCode | None = None  # why robots.txt could not be read (connect_failed, timeout...)

    def allows(self, url: str, user_agent: str = ROBOT_NAME) -> bool:
        """Whether the rules allow `url`, judged by the path a server reads (dot segments resolved,
        runs of slashes one: a rule on `/private` is not passed by writing the path another way)."""
        if self.verdict != "rules":
            return self.verdict == "allow_all"
        return bool(self._parser.can_fetch(as_requested(url, merged=True), user_agent))

    def delay(self, user_agent: str = ROBOT_NAME) -> float | None:
        """The seconds robots.txt asks between requests (`Crawl-delay`, or `Request-rate` as a
        delay), the longer of the two; None when it asks none."""
        if self.verdict != "rules":
            return None
        asked = [self._parser.crawl_delay(user_agent)]
        rate = self._parser.request_rate(user_agent)
        if rate is not None and rate.requests:
            asked.append(rate.seconds / rate.requests)
        found = [float(value) for value in asked if value]
        return max(found) if found else None

    @property
    def sitemaps(self) -> list[str]:
        """The sitemaps robots.txt names (its `Sitemap:` lines), in its order; one written as a path
        (`Sitemap: /sitemap.xml`, though the protocol asks for a whole URL) is on the site's origin. Each
        is the site's words, named in messages an agent reads outside the fence: its spaces and hidden
        characters percent-encoded (`url_without_blanks`), so it is one token, never a sentence."""
        if self.verdict != "rules":
            return []
        return [
            url_without_blanks(join_url(self.origin + "/robots.txt", url)) for url in self._parser.sitemaps
        ]

    @cached_property
    def _parser(self) -> Any:
        return Protego.parse(self.text)


class RobotsCache(Protocol):
    async def get(self, origin: str) -> RobotsRules | None: ...
    async def put(self, rules: RobotsRules) -> None: ...


class MemoryRobotsCache:
    """A small in-process cache with a time to live (`SqliteRobotsCache` shares one across processes)."""

    def __init__(self, ttl: float = DEFAULT_TTL, size: int = 512) -> None:
        self.ttl = ttl
        self.size = size
        self._items: dict[str, tuple[float, RobotsRules]] = {}

    async def get(self, origin: str) -> RobotsRules | None:
        item = self._items.get(origin)
        if item is None or time.monotonic() - item[0] > self.ttl:
            return None
        return item[1]

    async def put(self, rules: RobotsRules) -> None:
        if len(self._items) >= self.size:
            self._items.pop(next(iter(self._items)))
        self._items[rules.origin] = (time.monotonic(), rules)


def origin_of(url: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme.lower(), parts.netloc.lower(), "", "", ""))


async def load_rules(origin: str, get: RobotsGetter) -> RobotsRules:
    """Fetch and classify `origin`'s robots.txt as RFC 9309 says (a policy refusal is raised as is)."""
    robots_url = origin + "/robots.txt"
    try:
        status, body = await get(robots_url)
    except FerretError as exc:
        if exc.code in POLICY_REFUSALS and not _answered(exc):
            raise
        if exc.code == ErrorCode.TOO_MANY_REDIRECTS:  # the site answered: it has no file to read
            return RobotsRules(origin, "allow_all", f"{robots_url} led to no file ({exc.message})")
        reason = f"{robots_url} is unreachable ({exc.message})"
        return RobotsRules(origin, "disallow_all", reason, unreachable=exc.code)
    if 200 <= status < 300:
        # a byte order mark (an editor's on Windows) is no part of the first line: its group kept
        text = body[:MAX_ROBOTS_BYTES].decode("utf-8-sig", errors="replace")
        return RobotsRules(origin, "rules", f"{robots_url} answered {status}", text)
    if 400 <= status < 500:
        return RobotsRules(origin, "allow_all", f"{robots_url} answered {status}")
    return RobotsRules(origin, "disallow_all", f"{robots_url} answered {status}")


def _answered(exc: FerretError) -> bool:
    """Did a hop of the robots.txt request answer before `exc` (a redirect the guard then refused to
    follow, to a private address, say)? The site was reached, and its file cannot be read: that is
    unreachable, not a refusal of the site's own URL (whose pages the guard would refuse alike)."""
    return any("status" in hop for hop in exc.trail)


@dataclass
class _Read:
    """The reads of one origin's robots.txt in a session: one at a time, the last answer kept."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    count: int = 0
    last: RobotsRules | None = None


class RobotsPolicy:
    """Checks URLs against their site's robots.txt; one instance per session."""

    def __init__(
        self,
        get: RobotsGetter,
        *,
        cache: RobotsCache | None = None,
        user_agent: str = ROBOT_NAME,
        keep_failures: bool = False,
    ) -> None:
        """`keep_failures`: a robots.txt that could not be read (a 5xx, an outage) is answered so for
        this policy's life, not asked for again: a crawl's or a map's, one call (a session's policy
        asks again, as the cache keeps no failure)."""
        self._keep_failures = keep_failures
        self._get = get
        self._cache: RobotsCache = cache if cache is not None else MemoryRobotsCache()
        self.user_agent = user_agent
        self._reads: dict[str, _Read] = {}

    async def rules_for(self, url: str) -> RobotsRules:
        """The rules of `url`'s origin: from the cache, else read. Callers that ask for one origin at
        once (a crawl's links, a batch of pages of one site) share one read of its robots.txt: a
        caller that waited while another read it takes that answer, a 5xx or an outage included
        (those are not cached, so each of them would otherwise be asked of the site again)."""
        origin = origin_of(url)
        rules = await self._cache.get(origin)
        if rules is not None:
            return rules
        read = self._reads.get(origin)
        if read is None:
            read = self._reads[origin] = _Read()
            self._forget_oldest()
        if self._keep_failures and read.last is not None:  # read by this policy before: it failed
            return read.last
        seen = read.count
        async with read.lock:
            if read.count > seen and read.last is not None:  # read while this caller waited
                return read.last
            rules = await load_rules(origin, self._get)
            if rules.verdict != "disallow_all":  # a 5xx or an outage is not remembered for a day
                await self._cache.put(rules)
            read.count, read.last = read.count + 1, rules
        return rules

    def _forget_oldest(self) -> None:
        """Keep `READS_KEPT` origins' reads at most, forgetting the oldest not being read now (the
        cache keeps what it keeps; a failure a crawl kept is asked for again, should its site return)."""
        for origin in [origin for origin, read in self._reads.items() if not read.lock.locked()]:
            if len(self._reads) <= READS_KEPT:
                break
            del self._reads[origin]

    async def check(self, url: str) -> None:
        """Raise `robots_disallowed` (naming the rule's source) when `url` may not be fetched; when
        robots.txt could not be read at all (the host is down, the connection or TLS failed, it
        timed out), raise that error's code: the site is unreachable, and that is what it says."""
        rules = await self.rules_for(url)
        if rules.allows(url, self.user_agent):
            return
        if rules.unreachable is not None:
            raise FerretError(
                rules.unreachable,
                f"{url} was not fetched: {rules.reason}; RFC 9309 reads an unreachable robots.txt "
                f"as disallowing every path ({IGNORE_HINT})",
            )
        detail = "its rules disallow this path" if rules.verdict == "rules" else "so all paths are off"
        raise FerretError(
            ErrorCode.ROBOTS_DISALLOWED, f"robots.txt refuses {url}: {rules.reason}, {detail} ({IGNORE_HINT})"
        )


def fetcher_getter(fetcher: Any, options: Any) -> RobotsGetter:
    """A getter that reads robots.txt through webferret's fetcher (SSRF guard, caps, redirects). A
    robots.txt behind the site's anti-bot wall is asked for once more as a browser looks on the wire
    (`impersonate`), as the site's pages are; still walled, the wall's status is its answer. A
    robots.txt longer than `MAX_ROBOTS_BYTES` is read to there (RFC 9309), not refused as too large;
    its redirects are followed to `ROBOTS_REDIRECTS` at least (with the pages' `max_redirects` at 0,
    the http-to-https redirect of a site's robots.txt was too many: no file, every path allowed)."""
    most = max(options.max_redirects, ROBOTS_REDIRECTS)
    options = options.with_(max_bytes=MAX_ROBOTS_BYTES, clip=True, max_redirects=most)

    async def get(url: str, opts: Any = options) -> tuple[int, bytes]:
        try:
            raw = await fetcher.fetch(url, opts, capped=False)  # no wait behind its host's pages
        except FerretError as exc:  # the fetcher raises for 4xx/5xx: here they are answers to classify
            if exc.code == ErrorCode.BLOCKED_BY_SITE and opts.tier == "http":
                return await get(url, opts.with_(tier="impersonate"))
            if exc.code in (*ANSWERED, ErrorCode.BLOCKED_BY_SITE) and exc.status is not None:
                return exc.status, b""
            if exc.code == ErrorCode.TIMEOUT:  # its own cap, not the pages' timeout the fetcher names
                given = f"{options.timeout:g} s, the most a robots.txt is given (less with a shorter timeout)"
                raise FerretError(ErrorCode.TIMEOUT, f"not read in full within {given}") from None
            raise
        return raw.status, raw.body

    return get
