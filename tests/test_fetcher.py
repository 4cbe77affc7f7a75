"""The Fetcher against the simulated web on 127.0.0.1: redirects, caps, timeouts, statuses, pinning."""

import asyncio
import json
import re
import threading
from collections.abc import AsyncIterator

import httpx
import pytest
from simweb import Handler, SimWeb

from webferret.fetch.fetcher import Fetcher
from webferret.fetch.types import FetchOptions
from webferret.models import ErrorCode, FerretError
from webferret.net.transport import PinnedTransport

LOCAL = FetchOptions(allow_hosts=("127.0.0.1",), timeout=5.0, retry_after_max=1.0)


@pytest.fixture
async def fetcher() -> AsyncIterator[Fetcher]:
    fetcher = Fetcher()
    yield fetcher
    await fetcher.aclose()


async def fetch_error(fetcher: Fetcher, url: str, opts: FetchOptions = LOCAL) -> FerretError:
    with pytest.raises(FerretError) as info:
        await fetcher.fetch(url, opts)
    return info.value


async def test_plain_page(fetcher: Fetcher, simweb: SimWeb) -> None:
    raw = await fetcher.fetch(simweb.url("/article"), LOCAL)
    assert raw.status == 200
    assert b"The Ferret Field Guide" in raw.body
    assert raw.content_type == "text/html; charset=utf-8"
    assert raw.fetched_via == "http"


async def test_redirect_chain_is_followed_and_reported(fetcher: Fetcher, simweb: SimWeb) -> None:
    raw = await fetcher.fetch(simweb.url("/redirect/3"), LOCAL)
    assert raw.url == simweb.url("/redirect/3")
    assert raw.final_url == simweb.url("/article")
    assert [hop["status"] for hop in raw.trail] == [301, 301, 301, 302, 200]


@pytest.mark.parametrize(
    "written", ["http:/\\{host}/article", "/\\{host}/article", "http:\\\\{host}/article"]
)
async def test_a_location_with_backslashes_leads_where_a_browser_goes(
    fetcher: Fetcher, simweb: SimWeb, written: str
) -> None:
    """A browser reads a backslash before an http(s) URL's query as a slash (WHATWG URL): `/\\host/p`
    is the page p of `host`. Read by RFC 3986 it was a path of the redirecting host: another page
    (here a 404) than the one a browser shows."""
    host = simweb.base.removeprefix("http://")
    simweb.add("/leads", "", status=302, headers={"Location": written.format(host=host)})
    raw = await fetcher.fetch(simweb.url("/leads"), LOCAL)
    assert raw.status == 200 and raw.final_url == simweb.url("/article")


async def test_redirect_limit(fetcher: Fetcher, simweb: SimWeb) -> None:
    error = await fetch_error(fetcher, simweb.url("/redirect/5"))
    assert error.code == ErrorCode.TOO_MANY_REDIRECTS and "max_redirects" in error.message
    raw = await fetcher.fetch(simweb.url("/redirect/1"), LOCAL.with_(max_redirects=2))
    assert raw.status == 200


async def test_redirect_loop(fetcher: Fetcher, simweb: SimWeb) -> None:
    error = await fetch_error(fetcher, simweb.url("/loop/a"))
    assert error.code == ErrorCode.TOO_MANY_REDIRECTS and "loop" in error.message


def cookie_check(handler: Handler, web: SimWeb) -> None:
    """A site's cookie check: without its cookie, a redirect to the same URL that sets it."""
    if "seen=1" in handler.headers.get("Cookie", ""):
        handler.reply(200, b"<html><body><p>past the cookie check</p></body></html>")
    else:
        handler.reply(302, b"", {"Location": "/cookie-check", "Set-Cookie": "seen=1; Path=/"})


@pytest.mark.parametrize("tier", ["http", "impersonate"])
async def test_a_cookie_a_redirect_sets_goes_with_the_next_hops(
    fetcher: Fetcher, simweb: SimWeb, tier: str
) -> None:
    """As a browser (or `curl -L -b`) does: the same URL again with a new cookie is no loop."""
    simweb.add("/cookie-check", stream=cookie_check)
    simweb.add("/go", status=302, headers={"Location": "/cookie-check"})
    raw = await fetcher.fetch(simweb.url("/go"), LOCAL.with_(tier=tier, headers=(("Cookie", "mine=1"),)))
    assert raw.status == 200 and b"past the cookie check" in raw.body
    assert [hop["status"] for hop in raw.trail] == [302, 302, 200]
    sent = [headers.get("cookie") for _, headers in simweb.log("/go", "/cookie-check")]
    assert sent == ["mine=1", "mine=1", "mine=1; seen=1"]


