"""The setting `proxy`: every tier and the search engines leave through a real proxy on loopback,
which is asked for the vetted address (never the name), and whose failures say whose they are."""

from __future__ import annotations

import json

import pytest
from chromium import CHROMIUM, needs_chromium
from proxyweb import Proxy, broken_proxy, proxy_server, silent_proxy
from simweb import SimWeb, article_html
from tiers_web import free_port_on_both, loopback_policy, serve

from webferret.cli import main
from webferret.config import ConfigError, Settings, load_settings
from webferret.fetch.browser import BrowserTier
from webferret.fetch.fetcher import Fetcher
from webferret.fetch.http import HttpTier
from webferret.fetch.impersonate import ImpersonateTier
from webferret.fetch.types import FetchOptions, Tier
from webferret.models import ErrorCode, FerretError
from webferret.net.policy import Target
from webferret.net.proxy import ProxyRoute, parse_proxy
from webferret.search.unreachable import REMEMBERED

OPTS = FetchOptions(timeout=10, max_bytes=100_000)
TIERS = ("http", "impersonate")


def through(proxy: Proxy, *no_proxy: str) -> ProxyRoute:
    return ProxyRoute(parse_proxy(proxy.url), no_proxy)


def tier(name: str, route: ProxyRoute) -> HttpTier | ImpersonateTier:
    return HttpTier(route=route) if name == "http" else ImpersonateTier(route=route)


async def fetched(name: str, route: ProxyRoute, target: Target) -> tuple[int, bytes]:
    used = tier(name, route)
    try:
        raw = await used.fetch(target, OPTS, loopback_policy())
    finally:
        await used.aclose()
    return raw.status, raw.body


async def failure(name: str, route: ProxyRoute, url: str) -> FerretError:
    policy = loopback_policy()
    with pytest.raises(FerretError) as caught:
        await fetched(name, route, await policy.vet(url))
    return caught.value


@pytest.mark.parametrize("kind", ["http", "socks5"])
@pytest.mark.parametrize("name", TIERS)
async def test_the_proxy_is_asked_for_the_vetted_address_not_the_name(kind: str, name: str) -> None:
    port = free_port_on_both()
    # the proxy is on an address the guard refuses: a proxied request's peer is the proxy, not the page
    proxied = proxy_server(kind, host="127.0.0.3")  # type: ignore[arg-type]
    with serve("127.0.0.1", port) as good, serve("127.0.0.2", port) as decoy, proxied as proxy:
        for site in (good, decoy):
            site.page("/", f"<html><body><p>served by {site.host}</p></body></html>")
        # the URL names 127.0.0.2; the guard vetted it to 127.0.0.1: the proxy must go there
        target = Target(
            f"http://127.0.0.2:{port}/", "http", "127.0.0.2", "127.0.0.2", port, "127.0.0.1", ("127.0.0.1",)
        )
        status, body = await fetched(name, through(proxy), target)
    assert status == 200 and b"served by 127.0.0.1" in body
    assert proxy.asked == [f"127.0.0.1:{port}"] and proxy.plain == []  # tunnelled, plain http too
    assert decoy.hits == [] and good.hits[0].headers["host"] == f"127.0.0.2:{port}"


@pytest.mark.parametrize("kind", ["http", "socks5"])
@pytest.mark.parametrize("name", TIERS)
async def test_credentials_are_sent_and_a_refusal_names_the_proxy_not_the_password(
    kind: str, name: str
) -> None:
    with serve() as site, proxy_server(kind, credentials=("ada", "s3cr/t")) as proxy:  # type: ignore[arg-type]
        site.page("/", "<html><body><p>behind a login</p></body></html>")
        policy = loopback_policy()
        status, _ = await fetched(name, through(proxy), await policy.vet(site.base + "/"))
        wrong = ProxyRoute(parse_proxy(proxy.url.replace("s3cr%2Ft", "guess")))
        error = await failure(name, wrong, site.base + "/")
    assert status == 200 and len(site.hits) == 1
    assert error.code == ErrorCode.PROXY_ERROR
    assert f"127.0.0.1:{proxy.port}" in error.message and "guess" not in error.message
    assert "user and password" in error.message


