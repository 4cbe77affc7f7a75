"""A simulated web on 127.0.0.1 for tests: a real HTTP server in a thread.

    def test_x(simweb):
        simweb.add("/hello", body="<html>...</html>", status=200, headers={...}, delay=0.0)
        url = simweb.url("/hello")

Built-in routes (see `builtin_routes`): `/article`, `/fixture/<path under shared fixtures/pages>`
(a readability case folder serves its source.html: `/fixture/readability/guardian-1`), `/redirect/<n>`,
`/loop/a`, `/slow`, `/drip`, `/huge`, `/huge-declared`, `/gzip-bomb`, `/gzip-article`,
`/lying-length`, `/cp1252`, `/png-as-html`, `/status/<code>`, `/rate-limited`, `/rate-limited-long`,
`/json`, `/text`, `/binary`, `/empty`, `/echo` (the request headers as JSON), `/etag`.
`simweb.requests` logs (path, headers) of every request served. The server is shared by the session, so
a request an earlier test left late can land in any test's log: count only the test's own paths
(`simweb.served(path)`, `simweb.log(path)`, a route of its own from `simweb.add` or `simweb.own`).
"""

from __future__ import annotations

import contextlib
import gzip
import json
import ssl
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

Stream = Callable[["Handler", "SimWeb"], None]


def shared_dir() -> Path:
    """The shared fixtures folder (`<repo>/../shared`, or `<repo>/../../shared`); skip if absent."""
    repo = Path(__file__).resolve().parents[1]
    for candidate in (repo.parent / "shared", repo.parent.parent / "shared"):
        if (candidate / "fixtures").is_dir():
            return candidate
    pytest.skip("the shared fixtures folder (../shared) is not present")


@dataclass
class Route:
    body: bytes = b""
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    stream: Stream | None = None


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    def do_GET(self) -> None:
        web = self.server.web
        path = self.path.split("?")[0]
        web.requests.append((self.path, {k.lower(): v for k, v in self.headers.items()}))
        route = web.route(path)
        if route is None:
            route = Route(body=b"<html><body><h1>Not found</h1></body></html>", status=404)
        if route.delay and web.closing.wait(route.delay):
            return
        if route.stream is not None:
            self.close_connection = True
            with contextlib.suppress(OSError):  # the client went away
                route.stream(self, web)
            return
        self.send(route.status, route.body, route.headers)

    def send(self, status: int, body: bytes, headers: dict[str, str]) -> None:
        self.send_response(status)
        lowered = {k.lower() for k in headers}
        if "content-type" not in lowered:
            self.send_header("Content-Type", "text/html; charset=utf-8")
        if "content-length" not in lowered:
            self.send_header("Content-Length", str(len(body)))
        for name, value in headers.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def reply(self, status: int, body: bytes, headers: dict[str, str] | None = None) -> None:
        """For `stream` routes: a whole answer, then the connection is closed (and says so)."""
        self.send(status, body, {**(headers or {}), "Connection": "close"})

    def log_message(self, format: str, *args: object) -> None:
        return


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    web: SimWeb

    def handle_error(self, request: object, client_address: object) -> None:
        """A client that hangs up early (a cap, a timeout) is expected here: stay quiet about it, however
        the socket says so (a reset, a broken pipe, a closed file: a test failed once on one of these,
        its traceback printed into the output the test read)."""
        error = sys.exc_info()[1]
        if isinstance(error, (OSError, TimeoutError)) or (
            isinstance(error, ValueError) and "closed file" in str(error)
        ):
            return
        super().handle_error(request, client_address)  # type: ignore[arg-type]


