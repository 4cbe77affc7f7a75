"""The runner's status policy, through `httpx.MockTransport` (no network)."""

from __future__ import annotations

import gzip
import tracemalloc
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import httpx
import pytest

from webferret.models import ErrorCode, FerretError
from webferret.net.policy import UrlPolicy
from webferret.search.engines import github, searxng
from webferret.search.pacing import Pacer
from webferret.search.runner import MAX_ANSWER_BYTES, MAX_REDIRECTS, EngineRunner, retry_after_seconds
from webferret.search.types import EngineQuery

SEARX = EngineQuery(text="q", base_url="http://searx.invalid")


class _Streamed(httpx.AsyncByteStream):
    def __init__(self, data: bytes) -> None:
        self.data = data

    async def __aiter__(self) -> AsyncIterator[bytes]:
        yield self.data


def _on_the_wire(handler: Callable[[httpx.Request], httpx.Response]) -> httpx.MockTransport:
    """`handler`'s answers as a server sends them: a body still to read, raw (httpx reads a
    `Response(content=...)` whole when it is made, decoding it; the runner reads the raw stream)."""

    def answer(request: httpx.Request) -> httpx.Response:
        made = handler(request)
        if not isinstance(made.stream, httpx.SyncByteStream):
            return made  # a body already streamed
        return httpx.Response(made.status_code, headers=made.headers, stream=_Streamed(b"".join(made.stream)))

    return httpx.MockTransport(answer)


def runner(handler: Callable[[httpx.Request], httpx.Response], pacer: Pacer | None = None) -> EngineRunner:
    client = httpx.AsyncClient(transport=_on_the_wire(handler))
    return EngineRunner(client, pacer, min_interval=0)


async def test_searxng_403_says_to_enable_json() -> None:
    r = runner(lambda request: httpx.Response(403, text="Forbidden"))
    with pytest.raises(FerretError) as caught:
        await r.run(searxng.ENGINE, SEARX, timeout=5)
    assert caught.value.status == 403
    assert "search.formats" in caught.value.message and "json" in caught.value.message


async def test_searxng_request_shape() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json={"results": [], "unresponsive_engines": []})

    answer = await runner(handler).run(
        searxng.ENGINE, EngineQuery(text="a b", site="x.org", base_url="http://s.invalid/"), 5
    )
    assert answer.hits == []
    assert seen[0].url.path == "/search"
    assert dict(seen[0].url.params) == {"q": "a b site:x.org", "format": "json", "pageno": "1"}


async def test_429_suspends_the_engine_for_its_retry_after(tmp_path: Path) -> None:
    pacer = Pacer(tmp_path / "pacing.sqlite")
    r = runner(lambda request: httpx.Response(429, headers={"Retry-After": "90"}), pacer)
    with pytest.raises(FerretError) as caught:
        await r.run(searxng.ENGINE, SEARX, timeout=5)
    assert caught.value.code == ErrorCode.RATE_LIMITED and caught.value.retry_after == 90
    suspension = pacer.suspension("searxng at http://searx.invalid")
    assert suspension is not None and "429" in suspension.reason
    other = EngineQuery(text="q", base_url="http://other-searx.invalid/")
    await r.turn(searxng.ENGINE, other)  # another instance does not rest with it
    with pytest.raises(FerretError) as resting:
        await r.turn(searxng.ENGINE, SEARX)
    assert resting.value.code == ErrorCode.RATE_LIMITED
    assert resting.value.message.startswith("searxng at http://searx.invalid is resting for 90 s more")


async def test_github_spent_quota_is_a_rate_limit_and_token_is_sent() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(
            403, headers={"X-RateLimit-Remaining": "0"}, json={"message": "API rate limit exceeded"}
        )

    with pytest.raises(FerretError) as caught:
        await runner(handler).run(github.ENGINE, EngineQuery(text="tokio", token="t0k"), 5)
    assert caught.value.code == ErrorCode.RATE_LIMITED and "GITHUB_TOKEN" in caught.value.message
    assert seen[0].headers["authorization"] == "Bearer t0k"


async def test_unreadable_answer_is_an_engine_error() -> None:
    with pytest.raises(FerretError) as caught:
        await runner(lambda request: httpx.Response(200, text="<html>oops</html>")).run(
            searxng.ENGINE, SEARX, 5
        )
    assert caught.value.code == ErrorCode.ENGINE_ERROR and "not JSON" in caught.value.message


