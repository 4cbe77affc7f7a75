"""The HTTP API's Markdown endpoints, for a reader with nothing but `curl`: `/r/URL`, one page as
`webferret fetch URL` shows it, and `/s/QUERY`, a search as `webferret search QUERY` shows it. The
path is the URL or the query, so the JSON endpoint's other parameters come as `X-Webferret-*`
headers (`options`)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from webferret.http_api.params import FetchParams, ParamError, SearchParams
from webferret.http_api.replies import HUNG_UP, answer, path_after, retry_after, status_of, unless_gone
from webferret.models import ErrorCode
from webferret.present.envelopes import pages_envelope

OPTION_HEADER = "x-webferret-"
"""`X-Webferret-Format: text` is `/fetch`'s `format=text` (`-` for `_`)."""


async def reader(request: Request) -> Response:
    """`/r/URL`: the page at URL as Markdown (the URL's own query string included);
    `Accept: application/json` answers `/fetch`'s envelope instead, `Accept: image/png` the picture
    of the page the browser rendered (`fetch --screenshot`). Text asked for as `text` or `html`
    is labelled plain text: a page's own HTML is never served as HTML from the API's origin."""
    import tempfile
    from pathlib import Path

    from webferret.http_api.calls import fetch_pages
    from webferret.present.pages import render_page

    target = reader_target(path_after(request, "/r/"), request.url.query)
    asked = FetchParams.from_query([("url", target), *options(request.headers.items())])
    accept = request.headers.get("accept", "").lower()  # a media type in any case (RFC 9110)
    with tempfile.TemporaryDirectory(prefix="webferret-shot-") as folder:
        shot = str(Path(folder) / "page.png") if "image/png" in accept else None
        pages = await unless_gone(request, fetch_pages(request.app.state.ferret, asked, shot))
        picture = Path(shot).read_bytes() if shot and pages and pages[0].ok and Path(shot).is_file() else None
    if pages is None:
        return Response(status_code=HUNG_UP)
    page = pages[0]
    status = 200 if page.ok else status_of(page.error.code if page.error else ErrorCode.INTERNAL)
    headers = {"X-Webferret-Handle": handle_header(page.handle)} if page.handle else {}
    headers.update(retry_after(page.error, status))
    if picture is not None:
        return Response(picture, status, headers=headers, media_type="image/png")
    if "application/json" in accept:
        reply = answer(pages_envelope([page]), status)
        reply.headers.update(headers)
        return reply
    kind = "text/markdown" if asked.format in (None, "markdown") else "text/plain"
    return Response(render_page(page) + "\n", status, headers=headers, media_type=kind)


async def searcher(request: Request) -> Response:
    """`/s/QUERY`: the search as Markdown, with `read`'s pages after the listing."""
    from urllib.parse import unquote_plus

    from webferret.http_api.calls import searched
    from webferret.present.pages import opened_lines
    from webferret.search.present import render_result

    query = unquote_plus(path_after(request, "/s/"))
    if request.url.query:  # `/s/rust?n=2` would search "rust" alone, its `n` unsaid
        message = (
            f"/s/ takes the query as its path, without a query string (got {request.url.query[:40]!r}): "
            "write a '?' of the query %3F, and give options as headers (X-Webferret-N: 5)"
        )
        raise ParamError(message)
    asked = SearchParams.from_query([("q", query), *options(request.headers.items(), "q")])
    found = await unless_gone(request, searched(request.app.state.ferret, asked))
    if found is None:
        return Response(status_code=HUNG_UP)
    result, read = found
    text = render_result(result) + "".join("\n\n" + "\n".join(opened_lines(page)) for page in read)
    status = 200 if result.answered else status_of(result.error.code if result.error else ErrorCode.INTERNAL)
    return Response(text + "\n", status, media_type="text/markdown")


def options(headers: list[tuple[str, str]], path: str = "url") -> list[tuple[str, str]]:
    """The (parameter, value) pairs of a call's `X-Webferret-*` headers (a repeated one, such as
    `X-Webferret-Exclude`, once per value); the parameter `path` (`/r/`'s URL, `/s/`'s query) is the
    path, never a header."""
    given = []
    for name, value in headers:
        if name.lower().startswith(OPTION_HEADER):
            option = name.lower()[len(OPTION_HEADER) :].replace("-", "_")
            if option in (path, f"{path}s", "query"):
                raise ParamError(f"header {name}: the {'URL' if path == 'url' else 'query'} is the path")
            given.append((option, _utf8(value)))
    return given


def _utf8(value: str) -> str:
    """A header's value as the client wrote it: the server reads its bytes as Latin-1, a client
    such as curl sends them as UTF-8 (`X-Webferret-Exclude: .anzeige-ä`); bytes that are no UTF-8
    stay Latin-1."""
    try:
        return value.encode("latin-1").decode("utf-8")
    except UnicodeError:
        return value


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
