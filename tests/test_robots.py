"""robots.txt: RFC 9309 semantics against a real local server, and the cache."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

import httpx
import pytest
from simweb import SimWeb

from webferret.fetch.robots import RobotsPolicy, RobotsRules, load_rules
from webferret.fetch.robots_cache import SqliteRobotsCache
from webferret.models import ErrorCode, FerretError

ROBOTS = (
    b"User-agent: *\nDisallow: /private\nAllow: /private/ok\n\nUser-agent: webferret\nDisallow: /no-ferrets\n"
)


class _Robots(BaseHTTPRequestHandler):
    answers: ClassVar[dict[str, tuple[int, bytes]]] = {}
    hits: ClassVar[list[str]] = []

    def do_GET(self) -> None:
        host = self.headers["Host"].split(":")[0]
        self.hits.append(host)
        status, body = self.answers.get(host, (404, b""))
        self.send_response(status)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def robots_server() -> Iterator[int]:
    _Robots.hits = []
    _Robots.answers = {
        "127.0.0.1": (200, ROBOTS),
        "localhost": (503, b"busy"),
    }
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Robots)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


async def _get(url: str) -> tuple[int, bytes]:
    """A test getter: a real HTTP client to the loopback server (connect errors become values)."""
    async with httpx.AsyncClient(follow_redirects=True) as client:
        try:
            response = await client.get(url)
        except httpx.TransportError as exc:
            raise FerretError(ErrorCode.CONNECT_FAILED, f"cannot connect for {url}: {exc}") from None
    return response.status_code, response.content


async def test_rules_apply_with_longest_match_and_our_product_token(robots_server: int) -> None:
    policy = RobotsPolicy(_get)
    base = f"http://127.0.0.1:{robots_server}"
    await policy.check(f"{base}/public/page")
    await policy.check(f"{base}/private/ok/page")
    with pytest.raises(FerretError) as refused:
        await policy.check(f"{base}/no-ferrets/x")
    assert refused.value.code == ErrorCode.ROBOTS_DISALLOWED
    assert "/robots.txt" in refused.value.message
    assert len(_Robots.hits) == 1  # cached per origin


async def test_star_group_applies_to_other_agents(robots_server: int) -> None:
    policy = RobotsPolicy(_get, user_agent="otherbot")
    with pytest.raises(FerretError):
        await policy.check(f"http://127.0.0.1:{robots_server}/private/x")
    await policy.check(f"http://127.0.0.1:{robots_server}/no-ferrets/x")


async def test_5xx_disallows_everything(robots_server: int) -> None:
    rules = await load_rules(f"http://localhost:{robots_server}", _get)
    assert rules.verdict == "disallow_all"
    assert not rules.allows(f"http://localhost:{robots_server}/anything")


async def test_4xx_allows_everything(robots_server: int) -> None:
    _Robots.answers["127.0.0.1"] = (404, b"")
    policy = RobotsPolicy(_get)
    await policy.check(f"http://127.0.0.1:{robots_server}/private/x")
    _Robots.answers["127.0.0.1"] = (403, b"")
    assert (await load_rules(f"http://127.0.0.1:{robots_server}", _get)).verdict == "allow_all"


async def test_unreachable_disallows(closed_port: int) -> None:
    policy = RobotsPolicy(_get)
    with pytest.raises(FerretError) as refused:
        await policy.check(f"http://127.0.0.1:{closed_port}/page")
    assert "unreachable" in refused.value.message and "cannot connect" in refused.value.message
    assert refused.value.code == ErrorCode.CONNECT_FAILED  # what happened, not a rule of the site's


def test_rules_value_is_plain() -> None:
    rules = RobotsRules("http://a.example", "rules", "test", "User-agent: *\nDisallow: /\n")
    assert not rules.allows("http://a.example/x")
    assert RobotsRules("http://a.example", "allow_all", "404").allows("http://a.example/x")


@pytest.mark.parametrize(
    "path", ["/x/../private/secret", "/./private/secret", "//private/secret", "/%2e%2e/private/secret"]
)
def test_a_path_written_another_way_is_judged_as_the_server_reads_it(path: str) -> None:
    """`Disallow: /private` let `/x/../private/secret` through: the client sends `/private/secret`."""
    rules = RobotsRules("http://a.example", "rules", "test", "User-agent: *\nDisallow: /private\n")
    assert not rules.allows("http://a.example" + path)
    assert rules.allows("http://a.example/public/../public/x")


async def test_a_policy_refusal_passes_through() -> None:
    async def refuse(url: str) -> tuple[int, bytes]:
        raise FerretError(ErrorCode.BLOCKED_ADDRESS, f"{url} resolves to a private address")

    with pytest.raises(FerretError) as refused:
        await RobotsPolicy(refuse).check("http://10.0.0.1/page")
    assert refused.value.code == ErrorCode.BLOCKED_ADDRESS


async def test_sqlite_cache_is_shared_and_expires(robots_server: int, tmp_path: Path) -> None:
    base = f"http://127.0.0.1:{robots_server}"
    first = RobotsPolicy(_get, cache=SqliteRobotsCache.in_home(tmp_path))
    await first.check(f"{base}/public")
    second = RobotsPolicy(_get, cache=SqliteRobotsCache.in_home(tmp_path))  # another process, same home
    with pytest.raises(FerretError):
        await second.check(f"{base}/no-ferrets/x")
    assert len(_Robots.hits) == 1
    expired = RobotsPolicy(_get, cache=SqliteRobotsCache.in_home(tmp_path, ttl=0))
    await expired.check(f"{base}/public")
    assert len(_Robots.hits) == 2


@pytest.mark.parametrize(
    ("status", "verdict"), [(404, "allow_all"), (410, "allow_all"), (503, "disallow_all")]
)
async def test_the_real_fetcher_getter_classifies_error_statuses(
    robots_server: int, status: int, verdict: str
) -> None:
    """Through webferret's own fetcher (which raises for 4xx/5xx): a site without robots.txt is open."""

    _Robots.answers["127.0.0.1"] = (status, b"")
    rules = await _loaded(f"http://127.0.0.1:{robots_server}", timeout=5)
    assert rules.verdict == verdict and str(status) in rules.reason


