"""What the HTTP API answers with, whatever the endpoint: the envelope and its status, the guard and
the errors around every call (`guarded`), the call's body, and a call that ends when its caller
hangs up (`unless_gone`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from starlette.requests import Request
from starlette.responses import Response

from webferret.http_api.params import ParamError
from webferret.models import Envelope, ErrorCode, FerretError
from webferret.present.envelopes import error_envelope

T = TypeVar("T")
View = Callable[[Request], Awaitable[Response]]

STATUS = {
    ErrorCode.INVALID_ARGUMENT: 400,
    ErrorCode.INVALID_URL: 400,
    ErrorCode.UNSUPPORTED_SCHEME: 400,
    ErrorCode.UNAUTHORIZED: 401,
    ErrorCode.FORBIDDEN: 403,
    ErrorCode.BLOCKED_ADDRESS: 403,
    ErrorCode.ROBOTS_DISALLOWED: 403,
    ErrorCode.NOT_FOUND: 404,
    ErrorCode.TOO_LARGE: 413,
    ErrorCode.QUOTA_EXCEEDED: 429,
    ErrorCode.RATE_LIMITED: 429,
    ErrorCode.NO_RESULTS: 200,
    ErrorCode.INTERNAL: 500,
    ErrorCode.TIMEOUT: 504,
}
"""The HTTP status of a call that failed as a whole, by its error's code (any other: 502, a site or
an engine failed). A call that answered, with some of its pages failed, is 200: each page says."""

HUNG_UP = 499
"""The status of an answer no one reads: its caller hung up first (nginx's number for it)."""


def answer(envelope: Envelope, status: int | None = None) -> Response:
    """The envelope as JSON, with the status `STATUS` gives its error (or `status`)."""
    if status is None:
        status = status_of(envelope.error.code) if envelope.error is not None else 200
    headers = {"WWW-Authenticate": "Bearer"} if status == 401 else {}  # what a 401 must say (RFC 9110)
    headers.update(retry_after(envelope.error, status))
    return Response(envelope.model_dump_json(), status, headers=headers, media_type="application/json")


def retry_after(error: Any, status: int) -> dict[str, str]:
    """The `Retry-After` header of a 429 or 503 answer whose error says when to try again (what the
    site or the engine said, in whole seconds), so a client's retry logic reads it; else none."""
    import math

    wait = getattr(error, "retry_after", None)
    if status not in (429, 503) or wait is None or not math.isfinite(wait) or wait < 0:
        return {}
    return {"Retry-After": str(math.ceil(wait))}


def status_of(code: str) -> int:
    return STATUS.get(code, 502)  # type: ignore[call-overload]


def guarded(view: View) -> View:
    """`view` behind the guard (`app.state.guard`), its errors answered as envelopes: a bad
    parameter `invalid_argument`, a `FerretError` its own code, a bug `internal` with its message
    (never a traceback)."""

    async def call(request: Request) -> Response:
        refused = request.app.state.guard.refusal(request)
        if refused is not None:
            return answer(refused)
        try:
            return await view(request)
        except Exception as exc:
            return answer(failure(exc))

    return call


def failure(exc: Exception) -> Envelope:
    """The envelope of a call that raised `exc`: a bad parameter `invalid_argument`, a
    `FerretError` its own code, anything else (a bug) `internal` with its message."""
    if isinstance(exc, ParamError):
        return error_envelope(ErrorCode.INVALID_ARGUMENT, str(exc))
    if isinstance(exc, FerretError):
        return error_envelope(exc.code, exc.message)
    return error_envelope(ErrorCode.INTERNAL, f"{type(exc).__name__}: {exc}")


async def unless_gone(request: Request, call: Awaitable[T]) -> T | None:
    """What `call` answers, or None when the caller hangs up first: that cancels it, as Ctrl-C does
    a command (what was finished is stored)."""
    import asyncio

    async def gone() -> None:
        while (await request.receive())["type"] != "http.disconnect":
            pass

    work, watch = asyncio.ensure_future(call), asyncio.ensure_future(gone())
    try:
        await asyncio.wait({work, watch}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        watch.cancel()
        if not work.done():
            work.cancel()
            await asyncio.wait({work})  # its cancellation run through (what was finished is stored)
    if work.cancelled():
        _log_hang_up(request)
        return None
    return work.result()


def _log_hang_up(request: Request) -> None:
    """The access log's line (`--access-log`) for a call whose caller hung up: the server writes one
    only for an answer it sends, and this one is sent to no one."""
    import logging

    client = f"{request.client.host}:{request.client.port}" if request.client else "-"
    path = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    version = request.scope.get("http_version", "1.1")
    logging.getLogger("uvicorn.access").info(
        '%s - "%s %s HTTP/%s" %d', client, request.method, path, version, HUNG_UP
    )


async def read_body(request: Request, most: int, what: str) -> bytes:
    """The call's body, or `too_large` past `most` bytes (read no further)."""
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > most:
            raise FerretError(ErrorCode.TOO_LARGE, f"{what} is larger than {most:,} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


def path_after(request: Request, prefix: str) -> str:
    """The raw (still percent-encoded) path after `prefix` (`/r/`, `/s/`)."""
    raw_path = request.scope.get("raw_path") or request.url.path.encode()
    return raw_path.decode("latin-1").split(prefix, 1)[-1]
