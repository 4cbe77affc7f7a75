"""`webferret mcp --http` asked to stop (SIGTERM, Ctrl-C) answers the tool calls in flight first, as
`webferret api` does: a shared server restarted under its agents cut their calls off unanswered (the
event stream a call is answered on was ended at once)."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest
from listening_port import listening_port
from mcp_http import INITIALIZE, mcp_http

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


def test_a_clients_notice_stream_is_ended_cleanly_when_the_server_stops(tmp_path: Path) -> None:
    """A client keeps a GET event stream open for the server's notices; asked to stop, the server
    ended it mid-response (an incomplete chunked body, which the client reads as a broken
    connection, and 'ASGI callable returned without completing response' logged as an ERROR)."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("WEBFERRET_")}
    env.update(WEBFERRET_HOME=str(tmp_path), WEBFERRET_CONFIG=os.devnull)
    command = [sys.executable, "-m", "webferret", "mcp", "--http", "127.0.0.1:0"]
    process = subprocess.Popen(command, env=env, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stderr is not None
        url = f"http://127.0.0.1:{listening_port(process.stderr)}/mcp"
        with httpx.Client(timeout=60) as client:
            asked = {"Accept": "application/json, text/event-stream"}
            opened = client.post(url, json=INITIALIZE, headers=asked)
            session = {
                "mcp-session-id": opened.headers["mcp-session-id"],
                "mcp-protocol-version": "2025-06-18",
            }
            ready = {"jsonrpc": "2.0", "method": "notifications/initialized"}
            assert client.post(url, json=ready, headers={**asked, **session}).status_code == 202
            with client.stream("GET", url, headers={"Accept": "text/event-stream", **session}) as notices:
                assert notices.status_code == 200
                process.send_signal(signal.SIGTERM)
                for _ in notices.iter_bytes():  # an incomplete body raises here
                    pass
        _, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate(timeout=30)
    assert "without completing response" not in err, err
