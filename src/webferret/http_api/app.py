"""The HTTP API's server: its routes, the JSON endpoints' bodies and streams (Starlette on uvicorn,
one `Ferret` for all calls).

Every JSON endpoint (`calls`) takes its parameters (`params`) from the query string (GET) or a JSON
object (POST) and answers the envelope the same CLI command prints with `--json`: `/search`,
`/fetch`, `/open`, `/outline`, `/diff`, `/find`, `/stored`, `/map`, `/crawl`; `/extract` reads a
document posted as the body. `/r/URL` and `/s/QUERY` answer Markdown (`markdown`), `/openapi.json`
describes the API (`openapi`), `/` names the endpoints and their parameters.

The guard (`guard`), before anything else runs: with a token (setting `api_token`), every call
brings it as `Authorization: Bearer TOKEN`; without one the server listens on loopback only and
answers only a `Host` that names loopback (a web page cannot reach it through a DNS name it rebinds
to 127.0.0.1). A call a web browser makes for another site's page (`Sec-Fetch-Site: cross-site`,
or an `Origin` that is not the server) is refused either way: pages a user visits do not drive the
server.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from webferret.fetch.sniff import mime_of
from webferret.http_api.calls import Endpoint, endpoints
from webferret.http_api.guard import Guard
from webferret.http_api.markdown import reader, searcher
from webferret.http_api.params import ParamError
from webferret.http_api.replies import HUNG_UP, View, answer, failure, guarded, read_body, unless_gone
from webferret.models import Envelope, ErrorCode, Page
from webferret.present.envelopes import error_envelope, pages_envelope

if TYPE_CHECKING:
    from webferret.config import Settings
    from webferret.ferret import Ferret

NDJSON = "application/x-ndjson"
MAX_BODY = 1 << 20
"""The largest JSON body a call may send (1 MiB: a hundred URLs and their options fit many times)."""


def build_app(settings: Settings, host: str) -> Starlette:
    """The API's application; one `Ferret` lives as long as it. `host`: the address it listens on
    (a `Host` naming it is answered without a token too)."""

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        from webferret.ferret import Ferret

        async with Ferret(settings) as ferret:
            app.state.ferret = ferret
            yield

    served = endpoints()
    routes = [
        Route(path, guarded(_json(endpoint)), methods=["GET", "POST"]) for path, endpoint in served.items()
    ]
    routes += [
        Route("/r/{url:path}", guarded(reader), methods=["GET"]),
        Route("/s/{q:path}", guarded(searcher), methods=["GET"]),
        Route("/extract", guarded(_extractor(settings.max_bytes)), methods=["POST"]),
        Route("/openapi.json", guarded(_openapi(served, settings.api_token is not None)), methods=["GET"]),
        Route("/", guarded(_index(served)), methods=["GET"]),
    ]
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers={404: _no_route, 405: _no_method},  # type: ignore[dict-item]
    )
    app.router.redirect_slashes = False  # `/fetch/` is no endpoint: a JSON 404, not a bare redirect
    app.state.guard = Guard(settings.api_token, host)
    return app


def _json(endpoint: Endpoint) -> View:
    """A JSON endpoint: its parameters from the query string or the JSON body, its envelope (or,
    asked with `Accept: application/x-ndjson`, its pages streamed: `_stream`)."""

    async def call(request: Request) -> Response:
        if request.method == "POST":
            given = await _body(request)
            if request.query_params:
                raise ParamError("a POST call takes its parameters in its JSON body, not the query string")
            parsed = endpoint.params.checked(given)
        else:
            parsed = endpoint.params.from_query(request.query_params.multi_items())
        ferret = request.app.state.ferret
        if endpoint.lines is not None and NDJSON in request.headers.get("accept", "").lower():
            return _stream(ferret, endpoint.lines(ferret, parsed), getattr(parsed, "max_chars", None))
        envelope = await unless_gone(request, endpoint.handler(ferret, parsed))
        return Response(status_code=HUNG_UP) if envelope is None else answer(envelope)

    return call


async def _body(request: Request) -> dict[str, Any]:
    """The call's JSON object, at most `MAX_BODY` bytes."""
    if "json" not in request.headers.get("content-type", "json").lower():  # `application/JSON` too
        raise ParamError("a POST call sends its parameters as a JSON object (Content-Type: application/json)")
    data = await read_body(request, MAX_BODY, "the JSON body")  # too_large past it
    try:
        given = json.loads(data or b"{}", object_pairs_hook=_once_each)
    except ParamError:
        raise
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        why = "nested too deep" if isinstance(exc, RecursionError) else str(exc)
        raise ParamError(f"the body is no JSON: {why}") from None
    if not isinstance(given, dict):
        raise ParamError(f"the body is {_json_kind(given)}, not a JSON object of parameters")
    return given


def _json_kind(value: Any) -> str:
    """What a JSON value is, as JSON names it (`null`, an array...), not as Python does."""
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    kinds = {list: "an array", str: "a string", int: "a number", float: "a number"}
    return kinds.get(type(value), "no object")


