"""The HTTP API's server: routes, bodies, streams and statuses (Starlette on uvicorn, one `Ferret`
for all calls).

Every JSON endpoint (`calls`) takes its parameters (`params`) from the query string (GET) or a JSON
object (POST) and answers the envelope the same CLI command prints with `--json`: `/search`,
`/fetch`, `/open`, `/outline`, `/diff`, `/find`, `/stored`, `/map`, `/crawl`. `/r/URL` answers one
page as Markdown (the CLI's view of it), `/openapi.json` describes the API, `/` names the endpoints
and their parameters.

The guard (`guard`), before anything else runs: with a token (setting `api_token`), every call brings it as
`Authorization: Bearer TOKEN`; without one the server listens on loopback only and answers only a
`Host` that names loopback (a web page cannot reach it through a DNS name it rebinds to 127.0.0.1).
A call a web browser makes for another site's page (`Sec-Fetch-Site: cross-site`, or an `Origin`
that is not the server) is refused either way: pages a user visits do not drive the server.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any, TypeVar

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from webferret.http_api.calls import Endpoint, endpoints
from webferret.http_api.guard import Guard
from webferret.http_api.params import ParamError
from webferret.models import Envelope, ErrorCode, FerretError, Page
from webferret.present.envelopes import error_envelope, pages_envelope

NDJSON = "application/x-ndjson"
T = TypeVar("T")

if TYPE_CHECKING:
    from webferret.config import Settings
    from webferret.ferret import Ferret

MAX_BODY = 1 << 20
"""The largest JSON body a call may send (1 MiB: a hundred URLs and their options fit many times)."""

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


def build_app(settings: Settings, host: str) -> Starlette:
    """The API's application; one `Ferret` lives as long as it. `host`: the address it listens on
    (a `Host` naming it is answered without a token too)."""

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        from webferret.ferret import Ferret

        async with Ferret(settings) as ferret:
            app.state.ferret = ferret
            yield

    guard = Guard(settings.api_token, host)
    served = endpoints()
    routes = [
        Route(path, _endpoint(guard, endpoint), methods=["GET", "POST"]) for path, endpoint in served.items()
    ]
    routes.append(Route("/r/{target:path}", _reader(guard), methods=["GET"]))
    routes.append(Route("/s/{query:path}", _searcher(guard), methods=["GET"]))
    routes.append(Route("/extract", _extractor(guard, settings.max_bytes), methods=["POST"]))
    routes.append(
        Route("/openapi.json", _openapi(guard, served, settings.api_token is not None), methods=["GET"])
    )
    routes.append(Route("/", _index(guard, served), methods=["GET"]))
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers={404: _no_route, 405: _no_method},  # type: ignore[dict-item]
    )
    app.router.redirect_slashes = False  # `/fetch/` is no endpoint: a JSON 404, not a bare redirect
    app.state.guard = guard
    return app


def _endpoint(guard: Guard, endpoint: Endpoint) -> Callable[[Request], Awaitable[Response]]:
    params, handler, lines = endpoint.params, endpoint.handler, endpoint.lines

    async def endpoint(request: Request) -> Response:
        refused = guard.refusal(request)
        if refused is not None:
            return _answer(refused)
        try:
            if request.method == "POST":
                given = await _body(request)
                if request.query_params:
                    raise ParamError(
                        "a POST call takes its parameters in its JSON body, not the query string"
                    )
                parsed = params.checked(given)
            else:
                parsed = params.from_query(request.query_params.multi_items())
            ferret = request.app.state.ferret
            if lines is not None and NDJSON in request.headers.get("accept", ""):
                return _stream(ferret, lines(ferret, parsed), getattr(parsed, "max_chars", None))
            envelope = await _unless_gone(request, handler(ferret, parsed))
            if envelope is None:
                return Response(status_code=499)  # no one is there to read it
        except ParamError as exc:
            envelope = error_envelope(ErrorCode.INVALID_ARGUMENT, str(exc))
        except FerretError as exc:
            envelope = error_envelope(exc.code, exc.message)
        except Exception as exc:  # a bug answers as the CLI's internal error does, never a traceback
            envelope = error_envelope(ErrorCode.INTERNAL, f"{type(exc).__name__}: {exc}")
        return _answer(envelope)

    return endpoint


async def _unless_gone(request: Request, call: Awaitable[T]) -> T | None:
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
    return None if work.cancelled() else work.result()


async def _body(request: Request) -> dict[str, Any]:
    """The call's JSON object, at most `MAX_BODY` bytes."""
    if "json" not in request.headers.get("content-type", "json"):
        raise ParamError("a POST call sends its parameters as a JSON object (Content-Type: application/json)")
    data = await _read_body(request, MAX_BODY, "the JSON body")  # too_large past it
    try:
        given = json.loads(data or b"{}", object_pairs_hook=_once_each)
    except ParamError:
        raise
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        why = "nested too deep" if isinstance(exc, RecursionError) else str(exc)
        raise ParamError(f"the body is no JSON: {why}") from None
    if not isinstance(given, dict):
        raise ParamError(f"the body is JSON {type(given).__name__}, not an object of parameters")
    return given