@pytest.mark.parametrize("kind", ["http", "socks5"])
@pytest.mark.parametrize("name", TIERS)
async def test_a_proxy_that_is_down_is_a_proxy_error(kind: str, name: str, closed_port: int) -> None:
    route = ProxyRoute(parse_proxy(f"{kind}://127.0.0.1:{closed_port}"))
    with serve() as site:
        site.page("/", "<html><body><p>never read</p></body></html>")
        error = await failure(name, route, site.base + "/")
    assert (
        error.code == ErrorCode.PROXY_ERROR
        and f"cannot reach the proxy {kind}://127.0.0.1:{closed_port}" in error.message
    )
    assert site.hits == []
    assert ErrorCode.PROXY_ERROR not in REMEMBERED  # the page is not dead: a later search asks again


@pytest.mark.parametrize(
    "answer",
    # (a TLS port's alert: curl finds a NUL byte in the head, where the SSH banner was a ValueError)
    [b"", b"SSH-2.0-OpenSSH_9.6\r\n", b"\x15\x03\x01\x00\x02\x02\x0a"],
    ids=["reset", "not-a-proxy", "a-tls-port"],
)
@pytest.mark.parametrize("kind", ["http", "socks5"])
@pytest.mark.parametrize("name", TIERS)
async def test_a_proxy_that_breaks_the_connection_is_a_proxy_error(
    kind: str, name: str, answer: bytes
) -> None:
    """A proxy that reset the connection it was asked a tunnel on was the page's `connect_failed`
    ('the connection broke while reading at <page>'), and one answering CONNECT with no HTTP made the
    impersonate tier fail `internal` (curl_cffi's ValueError reading the answer's head)."""
    with serve() as site, broken_proxy(answer) as where:
        site.page("/", "<html><body><p>never read</p></body></html>")
        error = await failure(name, ProxyRoute(parse_proxy(f"{kind}://{where}")), site.base + "/")
    assert error.code == ErrorCode.PROXY_ERROR, error.message
    assert f"{kind}://{where}" in error.message and site.hits == []


@pytest.mark.parametrize("kind", ["http", "socks5"])
@pytest.mark.parametrize("name", TIERS)
async def test_a_proxy_that_takes_no_connection_is_a_proxy_error(kind: str, name: Tier) -> None:
    """A proxy at an address that never answers (its connection dropped, not refused) held every page
    to its time-out, `timeout` 'not read in full', as if the page were slow: the page was never asked."""
    with serve() as site, silent_proxy() as where:
        site.page("/", "<html><body><p>never read</p></body></html>")
        fetcher = Fetcher(Settings(proxy=f"{kind}://{where}", no_proxy=[]))
        try:
            with pytest.raises(FerretError) as caught:  # the page's time-out, as the ladder keeps it
                await fetcher.fetch(
                    site.base + "/", FetchOptions(allow_hosts=("127.0.0.1",), timeout=1, tier=name)
                )
        finally:
            await fetcher.aclose()
    assert caught.value.code == ErrorCode.PROXY_ERROR, caught.value.message
    assert f"cannot reach the proxy {kind}://{where}" in caught.value.message and site.hits == []


@pytest.mark.parametrize("kind", ["http", "socks5"])
@pytest.mark.parametrize("name", TIERS)
async def test_a_page_the_proxy_cannot_reach_is_the_pages_failure(
    kind: str, name: str, closed_port: int
) -> None:
    with proxy_server(kind) as proxy:  # type: ignore[arg-type]
        error = await failure(name, through(proxy), f"http://127.0.0.1:{closed_port}/")
    assert error.code == ErrorCode.CONNECT_FAILED
    assert (
        f"could not connect to 127.0.0.1:{closed_port}" in error.message and str(proxy.port) in error.message
    )


@pytest.mark.parametrize("name", TIERS)
async def test_a_destination_the_proxy_forbids_is_a_proxy_error(name: str) -> None:
    with serve() as site, proxy_server("http", refuse=403) as proxy:
        site.page("/", "<html><body><p>forbidden</p></body></html>")
        error = await failure(name, through(proxy), site.base + "/")
    assert error.code == ErrorCode.PROXY_ERROR and "403" in error.message and site.hits == []


@pytest.mark.parametrize("name", TIERS)
async def test_hosts_in_no_proxy_are_reached_directly(name: str) -> None:
    with serve() as site, proxy_server("http") as proxy:
        site.page("/", "<html><body><p>near</p></body></html>")
        policy = loopback_policy()
        for entry in ("127.0.0.0/8", "127.0.0.1", "*"):
            status, _ = await fetched(name, through(proxy, entry), await policy.vet(site.base + "/"))
            assert status == 200
    assert proxy.asked == [] and len(site.hits) == 3