async def test_connection_failure_names_the_engine() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("refused", request=request)

    with pytest.raises(FerretError) as caught:
        await runner(handler).run(searxng.ENGINE, SEARX, 5)
    assert caught.value.code == ErrorCode.CONNECT_FAILED and caught.value.message.startswith("searxng:")


def test_retry_after_seconds() -> None:
    assert retry_after_seconds("120") == 120
    assert retry_after_seconds(None) is None
    assert retry_after_seconds("Wed, 21 Oct 2015 07:28:00 GMT") == 0  # a date past: come back now
    assert retry_after_seconds("soon") is None and retry_after_seconds("1e400") is None


async def test_an_engines_retry_after_as_a_date_is_read(tmp_path: Path) -> None:
    """RFC 9110's other form of Retry-After, an HTTP date, was ignored for an engine (a page's was
    read): the engine rested the default five minutes, not until the date it named."""
    from datetime import UTC, datetime, timedelta
    from email.utils import format_datetime

    when = format_datetime(datetime.now(UTC) + timedelta(hours=1), usegmt=True)
    pacer = Pacer(tmp_path / "pacing.sqlite")
    r = runner(lambda request: httpx.Response(429, headers={"Retry-After": when}), pacer)
    with pytest.raises(FerretError) as caught:
        await r.run(searxng.ENGINE, SEARX, timeout=5)
    wait = caught.value.retry_after
    assert caught.value.code == ErrorCode.RATE_LIMITED and wait is not None and 3000 < wait <= 3600


def test_transport_failures_get_their_own_codes() -> None:
    import httpx

    from webferret.search.engines._common import transport_code

    name_error = httpx.ConnectError("[Errno -3] Temporary failure in name resolution")
    assert transport_code(name_error) == ErrorCode.DNS_FAILURE
    assert transport_code(httpx.ConnectError("All connection attempts failed")) == ErrorCode.CONNECT_FAILED
    assert transport_code(httpx.ReadTimeout("slow")) == ErrorCode.TIMEOUT

    class DNSError(Exception):  # the shape of the ddgs transport's name failures
        pass

    assert transport_code(DNSError("error sending request > error resolving DNS")) == ErrorCode.DNS_FAILURE


def test_an_unreachable_engine_is_said_once_whatever_the_transport() -> None:
    """httpx and the ddgs transport fail alike: the engine, the URL and the cause, each once."""
    from webferret.search.engines._common import unreachable

    class DNSError(Exception):  # the ddgs transport's: its text is the repr of the cause
        pass

    class ConnectError(Exception):
        pass

    url = "https://html.duckduckgo.com/html/"
    wrapped = DNSError(
        f"DNSError('error sending request for url ({url}) > error resolving DNS > no connections available')"
    )
    plain = httpx.ConnectError("[Errno -3] Temporary failure in name resolution")
    for exc in (wrapped, plain):
        error = unreachable("duckduckgo", url, exc)
        assert error.code == ErrorCode.DNS_FAILURE
        assert error.message == f"duckduckgo: cannot reach {url}: its host name does not resolve (offline?)"
    refused = unreachable(
        "brave", url, ConnectError(f"ConnectError('error sending request for url ({url}) > refused')")
    )
    assert refused.code == ErrorCode.CONNECT_FAILED
    assert refused.message == f'brave: cannot reach {url}: ConnectError: "refused"'


