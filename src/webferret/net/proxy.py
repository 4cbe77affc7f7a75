"""A forward proxy for everything webferret sends out (setting `proxy`), with the guard kept whole.

webferret still resolves and vets every host itself, then asks the proxy for the vetted address, not
the name: an HTTP proxy gets `CONNECT 93.184.215.14:443` and a SOCKS5 proxy a connect to that address.
Every request is tunnelled, plain http too, so TLS, SNI, the Host header and the certificate check all
run end to end with the page's real name, as without a proxy; the proxy cannot answer for a host, and a
name cannot make it reach an address the guard refused. The proxy itself may be on a private address:
it is the user's own choice. Hosts in `no_proxy` (names, domains, addresses, networks) are reached
directly; by default that is loopback, which a proxy would read as its own machine.

`socks5h` (the proxy resolves names) and a TLS connection to the proxy (`https://`) are refused: the
first would skip the guard, the second is rare enough that its absence is said rather than guessed at.

Failures say whose they are. The proxy's own (unreachable, credentials refused, a destination its rules
forbid) raise `httpcore.ProxyError`, reported as `proxy_error` and never remembered against the page;
the destination's (refused, unreachable, timed out, as the proxy reports it) raise the connection
errors a direct request would.
"""

from __future__ import annotations

import base64
import ipaddress
import ssl
import typing
from collections.abc import Iterable
from dataclasses import dataclass, field
from urllib.parse import quote, unquote, urlsplit

import httpcore
import httpx

from webferret.models import ErrorCode
from webferret.net.canonical import in_letters
from webferret.net.domains import covers, domain_key
from webferret.remote_text import one_line

SCHEMES = ("http", "socks5")
HEAD_LIMIT = 16 * 1024
"""Most bytes of a proxy's answer to CONNECT read before it is judged broken."""


@dataclass(frozen=True)
class Proxy:
    scheme: str  # http or socks5
    host: str
    port: int
    username: str = ""
    password: str = field(default="", repr=False)

    @property
    def shown(self) -> str:
        """The proxy as messages name it: never its credentials."""
        return f"{self.scheme}://{bracketed(self.host)}:{self.port}"

    @property
    def url(self) -> str:
        """The proxy's URL with its credentials, for curl and httpx."""
        login = ""
        if self.username or self.password:
            login = f"{quote(self.username, safe='')}:{quote(self.password, safe='')}@"
        return f"{self.scheme}://{login}{bracketed(self.host)}:{self.port}"


def proxy_url(text: str) -> str:
    """The proxy URL `text` names, as it is kept (`parse_proxy`'s); a `ValueError` otherwise."""
    return parse_proxy(text).url


def parse_proxy(text: str) -> Proxy:
    """The `Proxy` that `text` names (`http://[user:pass@]host:port` or `socks5://...`); a
    `ValueError` that says what is wrong otherwise, quoting `text` without its credentials (a flag's
    or a setting's check quotes the value it refused unless the message has: the password too)."""
    try:
        return _parsed(text)
    except ValueError as exc:
        raise ValueError(f"{exc} (got {without_login(text)!r})") from None


def without_login(text: str) -> str:
    """`text`, a proxy URL as written, without its `user:password@`: all to its last `@` after the
    scheme, as a password written unencoded may hold `/` or `@` (`http://ada:s3cr/t@host:3128`)."""
    head, at, host = text.strip().rpartition("@")
    if not at:
        return text
    scheme, sep, _ = head.partition("://")
    return f"{scheme}{sep}{host}" if sep else host