def test_the_robots_file_keeps_one_connection(tmp_path: Path) -> None:
    cache = SqliteRobotsCache.in_home(tmp_path)
    rules = RobotsRules("https://example.org", "rules", "", "User-agent: *\nDisallow: /private\n")
    cache._put(rules)
    first = cache._connection.conn
    found = cache._get("https://example.org")
    assert found is not None and found.text == rules.text
    assert first is not None and cache._connection.conn is first


async def test_callers_of_one_origin_at_once_share_one_read(robots_server: int) -> None:
    """A 5xx robots.txt is not cached: without the shared read, each of twenty links of one site
    checked at once would ask the site again."""
    import asyncio

    policy = RobotsPolicy(_get)
    urls = [f"http://localhost:{robots_server}/page/{n}" for n in range(20)]
    verdicts = await asyncio.gather(*(policy.rules_for(url) for url in urls))
    assert {rules.verdict for rules in verdicts} == {"disallow_all"} and _Robots.hits == ["localhost"]
    await policy.rules_for(urls[0])  # a later caller asks again: a 5xx is not remembered
    assert _Robots.hits == ["localhost", "localhost"]


async def test_a_slow_robots_txt_names_its_own_cap_not_the_pages_timeout(simweb: SimWeb) -> None:

    simweb.add("/robots.txt", "User-agent: *\nDisallow:\n", delay=3)
    rules = await _loaded(simweb.base, timeout=0.5)
    assert rules.verdict == "disallow_all" and "the most a robots.txt is given" in rules.reason
    assert "setting timeout" not in rules.reason


