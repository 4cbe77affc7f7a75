"""A tiny loopback web for the tier tests: routes served by a real threaded HTTP server, hits recorded."""

from __future__ import annotations

import socket
import socketserver
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from webferret.net.policy import UrlPolicy

Reply = tuple[int, dict[str, str], bytes]
Route = Callable[["Hit"], Reply]


def shared_dir() -> Path:
    """`<repo>/../shared` (CI) or the sibling of the worktrees' folder (`/work/shared`)."""
    here = Path(__file__).resolve()
    candidates = [here.parents[2] / "shared", here.parents[3] / "shared"]
    return next((path for path in candidates if path.is_dir()), candidates[0])


def loopback_policy() -> UrlPolicy:
    """The real guard with 127.0.0.1 allowed (`--allow-host 127.0.0.1`); 127.0.0.2 stays refused."""
    return UrlPolicy(allow_hosts=("127.0.0.1",))


def free_port_on_both() -> int:
    for _ in range(20):
        with socket.socket() as a, socket.socket() as b:
            a.bind(("127.0.0.1", 0))
            port = a.getsockname()[1]
            try:
                b.bind(("127.0.0.2", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no port free on both 127.0.0.1 and 127.0.0.2")


@dataclass
class Hit:
    path: str
    headers: dict[str, str]
    cookies: list[str] = field(default_factory=list)  # every `Cookie` header, in the order sent


@dataclass
class Site:
    host: str
    port: int = 0
    routes: dict[str, Route] = field(default_factory=dict)
    hits: list[Hit] = field(default_factory=list)
    fallback: Route | None = None  # answers a path without a route (default: 404)

    @property
    def base(self) -> str:
        return f"http://{self.host}:{self.port}"

    def page(self, path: str, body: bytes | str, status: int = 200, **headers: str) -> None:
        data = body.encode() if isinstance(body, str) else body
        head = {
            "content-type": "text/html; charset=utf-8",
            **{k.replace("_", "-"): v for k, v in headers.items()},
        }
        self.routes[path] = lambda hit: (status, head, data)


def _handler(site: Site) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            headers = {k.lower(): v for k, v in self.headers.items()}
            hit = Hit(self.path, headers, self.headers.get_all("cookie") or [])
            site.hits.append(hit)
            route = site.routes.get(self.path.split("?")[0]) or site.fallback
            status, headers, body = route(hit) if route else (404, {"content-type": "text/plain"}, b"nope")
            self.send_response(status)
            for key, value in headers.items():
                self.send_header(key, value)
            if status != 304:
                self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_POST(self) -> None:
            """A form's post: its body is read and let go; the route of its path answers it."""
            self.rfile.read(int(self.headers.get("content-length") or 0))
            self.do_GET()

        def log_message(self, *args: object) -> None:
            pass

    return Handler


@contextmanager
def serve(host: str = "127.0.0.1", port: int = 0) -> Iterator[Site]:
    site = Site(host)
    server = ThreadingHTTPServer((host, port), _handler(site))
    server.daemon_threads = True
    site.port = server.server_address[1]
    with running(server):
        yield site


@contextmanager
def running(server: socketserver.BaseServer) -> Iterator[None]:
    """`server` answering on a thread of its own until the block ends."""
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)
        thread.join(5)