def _parsed(text: str) -> Proxy:
    try:
        parts = urlsplit(text.strip())
        port = parts.port
    except ValueError as exc:
        # the parser's words can quote a piece of a password written unencoded: not said then
        said = "percent-encode a password's special characters: / as %2F, @ as %40" if "@" in text else exc
        raise ValueError(f"not a proxy URL ({said}); expected e.g. http://proxy.example:3128") from None
    scheme = parts.scheme.lower()
    if scheme == "socks5h":
        raise ValueError(
            "socks5h asks the proxy to resolve names, which would skip webferret's address guard: "
            "use socks5:// (webferret resolves and checks each name, then gives the proxy the address)"
        )
    if scheme not in SCHEMES:
        shown = f"{scheme}://" if scheme and "://" in text else "no scheme"  # `ada:pw@host` has none
        raise ValueError(f"{shown} is not a proxy webferret speaks: use http:// or socks5://")
    if not parts.hostname:
        raise ValueError("the proxy URL names no host; expected e.g. http://proxy.example:3128")
    if port is None:
        raise ValueError(f"name the proxy's port, e.g. {scheme}://{parts.hostname}:3128")
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise ValueError("a proxy URL has only a scheme, credentials, a host and a port")
    return Proxy(scheme, parts.hostname, port, unquote(parts.username or ""), unquote(parts.password or ""))


class ProxyRoute:
    """Which requests go through the proxy (`proxy_for`): all but those to hosts in `no_proxy`.

    In `no_proxy` a name matches itself and its subdomains (`example.com`, `.example.com`,
    `*.example.com`, written in any case, in Punycode or its own letters), an address
    or a network (`10.0.0.0/8`) matches the address a host was vetted to, and `*` matches every host."""

    def __init__(self, proxy: Proxy | None = None, no_proxy: Iterable[str] = ()) -> None:
        self.proxy = proxy
        self._everything = False
        self._names: list[str] = []
        self._networks: list[ipaddress.IPv4Network | ipaddress.IPv6Network] = []
        for entry in no_proxy:
            entry = entry.strip().lower()
            if entry == "*":
                self._everything = True
            elif entry:
                try:
                    self._networks.append(ipaddress.ip_network(entry.strip("[]"), strict=False))
                except ValueError:
                    self._names.append(domain_key(entry))

    @classmethod
    def configured(cls, proxy: str | None, no_proxy: Iterable[str]) -> ProxyRoute:
        """The route the settings `proxy` and `no_proxy` give (the settings have checked them)."""
        return cls(parse_proxy(proxy) if proxy else None, no_proxy)

    def proxy_for(self, host: str, address: str | None = None) -> Proxy | None:
        """The proxy a request to `host` (vetted to `address`, when known) goes through, or None."""
        if self.proxy is None or self._direct(in_letters(host.strip("[]").lower().rstrip(".")), address):
            return None
        return self.proxy

    def _direct(self, host: str, address: str | None) -> bool:
        if self._everything or any(covers(name, host) for name in self._names):
            return True
        for candidate in (address, host):
            try:
                ip = ipaddress.ip_address(candidate or "")
            except ValueError:
                continue
            return any(ip in network for network in self._networks)
        return False


DIRECT = ProxyRoute()
"""No proxy: every request connects directly."""


class RoutedTransport(httpx.AsyncBaseTransport):
    """The search engines' transport: each request through `route`'s proxy or directly, by its host.
    Engines are fixed public hosts (or the SearXNG the user named), not vetted pages: the proxy
    resolves their names, as any proxied client's."""

    def __init__(self, route: ProxyRoute, verify: ssl.SSLContext) -> None:
        assert route.proxy is not None
        self._route = route
        self._direct = httpx.AsyncHTTPTransport(verify=verify, trust_env=False)
        self._proxied = httpx.AsyncHTTPTransport(verify=verify, trust_env=False, proxy=route.proxy.url)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if self._route.proxy_for(request.url.host) is None:
            return await self._direct.handle_async_request(request)
        timeouts = request.extensions.get("timeout", {})  # the proxy's connection: half the time,
        within = proxy_connect_timeout(timeouts.get("connect"))  # as for pages (`proxy_connect_timeout`)
        request.extensions = {**request.extensions, "timeout": {**timeouts, "connect": within}}
        try:
            response = await self._proxied.handle_async_request(request)
        except httpx.ConnectTimeout:  # the proxy took no connection: its failure, not the engine's
            said = f"cannot reach the proxy {self._route.proxy.shown}: no connection in {within:g} s"
            raise httpx.ProxyError(said, request=request) from None
        if response.status_code == 407 and request.url.scheme == "http":
            # plain http is forwarded, not tunnelled: the proxy's refusal of its credentials comes as
            # the answer itself, and is the proxy's failure (RFC 9110 15.5.8), not the engine's 407
            await response.aclose()
            raise httpx.ProxyError("407 Proxy Authentication Required", request=request)
        return response

    async def aclose(self) -> None:
        await self._direct.aclose()
        await self._proxied.aclose()


