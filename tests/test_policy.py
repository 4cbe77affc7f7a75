"""`UrlPolicy.vet`: schemes, URL syntax, host spellings, allow lists, resolution (no network)."""

import socket
from urllib.parse import urlsplit

import pytest

from webferret.models import ErrorCode, FerretError
from webferret.net.policy import UrlPolicy, system_resolver


class FakeDns:
    """A resolver function with a fixed table; counts lookups."""

    def __init__(self, table: dict[str, list[str]]) -> None:
        self.table = table
        self.calls: list[str] = []

    async def __call__(self, host: str, port: int) -> list[str]:
        self.calls.append(host)
        if host not in self.table:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return self.table[host]


DNS = {
    "public.example": ["93.184.216.34"],
    "v6.example": ["2606:4700:4700::1111"],
    "internal.example": ["10.0.0.5"],
    "metadata.example": ["169.254.169.254"],
    "mixed.example": ["93.184.216.34", "127.0.0.1"],
}


async def vet_code(url: str, **kwargs: object) -> ErrorCode:
    policy = UrlPolicy(resolver=FakeDns(DNS), **kwargs)  # type: ignore[arg-type]
    with pytest.raises(FerretError) as info:
        await policy.vet(url)
    return info.value.code


async def test_public_name_is_vetted_to_its_address() -> None:
    dns = FakeDns(DNS)
    target = await UrlPolicy(resolver=dns).vet("https://Public.Example/a?b=1")
    assert (target.host, target.port, target.address, target.scheme) == (
        "public.example",
        443,
        "93.184.216.34",
        "https",
    )
    assert target.url == "https://public.example/a?b=1"
    assert dns.calls == ["public.example"]


async def test_ipv6_public_name() -> None:
    target = await UrlPolicy(resolver=FakeDns(DNS)).vet("http://v6.example:8080/")
    assert (target.address, target.port) == ("2606:4700:4700::1111", 8080)


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1/",
        "http://127.0.0.2:8080/",
        "http://[::1]/",
        "http://0.0.0.0/",
        "http://2130706433/",
        "http://0x7f000001/",
        "http://0177.0.0.1/",
        "http://127.1/",
        "http://[::ffff:127.0.0.1]/",
        "http://[::ffff:a9fe:a9fe]/",
        "http://169.254.169.254/latest/meta-data/",
        "http://internal.example/",
        "http://metadata.example/",
        "http://mixed.example/",
        "http://user:pw@0x7f.1:8080/",
        "http://[64:ff9b::7f00:1]/",
        "http://[2002:7f00:1::]/",
    ],
)
async def test_blocked_addresses(url: str) -> None:
    assert await vet_code(url) == ErrorCode.BLOCKED_ADDRESS


async def test_blocked_message_names_host_and_address() -> None:
    with pytest.raises(FerretError) as info:
        await UrlPolicy().vet("http://0x7f000001:81/")
    assert "0x7f000001" in info.value.message and "127.0.0.1" in info.value.message
    assert "loopback" in info.value.message


@pytest.mark.parametrize(
    ("url", "code"),
    [
        ("ftp://example.org/file", ErrorCode.UNSUPPORTED_SCHEME),
        ("file:///etc/passwd", ErrorCode.UNSUPPORTED_SCHEME),
        ("javascript:alert(1)", ErrorCode.UNSUPPORTED_SCHEME),
        ("gopher://127.0.0.1:25/", ErrorCode.UNSUPPORTED_SCHEME),
        ("", ErrorCode.INVALID_URL),
        ("not a url", ErrorCode.INVALID_URL),
        ("example.org/page", ErrorCode.INVALID_URL),
        ("http://", ErrorCode.INVALID_URL),
        ("http:///path", ErrorCode.INVALID_URL),
        ("http://[::1/", ErrorCode.INVALID_URL),
        ("http://public.example:99999/", ErrorCode.INVALID_URL),
        ("http://1.2.3.999/", ErrorCode.INVALID_URL),
        ("http://a..b.example/", ErrorCode.INVALID_URL),
        ("http://" + "a" * 64 + ".example/", ErrorCode.INVALID_URL),
        ("http://" + "a." * 127 + "example/", ErrorCode.INVALID_URL),
        ("http://nowhere.example/", ErrorCode.DNS_FAILURE),
        ("http://anything.invalid/", ErrorCode.DNS_FAILURE),
    ],
)
async def test_bad_urls(url: str, code: ErrorCode) -> None:
    assert await vet_code(url) == code


@pytest.mark.parametrize("path", ["/tmp/page.html", "./page.html", "~/notes.md"])
async def test_a_local_path_is_pointed_to_extract(path: str) -> None:
    with pytest.raises(FerretError) as info:
        await UrlPolicy(resolver=FakeDns(DNS)).vet(path)
    assert info.value.code == ErrorCode.INVALID_URL
    assert (
        info.value.message
        == f"{path} is not an absolute URL (a local path: `webferret extract` reads local files)"
    )


@pytest.mark.parametrize("text", ["localhost:8765/ok", "example.org:8080/x", "intranet:80"])
async def test_a_host_and_port_without_a_scheme_is_told_to_add_one(text: str) -> None:
    with pytest.raises(FerretError) as info:
        await UrlPolicy(resolver=FakeDns(DNS)).vet(text)
    assert info.value.code == ErrorCode.INVALID_URL
    assert info.value.message == f"{text} is not an absolute URL (did you mean https://{text}?)"


async def test_invalid_tld_is_never_looked_up() -> None:
    dns = FakeDns(DNS)
    with pytest.raises(FerretError):
        await UrlPolicy(resolver=dns).vet("https://host.invalid/")
    assert dns.calls == []


