"""The runner's status policy, through `httpx.MockTransport` (no network)."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from webferret.models import ErrorCode, FerretError
from webferret.search.engines import github, searxng
from webferret.search.pacing import Pacer
from webferret.search.runner import EngineRunner, retry_after_seconds
from webferret.search.types import EngineQuery

SEARX = EngineQuery(text="q", base_url="http://searx.invalid")


def runner(handler: object, pacer: Pacer | None = None) -> EngineRunner:
    client = httpx.AsyncClient(transport=httpx.MockTransport(handler))  # type: ignore[arg-type]
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
    suspension = pacer.suspension("searxng")
    assert suspension is not None and "429" in suspension.reason


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
    assert retry_after_seconds("Wed, 21 Oct 2015 07:28:00 GMT") is None


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
