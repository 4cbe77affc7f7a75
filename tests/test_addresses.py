"""The address classifier and numeric host spellings (pure, no network)."""

import ipaddress

import pytest

from webferret.net.addresses import NumericHostError, classify_address, parse_numeric_host

REFUSED = [
    ("127.0.0.1", "loopback"),
    ("127.255.255.254", "loopback"),
    ("10.0.0.1", "private"),
    ("172.16.0.1", "private"),
    ("172.31.255.255", "private"),
    ("192.168.1.1", "private"),
    ("100.64.0.1", "CGNAT"),
    ("100.127.255.254", "CGNAT"),
    ("169.254.169.254", "link-local"),
    ("169.254.0.1", "link-local"),
    ("0.0.0.0", "unspecified"),
    ("0.1.2.3", "unspecified"),
    ("224.0.0.1", "multicast"),
    ("239.255.255.250", "multicast"),
    ("240.0.0.1", "reserved"),
    ("255.255.255.255", "broadcast"),
    ("192.0.0.8", "IETF"),
    ("192.0.2.10", "documentation"),
    ("198.51.100.7", "documentation"),
    ("203.0.113.5", "documentation"),
    ("198.18.0.1", "benchmarking"),
    ("198.19.255.1", "benchmarking"),
    ("192.88.99.1", "6to4 relay"),
    ("::", "unspecified"),
    ("::1", "loopback"),
    ("fc00::1", "unique local"),
    ("fd12:3456:789a::1", "unique local"),
    ("fe80::1", "link-local"),
    ("fec0::1", "site-local"),
    ("ff02::1", "multicast"),
    ("2001:db8::1", "documentation"),
    ("3fff::1", "documentation"),
    ("100::1", "discard"),
    ("2001::1", "IETF"),  # Teredo
    ("2001:2::1", "IETF"),  # benchmarking
    ("::ffff:127.0.0.1", "IPv4-mapped IPv6 of 127.0.0.1 (loopback)"),
    ("::ffff:10.1.2.3", "IPv4-mapped IPv6 of 10.1.2.3 (private)"),
    ("::ffff:169.254.169.254", "link-local"),
    ("::127.0.0.1", "IPv4-compatible"),
    ("::8.8.8.8", "IPv4-compatible"),
    ("::ffff:0:127.0.0.1", "IPv4-translated"),  # SIIT: Python calls it global
    ("::ffff:0:a00:1", "IPv4-translated"),
    ("::1:0:0:1", "reserved"),
    ("2002:7f00:1::1", "6to4 of 127.0.0.1 (loopback)"),
    ("2002:a9fe:a9fe::", "6to4 of 169.254.169.254 (link-local)"),
    ("2002:c0a8:0101::1", "6to4 of 192.168.1.1 (private)"),
    ("64:ff9b::7f00:1", "NAT64 of 127.0.0.1 (loopback)"),
    ("64:ff9b::a00:1", "NAT64 of 10.0.0.1 (private)"),
    ("64:ff9b::a9fe:a9fe", "NAT64 of 169.254.169.254"),
    ("64:ff9b:1::7f00:1", "local-use NAT64"),
    ("64:ff9b:1:abcd::1", "local-use NAT64"),
]

PUBLIC = [
    "8.8.8.8",
    "1.1.1.1",
    "93.184.216.34",
    "100.63.255.255",
    "100.128.0.0",
    "172.15.255.255",
    "172.32.0.0",
    "192.169.0.1",
    "2606:4700:4700::1111",
    "2a00:1450:4001::200e",
    "::ffff:8.8.8.8",
    "2002:808:808::1",
    "64:ff9b::808:808",
]


@pytest.mark.parametrize(("address", "reason"), REFUSED)
def test_refused_addresses(address: str, reason: str) -> None:
    why = classify_address(ipaddress.ip_address(address))
    assert why is not None, f"{address} should be refused"
    assert reason.lower() in why.lower()


@pytest.mark.parametrize("address", PUBLIC)
def test_public_addresses(address: str) -> None:
    assert classify_address(ipaddress.ip_address(address)) is None


@pytest.mark.parametrize(
    ("host", "address"),
    [
        ("127.0.0.1", "127.0.0.1"),
        ("2130706433", "127.0.0.1"),
        ("0x7f000001", "127.0.0.1"),
        ("0X7F000001", "127.0.0.1"),
        ("0177.0.0.1", "127.0.0.1"),
        ("0177.0000.0.01", "127.0.0.1"),
        ("127.1", "127.0.0.1"),
        ("127.0.1", "127.0.0.1"),
        ("0x7f.1", "127.0.0.1"),
        ("0x7f.0.0x0.1", "127.0.0.1"),
        ("017700000001", "127.0.0.1"),
        ("0", "0.0.0.0"),
        ("0x", "0.0.0.0"),
        ("169.254.43518", "169.254.169.254"),
        ("0xa9fea9fe", "169.254.169.254"),
        ("127.0.0.1.", "127.0.0.1"),
        ("[::1]", "::1"),
        ("::ffff:7f00:1", "::ffff:127.0.0.1"),
    ],
)
def test_numeric_host_spellings(host: str, address: str) -> None:
    assert parse_numeric_host(host) == ipaddress.ip_address(address)


@pytest.mark.parametrize("host", ["example.org", "localhost", "1.2.3.example", "0x7f.example", "a1", "x.0a"])
def test_names_are_not_numbers(host: str) -> None:
    assert parse_numeric_host(host) is None


@pytest.mark.parametrize(
    "host",
    [
        "1.2.3.256",
        "256.1.1.1",
        "1.2.3.4.5",
        "4294967296",
        "08.0.0.1",
        "a.1",
        "[::g]",
        "1" * 5000,
        "1." + "9" * 5000,
    ],
)
def test_malformed_numeric_hosts(host: str) -> None:
    """A decimal part of 5,000 digits raised `int`'s ValueError (past its 4,300 digits), not this one:
    a page asked for at such a host was `internal`."""
    with pytest.raises(NumericHostError):
        parse_numeric_host(host)
