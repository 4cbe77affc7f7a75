"""A small HTTP/1.1 server on asyncio streams with injected latency and a bandwidth cap.

Only what the simulated internet needs: GET/HEAD, keep-alive, gzip when asked, conditional
requests. Each answered request is appended to a log (JSON lines) for critical-path analysis.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from email.utils import formatdate
from typing import IO

CHUNK = 16 * 1024
REASONS = {
    500: "Internal Server Error",
    200: "OK",
    301: "Moved Permanently",
    302: "Found",
    304: "Not Modified",
    403: "Forbidden",
    404: "Not Found",
    405: "Method Not Allowed",
}


@dataclass
class Request:
    method: str
    target: str
    headers: dict[str, str]

    @property
    def path(self) -> str:
        return self.target.split("?", 1)[0]

    @property
    def query(self) -> str:
        return self.target.split("?", 1)[1] if "?" in self.target else ""


@dataclass
class Response:
    status: int
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class Pace:
    """Time to first byte and transfer rate of one host."""

    latency_ms: float
    jitter: float
    bandwidth: int


Handler = Callable[[Request], Response]


async def _read_request(reader: asyncio.StreamReader) -> Request | None:
    try:
        head = await reader.readuntil(b"\r\n\r\n")
    except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError):
        return None
    lines = head.decode("latin-1").split("\r\n")
    parts = lines[0].split(" ")
    if len(parts) != 3:
        return None
    headers = {}
    for line in lines[1:]:
        if ":" in line:
            name, value = line.split(":", 1)
            headers[name.strip().lower()] = value.strip()
    length = int(headers.get("content-length", "0") or 0)
    if length:
        await reader.readexactly(length)
    return Request(parts[0].upper(), parts[1], headers)


def _head_bytes(response: Response, length: int, keep_alive: bool) -> bytes:
    headers = {
        "Date": formatdate(usegmt=True),
        "Server": "nginx/1.24.0",
        **response.headers,
        "Content-Length": str(length),
        "Connection": "keep-alive" if keep_alive else "close",
    }
    lines = [f"HTTP/1.1 {response.status} {REASONS.get(response.status, 'OK')}"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


async def _send(writer: asyncio.StreamWriter, data: bytes, bandwidth: int) -> None:
    """Send `data` at `bandwidth` bytes/s: each piece leaves once its transfer time has passed, so
    the last byte leaves at the end. (Sleeping after the last write instead let a client that had
    every byte close the connection first, which cancelled the answer before it was logged: the
    slow hosts' requests were missing from the log, and so from the critical path.)"""
    for start in range(0, len(data), CHUNK):
        piece = data[start : start + CHUNK]
        if bandwidth < 1 << 39:
            await asyncio.sleep(len(piece) / bandwidth)
        writer.write(piece)
        await writer.drain()


class Host:
    """One listening host: a handler, its pace, and the shared request log."""

    def __init__(self, name: str, handler: Handler, pace: Pace, log: IO[str], seed: int) -> None:
        self.name = name
        self.handler = handler
        self.pace = pace
        self.log = log
        self.rng = random.Random(seed)

    def delay(self) -> float:
        spread = self.rng.uniform(-self.pace.jitter, self.pace.jitter)
        return max(0.0, self.pace.latency_ms * (1 + spread)) / 1000

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                request = await _read_request(reader)
                if request is None:
                    break
                keep_alive = request.headers.get("connection", "").lower() != "close"
                await self._answer(request, reader, writer, keep_alive)
                if not keep_alive:
                    break
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            writer.close()

    async def _answer(
        self, request: Request, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, keep_alive: bool
    ) -> None:
        started = time.time()
        try:
            response = self.handler(request)
        except Exception as exc:  # a bug in a handler answers 500, it does not drop the connection
            response = Response(
                500, f"simweb handler failed: {exc!r}".encode(), {"Content-Type": "text/plain"}
            )
        await asyncio.sleep(self.delay())
        body = b"" if request.method == "HEAD" or response.status == 304 else response.body
        writer.write(_head_bytes(response, len(response.body), keep_alive))
        await _send(writer, body, self.pace.bandwidth)
        entry = {
            "t0": started,
            "t1": time.time(),
            "host": self.name,
            "path": request.target,
            "status": response.status,
            "bytes": len(body),
        }
        if 300 <= response.status < 400 and "Location" in response.headers:
            entry["location"] = response.headers["Location"]
        if reader.at_eof() or writer.is_closing():  # the client hung up before the answer was out
            entry["abandoned"] = True
        self.log.write(json.dumps(entry) + "\n")


async def listen(host: Host, ip: str, port: int) -> tuple[asyncio.Server, int]:
    """Start serving `host` on ip:port (port 0 picks a free one); answers the bound port."""
    server = await asyncio.start_server(host.serve, ip, port, reuse_address=True, backlog=512)
    bound = server.sockets[0].getsockname()[1]
    return server, bound