def _once_each(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose every name is given once (JSON would keep the last of two silently)."""
    named: dict[str, Any] = {}
    for name, value in pairs:
        if name in named:
            raise ParamError(f"parameter {name!r} is given twice: it takes one value")
        named[name] = value
    return named


async def _read_body(request: Request, most: int, what: str) -> bytes:
    """The call's body, or `too_large` past `most` bytes (read no further)."""
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > most:
            raise FerretError(ErrorCode.TOO_LARGE, f"{what} is larger than {most:,} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


def _stream(ferret: Ferret, run: Any, max_chars: int | None) -> Response:
    """Pages as JSON lines the moment each is finished (in finishing order, a near copy of an earlier
    line marked `duplicate_of`, each clipped at `max_chars`), then one last line: the call's
    envelope, `"done": true`, without the pages. A caller that hangs up cancels the call; what was
    finished is stored, as after Ctrl-C."""
    import asyncio

    from starlette.responses import StreamingResponse

    from webferret.present.dedup import StreamCopies
    from webferret.present.pages import clip_page

    queue: asyncio.Queue[str | None] = asyncio.Queue()
    copies = StreamCopies(ferret.settings.dedup_threshold)

    def put(page: Page) -> None:
        queue.put_nowait(clip_page(copies.marked(page), max_chars).model_dump_json() + "\n")

    async def work() -> None:
        try:
            envelope = await run(put)
        except FerretError as exc:
            envelope = error_envelope(exc.code, exc.message)
        except Exception as exc:  # as `_endpoint`: the message, never a traceback
            envelope = error_envelope(ErrorCode.INTERNAL, f"{type(exc).__name__}: {exc}")
        done = {"done": True, **json.loads(envelope.model_dump_json())}
        queue.put_nowait(json.dumps(done, ensure_ascii=False) + "\n")
        queue.put_nowait(None)

    async def body() -> AsyncIterator[str]:
        task = asyncio.create_task(work())
        try:
            while (line := await queue.get()) is not None:
                yield line
        finally:
            task.cancel()  # the caller left (a finished call's task is done: nothing to cancel)

    return StreamingResponse(body(), media_type=NDJSON)


def _answer(envelope: Envelope, status: int | None = None) -> Response:
    """The envelope as JSON, its status `STATUS` gives (or `status`)."""
    if status is None:
        status = _status(envelope.error.code) if envelope.error is not None else 200
    return Response(envelope.model_dump_json(), status, media_type="application/json")


def _status(code: str) -> int:
    return STATUS.get(code, 502)  # type: ignore[call-overload]


def _reader(guard: Guard) -> Callable[[Request], Awaitable[Response]]:
    """`/r/URL`: the page at URL as Markdown, as `webferret fetch URL` shows it (the URL's own query
    string included); `Accept: application/json` answers `/fetch`'s envelope instead. `/fetch`'s
    other parameters are headers here (`reader_options`): the query string is the page's."""

    async def reader(request: Request) -> Response:
        from webferret.http_api.calls import fetch_pages
        from webferret.http_api.params import FetchParams
        from webferret.present.pages import render_page

        refused = guard.refusal(request)
        if refused is not None:
            return _answer(refused)
        raw_path = request.scope.get("raw_path") or request.url.path.encode()
        target = reader_target(raw_path.decode("latin-1").split("/r/", 1)[-1], request.url.query)
        try:
            asked = FetchParams.from_query([("url", target), *reader_options(request.headers.items())])
            pages = await _unless_gone(request, fetch_pages(request.app.state.ferret, asked))
        except ParamError as exc:
            return _answer(error_envelope(ErrorCode.INVALID_ARGUMENT, str(exc)))
        except FerretError as exc:
            return _answer(error_envelope(exc.code, exc.message))
        if pages is None:
            return Response(status_code=499)
        page = pages[0]
        status = 200 if page.ok else _status(page.error.code if page.error else ErrorCode.INTERNAL)
        if "application/json" in request.headers.get("accept", ""):
            return _answer(pages_envelope([page]), status)
        headers = {"X-Webferret-Handle": handle_header(page.handle)} if page.handle else {}
        return Response(render_page(page) + "\n", status, headers=headers, media_type="text/markdown")

    return reader


OPTION_HEADER = "x-webferret-"
"""`/r/`'s options: `X-Webferret-Format: text` is `/fetch`'s `format=text` (`-` for `_`)."""


def reader_options(headers: list[tuple[str, str]], path: str = "url") -> list[tuple[str, str]]:
    """The (parameter, value) pairs of a call's `X-Webferret-*` headers (a repeated one, such as
    `X-Webferret-Exclude`, once per value); the parameter `path` (`/r/`'s URL, `/s/`'s query) is the
    path, never a header."""
    given = []
    for name, value in headers:
        if name.lower().startswith(OPTION_HEADER):
            option = name.lower()[len(OPTION_HEADER) :].replace("-", "_")
            if option in (path, f"{path}s", "query"):
                raise ParamError(f"header {name}: the {'URL' if path == 'url' else 'query'} is the path")
            given.append((option, value))
    return given


def reader_target(written: str, query: str) -> str:
    """The page URL of `/r/WRITTEN?QUERY`, as the caller's client sent it: percent-encoded whole (a
    client made from `/openapi.json` encodes the path parameter) or only where a URL must be (a
    host in another script: its name decoded, so it is looked up as `/fetch` looks it up); `//`
    folded into `/` by a client or proxy is put back."""
    from urllib.parse import unquote, urlsplit, urlunsplit

    if written[:8].lower().startswith(("http%3a", "https%3a")):
        written = unquote(written)
    elif written.startswith(("http:/", "https:/")) and not written.split(":", 1)[1].startswith("//"):
        written = written.replace(":/", "://", 1)
    if query:
        written += "?" + query
    try:
        parts = urlsplit(written)
        if "%" in parts.netloc:
            written = urlunsplit(parts._replace(netloc=unquote(parts.netloc)))
    except ValueError:
        pass  # the fetch names what is wrong with it
    return written


def handle_header(handle: str) -> str:
    """A handle as a header's value: headers are Latin-1, so one whose host is not ASCII (an
    internationalized domain name) is percent-encoded."""
    from urllib.parse import quote

    return handle if handle.isascii() else quote(handle, safe="~:[]")


def _searcher(guard: Guard) -> Callable[[Request], Awaitable[Response]]:
    """`/s/QUERY`: a search as Markdown, as `webferret search QUERY` shows it (with `--read N`'s
    pages after the listing); `/search`'s other parameters are `X-Webferret-*` headers, as for `/r/`."""

    async def searcher(request: Request) -> Response:
        from urllib.parse import unquote_plus

        from webferret.http_api.calls import searched
        from webferret.http_api.params import SearchParams
        from webferret.present.pages import opened_lines
        from webferret.search.present import render_result

        refused = guard.refusal(request)
        if refused is not None:
            return _answer(refused)
        raw_path = request.scope.get("raw_path") or request.url.path.encode()
        query = unquote_plus(raw_path.decode("latin-1").split("/s/", 1)[-1])
        try:
            asked = SearchParams.from_query([("q", query), *reader_options(request.headers.items(), "q")])
            answer = await _unless_gone(request, searched(request.app.state.ferret, asked))
        except ParamError as exc:
            return _answer(error_envelope(ErrorCode.INVALID_ARGUMENT, str(exc)))
        except FerretError as exc:
            return _answer(error_envelope(exc.code, exc.message))
        if answer is None:
            return Response(status_code=499)
        result, read = answer
        text = render_result(result) + "".join("\n\n" + "\n".join(opened_lines(page)) for page in read)
        status = (
            200 if result.answered else _status(result.error.code if result.error else ErrorCode.INTERNAL)
        )
        return Response(text + "\n", status, media_type="text/markdown")

    return searcher


def _extractor(guard: Guard, max_bytes: int) -> Callable[[Request], Awaitable[Response]]:
    """`/extract`: the document the call posts (HTML, PDF, a feed, JSON... its kind from its
    `Content-Type`, else sniffed; at most `max_bytes`), extracted as `webferret extract -` does,
    answered as `/fetch`'s envelope. The query string holds the parameters (`ExtractParams`)."""

    async def extractor(request: Request) -> Response:
        from webferret.http_api.calls import extract_options_of
        from webferret.http_api.params import ExtractParams
        from webferret.local_pages import page_of
        from webferret.present.pages import clip_page

        refused = guard.refusal(request)
        if refused is not None:
            return _answer(refused)
        try:
            p = ExtractParams.from_query(request.query_params.multi_items())
            body = await _read_body(request, max_bytes, "the document")
        except ParamError as exc:
            return _answer(error_envelope(ErrorCode.INVALID_ARGUMENT, str(exc)))
        except FerretError as exc:
            return _answer(error_envelope(exc.code, exc.message))
        ferret = request.app.state.ferret
        xopts = extract_options_of(ferret, p)
        page = await page_of(ferret, body, request.headers.get("content-type"), p.url, xopts)
        return _answer(pages_envelope([clip_page(page, p.max_chars)]))

    return extractor


def _openapi(
    guard: Guard, served: dict[str, Endpoint], token: bool
) -> Callable[[Request], Awaitable[Response]]:
    """`/openapi.json`: the API in OpenAPI 3.1 (`openapi.document`), made once, on first call."""
    made: list[bytes] = []

    async def openapi(request: Request) -> Response:
        from webferret import __version__
        from webferret.http_api.openapi import document

        refused = guard.refusal(request)
        if refused is not None:
            return _answer(refused)
        if not made:
            made.append(json.dumps(document(served, __version__, token)).encode())
        return Response(made[0], media_type="application/json")

    return openapi


def _index(guard: Guard, served: dict[str, Endpoint]) -> Callable[[Request], Awaitable[Response]]:
    async def index(request: Request) -> Response:
        from webferret import __version__

        refused = guard.refusal(request)
        if refused is not None:
            return _answer(refused)
        endpoints = {path: {"does": e.does, "parameters": e.params.names()} for path, e in served.items()}
        from webferret.http_api.params import ExtractParams

        endpoints["/extract"] = {
            "does": "POST a document as the body: its page (webferret extract -)",
            "parameters": ExtractParams.names(),
        }
        endpoints["/r/{url}"] = {
            "does": "one page as Markdown (Accept: application/json for its envelope)",
            "parameters": [f"X-Webferret-{name}" for name in ("Format", "Selector", "Max-Chars", "...")],
        }
        endpoints["/s/{query}"] = {
            "does": "a search as Markdown",
            "parameters": [f"X-Webferret-{name}" for name in ("N", "Read", "Site", "...")],
        }
        return _answer(Envelope(ok=True, data={"version": __version__, "endpoints": endpoints}))

    return index


async def _no_route(request: Request, exc: Exception) -> Response:
    refused = request.app.state.guard.refusal(request)
    if refused is not None:  # not even the list of endpoints for a caller the guard turns away
        return _answer(refused)
    if request.url.path.startswith("/r/"):  # `{target:path}` takes no line break
        message = f"no page URL holds a line break: {request.url.path[3:203]!r}"
        return _answer(error_envelope(ErrorCode.INVALID_URL, message))
    paths = ", ".join(endpoints())
    return _answer(
        error_envelope(
            ErrorCode.NOT_FOUND,
            f"no endpoint {request.url.path[:200]!r} "
            f"(there are {paths}, /extract, /r/URL, /s/QUERY, /openapi.json and /)",
        )
    )


async def _no_method(request: Request, exc: Exception) -> Response:
    refused = request.app.state.guard.refusal(request)
    if refused is not None:
        return _answer(refused)
    said = dict(getattr(exc, "headers", None) or {}).get("Allow", "GET")
    allowed = ", ".join(sorted(method.strip() for method in said.split(",")))
    message = f"{request.method} {request.url.path[:200]}: it takes {allowed}"
    answer = _answer(error_envelope(ErrorCode.INVALID_ARGUMENT, message), 405)
    answer.headers["Allow"] = allowed
    return answer


def serve(settings: Settings, host: str, port: int) -> None:
    """Listen on `host:port` until SIGINT or SIGTERM; calls in flight end first."""
    import sys

    import uvicorn

    from webferret.cli.warm import freeze_heap, import_call_modules

    app = build_app(settings, host)
    import_call_modules()
    freeze_heap()
    shown = f"[{host}]" if ":" in host else host
    guarded = "every call brings the token" if settings.api_token else "loopback only, no token"

    class Server(uvicorn.Server):
        async def startup(self, sockets: Any = None) -> None:
            await super().startup(sockets)
            if self.started:  # said once it listens (a port taken ends the server instead)
                sys.stderr.write(f"webferret api: listening on http://{shown}:{port}/ ({guarded})\n")

    config = uvicorn.Config(app, host=host, port=port, log_level="warning", access_log=False)
    Server(config).run()
