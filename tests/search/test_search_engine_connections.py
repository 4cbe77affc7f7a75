"""A session's searches reuse their engine connections (a resident server's next search skips the
TCP and, on the internet, the TLS handshake)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from webferret.ferret import Ferret


class _Searx(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive
    server: _SearxServer

    def log_message(self, format: str, *args: object) -> None:
        return

    def do_GET(self) -> None:
        self.server.peers.append(self.client_address[1])
        self.server.encodings.append(self.headers.get("Accept-Encoding", ""))
        results = [
            {"url": f"https://example.org/{n}", "title": f"Result {n}", "engines": ["bing"]} for n in range(3)
        ]
        body = json.dumps({"query": "q", "results": results}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class _SearxServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Searx)
        self.peers: list[int] = []
        self.encodings: list[str] = []


@pytest.fixture
def searx() -> Iterator[_SearxServer]:
    server = _SearxServer()
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


async def test_searches_of_one_session_share_the_engine_connection(
    searx: _SearxServer, tmp_path: Path
) -> None:
    base = f"http://127.0.0.1:{searx.server_address[1]}"
    async with Ferret(home=tmp_path, searxng_url=base, engines=["searxng"], engine_min_interval=0) as ferret:
        options = ferret.search_options(verify=False, results=3)
        first = await ferret.search("ferrets", options)
        second = await ferret.search("stoats", options)
    assert [len(result.results) for result in (first, second)] == [3, 3]
    assert len(searx.peers) == 2 and searx.peers[0] == searx.peers[1]  # one connection, kept


async def test_a_new_session_opens_its_own(searx: _SearxServer, tmp_path: Path) -> None:
    base = f"http://127.0.0.1:{searx.server_address[1]}"
    for query in ("ferrets", "stoats"):
        async with Ferret(
            home=tmp_path, searxng_url=base, engines=["searxng"], engine_min_interval=0
        ) as ferret:
            await ferret.search(query, ferret.search_options(verify=False))
    assert len(searx.peers) == 2 and searx.peers[0] != searx.peers[1]  # closed with its session


async def test_engines_are_asked_only_for_encodings_read_under_the_cap(
    searx: _SearxServer, tmp_path: Path
) -> None:
    """Not brotli, which httpx would ask for and inflate whole: a bomb's full size in memory."""
    base = f"http://127.0.0.1:{searx.server_address[1]}"
    async with Ferret(home=tmp_path, searxng_url=base, engines=["searxng"], engine_min_interval=0) as ferret:
        await ferret.search("ferrets", ferret.search_options(verify=False))
    assert searx.encodings == ["gzip, deflate"]