async def test_each_hop_is_vetted_again(fetcher: Fetcher, simweb: SimWeb) -> None:
    simweb.add("/to-private", status=302, headers={"Location": f"http://127.0.0.2:{simweb.port}/article"})
    simweb.add("/to-ftp", status=302, headers={"Location": "ftp://127.0.0.1/x"})
    assert (await fetch_error(fetcher, simweb.url("/to-private"))).code == ErrorCode.BLOCKED_ADDRESS
    assert (await fetch_error(fetcher, simweb.url("/to-ftp"))).code == ErrorCode.UNSUPPORTED_SCHEME


@pytest.mark.parametrize("location", ["data:text/html,<p>hi", "javascript:alert(1)", "view-source:http://x/"])
async def test_a_redirect_to_another_scheme_is_refused_by_its_scheme(
    fetcher: Fetcher, simweb: SimWeb, location: str
) -> None:
    """httpx cannot build such a Location into a request; the answer still reaches the Fetcher."""
    url = simweb.add("/to-scheme", status=302, headers={"Location": location})
    error = await fetch_error(fetcher, url)
    assert error.code == ErrorCode.UNSUPPORTED_SCHEME and location.split(":")[0] in error.message
    raw = await fetcher.fetch(simweb.add("/to-same", status=302, headers={"Location": "http:article"}), LOCAL)
    assert raw.final_url == simweb.url("/article")  # a scheme-relative path, as browsers read it


def two_locations(handler: Handler, web: SimWeb) -> None:
    """A redirect whose `Location` is sent twice (a server and its proxy each adding one)."""
    second = "/article" if handler.path.endswith("same") else "/elsewhere"
    handler.send_response(302)
    for place in ("/article", second):
        handler.send_header("Location", place)
    handler.send_header("Content-Length", "0")
    handler.send_header("Connection", "close")
    handler.end_headers()


@pytest.mark.parametrize(
    ("path", "tier"), [("/twice-same", "http"), ("/twice-same", "impersonate"), ("/twice", "http")]
)
async def test_a_location_sent_twice_is_the_first(
    fetcher: Fetcher, simweb: SimWeb, path: str, tier: str
) -> None:
    """Both joined, "/article, /elsewhere", were followed as one address (a 404 at best). curl
    refuses two that differ (the impersonate tier's error says so) and takes two alike as one."""
    simweb.add(path, stream=two_locations)
    raw = await fetcher.fetch(simweb.url(path), LOCAL.with_(tier=tier))
    assert raw.final_url == simweb.url("/article") and b"The Ferret Field Guide" in raw.body


async def test_gzip_is_decoded(fetcher: Fetcher, simweb: SimWeb) -> None:
    raw = await fetcher.fetch(simweb.url("/gzip-article"), LOCAL)
    assert b"Gzipped" in raw.body


@pytest.mark.parametrize("tier", ["http", "impersonate"])
@pytest.mark.parametrize("path", ["/gzip-bomb", "/huge", "/huge-declared"])
async def test_byte_cap_on_decompressed_bytes(fetcher: Fetcher, simweb: SimWeb, path: str, tier: str) -> None:
    """The server answered 200, its body was too large: the status is kept by either tier (the
    impersonate tier's was null)."""
    error = await fetch_error(fetcher, simweb.url(path), LOCAL.with_(max_bytes=1024 * 1024, tier=tier))
    assert error.code == ErrorCode.TOO_LARGE and "max_bytes" in error.message
    assert error.status == 200


async def test_gzip_bomb_stops_at_the_default_cap(fetcher: Fetcher, simweb: SimWeb) -> None:
    error = await fetch_error(fetcher, simweb.url("/gzip-bomb"), LOCAL.with_(max_bytes=10 * 1024 * 1024))
    assert error.code == ErrorCode.TOO_LARGE


async def test_an_error_after_a_redirect_names_the_hop_it_struck(
    fetcher: Fetcher, simweb: SimWeb, closed_port: int
) -> None:
    """Any hop's error, not only a timeout, leaves the trail of the hops before it and marks its own."""
    bomb = simweb.add("/to-bomb", status=302, headers={"Location": "/gzip-bomb"})
    error = await fetch_error(fetcher, bomb, LOCAL.with_(max_bytes=1024 * 1024))
    assert error.code == ErrorCode.TOO_LARGE
    assert error.trail == [
        {"url": bomb, "via": "http", "status": 302},
        {"url": simweb.url("/gzip-bomb"), "via": "http", "error": "too_large"},
    ]
    closed = f"http://127.0.0.1:{closed_port}/"
    moved = simweb.add("/to-closed", status=302, headers={"Location": closed})
    error = await fetch_error(fetcher, moved)
    assert error.code == ErrorCode.CONNECT_FAILED
    assert [hop.get("status") or hop.get("error") for hop in error.trail] == [302, "connect_failed"]
    assert error.trail[-1]["url"] == closed


