"""The one place engines touch the network: pacing, the request, retries, status policy, parsing."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import httpx

from webferret.fetch.body import read_capped
from webferret.models import ErrorCode, FerretError, without_password
from webferret.net.policy import UrlPolicy
from webferret.remote_text import quoted
from webferret.retry_after import retry_after_seconds
from webferret.search.engines._common import unreachable
from webferret.search.pacing import Pacer
from webferret.search.types import Engine, EngineAnswer, EngineQuery, EngineResponse, RequestSpec

if TYPE_CHECKING:
    from webferret.net.proxy import ProxyRoute

RETRY_STATUSES = (500, 502, 503, 504)
RETRY_DELAY = 0.5
MAX_ANSWER_BYTES = 5 * 1024 * 1024  # a results page is tens of KB; more is a broken or hostile engine
MAX_REDIRECTS = 5


def status_error(engine: str, response: EngineResponse) -> FerretError | None:
    """The generic reading of an engine's HTTP status (after the engine's own `check`)."""
    if response.status == 429:
        return FerretError(
            ErrorCode.RATE_LIMITED,
            f"{engine} answered HTTP 429 Too Many Requests",
            status=429,
            retry_after=retry_after_seconds(response.headers.get("retry-after")),
        )
    if response.status >= 400:
        return FerretError(
            ErrorCode.ENGINE_ERROR, f"{engine} answered HTTP {response.status}", status=response.status
        )
    return None


def pace_key(engine: Engine, query: EngineQuery) -> str:
    """What is paced and rested: the engine, or for an instance the user names (SearXNG) that
    instance, so one instance's rate limit does not rest another."""
    if not query.base_url:
        return engine.name
    return f"{engine.name} at {without_password(query.base_url.rstrip('/'))}"


class PacingUnavailable(FerretError):
    """The pacing file cannot be used (the home is not writable): the call's setting is wrong, not
    any engine, so the search stops saying so."""