@pytest.mark.parametrize("name", TIERS)
async def test_no_proxy_names_match_as_the_domain_lists_write_them(name: str) -> None:
    """`*.corp.example` (accepted by the setting, as `allowed_domains` takes it) and a name in its own
    letters matched no host, so those requests went through the proxy all the same."""
    with serve() as site, proxy_server("http") as proxy:
        site.page("/", "<html><body><p>intranet</p></body></html>")
        route = through(proxy, "*.corp.example", "bücher.example")
        for host in ("wiki.corp.example", "xn--bcher-kva.example"):
            url = f"http://{host}:{site.port}/"
            target = Target(url, "http", host, host, site.port, "127.0.0.1", ("127.0.0.1",))
            status, _ = await fetched(name, route, target)
            assert status == 200
    assert proxy.asked == [] and len(site.hits) == 2


@needs_chromium
async def test_the_browser_tier_leaves_through_the_proxy() -> None:
    settings = Settings(chromium_path=CHROMIUM, browser_no_sandbox=True)  # tests run as root
    with serve() as site, proxy_server("http") as proxy:
        site.page("/", "<html><head><link rel=stylesheet href=/s.css></head><body><p>drawn</p></body></html>")
        site.page("/s.css", "p { color: red }", content_type="text/css")
        browser = BrowserTier(settings, through(proxy))
        policy = loopback_policy()
        try:
            raw = await browser.fetch(await policy.vet(site.base + "/"), OPTS, policy)
        finally:
            await browser.aclose()
    assert b"drawn" in raw.body
    assert (
        proxy.asked == [f"127.0.0.1:{site.port}"] * len(proxy.asked) and len(proxy.asked) == 2
    )  # page and CSS


def test_proxy_urls_are_checked() -> None:
    assert parse_proxy("HTTP://ada:p%40ss@proxy.example:3128/").password == "p@ss"
    assert parse_proxy("socks5://[::1]:1080").url == "socks5://[::1]:1080"
    assert parse_proxy("http://ada:p%40ss@proxy.example:3128").url == "http://ada:p%40ss@proxy.example:3128"
    assert "p@ss" not in repr(parse_proxy("http://ada:p%40ss@proxy.example:3128"))
    for bad, said in [
        ("socks5h://127.0.0.1:9050", "socks5://"),
        ("https://proxy.example:443", "http:// or socks5://"),
        ("proxy.example:3128", "http:// or socks5://"),
        ("http://proxy.example", "port"),
        ("http://:3128", "no host"),
        ("http://proxy.example:3128/path", "only a scheme"),
        ("http://proxy.example:99999", "not a proxy URL"),
        ("http://ada:s3cr/t@proxy.example:3128", "percent-encode"),
    ]:
        with pytest.raises(ValueError, match=said) as caught:
            parse_proxy(bad)
        assert "s3cr" not in str(caught.value)


def test_no_proxy_matches_names_domains_addresses_and_networks() -> None:
    route = ProxyRoute(parse_proxy("http://p.example:3128"), ["intra.example", ".corp", "10.0.0.0/8", "::1"])
    assert route.proxy_for("intra.example") is None and route.proxy_for("wiki.intra.example") is None
    assert route.proxy_for("x.corp") is None and route.proxy_for("notintra.example") is route.proxy
    assert route.proxy_for("site.example", "10.1.2.3") is None  # by the address it was vetted to
    assert route.proxy_for("[::1]") is None and route.proxy_for("10.9.9.9") is None
    assert route.proxy_for("site.example", "93.184.215.14") is route.proxy
    assert ProxyRoute(None, []).proxy_for("site.example") is None


