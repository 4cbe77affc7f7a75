"""`webferret mcp --http` asked to stop (SIGTERM, Ctrl-C) answers the tool calls in flight first, as
`webferret api` does: a shared server restarted under its agents cut their calls off unanswered (the
event stream a call is answered on was ended at once)."""

from __future__ import annotations

import asyncio
import signal
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from mcp_http import mcp_http

ARTICLE = (
    "<!doctype html><html><head><title>Late ferrets</title></head><body><main><article>"
    "<h1>Late ferrets</h1><p>" + "Ferrets sleep most of the day and play hard at dusk. " * 12 + "</p>"
    "</article></main></body></html>"
).encode()


class _Gate:
    """A page that is answered only once the test lets it (`release`); `asked` says it was requested."""

    def __init__(self) -> None:
        self.asked = threading.Event()
        self.release = threading.Event()


@pytest.fixture
def gated() -> Iterator[tuple[str, _Gate]]:
    gate = _Gate()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            if self.path != "/late":
                self.send_response(404)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            gate.asked.set()
            gate.release.wait(60)
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(ARTICLE)))
            self.end_headers()
            self.wfile.write(ARTICLE)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/late", gate
    finally:
        gate.release.set()
        server.shutdown()
        server.server_close()


def _listening(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


async def test_a_call_in_flight_is_answered_before_the_server_stops(
    tmp_path: Path, gated: tuple[str, _Gate]
) -> None:
    url, gate = gated
    async with mcp_http(tmp_path, "--allow-host", "127.0.0.1") as served:
        await served.session.list_tools()  # (the client checks an answer against them: asked now, not after)
        call = asyncio.create_task(served.session.call_tool("web_fetch", {"urls": [url]}))
        assert await asyncio.to_thread(gate.asked.wait, 60)
        served.process.send_signal(signal.SIGTERM)
        while _listening(served.port):  # it stops taking calls at once
            await asyncio.sleep(0.05)
        await asyncio.sleep(1)  # past sse-starlette's drain (it polls every 0.5 s), which cut the call
        gate.release.set()
        answer = await call
        assert await asyncio.to_thread(served.process.wait, 60) is not None
    assert not answer.is_error, served.stderr
    assert answer.structured_content["pages"][0]["title"] == "Late ferrets"
