"""SSRF policy: which URLs and addresses webferret may connect to.

Contract (implemented in this module):

- `classify_address(ip) -> str | None`: why an address is refused (e.g. "loopback",
  "private", "link-local", ...) or None when it is public.
- `UrlPolicy(allow_private_hosts=False, allow_hosts=())` with
  `async vet(url) -> Target`: checks scheme (http/https, else `unsupported_scheme`), parses the URL
  (`invalid_url`), parses numeric hosts in every spelling, resolves the host once, refuses any
  address `classify_address` refuses (`blocked_address`, naming host and address) unless allowed,
  and answers the vetted address to connect to (`dns_failure` when resolution fails).

`allow_hosts` matches the host exactly as written in the URL (a name, a dotted quad or an IPv6
literal): allowing `127.0.0.1` does not allow `2130706433` or `0x7f000001`, and allowing a name
allows whatever that name resolves to. Names under `.invalid` never resolve (RFC 6761) and are
answered `dns_failure` without asking DNS. Every address a name resolves to must pass; the first
one is the one to connect to (see `webferret.net.transport`, which never resolves again).
"""

from __future__ import annotations

import ipaddress
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import SplitResult, urlunsplit

import httpx

from webferret.models import ErrorCode, FerretError
from webferret.net.addresses import (
    IPAddress,
    NumericHostError,
    classify_address,
    is_canonical_literal,
    parse_numeric_host,
)
from webferret.net.canonical import in_letters
from webferret.net.dns import Resolver, system_resolver
from webferret.net.urltext import absolute_url, url_named

__all__ = ["Resolver", "Target", "UrlPolicy", "classify_address", "system_resolver"]

SCHEMES = ("http", "https")


@dataclass(frozen=True)
class Target:
    """A URL that passed the policy, with the address to connect to.

    `host_key` is the host as the HTTP stack sees it (IDNA/ASCII form), the key the transport pins.
    """

    url: str
    scheme: str
    host: str
    host_key: str
    port: int
    address: str
    addresses: tuple[str, ...]


class UrlPolicy:
    """Vets URLs before any connection: scheme, syntax, host spelling, resolved addresses."""

    def __init__(
        self,
        allow_private_hosts: bool = False,
        allow_hosts: Iterable[str] = (),
        resolver: Resolver | None = None,
    ) -> None:
        self.allow_private_hosts = allow_private_hosts
        self.allow_hosts = frozenset(_host_name(host) for host in allow_hosts if host.strip())
        self._allowed_ips = frozenset(_try_ip(host) for host in self.allow_hosts) - {None}
        self._resolve = resolver or system_resolver

    async def vet(self, url: str) -> Target:
        """The vetted target of `url`, or `FerretError` saying why it may not be fetched."""
        parsed, written = parse_url(url)
        host = _norm_host(parsed.host)
        host_key = parsed.raw_host.decode("ascii").lower()
        port = parsed.port or (443 if parsed.scheme == "https" else 80)
        addresses = await self._addresses(url, _norm_host(host_key), port)
        allowed = self.allow_private_hosts or self.host_allowed(written)
        for ip in addresses:
            why = classify_address(ip)
            if why and not allowed:
                raise FerretError(ErrorCode.BLOCKED_ADDRESS, _blocked_message(written, ip, why))
        return Target(
            url=str(parsed),
            scheme=parsed.scheme,
            host=host,
            host_key=host_key,
            port=port,
            address=str(addresses[0]),
            addresses=tuple(str(ip) for ip in addresses),
        )

    def host_allowed(self, written_host: str) -> bool:
        """True when the host, as written in the URL, is in `allow_hosts` (a name in either spelling,
        its IDNA `xn--` labels or its letters: `_host_name`)."""
        host = _host_name(written_host)
        if host in self.allow_hosts:
            return True
        try:
            ip = parse_numeric_host(host)
        except NumericHostError:
            return False
        return ip is not None and is_canonical_literal(host, ip) and ip in self._allowed_ips

    def check_peer(self, host: str, address: str) -> None:
        """Refuse a connection that ended up at an address this policy would not allow."""
        ip = ipaddress.ip_address(address.split("%")[0])
        why = classify_address(ip)
        if why and not (self.allow_private_hosts or self.host_allowed(host) or ip in self._allowed_ips):
            raise FerretError(ErrorCode.BLOCKED_ADDRESS, _blocked_message(host, ip, why))

    async def _addresses(self, url: str, host: str, port: int) -> list[IPAddress]:
        try:
            numeric = parse_numeric_host(host)
        except NumericHostError as exc:
            raise FerretError(ErrorCode.INVALID_URL, f"bad host in {url}: {exc}") from None
        if numeric is not None:
            return [numeric]
        if host == "invalid" or host.endswith(".invalid"):
            raise FerretError(ErrorCode.DNS_FAILURE, f"cannot resolve {host}: .invalid names never resolve")
        try:
            found = await self._resolve(host, port)
        except (OSError, UnicodeError) as exc:
            reason = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
            raise FerretError(ErrorCode.DNS_FAILURE, f"cannot resolve {host}: {reason}") from None
        addresses = [ipaddress.ip_address(address.split("%")[0]) for address in dict.fromkeys(found)]
        if not addresses:
            raise FerretError(ErrorCode.DNS_FAILURE, f"cannot resolve {host}: no addresses")
        return addresses


