"""The HTTP faces' server (`webferret api`, `webferret mcp --http`): an ASGI app on HOST:PORT.

The socket is bound before the server starts, so an address that cannot be had (a port taken, an
address not this machine's) is an `OSError` the command answers as its usage error; the line
that says where the face listens is written once it does, never for a server that did not start.
"""

from __future__ import annotations

import socket
import sys
from collections.abc import Awaitable, Callable
from typing import Any


def loopback(host: str) -> bool:
    """Does `host` (an address or `localhost`) listen where only this machine reaches it?"""
    import ipaddress

    try:
        return host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def bound(host: str, port: int) -> socket.socket:
    """A TCP socket bound to `host:port` (an IPv6 address for a host with a colon), not listening yet."""
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
    except BaseException:
        sock.close()
        raise
    return sock


def serve_app(
    app: Any,
    host: str,
    port: int,
    said: Callable[[str], str],
    *,
    log_level: str = "warning",
    stopping: Callable[[], Awaitable[None]] | None = None,
    **config: Any,
) -> None:
    """Serve `app` until SIGINT or SIGTERM (calls in flight end first); `said(origin)` goes to stderr
    once the server listens, with the origin it listens at (`http://HOST:PORT`, an IPv6 host in
    brackets, the port the system chose for port 0). `OSError` when `host:port` cannot be bound;
    `stopping`: run beside the server's shutdown, which stops taking calls and waits for its open
    connections (a face whose connections stay open, MCP's event streams, closes them there once
    its calls in flight have answered); `config`: more of uvicorn's."""
    import asyncio

    import uvicorn

    class Server(uvicorn.Server):
        async def startup(self, sockets: Any = None) -> None:
            await super().startup(sockets)
            if self.started:
                sys.stderr.write(said(origin) + "\n")

        async def shutdown(self, sockets: Any = None) -> None:
            closing = asyncio.ensure_future(stopping()) if stopping is not None else None
            try:
                await super().shutdown(sockets)
            finally:
                if closing is not None:
                    closing.cancel()

    sock = bound(host, port)
    origin = f"http://{f'[{host}]' if ':' in host else host}:{sock.getsockname()[1]}"
    with sock:
        settings = uvicorn.Config(app, host=host, port=port, log_level=log_level, **config)
        Server(settings).run(sockets=[sock])