class EngineRunner:
    """Runs one engine for one query; shares an HTTP client and a pacer between engines."""

    def __init__(
        self,
        client: httpx.AsyncClient,
        pacer: Pacer | None,
        min_interval: float = 1.0,
        trace: Callable[[str, dict[str, Any]], Awaitable[None]] | None = None,
        policy: UrlPolicy | None = None,
        route: ProxyRoute | None = None,
    ) -> None:
        self.client = client
        self.pacer = pacer
        self.min_interval = min_interval
        self.trace = trace  # httpcore's trace callback for each engine request (the `trace` extension)
        # the SSRF guard of a redirect to another host (the engine's own host is the user's setting,
        # often a SearXNG on loopback); None follows no redirect off the engine's host
        self.policy = policy
        # the setting `proxy`: `client` goes through it already; an engine with its own sender
        # (ddgs's) is handed it with each request, and a failure to reach it is `proxy_error`
        self.route = route

    async def turn(self, engine: Engine, query: EngineQuery) -> None:
        """Wait for `engine`'s turn: `min_interval` after its last request from any process, or
        `rate_limited` while it rests. A pacing file the home cannot hold is `PacingUnavailable`."""
        if self.pacer is None:
            return
        try:
            await self.pacer.wait_turn(pace_key(engine, query), self.min_interval)
        except (OSError, sqlite3.Error) as exc:
            where = f"cannot use the search pacing file {self.pacer.path}"
            if isinstance(exc, sqlite3.DatabaseError) and not isinstance(exc, sqlite3.OperationalError):
                # the home is fine, the file is damaged ("file is not a database", "malformed")
                fix = "delete it, which only ends every engine's rest"
            else:
                fix = "setting home: --home or WEBFERRET_HOME"
            raise PacingUnavailable(ErrorCode.INVALID_ARGUMENT, f"{where} ({fix}): {exc}") from None

    async def run(self, engine: Engine, query: EngineQuery, timeout: float) -> EngineAnswer:
        """Ask `engine` (after its `turn`); raises `FerretError` for every failure (the router turns
        it into a report)."""
        spec = engine.build_request(query)
        response = await self._send_with_retry(engine, spec, timeout)
        try:
            if engine.check is not None:
                engine.check(response)
            error = status_error(engine.name, response)
            if error is not None:
                raise error
        except FerretError as exc:
            if exc.code == ErrorCode.RATE_LIMITED and exc.retry_after is None:  # whichever check said it
                exc.retry_after = retry_after_seconds(response.headers.get("retry-after"))
            if exc.code == ErrorCode.RATE_LIMITED and self.pacer is not None:
                key = pace_key(engine, query)
                await asyncio.to_thread(self.pacer.suspend, key, exc.retry_after, exc.message)
            raise
        if not response.text.strip():  # no engine's answer is empty, not even one that found nothing
            raise FerretError(
                ErrorCode.ENGINE_ERROR,
                f"{engine.name} answered an empty body (HTTP {response.status}): neither results nor a "
                "page saying there are none",
                status=response.status,
            )
        return self._parse(engine, response, query)

    def _parse(self, engine: Engine, response: EngineResponse, query: EngineQuery) -> EngineAnswer:
        try:
            hits = engine.parse_response(response.text, query)
            warnings = engine.warnings(response.text, query) if engine.warnings else []
        except FerretError:
            raise
        except Exception as exc:
            raise FerretError(
                ErrorCode.ENGINE_ERROR,
                f"{engine.name}: could not read its answer ({type(exc).__name__}: {quoted(str(exc))})",
            ) from None
        return EngineAnswer(hits=hits, warnings=warnings)

    async def _send_with_retry(self, engine: Engine, spec: RequestSpec, timeout: float) -> EngineResponse:
        response = await self._send(engine, spec, timeout)
        if response.status in RETRY_STATUSES and "retry-after" not in response.headers:
            await asyncio.sleep(RETRY_DELAY)
            response = await self._send(engine, spec, timeout)
        return response

    async def _send(self, engine: Engine, spec: RequestSpec, timeout: float) -> EngineResponse:
        proxy = self.route.proxy_for(httpx.URL(spec.url).host) if self.route is not None else None
        if engine.send is not None:
            return await engine.send(replace(spec, proxy=proxy), timeout)
        request = self.client.build_request(
            spec.method,
            spec.url,
            params=dict(spec.params) or None,
            data=dict(spec.data) if spec.data is not None else None,
            headers=dict(spec.headers),
            timeout=timeout,
            extensions={"trace": self.trace} if self.trace is not None else None,
        )
        try:
            for _ in range(MAX_REDIRECTS + 1):
                if self.client.is_closed:  # the session was closed (aclose) under the search
                    message = (
                        f"{engine.name}: not asked: the session was closed (aclose) while this search ran"
                    )
                    raise FerretError(ErrorCode.INVALID_ARGUMENT, message)
                response = await self.client.send(request, stream=True, follow_redirects=False)
                try:
                    if response.next_request is None:
                        return await _answer(engine.name, response)
                finally:
                    await response.aclose()
                request = await self._redirect(engine.name, request, response.next_request)
        except httpx.TimeoutException:
            raise FerretError(
                ErrorCode.TIMEOUT, f"{engine.name}: no answer from {spec.url} in {timeout:g} s"
            ) from None
        except httpx.HTTPError as exc:
            raise unreachable(engine.name, spec.url, exc, proxy) from None
        raise FerretError(
            ErrorCode.TOO_MANY_REDIRECTS,
            f"{engine.name}: more than {MAX_REDIRECTS} redirects from {spec.url}",
        )

    async def _redirect(self, engine: str, request: httpx.Request, after: httpx.Request) -> httpx.Request:
        """The redirect `after` of `request`, when it may be followed: to the same host, or past the
        SSRF guard (an engine's redirect is no licence to reach a private address)."""
        if after.url.host == request.url.host:
            return after
        target = without_password(str(after.url))
        if self.policy is None:
            raise FerretError(ErrorCode.BLOCKED_ADDRESS, f"{engine} redirected off its host, to {target}")
        try:
            await self.policy.vet(str(after.url))
        except FerretError as exc:
            raise FerretError(exc.code, f"{engine} redirected to {target}: {exc.message}") from None
        return after


async def _answer(engine: str, response: httpx.Response) -> EngineResponse:
    """`response` read whole, decompressed under `MAX_ANSWER_BYTES` (`fetch.body`: a gzip bomb
    stops at the cap, never inflated whole in memory)."""
    try:
        url = without_password(str(response.url))
        body = await read_capped(response, MAX_ANSWER_BYTES, url, lenient=True)  # no tier to climb to
    except FerretError as exc:
        if exc.code is ErrorCode.TOO_LARGE:
            limit = MAX_ANSWER_BYTES // (1024 * 1024)
            message = f"{engine} answered more than {limit} MB (a results page is far less)"
            raise FerretError(ErrorCode.TOO_LARGE, message) from None
        message = f"{engine} answered a body its content encoding does not decode: {exc.message}"
        raise FerretError(ErrorCode.ENGINE_ERROR, message) from None
    headers = {key.lower(): value for key, value in response.headers.items()}
    text = body.decode(response.encoding or "utf-8", errors="replace")  # httpx knows it
    return EngineResponse(status=response.status_code, headers=headers, text=text)