class SimWeb:
    """The server, its routes and a log of the requests it served."""

    def __init__(self, tls: ssl.SSLContext | None = None) -> None:
        self.routes: dict[str, Route] = builtin_routes()
        self.requests: list[tuple[str, dict[str, str]]] = []
        self.closing = threading.Event()
        self._server = _Server(("127.0.0.1", 0), Handler)
        if tls is not None:
            self._server.socket = tls.wrap_socket(self._server.socket, server_side=True)
        self._server.web = self
        self.port = self._server.server_address[1]
        self.base = f"{'https' if tls else 'http'}://127.0.0.1:{self.port}"
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,), daemon=True)
        self._builtin = dict(self.routes)

    def start(self) -> SimWeb:
        self._thread.start()
        return self

    def stop(self) -> None:
        self.closing.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(5)

    def url(self, path: str) -> str:
        return self.base + path

    def add(
        self,
        path: str,
        body: bytes | str = b"",
        status: int = 200,
        headers: dict[str, str] | None = None,
        delay: float = 0.0,
        stream: Stream | None = None,
    ) -> str:
        """Serve `body` at `path` (until the test ends); answers the full URL."""
        data = body.encode("utf-8") if isinstance(body, str) else body
        self.routes[path] = Route(data, status, dict(headers or {}), delay, stream)
        return self.url(path)

    def own(self, path: str, builtin: str) -> str:
        """Serve the built-in route `builtin` at `path` too, a path this test alone asks for: its URL."""
        self.routes[path] = self.routes[builtin]
        return self.url(path)

    def log(self, *paths: str) -> list[tuple[str, dict[str, str]]]:
        """The requests served for any of `paths` (a query aside), in order."""
        return [request for request in list(self.requests) if request[0].split("?")[0] in paths]

    def served(self, *paths: str) -> int:
        """How many requests asked for any of `paths` (a query aside)."""
        return len(self.log(*paths))

    def reset(self) -> None:
        self.routes = dict(self._builtin)  # a built-in route a test replaced is the built-in one again
        self.requests.clear()

    def route(self, path: str) -> Route | None:
        if path in self.routes:
            return self.routes[path]
        if path.startswith("/fixture/"):
            return _fixture(path.removeprefix("/fixture/"))
        return None


ARTICLE = """<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<title>The Ferret Field Guide</title>
<meta name="author" content="Ada Burrow"><meta name="description" content="How ferrets find things.">
<meta property="og:site_name" content="Burrow News">
<meta property="article:published_time" content="2024-05-01T10:00:00Z">
</head><body><nav><a href="/">Home</a> <a href="/about">About</a></nav>
<article><h1>The Ferret Field Guide</h1>
{paragraphs}
<h2>Tunnels</h2><ul><li>Short tunnels</li><li>Long tunnels</li></ul>
</article><footer>Copyright Burrow News</footer></body></html>"""

PARAGRAPH = (
    "<p>Ferrets are curious animals that explore every tunnel they meet, and this paragraph number {n} "
    "explains in plain words how a careful ferret searches a burrow, remembers the way back, and "
    "brings home exactly what it was asked to find without getting lost.</p>"
)


def article_html(title: str = "The Ferret Field Guide", paragraphs: int = 8) -> str:
    body = "\n".join(PARAGRAPH.format(n=n) for n in range(1, paragraphs + 1))
    return ARTICLE.replace("The Ferret Field Guide", title).replace("{paragraphs}", body)


CP1252_HTML = (
    '<html><head><meta http-equiv="Content-Type" content="text/html; charset=windows-1252">'
    "<title>Caf\xe9 cr\xe8me</title></head><body><article><h1>Caf\xe9 cr\xe8me \u2013 na\xefve</h1>"
    + "<p>Le caf\xe9 cr\xe8me co\xfbte 3\u20ac \u201cseulement\u201d, dit la g\xe9rante na\xefve, "
    "et les cr\xeapes sont d\xe9licieuses \u00e0 toute heure de la journ\xe9e.</p>"
    * 6
    + "</article></body></html>"
).encode("cp1252")

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\rIHDR" + bytes(range(256)) * 8


def builtin_routes() -> dict[str, Route]:
    html = {"Content-Type": "text/html; charset=utf-8"}
    routes = {
        "/article": Route(article_html().encode(), headers=html),
        "/slow": Route(article_html("Slow").encode(), delay=3.0),
        "/cp1252": Route(CP1252_HTML, headers={"Content-Type": "text/html"}),
        "/png-as-html": Route(PNG, headers={"Content-Type": "text/html"}),
        "/json": Route(
            b'{"name": "ferret", "legs": 4, "likes": ["tunnels", "socks"]}',
            headers={"Content-Type": "application/json"},
        ),
        "/text": Route(b"Plain text about ferrets.\nSecond line.\n", headers={"Content-Type": "text/plain"}),
        "/binary": Route(bytes(range(256)) * 4, headers={"Content-Type": "application/octet-stream"}),
        "/empty": Route(b"<html><head><title>Empty</title></head><body></body></html>"),
        "/loop/a": Route(status=302, headers={"Location": "/loop/b"}),
        "/loop/b": Route(status=302, headers={"Location": "/loop/a"}),
        "/rate-limited": Route(b"slow down", status=429, headers={"Retry-After": "1"}),
        "/rate-limited-long": Route(b"slow down", status=429, headers={"Retry-After": "3600"}),
        "/gzip-article": Route(
            gzip.compress(article_html("Gzipped").encode()), headers={**html, "Content-Encoding": "gzip"}
        ),
        "/drip": Route(stream=_drip),
        "/huge": Route(stream=_huge),
        "/huge-declared": Route(stream=_huge_declared),
        "/gzip-bomb": Route(stream=_gzip_bomb),
        "/lying-length": Route(stream=_lying_length),
        "/echo": Route(stream=_echo),
        "/etag": Route(stream=_etag),
    }
    routes["/redirect/0"] = Route(status=302, headers={"Location": "/article"})
    for n in range(1, 10):
        routes[f"/redirect/{n}"] = Route(status=301, headers={"Location": f"/redirect/{n - 1}"})
    for code in (400, 401, 403, 404, 410, 500, 502, 503):
        routes[f"/status/{code}"] = Route(f"<html><body><h1>Error {code}</h1></body></html>".encode(), code)
    return routes


