"""An httpx transport that connects only to addresses the policy vetted: DNS-rebinding safe.

`PinnedTransport` is an `httpx.AsyncHTTPTransport` whose connection pool uses `PinnedBackend`, a
network backend that never resolves names: before a request the caller pins the request's host
(`pin(target)`, from `UrlPolicy.vet`) to its vetted address, and `connect_tcp(host, port)` opens a
socket to that address. A host that was not pinned is refused. Everything above the socket is
untouched, so the Host header, TLS SNI and certificate verification all use the real host name.

Proxies from the environment are ignored (a proxy would resolve names itself): the client that
uses this transport must be made with `trust_env=False`.
"""

from __future__ import annotations

import ssl
import typing

import httpcore
import httpx
from httpcore import AnyIOBackend, AsyncNetworkBackend, AsyncNetworkStream

from webferret.net.policy import Target
from webferret.net.tls import env_context

SocketOption = typing.Any


class UnpinnedHostError(httpcore.ConnectError):
    """A connection was asked for a host that no vetted target pinned."""


class PinnedBackend(AsyncNetworkBackend):
    """Opens TCP connections to pinned addresses only; never looks a name up."""

    def __init__(self) -> None:
        self._inner = AnyIOBackend()
        self._pins: dict[tuple[str, int], str] = {}

    def pin(self, target: Target) -> None:
        self._pins[(target.host_key, target.port)] = target.address

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: typing.Iterable[SocketOption] | None = None,
    ) -> AsyncNetworkStream:
        address = self._pins.get((host.lower(), port))
        if address is None:
            raise UnpinnedHostError(f"no vetted address for {host}:{port}")
        return await self._inner.connect_tcp(
            address, port, timeout=timeout, local_address=local_address, socket_options=socket_options
        )

    async def connect_unix_socket(
        self,
        path: str,
        timeout: float | None = None,
        socket_options: typing.Iterable[SocketOption] | None = None,
    ) -> AsyncNetworkStream:
        raise UnpinnedHostError(f"unix sockets are not allowed ({path})")

    async def sleep(self, seconds: float) -> None:
        await self._inner.sleep(seconds)


class PinnedTransport(httpx.AsyncHTTPTransport):
    """`httpx.AsyncHTTPTransport` over a `PinnedBackend` (HTTP/1.1).

    `verify`: True for the CA store httpx uses (SSL_CERT_FILE / SSL_CERT_DIR, else certifi), or an
    `ssl.SSLContext` of your own (a test CA). False turns certificate checks off; webferret never does.
    """

    def __init__(self, limits: httpx.Limits | None = None, verify: bool | ssl.SSLContext = True) -> None:
        # AsyncHTTPTransport.__init__ only builds `self._pool`; this builds it over the pinned backend
        # instead (calling it too would load the CA store twice).
        limits = limits or httpx.Limits(max_connections=100, max_keepalive_connections=20)
        self.backend = PinnedBackend()
        self._pool = httpcore.AsyncConnectionPool(
            ssl_context=verify if isinstance(verify, ssl.SSLContext) else _ssl_context(verify),
            max_connections=limits.max_connections,
            max_keepalive_connections=limits.max_keepalive_connections,
            keepalive_expiry=limits.keepalive_expiry,
            http1=True,
            http2=False,
            network_backend=self.backend,
        )

    def pin(self, target: Target) -> None:
        self.backend.pin(target)


def _ssl_context(verify: bool) -> ssl.SSLContext:
    """One TLS context per process (loading the CA store takes a while); contexts are shareable.
    The CA store is the one SSL_CERT_FILE / SSL_CERT_DIR names, else certifi's (as for engines)."""
    return env_context() if verify else httpx.create_ssl_context(verify=False, trust_env=False)


def shared_tls() -> ssl.SSLContext:
    """`verify=` for a client that trusts the environment, made once per process: certifi's CA
    store, or the CAs that SSL_CERT_FILE / SSL_CERT_DIR name (as httpx would read them itself)."""
    return env_context()


def peer_address(response: httpx.Response) -> str | None:
    """The IP address the response actually came from, when the stack says."""
    stream = response.extensions.get("network_stream")
    if stream is None:
        return None
    peer = stream.get_extra_info("server_addr")
    return str(peer[0]) if peer else None
