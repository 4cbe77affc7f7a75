"""An httpx transport that connects only to addresses the policy vetted: DNS-rebinding safe.

`PinnedTransport` is an `httpx.AsyncHTTPTransport` whose connection pool uses `PinnedBackend`, a
network backend that never resolves names: before a request the caller pins the request's host
(`pin(target)`, from `UrlPolicy.vet`) to its vetted address, and `connect_tcp(host, port)` opens a
socket to that address. A host that was not pinned is refused. Everything above the socket is
untouched, so the Host header, TLS SNI and certificate verification all use the real host name.

Proxies from the environment are ignored (a proxy would resolve names itself): the client that
uses this transport must be made with `trust_env=False`. The setting `proxy` is honoured below the
pool instead: the socket `connect_tcp` returns is a tunnel through the proxy to the vetted address
(`webferret.net.proxy`). Connections are pooled per origin (`OriginPools`).
"""

from __future__ import annotations

import asyncio
import os
import socket
import ssl
import time
import typing
from collections import OrderedDict
from collections.abc import Callable

import anyio.abc
import httpcore
import httpx
from httpcore import AnyIOBackend, AsyncNetworkBackend, AsyncNetworkStream

try:  # httpcore's stream over an anyio socket stream (what its anyio backend returns); not exported
    from httpcore._backends.anyio import AnyIOStream
except ImportError:  # pragma: no cover - another httpcore: connect through its backend instead
    AnyIOStream = None

from webferret.net.policy import Target
from webferret.net.proxy import DIRECT as NO_PROXY
from webferret.net.proxy import Proxy, ProxyRoute, proxy_connect_timeout, tunnel
from webferret.net.tls import env_context

# connect directly (`_open_tcp`) when both pieces are there (anyio has `from_socket` since 4.7)
DIRECT = AnyIOStream is not None and hasattr(anyio.abc.SocketStream, "from_socket")

SocketOption = typing.Any


class UnpinnedHostError(httpcore.ConnectError):
    """A connection was asked for a host that no vetted target pinned."""


class PinnedBackend(AsyncNetworkBackend):
    """Opens TCP connections to pinned addresses only; never looks a name up."""

    def __init__(self, route: ProxyRoute = NO_PROXY) -> None:
        self._inner = AnyIOBackend()
        self._pins: dict[tuple[str, int], str] = {}
        self.route = route

    def pin(self, target: Target) -> None:
        self._pins[(target.host_key, target.port)] = target.address

    def via_proxy(self, target: Target) -> bool:
        """Whether connections to `target` go through the proxy (its peer is then the proxy)."""
        return self.route.proxy_for(target.host, target.address) is not None

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
        proxy = self.route.proxy_for(host, address)
        if proxy is not None:
            return await self._through_proxy(proxy, address, port, timeout)
        if not DIRECT or local_address is not None or socket_options:
            return await self._inner.connect_tcp(
                address, port, timeout=timeout, local_address=local_address, socket_options=socket_options
            )
        return AnyIOStream(await _open_tcp(address, port, timeout))

    async def _through_proxy(
        self, proxy: Proxy, address: str, port: int, timeout: float | None
    ) -> AsyncNetworkStream:
        """A tunnel through `proxy` to `address`:`port`; the proxy's name is resolved as any
        client's would be (it is the user's own, and may be private). The connection to the proxy
        has half the request's time (`proxy_connect_timeout`), so one that never accepts (a wrong
        address, a firewall dropping it) is said to be the proxy's, not the page's time-out."""
        within = proxy_connect_timeout(timeout)
        try:
            stream = await self._inner.connect_tcp(proxy.host, proxy.port, timeout=within)
        except httpcore.ConnectTimeout:
            raise httpcore.ProxyError(
                f"cannot reach the proxy {proxy.shown}: no connection in {within:g} s"
            ) from None
        except (httpcore.ConnectError, OSError) as exc:
            raise httpcore.ProxyError(
                f"cannot reach the proxy {proxy.shown}: {str(exc) or type(exc).__name__}"
            ) from exc
        try:
            await tunnel(stream, proxy, address, port, timeout)
        except BaseException:
            await stream.aclose()
            raise
        return stream

    async def connect_unix_socket(
        self,
        path: str,
        timeout: float | None = None,
        socket_options: typing.Iterable[SocketOption] | None = None,
    ) -> AsyncNetworkStream:
        raise UnpinnedHostError(f"unix sockets are not allowed ({path})")

    async def sleep(self, seconds: float) -> None:
        await self._inner.sleep(seconds)