def parse_url(url: str) -> tuple[httpx.URL, str]:
    """Parse `url` into an httpx URL (numeric hosts written canonically) and the host as written.

    Raises `FerretError` with `invalid_url` or `unsupported_scheme` (see `urltext.absolute_url`).
    """
    parts = absolute_url(url, SCHEMES)
    text, written = url.strip(), parts.hostname or ""
    try:
        numeric = parse_numeric_host(written)
    except NumericHostError as exc:
        raise FerretError(ErrorCode.INVALID_URL, f"bad host in {url_named(text)}: {exc}") from None
    if numeric is not None and not is_canonical_literal(written, numeric):
        text = _with_host(parts, str(numeric))
    elif not written.isascii() and (composed := unicodedata.normalize("NFC", written)) != written:
        text, written = _with_host(parts, composed), composed  # `bu\u0308cher`: IDNA reads `bücher`
    named = url_named(text)
    try:
        parsed = httpx.URL(text)
        host = parsed.host  # decoded from IDNA here: a malformed `xn--` label raises
    except (httpx.InvalidURL, ValueError, TypeError) as exc:
        raise FerretError(ErrorCode.INVALID_URL, f"cannot parse {named}: {exc}") from None
    if not host:
        raise FerretError(ErrorCode.INVALID_URL, f"{named} has no host")
    if numeric is None and (why := _bad_name(parsed.raw_host.decode("ascii"))):
        raise FerretError(ErrorCode.INVALID_URL, f"{named} has a host no DNS name can be: {why}")
    same = (
        _try_ip(_norm_host(host)) == numeric
        if numeric is not None
        else _host_name(written) == _host_name(parsed.raw_host.decode("ascii"))
    )  # a name written as Unicode or as its IDNA form (`xn--...`, as engines and redirects give it),
    # label by label (`www.bücher.de`: httpx decodes a host only when its first label is `xn--`)
    if not same:  # two URL parsers disagree: refuse, never guess
        message = f"{named} has an ambiguous host ({written} or {parsed.host})"
        raise FerretError(ErrorCode.INVALID_URL, message)
    if parsed.port is not None and not 0 < parsed.port < 65536:
        raise FerretError(ErrorCode.INVALID_URL, f"{named} has port {parsed.port}, outside 1-65535")
    return parsed, written


def _bad_name(host: str) -> str | None:
    """Why `host` (ASCII, IDNA-encoded) cannot be a DNS name, or None: an empty label (`a..b`), a label
    over 63 characters, or over 253 in all."""
    name = host.strip("[]").removesuffix(".")
    if ":" in name:  # an IPv6 literal
        return None
    if len(name) > 253:
        return f"{len(name)} characters, over 253"
    for label in name.split("."):
        if not label:
            return "an empty label"
        if len(label) > 63:
            return f"a label of {len(label)} characters, over 63"
    return None


def _with_host(parts: SplitResult, host: str) -> str:
    netloc = host
    hostport = parts.netloc.rsplit("@", 1)[-1]
    port = hostport.rpartition(":")[2] if ":" in hostport else ""
    if port:
        netloc = f"{host}:{port}"
    if "@" in parts.netloc:
        netloc = parts.netloc.rsplit("@", 1)[0] + "@" + netloc
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


def _blocked_message(host: str, ip: IPAddress, why: str) -> str:
    shown = host if host.strip("[]") == str(ip) else f"{host} ({ip})"
    return (
        f"{shown} is not a public address ({why}); webferret only fetches public addresses "
        f"(allow it with --allow-host {host} or --allow-private-hosts)"
    )


def _norm_host(host: str) -> str:
    return host.strip().strip("[]").rstrip(".").lower()


def _host_name(host: str) -> str:
    """`host` as two spellings of one name compare: each label in its letters (`www.xn--bcher-kva.de`
    is `www.bücher.de`), composed."""
    return in_letters(_norm_host(host))


def _try_ip(host: str) -> IPAddress | None:
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        return None