async def tunnel(
    stream: httpcore.AsyncNetworkStream, proxy: Proxy, address: str, port: int, timeout: float | None
) -> None:
    """Ask the proxy on `stream` for a tunnel to `address`:`port` (an IP address, vetted). A
    connection the proxy resets or breaks before the tunnel is up is its failure, not the page's."""
    try:
        if proxy.scheme == "http":
            await _connect(stream, proxy, address, port, timeout)
        else:
            await _socks5(stream, proxy, address, port, timeout)
    except (httpcore.ReadError, httpcore.WriteError) as exc:
        raise httpcore.ProxyError(
            f"the proxy {proxy.shown} broke the connection when asked for a tunnel to "
            f"{bracketed(address)}:{port} ({str(exc) or type(exc).__name__})"
        ) from None


async def _connect(
    stream: httpcore.AsyncNetworkStream, proxy: Proxy, address: str, port: int, timeout: float | None
) -> None:
    where = f"{bracketed(address)}:{port}"
    lines = [f"CONNECT {where} HTTP/1.1", f"Host: {where}"]
    if proxy.username or proxy.password:
        login = base64.b64encode(f"{proxy.username}:{proxy.password}".encode()).decode("ascii")
        lines.append(f"Proxy-Authorization: Basic {login}")
    await stream.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"), timeout=timeout)
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = await stream.read(4096, timeout=timeout)
        if not chunk:
            raise httpcore.ProxyError(
                f"the proxy {proxy.shown} closed the connection instead of answering CONNECT"
            )
        head += chunk
        if len(head) > HEAD_LIMIT:
            raise httpcore.ProxyError(f"the proxy {proxy.shown} answered CONNECT with no end to its head")
    status_line = head.split(b"\r\n", 1)[0].decode("latin-1")
    fields = status_line.split(" ", 2)
    status = int(fields[1]) if len(fields) > 1 and fields[1].isdigit() else 0
    if not 200 <= status < 300:
        _raise(*connect_refused(proxy, where, status, one_line(status_line, 120)))  # the proxy's words


