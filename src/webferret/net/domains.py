"""Allowed and blocked domain lists (settings `allowed_domains`, `blocked_domains`) for agent faces.

A domain matches its host and every subdomain: `example.org` covers `docs.example.org`. An IP
address matches itself however written (`2130706433`, `0x7f.1`, `127.1` and `[::ffff:127.0.0.1]` are
`127.0.0.1`), and no other address.
A blocked domain always wins; when `allowed` is not empty, only its domains pass.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit

from webferret.net.addresses import IPAddress, NumericHostError, parse_numeric_host
from webferret.net.canonical import in_letters


def domain_key(domain: str) -> str:
    """A domain as the lists keep it: lower case, in its own letters, without `*.` before it or a
    dot at either end (`*.Example.ORG.` is `example.org`), an IP address as `address_key` writes it;
    matched by `covers`."""
    return address_key(in_letters(domain.strip().lower().lstrip("*").strip(".")))


def host_of(url: str) -> str:
    try:
        return address_key((urlsplit(url).hostname or "").rstrip(".").lower())
    except ValueError:
        return ""


def address_key(host: str) -> str:
    """`host` itself, or an IP address in one spelling: the one the guard connects to (`0x7f.1` and
    `127.1` are `127.0.0.1`; an IPv4-mapped IPv6 address is its IPv4 one)."""
    ip = _address(host)
    if ip is None:
        return host
    return str(getattr(ip, "ipv4_mapped", None) or ip)


def covers(domain: str, host: str) -> bool:
    """Is `host` the domain `domain` or one of its subdomains (both written alike: `host_of`,
    `domain_key`)? An address has none: `0.1` does not cover `127.0.0.1`."""
    return host == domain or (host.endswith("." + domain) and _address(host) is None)


def _address(host: str) -> IPAddress | None:
    """The IP address `host` is written as (any spelling the guard reads), or None for a name."""
    try:
        return parse_numeric_host(host)
    except NumericHostError:
        return None


@dataclass(frozen=True)
class DomainFilter:
    allowed: tuple[str, ...] = ()
    blocked: tuple[str, ...] = ()

    @classmethod
    def of(cls, allowed: Sequence[str], blocked: Sequence[str]) -> DomainFilter:
        return cls(
            tuple(filter(None, map(domain_key, allowed))), tuple(filter(None, map(domain_key, blocked)))
        )

    @property
    def active(self) -> bool:
        """Do the lists refuse anything at all?"""
        return bool(self.allowed or self.blocked)

    def refusal(self, url: str) -> str | None:
        """Why `url` is refused (a sentence naming the setting), or None when it passes."""
        host = in_letters(host_of(url))  # `xn--bcher-kva.de` is `bücher.de`, however either is written
        for domain in self.blocked:
            if covers(domain, host):
                return f"{url} is on a blocked domain ({domain}, setting blocked_domains)"
        if self.allowed and not any(covers(domain, host) for domain in self.allowed):
            return (
                f"{url} is outside the allowed domains ({', '.join(self.allowed)}, setting allowed_domains)"
            )
        return None