@cache
def _fixture_body(name: str) -> bytes | None:
    pages = (shared_dir() / "fixtures" / "pages").resolve()
    path = (pages / name).resolve()
    if path.is_dir():
        path = path / "source.html"
    if not path.is_relative_to(pages) or not path.is_file():
        return None
    return path.read_bytes()


def _fixture(name: str) -> Route | None:
    body = _fixture_body(name)
    return Route(body, headers={"Content-Type": "text/html; charset=utf-8"}) if body else None


def _start(handler: Handler, status: int, headers: dict[str, str]) -> None:
    handler.send_response(status)
    for name, value in headers.items():
        handler.send_header(name, value)
    handler.send_header("Connection", "close")
    handler.end_headers()


def _drip(handler: Handler, web: SimWeb) -> None:
    """One byte every 0.1 s, for up to 30 s: only an overall deadline stops it."""
    _start(handler, 200, {"Content-Type": "text/html", "Content-Length": "300"})
    for byte in article_html().encode()[:300]:
        if web.closing.wait(0.1):
            return
        handler.wfile.write(bytes([byte]))
        handler.wfile.flush()


def _huge(handler: Handler, web: SimWeb) -> None:
    """64 MiB of HTML without a Content-Length (close-delimited)."""
    _start(handler, 200, {"Content-Type": "text/html"})
    chunk = b"<p>" + b"ferret " * 9362 + b"</p>\n"
    for _ in range(64 * 1024 * 1024 // len(chunk)):
        if web.closing.is_set():
            return
        handler.wfile.write(chunk)


def _huge_declared(handler: Handler, web: SimWeb) -> None:
    """Declares 64 MiB up front (the client should refuse before reading)."""
    _start(handler, 200, {"Content-Type": "text/html", "Content-Length": str(64 * 1024 * 1024)})
    handler.wfile.write(b"<html>" + b"x" * 1024)


@cache
def _bomb() -> bytes:
    return gzip.compress(b"<html><body>" + b"\0" * (24 * 1024 * 1024), compresslevel=6)


def _gzip_bomb(handler: Handler, web: SimWeb) -> None:
    """~24 KiB of gzip that inflates to 24 MiB (over the 10 MiB default cap)."""
    body = _bomb()
    headers = {"Content-Type": "text/html", "Content-Encoding": "gzip", "Content-Length": str(len(body))}
    _start(handler, 200, headers)
    handler.wfile.write(body)


def _lying_length(handler: Handler, web: SimWeb) -> None:
    """Declares 5000 bytes, sends 100, closes."""
    _start(handler, 200, {"Content-Type": "text/html", "Content-Length": "5000"})
    handler.wfile.write(article_html().encode()[:100])


def _echo(handler: Handler, web: SimWeb) -> None:
    body = json.dumps({k.lower(): v for k, v in handler.headers.items()}).encode()
    _start(handler, 200, {"Content-Type": "application/json", "Content-Length": str(len(body))})
    handler.wfile.write(body)


def _etag(handler: Handler, web: SimWeb) -> None:
    if handler.headers.get("If-None-Match") == '"v1"':
        _start(handler, 304, {"ETag": '"v1"'})
        return
    body = article_html("Tagged").encode()
    _start(handler, 200, {"Content-Type": "text/html", "ETag": '"v1"', "Content-Length": str(len(body))})
    handler.wfile.write(body)


def wait_for(predicate: Callable[[], bool], timeout: float = 5.0) -> bool:
    """Poll `predicate` until true or `timeout` (for checks on the server thread's side)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.01)
    return predicate()