async def _socks5(
    stream: httpcore.AsyncNetworkStream, proxy: Proxy, address: str, port: int, timeout: float | None
) -> None:
    from socksio import ProtocolError, socks5

    where = f"{bracketed(address)}:{port}"
    login = bool(proxy.username or proxy.password)
    method = socks5.SOCKS5AuthMethod.USERNAME_PASSWORD if login else socks5.SOCKS5AuthMethod.NO_AUTH_REQUIRED
    connection = socks5.SOCKS5Connection()

    async def exchange(request: object) -> object:
        connection.send(request)  # type: ignore[arg-type]
        await stream.write(connection.data_to_send(), timeout=timeout)
        data = await stream.read(4096, timeout=timeout)
        if not data:
            raise httpcore.ProxyError(f"the SOCKS5 proxy {proxy.shown} closed the connection")
        try:
            return connection.receive_data(data)
        except ProtocolError as exc:
            raise httpcore.ProxyError(f"the SOCKS5 proxy {proxy.shown} answered nonsense ({exc})") from None

    reply = await exchange(socks5.SOCKS5AuthMethodsRequest([method]))
    if getattr(reply, "method", None) != method:
        wanted = "a user and password" if login else "no credentials"
        raise httpcore.ProxyError(f"the SOCKS5 proxy {proxy.shown} does not accept {wanted}")
    if login:
        request = socks5.SOCKS5UsernamePasswordRequest(proxy.username.encode(), proxy.password.encode())
        if not getattr(await exchange(request), "success", False):
            raise httpcore.ProxyError(
                f"the SOCKS5 proxy {proxy.shown} refused the user and password in the proxy URL"
            )
    request = socks5.SOCKS5CommandRequest.from_address(socks5.SOCKS5Command.CONNECT, (address, port))
    code = getattr(await exchange(request), "reply_code", None)
    if code != socks5.SOCKS5ReplyCode.SUCCEEDED:
        reply = code.value[0] if code is not None else -1
        _raise(*socks_refused(proxy, where, reply))


def connect_refused(proxy: Proxy, where: str, status: int, said: str) -> tuple[ErrorCode, str]:
    """What an HTTP proxy's answer `status` to `CONNECT where` means, and for whom: the proxy could
    not reach the page (502, 503: `connect_failed`; 504: `timeout`), or it refused (`proxy_error`)."""
    if status in (502, 503):
        return ErrorCode.CONNECT_FAILED, f"the proxy {proxy.shown} could not connect to {where} ({said})"
    if status == 504:
        return ErrorCode.TIMEOUT, f"the proxy {proxy.shown} got no answer from {where} in time ({said})"
    hint = " (check the user and password in the proxy URL)" if status == 407 else ""
    return ErrorCode.PROXY_ERROR, f"the proxy {proxy.shown} refused a tunnel to {where}: {said}{hint}"


SOCKS_REPLIES = {
    1: "general failure",
    2: "not allowed by its rules",
    3: "network unreachable",
    4: "host unreachable",
    5: "connection refused",
    6: "TTL expired",
    7: "command not supported",
    8: "address type not supported",
}


def socks_refused(proxy: Proxy, where: str, reply: int) -> tuple[ErrorCode, str]:
    """What a SOCKS5 proxy's `reply` code to a connect to `where` means, and for whom (RFC 1928)."""
    said = SOCKS_REPLIES.get(reply, f"reply {reply}")
    if reply in (3, 4, 5):
        return (
            ErrorCode.CONNECT_FAILED,
            f"the SOCKS5 proxy {proxy.shown} could not connect to {where} ({said})",
        )
    if reply == 6:
        return ErrorCode.TIMEOUT, f"the SOCKS5 proxy {proxy.shown} got no answer from {where} ({said})"
    return ErrorCode.PROXY_ERROR, f"the SOCKS5 proxy {proxy.shown} refused a connection to {where} ({said})"


_RAISED: dict[ErrorCode, type[Exception]] = {
    ErrorCode.CONNECT_FAILED: httpcore.ConnectError,
    ErrorCode.TIMEOUT: httpcore.ConnectTimeout,
}


def _raise(code: ErrorCode, message: str) -> typing.NoReturn:
    """Raise what httpcore would for a failure of kind `code` (httpx makes it its own error)."""
    raise _RAISED.get(code, httpcore.ProxyError)(message)


def proxy_connect_timeout(timeout: float | None) -> float | None:
    """How long a connection to the proxy may take within a request of `timeout` seconds: half of it,
    so a proxy that never accepts (a wrong address, a firewall dropping the connection) fails as the
    proxy's own error before the request's time-out, which would name the page."""
    return None if timeout is None else timeout / 2


def bracketed(host: str) -> str:
    """`host` as a URL or a `host:port` pair writes it: an IPv6 address in brackets."""
    return f"[{host}]" if ":" in host and not host.startswith("[") else host