@pytest.mark.parametrize("walls_every_client", [False, True])
async def test_a_robots_txt_behind_the_sites_wall(walls_every_client: bool) -> None:
    """A robots.txt behind the site's anti-bot wall was `blocked_by_site`, read as unreachable: every
    page of the site disallowed (a crawl read its start page alone). It is asked for again as a
    browser looks on the wire; a wall no tier gets past is its status's answer (403: allows all)."""
    from test_ladder import WALL
    from tiers_web import Hit, Reply, serve

    from webferret.fetch.fetcher import Fetcher
    from webferret.fetch.robots import fetcher_getter
    from webferret.fetch.types import FetchOptions

    def walled(hit: Hit) -> Reply:
        if walls_every_client or "webferret" in hit.headers.get("user-agent", ""):
            return 403, {"content-type": "text/html", "cf-mitigated": "challenge"}, WALL
        return 200, {"content-type": "text/plain"}, b"User-agent: *\nDisallow: /private\n"

    fetcher = Fetcher()
    try:
        with serve() as site:
            site.routes["/robots.txt"] = walled
            get = fetcher_getter(fetcher, FetchOptions(allow_hosts=("127.0.0.1",), timeout=5, tier="http"))
            rules = await load_rules(site.base, get)
    finally:
        await fetcher.aclose()
    if walls_every_client:
        assert rules.verdict == "allow_all" and "403" in rules.reason, rules
    else:
        assert rules.verdict == "rules" and not rules.allows(site.base + "/private/x", "webferret")
        assert rules.allows(site.base + "/docs", "webferret")


