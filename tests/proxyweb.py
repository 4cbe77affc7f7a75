"""A real forward proxy on loopback for the proxy tests: HTTP CONNECT or SOCKS5, with optional
credentials, recording what each client asked it to reach (`asked`, as written on the wire)."""

from __future__ import annotations

import base64
import ipaddress
import select
import socket
import struct
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from socketserver import BaseRequestHandler, ThreadingTCPServer
from typing import Literal
from urllib.parse import quote, urlsplit

from tiers_web import running


@dataclass
class Proxy:
    kind: Literal["http", "socks5"]
    credentials: tuple[str, str] | None = None
    refuse: int | None = None  # the status an HTTP proxy answers every CONNECT with
    host: str = "127.0.0.1"
    port: int = 0
    asked: list[str] = field(default_factory=list)  # "host:port" as the client wrote it
    plain: list[str] = field(default_factory=list)  # request lines of requests not tunnelled

    @property
    def url(self) -> str:
        login = ":".join(quote(part, safe="") for part in self.credentials) + "@" if self.credentials else ""
        return f"{self.kind}://{login}{self.host}:{self.port}"


def _relay(a: socket.socket, b: socket.socket) -> None:
    pair = [a, b]
    while True:
        ready, _, _ = select.select(pair, [], [], 10)
        if not ready:
            return
        for sock in ready:
            data = sock.recv(65536)
            if not data:
                return
            (b if sock is a else a).sendall(data)


def _read_exact(sock: socket.socket, n: int) -> bytes:
    data = b""
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            raise ConnectionError("client went away")
        data += chunk
    return data


def _handler(proxy: Proxy) -> type[BaseRequestHandler]:
    class Handler(BaseRequestHandler):
        def handle(self) -> None:
            client: socket.socket = self.request
            try:
                if proxy.kind == "http":
                    self._http(client)
                else:
                    self._socks(client)
            except (ConnectionError, OSError):
                pass

        def _http(self, client: socket.socket) -> None:
            head = b""
            while b"\r\n\r\n" not in head:
                chunk = client.recv(4096)
                if not chunk:
                    return
                head += chunk
            lines = head.split(b"\r\n\r\n")[0].decode("latin-1").split("\r\n")
            method, where, _ = lines[0].split(" ", 2)
            headers = {
                k.strip().lower(): v.strip() for k, v in (h.split(":", 1) for h in lines[1:] if ":" in h)
            }
            if not self._allowed(client, headers):
                return
            if method != "CONNECT":
                self._forward(client, lines, head)
                return
            proxy.asked.append(where)
            if proxy.refuse:
                client.sendall(f"HTTP/1.1 {proxy.refuse} Refused\r\ncontent-length: 0\r\n\r\n".encode())
                return
            host, port = where.rsplit(":", 1)
            try:
                upstream = socket.create_connection((host.strip("[]"), int(port)), timeout=5)
            except OSError:
                client.sendall(b"HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\n\r\n")
                return
            with upstream:
                client.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
                _relay(client, upstream)

        def _allowed(self, client: socket.socket, headers: dict[str, str]) -> bool:
            if not proxy.credentials:
                return True
            wanted = base64.b64encode(":".join(proxy.credentials).encode()).decode()
            if headers.get("proxy-authorization") == f"Basic {wanted}":
                return True
            client.sendall(
                b"HTTP/1.1 407 Proxy Authentication Required\r\n"
                b'proxy-authenticate: Basic realm="test"\r\ncontent-length: 0\r\n\r\n'
            )
            return False

        def _forward(self, client: socket.socket, lines: list[str], head: bytes) -> None:
            """An absolute-form request (`GET http://host:port/path`), sent on in origin form."""
            proxy.plain.append(lines[0])
            method, where, version = lines[0].split(" ", 2)
            parts = urlsplit(where)
            path = parts.path + (f"?{parts.query}" if parts.query else "") or "/"
            kept = [line for line in lines[1:] if not line.lower().startswith("proxy-")]
            rest = head.split(b"\r\n\r\n", 1)[1]
            first = "\r\n".join([f"{method} {path} {version}", *kept, "connection: close"]) + "\r\n\r\n"
            with socket.create_connection((parts.hostname, parts.port or 80), timeout=5) as upstream:
                upstream.sendall(first.encode("latin-1") + rest)
                _relay(client, upstream)

        def _socks(self, client: socket.socket) -> None:
            version, count = _read_exact(client, 2)
            methods = _read_exact(client, count)
            wanted = 2 if proxy.credentials else 0
            if version != 5 or wanted not in methods:
                client.sendall(b"\x05\xff")
                return
            client.sendall(bytes([5, wanted]))
            if proxy.credentials:
                _, ulen = _read_exact(client, 2)
                user = _read_exact(client, ulen).decode()
                (plen,) = _read_exact(client, 1)
                password = _read_exact(client, plen).decode()
                good = (user, password) == proxy.credentials
                client.sendall(b"\x01\x00" if good else b"\x01\x01")
                if not good:
                    return
            _, _, _, kind = _read_exact(client, 4)  # version, command (connect), reserved
            if kind == 1:
                host = str(ipaddress.IPv4Address(_read_exact(client, 4)))
            elif kind == 4:
                host = f"[{ipaddress.IPv6Address(_read_exact(client, 16))}]"
            else:
                (length,) = _read_exact(client, 1)
                host = _read_exact(client, length).decode()
            (port,) = struct.unpack("!H", _read_exact(client, 2))
            proxy.asked.append(f"{host}:{port}")
            try:
                upstream = socket.create_connection((host.strip("[]"), port), timeout=5)
            except OSError:
                client.sendall(b"\x05\x05\x00\x01\x00\x00\x00\x00\x00\x00")  # connection refused
                return
            with upstream:
                client.sendall(b"\x05\x00\x00\x01\x7f\x00\x00\x01" + struct.pack("!H", port))
                _relay(client, upstream)

    return Handler


@contextmanager
def proxy_server(
    kind: Literal["http", "socks5"] = "http",
    credentials: tuple[str, str] | None = None,
    refuse: int | None = None,
    host: str = "127.0.0.1",
) -> Iterator[Proxy]:
    proxy = Proxy(kind, credentials, refuse, host)
    ThreadingTCPServer.allow_reuse_address = True
    server = ThreadingTCPServer((host, 0), _handler(proxy))
    server.daemon_threads = True
    proxy.port = server.server_address[1]
    with running(server):
        yield proxy


@contextmanager
def broken_proxy(answer: bytes = b"") -> Iterator[str]:
    """A proxy that breaks: it reads what a client asks, then answers `answer` (something that is no
    proxy's answer) and closes, or with no answer resets the connection at once. Yields its
    `host:port`."""

    class Handler(BaseRequestHandler):
        def handle(self) -> None:
            client: socket.socket = self.request
            try:
                if answer:
                    client.recv(4096)
                    client.sendall(answer)
                else:  # a reset (RST), not an orderly close
                    client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            except OSError:
                pass

    ThreadingTCPServer.allow_reuse_address = True
    server = ThreadingTCPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    with running(server):
        yield f"127.0.0.1:{server.server_address[1]}"


@contextmanager
def silent_proxy() -> Iterator[str]:
    """A proxy address that takes no connection, as a wrong address or a firewall dropping it: a
    socket listening with its queue full, whose kernel drops every further SYN. Yields `host:port`."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(0)
        with socket.create_connection(listener.getsockname(), timeout=5):  # fills the queue, not accepted
            yield "{}:{}".format(*listener.getsockname())