def test_a_bad_proxy_setting_names_it_and_hides_the_password(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WEBFERRET_PROXY", "ftp://ada:hunter2@proxy.example:21")
    with pytest.raises(ConfigError) as caught:
        load_settings()
    assert "proxy" in str(caught.value) and "hunter2" not in str(caught.value)
    monkeypatch.setenv("WEBFERRET_PROXY", "")
    assert load_settings().proxy is None  # an empty variable turns it off


def test_the_cli_fetches_and_searches_through_the_proxy(
    capsys: pytest.CaptureFixture[str], simweb: SimWeb, monkeypatch: pytest.MonkeyPatch
) -> None:
    pages = [
        simweb.add(
            f"/proxied/{n}", article_html(f"Proxied {n}", 3 + 2 * n), headers={"Content-Type": "text/html"}
        )
        for n in range(2)
    ]
    results = [
        {"url": url, "title": f"P {n}", "content": "A ferret.", "engine": "x"} for n, url in enumerate(pages)
    ]
    simweb.add("/search", json.dumps({"results": results}), headers={"Content-Type": "application/json"})
    monkeypatch.setenv("WEBFERRET_NO_PROXY", "")  # the simulated web is on loopback
    monkeypatch.setenv("WEBFERRET_SEARXNG_URL", simweb.url("/"))
    monkeypatch.setenv("WEBFERRET_ENGINES", "searxng")
    with proxy_server("socks5") as socks, proxy_server("http") as http:
        fetch_code = main(["fetch", "--json", "--allow-host", "127.0.0.1", "--proxy", socks.url, pages[0]])
        fetch = json.loads(capsys.readouterr().out)
        search_code = main(
            ["search", "ferret", "--json", "--fresh", "--allow-host", "127.0.0.1", "--proxy", http.url]
        )
        search = json.loads(capsys.readouterr().out)
    assert fetch_code == 0 and fetch["data"]["pages"][0]["title"] == "Proxied 0"
    assert socks.asked == [simweb.url("/").split("//")[1].rstrip("/")]
    assert search_code == 0 and len(search["data"]["results"]) == 2
    assert len(http.plain) == 1 and http.plain[0].startswith(f"GET {simweb.url('/search')}?")  # the engine
    assert len(http.asked) == 2  # each result verified through it


def test_an_engine_behind_a_proxy_that_takes_no_connection_says_so(
    capsys: pytest.CaptureFixture[str], simweb: SimWeb, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The engine's request had its whole `engine_timeout` to reach the proxy: one that never took the
    connection was the engine's `timeout` ('searxng gave no answer within 1 s')."""
    monkeypatch.setenv("WEBFERRET_NO_PROXY", "")  # the simulated web is on loopback
    with silent_proxy() as where:
        argv = ["search", "ferret", "--engines", "searxng", "--searxng-url", simweb.url("/"), "--no-verify"]
        main([*argv, "--json", "--engine-timeout", "1", "--proxy", f"http://{where}"])
    error = json.loads(capsys.readouterr().out)["data"]["engines"][0]["error"]
    assert error["code"] == "proxy_error" and f"cannot reach the proxy http://{where}" in error["message"]


def test_a_search_whose_candidates_the_proxy_kept_says_so(
    capsys: pytest.CaptureFixture[str], simweb: SimWeb, monkeypatch: pytest.MonkeyPatch, closed_port: int
) -> None:
    """With the proxy down, a search listed `0 results of 2 candidates (2 unreachable)`, ok and exit
    0, as if every link were dead: the pages were never asked. It now warns that the proxy failed."""
    pages = [simweb.add(f"/behind/{n}", article_html(f"Behind {n}", 3)) for n in range(2)]
    results = [
        {"url": url, "title": f"B {n}", "content": "A ferret.", "engine": "x"} for n, url in enumerate(pages)
    ]
    simweb.add("/search", json.dumps({"results": results}), headers={"Content-Type": "application/json"})
    monkeypatch.setenv("WEBFERRET_NO_PROXY", "localhost")  # the engine by that name, the pages by address
    searxng = simweb.url("/").replace("127.0.0.1", "localhost")
    argv = ["search", "ferret", "--json", "--fresh", "--engines", "searxng", "--searxng-url", searxng]
    main([*argv, "--allow-host", "127.0.0.1", "--proxy", f"http://127.0.0.1:{closed_port}"])
    data = json.loads(capsys.readouterr().out)["data"]
    assert data["results"] == [] and {item["error"]["code"] for item in data["unreachable"]} == {
        "proxy_error"
    }
    assert any(
        f"through the proxy: {data['unreachable'][0]['error']['message']}" in w for w in data["warnings"]
    )


def test_a_proxy_flag_that_is_not_a_proxy_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["fetch", "--proxy", "socks5h://127.0.0.1:9050", "http://127.0.0.1:9/"])
    err = capsys.readouterr().err
    assert exited.value.code == 2 and "socks5h" in err and "Traceback" not in err


def test_a_proxy_refusing_a_plain_http_engines_credentials_is_a_proxy_error(
    capsys: pytest.CaptureFixture[str], simweb: SimWeb, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A SearXNG on plain http is forwarded, not tunnelled, so the proxy's 407 came as the answer and
    read as the engine's own (`engine_error`, 'searxng answered HTTP 407'): it is the proxy's."""
    simweb.add("/search", json.dumps({"results": []}), headers={"Content-Type": "application/json"})
    monkeypatch.setenv("WEBFERRET_NO_PROXY", "")  # the simulated web is on loopback
    with proxy_server("http", credentials=("ada", "s3cr/t")) as proxy:
        wrong = proxy.url.replace("s3cr%2Ft", "guess")
        argv = ["search", "ferret", "--engines", "searxng", "--searxng-url", simweb.url("/"), "--no-verify"]
        code = main([*argv, "--json", "--proxy", wrong])
        error = json.loads(capsys.readouterr().out)["data"]["engines"][0]["error"]
    assert code == 1 and error["code"] == "proxy_error", error
    assert f"127.0.0.1:{proxy.port}" in error["message"] and "user and password" in error["message"]
    assert "guess" not in error["message"] and len(proxy.plain) == 0


@pytest.mark.parametrize(
    "bad", ["ftp://ada:hunter2@proxy.example:21", "http://ada:hunter2@proxy.example:3128/p",
            "http://ada:hun/ter2@proxy.example:3128", "ada:hunter2@proxy.example:3128"]
)  # fmt: skip
def test_a_bad_proxy_is_quoted_without_its_password(
    bad: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--proxy` quoted the value it refused whole, password and all, in every command; the setting
    hid a password only where it could parse one (not one holding an unencoded `/`, the very case
    its message is about, nor one in a URL without a scheme)."""
    for command in ("fetch", "mcp"):
        with pytest.raises(SystemExit):
            main([command, "--proxy", bad, *(["http://127.0.0.1:9/"] if command == "fetch" else [])])
        said = capsys.readouterr().err
        assert "(got '" in said and "proxy.example" in said and "hun" not in said, said
    monkeypatch.setenv("WEBFERRET_PROXY", bad)
    with pytest.raises(ConfigError) as caught:
        load_settings()
    assert "proxy.example" in str(caught.value) and "hun" not in str(caught.value), caught.value


@pytest.mark.parametrize("engine", ["duckduckgo", "wikipedia"])
def test_every_engine_leaves_through_the_proxy_and_its_failures_are_the_proxys(
    engine: str, capsys: pytest.CaptureFixture[str], closed_port: int
) -> None:
    """The ddgs engines (DuckDuckGo, Brave, Mojeek, Yahoo: the `auto` chain) went straight out,
    past the proxy; and an engine whose proxy was down or refused said `connect_failed`, as if the
    engine were down. A refusing proxy is asked and lets nothing through, so nothing leaves here."""

    def searched(proxy: str) -> dict:  # type: ignore[type-arg]
        code = main(["search", "ferret", "--engines", engine, "--no-verify", "--json", "--proxy", proxy])
        envelope = json.loads(capsys.readouterr().out)
        assert code == 1 and not envelope["ok"]
        return envelope["data"]["engines"][0]["error"]

    with proxy_server("http", refuse=403) as proxy:
        refused = searched(proxy.url)
    assert len(proxy.asked) == 1 and proxy.asked[0].endswith(":443") and proxy.asked[0][0].isalpha()
    assert (
        refused["code"] == "proxy_error"
        and "403" in refused["message"]
        and str(proxy.port) in refused["message"]
    )
    down = searched(f"http://127.0.0.1:{closed_port}")
    assert (
        down["code"] == "proxy_error"
        and f"cannot reach the proxy http://127.0.0.1:{closed_port}" in down["message"]
    )


async def test_the_ddgs_engines_do_not_read_the_environments_proxy_variables(
    simweb: SimWeb, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As every other request: the setting `proxy` is the one way to a proxy, not HTTP(S)_PROXY."""
    import dataclasses

    from webferret.search.engines import ddgs_text
    from webferret.search.types import EngineQuery

    url = simweb.add("/brave/search", "<html><body>no results</body></html>")
    engine = ddgs_text.make_engine("brave")
    spec = dataclasses.replace(engine.build_request(EngineQuery(text="q")), url=url)
    with proxy_server("http", refuse=502) as proxy:
        for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
            monkeypatch.setenv(name, proxy.url)
        assert engine.send is not None
        answer = await engine.send(spec, 5)
    assert answer.status == 200 and proxy.plain == [] and proxy.asked == []
