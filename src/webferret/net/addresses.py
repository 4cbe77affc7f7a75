"""Which IP addresses are not on the public internet, and numeric hosts in every spelling.

`classify_address(ip)` names why an address is refused ("loopback", "private", "link-local", ...)
or answers None for a public one. IPv6 forms that embed an IPv4 address (IPv4-mapped, 6to4,
NAT64 well-known prefix) are judged by the address they embed; IPv4-compatible and SIIT's
IPv4-translated forms, the rest of ::/8, Teredo and the other IETF-assigned 2001::/23 forms are
refused whole (Python counts `::ffff:0:7f00:1` global).

`parse_numeric_host(host)` reads a host the way browsers and `inet_aton` do: `2130706433`,
`0x7f000001`, `0177.0.0.1`, `127.1` and mixes of those are all 127.0.0.1.
"""

from __future__ import annotations

import ipaddress
import re

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

_V4_RANGES: tuple[tuple[str, str], ...] = (
    ("0.0.0.0/8", "unspecified"),
    ("10.0.0.0/8", "private"),
    ("100.64.0.0/10", "shared address space (CGNAT)"),
    ("127.0.0.0/8", "loopback"),
    ("169.254.0.0/16", "link-local"),
    ("172.16.0.0/12", "private"),
    ("192.0.0.0/24", "IETF protocol assignment"),
    ("192.0.2.0/24", "documentation"),
    ("192.88.99.0/24", "6to4 relay anycast"),
    ("192.168.0.0/16", "private"),
    ("198.18.0.0/15", "benchmarking"),
    ("198.51.100.0/24", "documentation"),
    ("203.0.113.0/24", "documentation"),
    ("224.0.0.0/4", "multicast"),
    ("255.255.255.255/32", "broadcast"),
    ("240.0.0.0/4", "reserved"),
)

_V6_RANGES: tuple[tuple[str, str], ...] = (
    ("::/128", "unspecified"),
    ("::1/128", "loopback"),
    ("::/96", "IPv4-compatible IPv6"),
    ("::ffff:0:0:0/96", "IPv4-translated IPv6 (SIIT)"),
    ("64:ff9b:1::/48", "local-use NAT64"),
    ("100::/64", "discard-only"),
    ("2001:db8::/32", "documentation"),
    ("3fff::/20", "documentation"),
    ("2001::/23", "IETF protocol assignment"),
    ("fc00::/7", "private (unique local)"),
    ("fe80::/10", "link-local"),
    ("fec0::/10", "site-local"),
    ("ff00::/8", "multicast"),
    ("::/8", "reserved"),  # the rest of it (IPv4-mapped is judged by its IPv4 address first)
)

_V4_NETS = tuple((ipaddress.IPv4Network(net), why) for net, why in _V4_RANGES)
_V6_NETS = tuple((ipaddress.IPv6Network(net), why) for net, why in _V6_RANGES)
_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")


def classify_address(ip: IPAddress) -> str | None:
    """Why `ip` is refused (a short reason), or None when it is a public address."""
    if isinstance(ip, ipaddress.IPv4Address):
        return _classify_v4(ip)
    embedded = _embedded_v4(ip)
    if embedded is not None:
        form, v4 = embedded
        why = _classify_v4(v4)
        return f"{form} of {v4} ({why})" if why else None
    for net, why in _V6_NETS:
        if ip in net:
            return why
    return None if ip.is_global else "reserved"


def _classify_v4(ip: ipaddress.IPv4Address) -> str | None:
    for net, why in _V4_NETS:
        if ip in net:
            return why
    return None if ip.is_global else "reserved"


def _embedded_v4(ip: ipaddress.IPv6Address) -> tuple[str, ipaddress.IPv4Address] | None:
    if ip.ipv4_mapped is not None:
        return "IPv4-mapped IPv6", ip.ipv4_mapped
    if ip.sixtofour is not None:
        return "6to4", ip.sixtofour
    if ip in _NAT64:
        return "NAT64", ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    return None


class NumericHostError(ValueError):
    """A host ends in a number but is not a valid IPv4 address in any spelling."""


_NUMBER = re.compile(r"(0[xX][0-9a-fA-F]*|[0-9]+)")


def parse_numeric_host(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """The address a numeric host stands for, or None for a host name.

    Accepts IPv6 literals (with or without brackets) and IPv4 in the WHATWG/`inet_aton` forms:
    one to four parts, each decimal, `0x` hex or `0`-led octal, the last part filling the rest.
    Raises `NumericHostError` for a host that ends in a number yet is not an address (`1.2.3.999`).
    """
    text = host.strip("[]")
    if ":" in text:
        try:
            return ipaddress.IPv6Address(text)
        except ValueError:
            raise NumericHostError(f"{host!r} is not a valid IPv6 address") from None
    parts = text.split(".")
    if len(parts) > 1 and parts[-1] == "":
        parts.pop()
    if not _NUMBER.fullmatch(parts[-1]):
        return None
    if len(parts) > 4:
        raise NumericHostError(f"{host!r} has more than four parts for an IPv4 address")
    numbers = [_part_value(part, host) for part in parts]
    *head, last = numbers
    if any(value > 255 for value in head) or last >= 256 ** (5 - len(numbers)):
        raise NumericHostError(f"{host!r} is out of range for an IPv4 address")
    value = last
    for index, part in enumerate(head):
        value += part << (8 * (3 - index))
    return ipaddress.IPv4Address(value)


def _part_value(part: str, host: str) -> int:
    if not _NUMBER.fullmatch(part):
        raise NumericHostError(f"{host!r} mixes numbers and names")
    if part[:2].lower() == "0x":
        return int(part[2:] or "0", 16)
    if len(part) > 1 and part.startswith("0"):
        if not set(part) <= set("01234567"):
            raise NumericHostError(f"{host!r} has a bad octal part {part!r}")
        return int(part, 8)
    if len(part) > 10:  # past 4294967295, and past what `int` reads of a longer one (4,300 digits)
        raise NumericHostError(f"{host!r} is out of range for an IPv4 address")
    return int(part)


def is_canonical_literal(host: str, ip: IPAddress) -> bool:
    """True when `host` is the ordinary way to write `ip` (dotted quad or an IPv6 literal)."""
    text = host.strip("[]")
    if isinstance(ip, ipaddress.IPv6Address):
        return True
    return text == str(ip)