async def _open_tcp(address: str, port: int, timeout: float | None) -> anyio.abc.SocketStream:
    """A TCP connection to `address`, an IP address. `anyio.connect_tcp` races the addresses a name
    resolves to in a task group of its own (a cancel scope, a child task and an event per address),
    which one pinned address does not need: fifteen requests at once on fresh connections (fifteen
    loopback servers) took a median 14.9 ms with this against 17.9 ms through it."""
    family = socket.AF_INET6 if ":" in address else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setblocking(False)
        async with asyncio.timeout(timeout):
            await asyncio.get_running_loop().sock_connect(sock, (address, port))
        return await anyio.abc.SocketStream.from_socket(sock)
    except BaseException as exc:  # closed on any failure or cancellation, then said in httpcore's terms
        sock.close()
        if isinstance(exc, TimeoutError):  # before OSError: TimeoutError is one
            raise httpcore.ConnectTimeout(f"no connection to {address}:{port} in {timeout} s") from exc
        if isinstance(exc, OSError):
            reason = os.strerror(exc.errno) if exc.errno else str(exc) or type(exc).__name__
            raise httpcore.ConnectError(reason) from exc
        raise


class PinnedTransport(httpx.AsyncHTTPTransport):
    """`httpx.AsyncHTTPTransport` over a `PinnedBackend` (HTTP/1.1).

    `verify`: True for the CA store httpx uses (SSL_CERT_FILE / SSL_CERT_DIR, else certifi), or an
    `ssl.SSLContext` of your own (a test CA). False turns certificate checks off; webferret never does.
    """

    def __init__(
        self,
        limits: httpx.Limits | None = None,
        verify: bool | ssl.SSLContext = True,
        route: ProxyRoute = NO_PROXY,
    ) -> None:
        # AsyncHTTPTransport.__init__ only builds `self._pool`; this builds it over the pinned backend
        # instead (calling it too would load the CA store twice).
        limits = limits or httpx.Limits(max_connections=100, max_keepalive_connections=20)
        self.backend = PinnedBackend(route)
        context = verify if isinstance(verify, ssl.SSLContext) else _ssl_context(verify)

        def pool() -> httpcore.AsyncConnectionPool:
            return httpcore.AsyncConnectionPool(
                ssl_context=context,
                max_connections=limits.max_connections,
                max_keepalive_connections=limits.max_keepalive_connections,
                keepalive_expiry=limits.keepalive_expiry,
                http1=True,
                http2=False,
                network_backend=self.backend,
            )

        self._pool = OriginPools(pool, limits.keepalive_expiry)  # type: ignore[assignment]

    def pin(self, target: Target) -> None:
        self.backend.pin(target)

    def via_proxy(self, target: Target) -> bool:
        return self.backend.via_proxy(target)


Origin = tuple[bytes, bytes, int | None]


class OriginPools:
    """One httpcore connection pool per origin (scheme, host, port), behind a pool's interface.

    httpcore's pool looks over every connection it holds, twice over, each time a request starts or
    ends, and asks each idle socket whether it has become readable. A search reads fifteen hosts at
    once, and the idle connections of the searches before it stay pooled: in one pool that took 0.5-0.9
    ms of the event loop per request, so a search's last page requests left about 6 ms later than with
    a pool of two idle connections. Per origin, a pool only looks over its own few connections, and a
    batch of pages from one site still reuses its connections.

    A pool that holds nothing but idle connections (or none) and has not been asked for `expiry`
    seconds is closed when a request comes for another origin, as one pool closes a connection that
    has expired; past `most` origins, the least recently asked such pool is closed too."""

    def __init__(
        self, make: Callable[[], httpcore.AsyncConnectionPool], expiry: float | None, most: int = 256
    ) -> None:
        self._make = make
        self._expiry = expiry
        self._most = most
        self._pools: OrderedDict[Origin, tuple[httpcore.AsyncConnectionPool, float]] = OrderedDict()

    async def handle_async_request(self, request: httpcore.Request) -> httpcore.Response:
        url = request.url
        key: Origin = (url.scheme, url.host, url.port)
        now = time.monotonic()
        entry = self._pools.pop(key, None)
        pool = entry[0] if entry is not None else self._make()
        self._pools[key] = (pool, now)  # the most recently asked last
        for idle in self._idle_pools(now):
            await idle.aclose()
        return await pool.handle_async_request(request)

    def _idle_pools(self, now: float) -> list[httpcore.AsyncConnectionPool]:
        """Pools to close now, taken out: expired idle ones, then the oldest idle ones past `most`."""
        idle: list[httpcore.AsyncConnectionPool] = []
        excess = len(self._pools) - self._most
        for key, (pool, asked) in list(self._pools.items())[:-1]:  # never the one just asked for
            expired = self._expiry is not None and now - asked > self._expiry
            if (expired or excess > 0) and all(c.is_idle() for c in pool.connections):
                del self._pools[key]
                idle.append(pool)
                excess -= 1
            elif not expired and excess <= 0:
                break  # in order of asking: the rest were asked later still
        return idle

    @property
    def connections(self) -> list[httpcore.AsyncConnectionInterface]:
        return [c for pool, _ in self._pools.values() for c in pool.connections]

    async def aclose(self) -> None:
        pools = [pool for pool, _ in self._pools.values()]
        self._pools.clear()
        for pool in pools:
            await pool.aclose()

    async def __aenter__(self) -> OriginPools:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()


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