async def test_allow_hosts_matches_the_host_as_written() -> None:
    policy = UrlPolicy(allow_hosts=["127.0.0.1", "Internal.Example", "::1"], resolver=FakeDns(DNS))
    assert (await policy.vet("http://127.0.0.1:8000/")).address == "127.0.0.1"
    assert (await policy.vet("http://internal.example/")).address == "10.0.0.5"
    assert (await policy.vet("http://[::1]:9/")).address == "::1"
    for odd in ("http://2130706433/", "http://0x7f000001/", "http://127.1/", "http://127.0.0.2/"):
        with pytest.raises(FerretError) as info:
            await policy.vet(odd)
        assert info.value.code == ErrorCode.BLOCKED_ADDRESS


async def test_allow_private_hosts_lifts_the_guard() -> None:
    policy = UrlPolicy(allow_private_hosts=True, resolver=FakeDns(DNS))
    assert (await policy.vet("http://internal.example/")).address == "10.0.0.5"
    target = await policy.vet("http://0x7f000001:8080/x")
    assert (target.address, target.url) == ("127.0.0.1", "http://127.0.0.1:8080/x")


async def test_check_peer_refuses_an_unvetted_peer() -> None:
    policy = UrlPolicy(resolver=FakeDns(DNS))
    policy.check_peer("public.example", "93.184.216.34")
    with pytest.raises(FerretError) as info:
        policy.check_peer("public.example", "10.1.1.1")
    assert info.value.code == ErrorCode.BLOCKED_ADDRESS


async def test_international_names_resolve_in_ascii_and_match_either_spelling() -> None:
    dns = FakeDns({"xn--bcher-kva.example": ["10.0.0.7"]})
    for allow in ("bücher.example", "xn--bcher-kva.example"):
        target = await UrlPolicy(allow_hosts=[allow], resolver=dns).vet("http://Bücher.example/")
        assert (target.host_key, target.address) == ("xn--bcher-kva.example", "10.0.0.7")
    assert dns.calls == ["xn--bcher-kva.example"] * 2
    with pytest.raises(FerretError):
        await UrlPolicy(resolver=dns).vet("http://bücher.example/")


@pytest.mark.parametrize(
    "url", ["http://xn--bcher-kva.example/", "http://XN--BCHER-KVA.example/x", "http://bu\u0308cher.example/"]
)
async def test_a_name_written_in_its_idna_form_is_read(url: str) -> None:
    """The `xn--` form, as engines and redirects give a name, is that name (it was `invalid_url`:
    "ambiguous host", the parser decodes it to `bücher.example`); so is the name in decomposed
    letters, a `u` and a combining diaeresis, as a copy from some systems gives it (it was
    `invalid_url`: "Invalid IDNA hostname")."""
    dns = FakeDns({"xn--bcher-kva.example": ["10.0.0.7"]})
    target = await UrlPolicy(allow_hosts=["bücher.example"], resolver=dns).vet(url)
    assert (target.host_key, target.address) == ("xn--bcher-kva.example", "10.0.0.7")


@pytest.mark.parametrize("allow", ["www.bücher.example", "www.xn--bcher-kva.example"])
@pytest.mark.parametrize(
    "url",
    ["http://www.bücher.example/", "http://shop.bu\u0308cher.example/", "http://www.xn--bcher-kva.example/"],
)
async def test_an_international_name_under_an_ascii_label_is_read(url: str, allow: str) -> None:
    """`www.bücher.example` was `invalid_url` "ambiguous host (www.bücher.example or
    www.xn--bcher-kva.example)": the parser decodes a name only when its first label is `xn--`."""
    host = urlsplit(url).hostname or ""
    wanted = "www.xn--bcher-kva.example" if host.startswith("www") else "shop.xn--bcher-kva.example"
    dns = FakeDns({wanted: ["10.0.0.7"]})
    allowed = allow.replace("www.", "shop.") if wanted.startswith("shop") else allow
    target = await UrlPolicy(allow_hosts=[allowed], resolver=dns).vet(url)
    assert (target.host_key, target.address) == (wanted, "10.0.0.7")


async def test_a_malformed_idna_label_is_an_invalid_url() -> None:
    assert await vet_code("http://xn--/") == ErrorCode.INVALID_URL


@pytest.mark.parametrize("url", ["http://ex ample.com/", "http://127.0.0.1\t/"])
async def test_hosts_the_parsers_read_differently_are_refused(url: str) -> None:
    assert await vet_code(url) == ErrorCode.INVALID_URL


async def test_userinfo_and_fragment_tricks_vet_the_real_host() -> None:
    dns = FakeDns(DNS)
    target = await UrlPolicy(resolver=dns).vet("http://127.0.0.1:80@public.example/#@127.0.0.1")
    assert (target.host, target.address) == ("public.example", "93.184.216.34")
    assert await vet_code("http://public.example\\@127.0.0.1/") == ErrorCode.BLOCKED_ADDRESS


async def test_the_system_resolver_answers_addresses() -> None:
    assert await system_resolver("127.0.0.1", 80) == ["127.0.0.1"]  # numeric: no DNS query is sent


async def test_a_very_long_bad_url_is_not_said_back_whole() -> None:
    """An API caller's 500 KB URL came back twice (its `url` and a message quoting it whole)."""
    url = "http://bad host.example/" + "x" * 500_000
    with pytest.raises(FerretError) as info:
        await UrlPolicy(resolver=FakeDns(DNS)).vet(url)
    message = info.value.message
    assert info.value.code == ErrorCode.INVALID_URL and len(message) < 1000, message[:200]
    assert message.startswith("cannot parse http://bad host.example/xxx")
    assert "… (500,024 characters)" in message