def test_a_backend_the_installed_ddgs_lacks_says_so_and_names_the_working_ones(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from webferret.search.engines import ddgs_text

    monkeypatch.setitem(ddgs_text.BACKENDS, "nosuch", ("nosuch", "nosuch"))
    with pytest.raises(FerretError) as caught:
        ddgs_text.backend_class("nosuch")
    assert caught.value.code == ErrorCode.ENGINE_ERROR
    message = caught.value.message
    assert "the installed ddgs (" in message and "'nosuch'" in message
    assert "duckduckgo" in message.split("work here: ")[1] and "nosuch" not in message.split("work here: ")[1]


def _guarded(handler: object, addresses: dict[str, str]) -> EngineRunner:
    """A runner whose redirects off the engine's host pass a guard that resolves names by `addresses`."""

    async def resolve(host: str, port: int) -> list[str]:
        return [addresses[host]]

    client = httpx.AsyncClient(transport=_on_the_wire(handler))
    return EngineRunner(client, None, min_interval=0, policy=UrlPolicy(resolver=resolve))


def _hops(routes: dict[str, str]) -> tuple[object, list[str]]:
    """A server that redirects each URL of `routes` to its value and answers anything else with no results."""
    seen: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        url = str(request.url.copy_with(query=None))
        seen.append(url)
        if url in routes:
            return httpx.Response(302, headers={"Location": routes[url]})
        return httpx.Response(200, json={"results": [{"url": "https://ferret.example/", "title": "Ferrets"}]})

    return handler, seen


async def test_a_redirect_on_the_engines_host_is_followed() -> None:
    handler, seen = _hops({"http://searx.invalid/search": "/other/search"})
    answer = await _guarded(handler, {}).run(searxng.ENGINE, SEARX, 5)
    assert [hit.url for hit in answer.hits] == ["https://ferret.example/"]
    assert seen == ["http://searx.invalid/search", "http://searx.invalid/other/search"]


async def test_a_redirect_to_a_public_host_passes_the_guard() -> None:
    handler, seen = _hops({"http://searx.invalid/search": "https://mirror.example/search"})
    answer = await _guarded(handler, {"mirror.example": "93.184.216.34"}).run(searxng.ENGINE, SEARX, 5)
    assert len(answer.hits) == 1 and seen[-1] == "https://mirror.example/search"


@pytest.mark.parametrize(
    "location",
    ["http://admin.example/panel", "http://169.254.169.254/latest/meta-data/", "http://[::1]:8080/"],
)
async def test_a_redirect_to_a_private_address_is_refused_before_it_is_asked(location: str) -> None:
    handler, seen = _hops({"http://searx.invalid/search": location})
    with pytest.raises(FerretError) as caught:
        await _guarded(handler, {"admin.example": "10.0.0.7"}).run(searxng.ENGINE, SEARX, 5)
    assert caught.value.code == ErrorCode.BLOCKED_ADDRESS
    assert caught.value.message.startswith("searxng redirected to http")
    assert seen == ["http://searx.invalid/search"]  # the private address was never asked


async def test_without_a_guard_no_redirect_leaves_the_engines_host() -> None:
    handler, seen = _hops({"http://searx.invalid/search": "https://u:pw@mirror.example/search"})
    with pytest.raises(FerretError) as caught:
        await runner(handler).run(searxng.ENGINE, SEARX, 5)
    assert caught.value.code == ErrorCode.BLOCKED_ADDRESS and "pw" not in caught.value.message
    assert seen == ["http://searx.invalid/search"]


async def test_a_redirect_loop_is_too_many_redirects() -> None:
    handler, seen = _hops({"http://searx.invalid/search": "/search"})
    with pytest.raises(FerretError) as caught:
        await _guarded(handler, {}).run(searxng.ENGINE, SEARX, 5)
    assert caught.value.code == ErrorCode.TOO_MANY_REDIRECTS
    assert len(seen) == MAX_REDIRECTS + 1


async def test_an_answer_over_the_cap_is_too_large_and_not_read_on() -> None:
    sent: list[int] = []

    async def body() -> AsyncIterator[bytes]:
        for _ in range(MAX_ANSWER_BYTES // 65536 + 50):
            sent.append(1)
            yield b"x" * 65536

    handler = lambda request: httpx.Response(200, content=body())  # noqa: E731
    with pytest.raises(FerretError) as caught:
        await runner(handler).run(searxng.ENGINE, SEARX, 5)
    assert caught.value.code == ErrorCode.TOO_LARGE and "5 MB" in caught.value.message
    assert len(sent) <= MAX_ANSWER_BYTES // 65536 + 2


async def test_an_answer_in_another_charset_is_decoded() -> None:
    body = '{"results": [{"url": "https://ferret.example/", "title": "Frettchen für Anfänger"}]}'
    handler = lambda request: httpx.Response(  # noqa: E731
        200, content=body.encode("latin-1"), headers={"Content-Type": "application/json; charset=latin-1"}
    )
    answer = await runner(handler).run(searxng.ENGINE, SEARX, 5)
    assert answer.hits[0].title == "Frettchen für Anfänger"
    unknown = lambda request: httpx.Response(  # noqa: E731
        200, content=body.encode(), headers={"Content-Type": "application/json; charset=x-nosuch"}
    )
    assert (await runner(unknown).run(searxng.ENGINE, SEARX, 5)).hits[0].title == "Frettchen für Anfänger"


async def test_an_answer_after_a_byte_order_mark_is_read() -> None:
    """A JSON answer that opens with a UTF-8 byte order mark (as some servers write it) is JSON."""
    body = '{"results": [{"url": "https://ferret.example/", "title": "Ferrets"}]}'
    handler = lambda request: httpx.Response(  # noqa: E731
        200, content=b"\xef\xbb\xbf" + body.encode(), headers={"Content-Type": "application/json"}
    )
    assert (await runner(handler).run(searxng.ENGINE, SEARX, 5)).hits[0].title == "Ferrets"


@pytest.mark.parametrize(
    ("body", "encoding", "said"),
    [
        (b'{"results": []}', "gzip", "gzip body of http://searx.invalid/search"),  # sent as gzip, is none
        (b"\x0b\x02\x80{}\x03", "br", '"br", not supported'),  # brotli, though not asked for
    ],
)
async def test_an_answer_its_encoding_does_not_decode_is_the_engines_error(
    body: bytes, encoding: str, said: str
) -> None:
    """The engine answered (no `connect_failed`), unreadably."""
    handler = lambda request: httpx.Response(  # noqa: E731
        200, stream=_Streamed(body), headers={"Content-Encoding": encoding}
    )
    with pytest.raises(FerretError) as caught:
        await runner(handler).run(searxng.ENGINE, SEARX, 5)
    assert caught.value.code == ErrorCode.ENGINE_ERROR
    assert "content encoding does not decode" in caught.value.message and said in caught.value.message


async def test_a_gzip_bomb_stops_at_the_cap_without_inflating_whole() -> None:
    """64 KB of gzip that inflates to 64 MB, in one chunk: read up to the cap and no further (httpx's
    own decoding inflated each chunk whole before counting it)."""
    bomb = gzip.compress(b"\0" * (64 * 1024 * 1024), compresslevel=9)
    handler = lambda request: httpx.Response(  # noqa: E731
        200, stream=_Streamed(bomb), headers={"Content-Encoding": "gzip", "Content-Type": "application/json"}
    )
    tracemalloc.start()
    try:
        with pytest.raises(FerretError) as caught:
            await runner(handler).run(searxng.ENGINE, SEARX, 5)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert caught.value.code == ErrorCode.TOO_LARGE and "5 MB" in caught.value.message
    assert peak < 4 * MAX_ANSWER_BYTES, f"{peak / 2**20:.0f} MB held to read a {len(bomb)} byte answer"


async def test_an_answer_in_gzip_is_read() -> None:
    body = gzip.compress(b'{"results": [{"url": "https://ferret.example/", "title": "Ferrets"}]}')
    handler = lambda request: httpx.Response(  # noqa: E731
        200, content=body, headers={"Content-Encoding": "gzip", "Content-Type": "application/json"}
    )
    assert (await runner(handler).run(searxng.ENGINE, SEARX, 5)).hits[0].title == "Ferrets"


@pytest.mark.parametrize("label", ["utf-8", "none", "UTF-8, identity"])
async def test_an_answer_labelled_with_no_content_coding_is_read_as_sent(label: str) -> None:
    """A misconfigured server's `Content-Encoding: utf-8`: no coding, read as it came (as httpx did)."""
    body = b'{"results": [{"url": "https://ferret.example/", "title": "Ferrets"}]}'
    handler = lambda request: httpx.Response(  # noqa: E731
        200, stream=_Streamed(body), headers={"Content-Encoding": label, "Content-Type": "application/json"}
    )
    assert (await runner(handler).run(searxng.ENGINE, SEARX, 5)).hits[0].title == "Ferrets"


async def test_an_engine_asked_once_the_session_is_closed_says_so() -> None:
    """A search whose `Ferret` was closed under it asked its engines through the closed client: each
    engine's error was httpx's RuntimeError ("Cannot send a request, as the client has been closed")
    reported as the engine's failure."""
    r = runner(lambda request: httpx.Response(200, json={"results": []}))
    await r.client.aclose()
    with pytest.raises(FerretError) as caught:
        await r.run(searxng.ENGINE, SEARX, timeout=5)
    assert caught.value.code == ErrorCode.INVALID_ARGUMENT and "closed (aclose)" in caught.value.message