async def test_a_later_tier_that_fails_is_in_the_trail_too(fetcher: Fetcher, simweb: SimWeb) -> None:
    """The http tier hands a brotli body on to impersonate; a corrupt one fails there too, and the
    trail says both, not only the hop the http tier handed on."""
    url = simweb.add(
        "/bad-brotli", b"<html><p>not brotli</p></html>" * 20, headers={"Content-Encoding": "br"}
    )
    error = await fetch_error(fetcher, url, LOCAL.with_(tier="auto"))
    assert error.code == ErrorCode.UNSUPPORTED_CONTENT
    assert [(hop["via"], hop.get("error")) for hop in error.trail] == [
        ("http", "unsupported_content"),
        ("impersonate", "unsupported_content"),
    ]


async def test_a_dripping_server_hits_the_page_timeout(fetcher: Fetcher, simweb: SimWeb) -> None:
    error = await fetch_error(fetcher, simweb.url("/drip"), LOCAL.with_(timeout=1.0))
    assert error.code == ErrorCode.TIMEOUT and "1 s" in error.message


async def test_a_lying_content_length_is_an_error(fetcher: Fetcher, simweb: SimWeb) -> None:
    error = await fetch_error(fetcher, simweb.url("/lying-length"))
    assert error.code == ErrorCode.HTTP_ERROR and "5000" in error.message and error.status == 200


@pytest.mark.parametrize("status", [400, 403, 404, 410, 500, 503])
async def test_error_statuses(fetcher: Fetcher, simweb: SimWeb, status: int) -> None:
    error = await fetch_error(fetcher, simweb.url(f"/status/{status}"))
    assert (error.code, error.status) == (ErrorCode.HTTP_ERROR, status)
    assert str(status) in error.message


async def test_429_short_retry_after_is_honoured_once(fetcher: Fetcher, simweb: SimWeb) -> None:
    error = await fetch_error(fetcher, simweb.own("/limited/short", "/rate-limited"))
    assert (error.code, error.status, error.retry_after) == (ErrorCode.RATE_LIMITED, 429, 1.0)
    assert simweb.served("/limited/short") == 2


async def test_429_then_success(fetcher: Fetcher, simweb: SimWeb) -> None:
    served: list[int] = []

    def flaky(handler, web) -> None:  # type: ignore[no-untyped-def]
        served.append(1)
        status, body = (429, b"wait") if len(served) == 1 else (200, b"<html><p>fine now</p></html>")
        handler.reply(status, body, {"Retry-After": "0"})

    simweb.add("/flaky", stream=flaky)
    raw = await fetcher.fetch(simweb.url("/flaky"), LOCAL)
    assert raw.status == 200 and [hop["status"] for hop in raw.trail] == [429, 200]


async def test_429_long_retry_after_is_not_waited(fetcher: Fetcher, simweb: SimWeb) -> None:
    error = await fetch_error(fetcher, simweb.own("/limited/long", "/rate-limited-long"))
    assert (error.code, error.retry_after) == (ErrorCode.RATE_LIMITED, 3600.0)
    assert simweb.served("/limited/long") == 1


async def test_429_whose_wait_outlasts_the_page_time_is_not_waited(fetcher: Fetcher, simweb: SimWeb) -> None:
    """A Retry-After within `retry_after_max` but past the page's timeout: the 429 is the answer,
    with its wait (it was slept on until the page's timeout struck, `timeout` with no wait said)."""
    url = simweb.add("/limited/later", b"slow down", status=429, headers={"Retry-After": "30"})
    error = await fetch_error(fetcher, url, LOCAL.with_(timeout=2.0, retry_after_max=60.0))
    assert (error.code, error.status, error.retry_after) == (ErrorCode.RATE_LIMITED, 429, 30.0)
    assert simweb.served("/limited/later") == 1


async def test_a_retry_after_date_is_said_in_days(fetcher: Fetcher, simweb: SimWeb) -> None:
    url = simweb.add(
        "/later", b"slow down", status=429, headers={"Retry-After": "Wed, 21 Oct 2099 07:28:00 GMT"}
    )
    error = await fetch_error(fetcher, url)
    assert re.search(r"; retry after \d{5} days$", error.message) and (error.retry_after or 0) > 1e9