@pytest.mark.parametrize("tier", ["http", "impersonate"])
async def test_a_robots_txt_past_the_byte_cap_is_read_to_500_kib(simweb: SimWeb, tier: str) -> None:
    """A robots.txt longer than the pages' byte cap was `too_large`, read as unreachable: every path
    of the site disallowed. RFC 9309 has a crawler read its first 500 KiB: its rules there apply,
    those past them do not."""
    from webferret.fetch.fetcher import Fetcher
    from webferret.fetch.robots import MAX_ROBOTS_BYTES, fetcher_getter
    from webferret.fetch.types import FetchOptions

    padding = "# a comment that pads the file\n" * (MAX_ROBOTS_BYTES // 30)
    simweb.add("/robots.txt", f"User-agent: *\nDisallow: /private\n{padding}Disallow: /late\n")
    fetcher = Fetcher()
    try:
        options = FetchOptions(allow_hosts=("127.0.0.1",), timeout=5, tier=tier, max_bytes=100_000)  # type: ignore[arg-type]
        rules = await load_rules(simweb.base, fetcher_getter(fetcher, options))
    finally:
        await fetcher.aclose()
    assert rules.verdict == "rules", rules.reason
    assert not rules.allows(simweb.url("/private/x")) and rules.allows(simweb.url("/late/x"))
    assert rules.allows(simweb.url("/docs/x"))


async def test_a_byte_order_mark_does_not_hide_the_first_group(simweb: SimWeb) -> None:
    """A robots.txt saved with a UTF-8 byte order mark: the mark was read as part of its first line,
    `User-agent: *` was no longer one, and that group's rules were not followed."""

    simweb.add(
        "/robots.txt", "\ufeffUser-agent: *\nDisallow: /private\n", headers={"Content-Type": "text/plain"}
    )
    rules = await _loaded(simweb.base, timeout=5)
    assert not rules.allows(simweb.url("/private/x")) and rules.allows(simweb.url("/docs"))


async def test_a_robots_txt_that_redirects_in_a_loop_is_unavailable_not_unreachable(simweb: SimWeb) -> None:
    """A robots.txt whose redirects never end in a file was read as unreachable: every path of a site
    that answers disallowed. RFC 9309 (2.3.1.2) reads it as unavailable, as a 4xx: all allowed."""

    simweb.add("/robots.txt", "", status=301, headers={"Location": "/robots.txt"})
    rules = await _loaded(simweb.base, timeout=5)
    assert rules.verdict == "allow_all" and "redirect loop" in rules.reason, rules
    assert rules.allows(simweb.url("/docs/x"))


@pytest.mark.parametrize("max_redirects", [0, 2])
async def test_a_robots_txt_behind_a_redirect_is_read_whatever_the_pages_redirect_limit(
    simweb: SimWeb, max_redirects: int
) -> None:
    """robots.txt was asked for with the pages' `max_redirects`: set below the redirects of a site's
    robots.txt (http to https, to www: one or two), its redirects were too many, read as no file, so
    every path of the site was allowed, its Disallow rules ignored. RFC 9309 (2.3.1.2) has a crawler
    follow at least five."""
    for hop in range(3):
        simweb.add(f"/robots{hop or ''}.txt", "", status=301, headers={"Location": f"/robots{hop + 1}.txt"})
    simweb.add("/robots3.txt", "User-agent: *\nDisallow: /private\n", headers={"Content-Type": "text/plain"})
    rules = await _loaded(simweb.base, max_redirects=max_redirects)
    assert rules.verdict == "rules", rules.reason
    assert not rules.allows(simweb.url("/private/x")) and rules.allows(simweb.url("/docs"))


async def _loaded(base: str, timeout: float = 5, **more: Any) -> Any:
    """The robots.txt rules of the site at `base`, read through the http tier (127.0.0.1 allowed;
    `more`: other fetch options)."""
    from webferret.fetch.fetcher import Fetcher
    from webferret.fetch.robots import fetcher_getter
    from webferret.fetch.types import FetchOptions

    fetcher = Fetcher()
    try:
        options = FetchOptions(allow_hosts=("127.0.0.1",), timeout=timeout, tier="http", **more)
        return await load_rules(base, fetcher_getter(fetcher, options))
    finally:
        await fetcher.aclose()


def test_a_group_naming_the_version_our_user_agent_sends_applies_to_us() -> None:
    """The User-Agent header ends `webferret/0.1`: a site's owner who copies that from their logs into
    robots.txt wrote a group that was not ours (matched against the bare token `webferret`), and
    their Disallow and Crawl-delay were not honoured."""
    text = "User-agent: *\nAllow: /\n\nUser-agent: WebFerret/0.1\nDisallow: /private/\nCrawl-delay: 4\n"
    rules = RobotsRules("https://x.example", "rules", "https://x.example/robots.txt answered 200", text)
    assert not rules.allows("https://x.example/private/notes")
    assert rules.allows("https://x.example/public/notes")
    assert rules.delay() == 4
    other = RobotsRules(
        "https://x.example", "rules", "answered 200", "User-agent: webferret/9\nDisallow: /\n"
    )
    assert other.allows("https://x.example/page")  # another version's group is not ours


async def test_a_robots_txt_redirected_where_the_guard_refuses_is_unreachable(simweb: SimWeb) -> None:
    """A robots.txt redirected to a private address (allowed: 127.0.0.1 only) raised the guard's
    refusal, which a crawl or a map takes for a refusal of the site itself and reads its pages as if
    robots.txt allowed them all, saying nothing. The site answered and its file cannot be read: it is
    unreachable, which RFC 9309 reads as disallowing every path, and the refusal is said."""
    port = simweb.base.rsplit(":", 1)[1]
    simweb.add("/robots.txt", "", status=302, headers={"Location": f"http://127.0.0.2:{port}/robots.txt"})
    rules = await _loaded(simweb.base)
    assert rules.verdict == "disallow_all" and rules.unreachable == ErrorCode.BLOCKED_ADDRESS, rules
    assert "127.0.0.2" in rules.reason and not rules.allows(simweb.url("/docs"))


async def test_a_robots_txt_the_guard_refuses_itself_is_that_refusal() -> None:
    """The site's own robots.txt URL refused (a private address) is the guard's refusal, raised: its
    pages are refused alike, and say why."""
    with pytest.raises(FerretError) as refused:
        await _loaded("http://127.0.0.2:9")
    assert refused.value.code == ErrorCode.BLOCKED_ADDRESS


async def test_a_policy_keeps_the_reads_of_so_many_sites() -> None:
    """A session's policy kept the last read of every site it asked, its robots.txt text with it, for
    the session's life: the oldest now give way (a failure kept is asked for again)."""
    from webferret.fetch import robots

    asked: list[str] = []

    async def unreachable(url: str) -> tuple[int, bytes]:  # a failure: not in the cache, kept by the policy
        asked.append(url)
        raise FerretError(ErrorCode.CONNECT_FAILED, f"cannot connect for {url}")

    policy = RobotsPolicy(unreachable, keep_failures=True)
    sites = [f"http://s{n}.example" for n in range(robots.READS_KEPT + 1)]
    for site in [*sites, sites[-1], sites[0]]:
        await policy.rules_for(site + "/page")
    assert asked.count(sites[-1] + "/robots.txt") == 1 and asked.count(sites[0] + "/robots.txt") == 2