def _once_each(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose every name is given once (JSON would keep the last of two silently)."""
    named: dict[str, Any] = {}
    for name, value in pairs:
        if name in named:
            raise ParamError(f"parameter {name!r} is given twice: it takes one value")
        named[name] = value
    return named


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
        except Exception as exc:  # as `replies.guarded`: the message, never a traceback
            envelope = failure(exc)
        done = {"done": True, **envelope.model_dump(mode="json")}
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


def _extractor(max_bytes: int) -> View:
    """`/extract`: the document the call posts (HTML, PDF, a feed, JSON... its kind from its
    `Content-Type`, else sniffed; at most `max_bytes`), extracted as `webferret extract -` does,
    answered as `/fetch`'s envelope. The query string holds the parameters (`ExtractParams`)."""

    async def extractor(request: Request) -> Response:
        from webferret.http_api.calls import extract_options_of
        from webferret.http_api.params import ExtractParams
        from webferret.local_pages import page_of
        from webferret.present.pages import clip_page

        asked = ExtractParams.from_query(request.query_params.multi_items())
        kind = request.headers.get("content-type", "")
        if mime_of(kind) == "multipart/form-data":  # `curl -F file=@page.html`
            raise ParamError(
                "/extract takes the document itself as the body, not a multipart form: "
                "curl --data-binary @FILE -H 'Content-Type: text/html' (its kind), not -F"
            )
        body = await read_body(request, max_bytes, "the document")
        ferret = request.app.state.ferret
        xopts = extract_options_of(ferret, asked)
        page = await page_of(ferret, body, kind or None, asked.url, xopts)
        return answer(pages_envelope([clip_page(page, asked.max_chars)]))

    return extractor


def _openapi(served: dict[str, Endpoint], token: bool) -> View:
    """`/openapi.json`: the API in OpenAPI 3.1 (`openapi.document`), made once, on first call."""
    made: list[bytes] = []

    async def openapi(request: Request) -> Response:
        from webferret import __version__
        from webferret.http_api.openapi import document

        if not made:
            made.append(json.dumps(document(served, __version__, token)).encode())
        return Response(made[0], media_type="application/json")

    return openapi


def _index(served: dict[str, Endpoint]) -> View:
    async def index(request: Request) -> Response:
        from webferret import __version__
        from webferret.http_api.params import ExtractParams

        listed = {path: {"does": e.does, "parameters": e.params.names()} for path, e in served.items()}
        listed["/extract"] = {
            "does": "POST a document as the body: its page (webferret extract -)",
            "parameters": ExtractParams.names(),
        }
        listed["/r/{url}"] = {
            "does": "one page as Markdown (Accept: application/json for its envelope)",
            "parameters": [f"X-Webferret-{name}" for name in ("Format", "Selector", "Max-Chars", "...")],
        }
        listed["/s/{q}"] = {
            "does": "a search as Markdown",
            "parameters": [f"X-Webferret-{name}" for name in ("N", "Read", "Site", "...")],
        }
        return answer(Envelope(ok=True, data={"version": __version__, "endpoints": listed}))

    return index


async def _no_route(request: Request, exc: Exception) -> Response:
    refused = request.app.state.guard.refusal(request)
    if refused is not None:  # not even the list of endpoints for a caller the guard turns away
        return answer(refused)
    if request.url.path.startswith("/r/"):  # `{url:path}` takes no line break
        path = str(request.scope.get("path", ""))  # `request.url` loses the line break itself
        message = f"no page URL holds a line break: {path[3:203]!r}"
        return answer(error_envelope(ErrorCode.INVALID_URL, message))
    paths = ", ".join(getattr(route, "path", "").replace(":path}", "}") for route in request.app.routes)
    message = f"no endpoint {request.url.path[:200]!r} (there are {paths})"
    return answer(error_envelope(ErrorCode.NOT_FOUND, message))


async def _no_method(request: Request, exc: Exception) -> Response:
    refused = request.app.state.guard.refusal(request)
    if refused is not None:
        return answer(refused)
    said = dict(getattr(exc, "headers", None) or {}).get("Allow", "GET")
    allowed = ", ".join(sorted(method.strip() for method in said.split(",")))
    message = f"{request.method} {request.url.path[:200]}: it takes {allowed}"
    refusal = answer(error_envelope(ErrorCode.INVALID_ARGUMENT, message), 405)
    refusal.headers["Allow"] = allowed
    return refusal


def serve(settings: Settings, host: str, port: int, *, access_log: bool = False) -> None:
    """Listen on `host:port` until SIGINT or SIGTERM; calls in flight end first. `access_log`: a
    line per call on stderr (the caller's address, method, path and status). `OSError` when
    `host:port` cannot be bound."""
    from webferret.cli.warm import freeze_heap, import_call_modules
    from webferret.listening import serve_app

    app = build_app(settings, host)
    import_call_modules()
    freeze_heap()
    guarded_by = "every call brings the token" if settings.api_token else "loopback only, no token"
    level = "info" if access_log else "warning"
    serve_app(
        app,
        host,
        port,
        lambda origin: f"webferret api: listening on {origin}/ ({guarded_by})",
        log_level=level,
        access_log=access_log,
    )