async def test_a_503_says_when_to_come_back(fetcher: Fetcher, simweb: SimWeb) -> None:
    url = simweb.add("/maintenance", b"down for maintenance", status=503, headers={"Retry-After": "120"})
    error = await fetch_error(fetcher, url)
    assert (error.code, error.status, error.retry_after) == (ErrorCode.HTTP_ERROR, 503, 120.0)
    assert error.message == "HTTP 503 Service Unavailable; retry after 2 min"


async def test_conditional_request_returns_304(fetcher: Fetcher, simweb: SimWeb) -> None:
    first = await fetcher.fetch(simweb.url("/etag"), LOCAL)
    assert first.status == 200 and first.headers["etag"] == '"v1"'
    again = await fetcher.fetch(simweb.url("/etag"), LOCAL.with_(headers=(("If-None-Match", '"v1"'),)))
    assert again.status == 304 and again.body == b""


async def test_connect_failed_on_a_closed_port(fetcher: Fetcher, closed_port: int) -> None:
    error = await fetch_error(fetcher, f"http://127.0.0.1:{closed_port}/")
    assert error.code == ErrorCode.CONNECT_FAILED and str(closed_port) in error.message


@pytest.mark.parametrize(
    "host", ["127.0.0.2", "[::1]", "0.0.0.0", "2130706433", "0x7f000001", "0177.0.0.1", "127.1"]
)
async def test_refused_before_any_connect(fetcher: Fetcher, simweb: SimWeb, host: str) -> None:
    simweb.own("/refused", "/article")
    error = await fetch_error(fetcher, f"http://{host}:{simweb.port}/refused")
    assert error.code == ErrorCode.BLOCKED_ADDRESS
    assert simweb.served("/refused") == 0


async def test_without_allow_host_loopback_is_refused(fetcher: Fetcher, simweb: SimWeb) -> None:
    error = await fetch_error(fetcher, simweb.url("/article"), FetchOptions())
    assert error.code == ErrorCode.BLOCKED_ADDRESS and "--allow-host 127.0.0.1" in error.message
    raw = await fetcher.fetch(simweb.url("/article"), FetchOptions(allow_private_hosts=True))
    assert raw.status == 200


async def test_a_name_is_resolved_once_and_the_host_header_kept(simweb: SimWeb) -> None:
    lookups: list[str] = []

    async def resolver(host: str, port: int) -> list[str]:
        lookups.append(host)
        return ["127.0.0.1"]

    fetcher = Fetcher(resolver=resolver)
    try:
        raw = await fetcher.fetch(
            f"http://localhost:{simweb.port}/echo", FetchOptions(allow_hosts=("localhost",))
        )
    finally:
        await fetcher.aclose()
    assert lookups == ["localhost"]
    assert json.loads(raw.body)["host"] == f"localhost:{simweb.port}"


async def test_request_headers_are_sent(fetcher: Fetcher, simweb: SimWeb) -> None:
    opts = LOCAL.with_(
        headers=(("If-Modified-Since", "Sat, 01 Jan 2000 00:00:00 GMT"),), user_agent="ferret-test"
    )
    seen = json.loads((await fetcher.fetch(simweb.url("/echo"), opts)).body)
    assert seen["if-modified-since"] == "Sat, 01 Jan 2000 00:00:00 GMT"
    assert seen["user-agent"] == "ferret-test"
    assert "gzip" in seen["accept-encoding"]


async def test_the_transport_refuses_an_unpinned_host(simweb: SimWeb) -> None:
    async with httpx.AsyncClient(transport=PinnedTransport(), trust_env=False) as client:
        with pytest.raises(httpx.ConnectError, match="no vetted address"):
            await client.get(simweb.own("/unpinned", "/article"))
    assert simweb.served("/unpinned") == 0


async def test_per_host_concurrency_cap(simweb: SimWeb) -> None:
    active, peak, lock = [0], [0], threading.Lock()

    def counted(handler, web) -> None:  # type: ignore[no-untyped-def]
        with lock:
            active[0] += 1
            peak[0] = max(peak[0], active[0])
        web.closing.wait(0.2)
        with lock:
            active[0] -= 1
        handler.reply(200, b"<html><p>counted</p></html>")

    simweb.add("/counted", stream=counted)
    fetcher = Fetcher()
    try:
        opts = LOCAL.with_(per_host_concurrency=2)
        await asyncio.gather(*(fetcher.fetch(simweb.url("/counted"), opts) for _ in range(6)))
    finally:
        await fetcher.aclose()
    assert peak[0] == 2
