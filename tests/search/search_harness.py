"""A simulated web for search tests: fake upstream engines and pages on 127.0.0.1, and a real searx.

`FakeWeb` is a threaded HTTP server answering:
  /api/search?q=...          a JSON engine (searx's `json_engine` reads it)
  /yacysearch.json?query=... a YaCy-shaped JSON engine (the one searx engine type that yields dates)
  /broken                    HTTP 500 (an upstream engine that fails)
  /pages/<name>              article pages for verification; /pages/dead answers 404,
                             /pages/mirror copies alpha (a query with "twins" lists both)
`SearxServer` runs Debian's `/usr/bin/searx-run` with a settings file pointing at the fake engines.
"""

from __future__ import annotations

import dataclasses
import json
import os
import socket
import subprocess
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import httpx

from webferret.search.types import Engine, EngineQuery, RequestSpec

SEARX_RUN = Path("/usr/bin/searx-run")
SEARX_SHARE = Path("/usr/share/python3-searx")
PAGE_NAMES = ("alpha", "beta", "gamma", "delta")


def article(name: str) -> str:
    words = " ".join(f"{name} ferret fact number {i} about burrows and tunnels." for i in range(40))
    return (
        f"<!doctype html><html><head><title>Ferret page {name}</title></head><body><main><article>"
        f"<h1>Ferret page {name}</h1><p>{words}</p><p>More about {name}: ferrets sleep a lot.</p>"
        "</article></main></body></html>"
    )


class _Handler(BaseHTTPRequestHandler):
    server: FakeWebServer

    def log_message(self, format: str, *args: object) -> None:  # quiet
        return

    def _send(self, status: int, body: str, content_type: str) -> None:
        data = body.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        self.server.posts.append(self.rfile.read(length).decode("utf-8", "replace"))
        self.do_GET()

    def do_GET(self) -> None:
        parts = urlsplit(self.path)
        self.server.paths.append(parts.path)
        if parts.path in self.server.canned:
            status, body, content_type = self.server.canned[parts.path]
            self._send(status, body, content_type)
            return
        query = parse_qs(parts.query)
        base = self.server.base
        if parts.path == "/api/search" and "twins" in query.get("q", [""])[0]:
            items = [
                {"url": f"{base}/pages/alpha", "title": "Ferret page alpha", "body": "the original"},
                {"url": f"{base}/pages/mirror", "title": "A mirror of alpha", "body": "the copy"},
            ]
            self._send(200, json.dumps({"items": items}), "application/json")
        elif parts.path == "/api/search":
            items = [
                {
                    "url": f"{base}/pages/alpha?utm_source=x",
                    "title": "Ferret page alpha",
                    "body": "alpha snippet",
                },
                {"url": f"{base}/pages/beta", "title": "Ferret page beta", "body": "beta snippet"},
                {"url": f"{base}/pages/dead", "title": "A dead page", "body": "gone"},
            ]
            self.server.queries.append(query.get("q", [""])[0])
            self._send(200, json.dumps({"items": items}), "application/json")
        elif parts.path == "/yacysearch.json":
            items = [
                {
                    "link": f"{base}/pages/gamma",
                    "title": "Ferret page gamma",
                    "description": "gamma <b>snippet</b>",
                    "pubDate": "Sat, 06 Jan 2024 12:00:00 +0000",
                },
                {
                    "link": f"{base}/pages/alpha",
                    "title": "Ferret page alpha",
                    "description": "alpha from yacy",
                    "pubDate": "Fri, 05 Jan 2024 08:30:00 +0000",
                },
            ]
            self._send(200, json.dumps({"channels": [{"items": items}]}), "application/json")
        elif parts.path == "/broken":
            self._send(500, "upstream exploded", "text/plain")
        elif parts.path == "/pages/mirror":
            self._send(200, article("alpha"), "text/html; charset=utf-8")
        elif parts.path.startswith("/pages/") and parts.path.removeprefix("/pages/") in PAGE_NAMES:
            self._send(200, article(parts.path.removeprefix("/pages/")), "text/html; charset=utf-8")
        else:
            self._send(404, "<html><body>not found</body></html>", "text/html")


class FakeWebServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.base = f"http://127.0.0.1:{self.server_address[1]}"
        self.queries: list[str] = []
        self.posts: list[str] = []
        self.paths: list[str] = []  # every GET's path, in order
        self.canned: dict[str, tuple[int, str, str]] = {}
        """path -> (status, body, content type), answered to GET and POST (tests fill it)"""


class FakeWeb:
    def __init__(self) -> None:
        self.server = FakeWebServer()
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def base(self) -> str:
        return self.server.base

    def __enter__(self) -> FakeWeb:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=5)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def searx_settings(port: int, upstream: str, formats_json: bool = True) -> str:
    """A complete searx 1.1 settings file with three fake upstream engines on loopback."""
    return f"""
general: {{debug: false, instance_name: "webferret-test", contact_url: false, enable_stats: false}}
brand: {{git_url: "", git_branch: "", issue_url: "", docs_url: "", public_instances: "", wiki_url: "",
  twitter_url: ""}}
search: {{safe_search: 0, autocomplete: "", default_lang: "", ban_time_on_fail: 0, max_ban_time_on_fail: 0,
  formats: [html{", json" if formats_json else ""}]}}
server: {{port: {port}, bind_address: "127.0.0.1", secret_key: "webferret-test-{port}", base_url: false,
  image_proxy: false, http_protocol_version: "1.0", method: "GET"}}
ui: {{static_path: "{SEARX_SHARE}/static", templates_path: "{SEARX_SHARE}/templates", default_theme: oscar,
  default_locale: "", theme_args: {{oscar_style: logicodev}}}}
outgoing: {{request_timeout: 3.0, useragent_suffix: "", pool_connections: 10, pool_maxsize: 10}}
engines:
  - name: fakeone
    engine: json_engine
    shortcut: fko
    categories: general
    search_url: "{upstream}/api/search?q={{query}}"
    results_query: items
    url_query: url
    title_query: title
    content_query: body
    enable_http: true
    timeout: 3.0
  - name: fakeyacy
    engine: yacy
    shortcut: fky
    base_url: "{upstream}"
    enable_http: true
    time_range_support: true
    timeout: 3.0
  - name: fakebroken
    engine: json_engine
    shortcut: fkb
    categories: general
    search_url: "{upstream}/broken?q={{query}}"
    results_query: items
    url_query: url
    title_query: title
    content_query: body
    enable_http: true
    timeout: 3.0
locales: {{en: English}}
doi_resolvers: {{doi.org: "https://doi.org/"}}
default_doi_resolver: doi.org
"""


class SearxServer:
    """Debian's searx on a free loopback port; started by `__enter__`, stopped by `__exit__`."""

    def __init__(self, workdir: Path, upstream: str) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.settings = workdir / "searx-settings.yml"
        self.settings.write_text(searx_settings(self.port, upstream), encoding="utf-8")
        self.log = workdir / "searx.log"
        self.process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> SearxServer:
        env = {
            "PATH": "/usr/bin:/bin",
            "HOME": str(self.settings.parent),
            "SEARX_SETTINGS_PATH": str(self.settings),
            "NO_PROXY": "127.0.0.1,localhost",
            "no_proxy": "127.0.0.1,localhost",
        }
        with self.log.open("wb") as log:
            self.process = subprocess.Popen([str(SEARX_RUN)], env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            self._wait_ready(timeout=20.0)
        except BaseException:
            self.__exit__()
            raise
        return self

    def _wait_ready(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.process is not None
            if self.process.poll() is not None:
                raise RuntimeError(
                    f"searx exited with {self.process.returncode}: {self.log.read_text()[-2000:]}"
                )
            try:
                if httpx.get(f"{self.url}/config", timeout=1.0).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"searx did not answer within {timeout} s: {self.log.read_text()[-2000:]}")

    def __exit__(self, *exc: object) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)
        self.process = None


def local(engine: Engine, url: str, asked: list[EngineQuery] | None = None) -> Engine:
    """The same engine with its request sent to `url` (everything else unchanged); each query it
    is asked is kept in `asked` when given."""
    build = engine.build_request

    def build_local(query: EngineQuery) -> RequestSpec:
        if asked is not None:
            asked.append(query)
        return dataclasses.replace(build(query), url=url)

    return dataclasses.replace(engine, build_request=build_local)


def searx_available() -> bool:
    return SEARX_RUN.is_file() and os.access(SEARX_RUN, os.X_OK) and SEARX_SHARE.is_dir()
