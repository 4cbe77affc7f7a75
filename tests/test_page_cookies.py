"""A cookie a page's answer sets lives for that page's fetch only (its redirects: `fetch.hop_cookies`):
no tier sends it with a later page, so a session cookie a server gave a call made with the caller's
own `Cookie` never unlocks a later call made without it."""

from __future__ import annotations

from pathlib import Path

import pytest
from chromium import CHROMIUM, needs_chromium
from tiers_web import Hit, Reply, serve

from webferret.ferret import Ferret

ARTICLE = (
    "<html><head><title>Burrows</title></head><body><article><h1>Burrows</h1>"
    + "<p>Ferrets dig long burrows and explore every one of them with great care and patience.</p>" * 4
    + "</article></body></html>"
).encode()


def account(hit: Hit) -> Reply:
    """A page that answers a logged-in reader by setting its session cookie."""
    headers = {"content-type": "text/html; charset=utf-8"}
    if "login=ada" in hit.headers.get("cookie", ""):
        headers["set-cookie"] = "session=ada-s3cret; Path=/"
    return 200, headers, ARTICLE


@pytest.mark.parametrize("tier", ["http", "impersonate"])
async def test_a_cookie_a_page_set_is_not_sent_with_a_later_page(tmp_path: Path, tier: str) -> None:
    with serve() as site:
        site.routes["/account"] = account
        site.page("/other", ARTICLE)
        async with Ferret(home=tmp_path, allow_hosts=["127.0.0.1"]) as ferret:
            logged_in = ferret.fetch_options(tier=tier, headers=(("Cookie", "login=ada"),))
            first = await ferret.fetch(site.base + "/account", options=logged_in, fresh=True)
            plain = ferret.fetch_options(tier=tier)
            later = [
                await ferret.fetch(site.base + path, options=plain, fresh=True)
                for path in ("/account", "/other")
            ]
    assert first.ok and all(page.ok for page in later)
    sent = [(hit.path, hit.headers.get("cookie")) for hit in site.hits]
    assert sent == [("/account", "login=ada"), ("/account", None), ("/other", None)]


ROTATING = (
    "<html><head><title>Burrows</title></head><body><article><h1>Burrows</h1>"
    + "<p>Ferrets dig long burrows and explore every one of them with great care and patience.</p>" * 4
    + "</article><script>document.cookie = 'seen=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT';"
    + "document.cookie = 'passed=1; path=/'; fetch('/check');</script></body></html>"
)
"""A challenge's way: the page sets a cookie, its script swaps it for another and asks again."""


HOPPING = (
    "<html><head><title>Burrows</title></head><body><article><h1>Burrows</h1>"
    + "<p>Ferrets dig long burrows and explore every one of them with great care and patience.</p>" * 4
    + "</article><script>fetch('/hop').then(function () { return fetch('/after'); });</script></body></html>"
)


@needs_chromium
async def test_a_cookie_a_redirect_of_the_pages_files_sets_goes_on_with_the_page(tmp_path: Path) -> None:
    """The guard follows a file's redirect itself, unseen by the browser: the cookie its hop sets goes
    with the next hop and, given to the browser, with the page's later requests, once each."""
    with serve() as site:
        site.page("/page", HOPPING)
        site.page("/hop", "", status=302, location="/landed", set_cookie="hopped=1; Path=/")
        site.page("/landed", "ok", content_type="text/plain")
        site.page("/after", "ok", content_type="text/plain")
        async with Ferret(
            home=tmp_path, allow_hosts=["127.0.0.1"], chromium_path=CHROMIUM, browser_no_sandbox=True
        ) as ferret:
            page = await ferret.fetch(site.base + "/page", options=ferret.fetch_options(tier="browser"))
        sent = {hit.path: hit.cookies for hit in site.hits if hit.path in ("/landed", "/after")}
    assert page.ok and sent == {"/landed": ["hopped=1"], "/after": ["hopped=1"]}


def challenged(hit: Hit) -> Reply:
    """A page behind a challenge whose script's navigation is answered by a redirect with its pass."""
    if "passed=1" in hit.headers.get("cookie", ""):
        return 200, {"content-type": "text/html; charset=utf-8"}, ARTICLE
    script = "<script>setTimeout(function () { location.href = '/verify'; }, 50);</script>"
    return 200, {"content-type": "text/html"}, f"<html><body><p>Checking</p>{script}</body></html>".encode()


@needs_chromium
async def test_a_stopped_redirects_cookie_reaches_a_host_without_dots(tmp_path: Path) -> None:
    """The cookie of a redirect the guard stops is given to the browser for the host it came from:
    Python's jar names `localhost` `localhost.local`, where the browser never sent it back."""
    with serve() as site:
        site.routes["/"] = challenged
        site.page("/verify", "", status=302, location="/", set_cookie="passed=1; Path=/")
        async with Ferret(
            home=tmp_path, allow_hosts=["localhost"], chromium_path=CHROMIUM, browser_no_sandbox=True
        ) as ferret:
            base = site.base.replace("127.0.0.1", "localhost")
            page = await ferret.fetch(base + "/", options=ferret.fetch_options(tier="browser"))
    assert page.ok and "Ferrets dig long burrows" in page.content
    assert [hit.cookies for hit in site.hits] == [[], [], ["passed=1"]]


@needs_chromium
@pytest.mark.parametrize(
    ("callers", "sent"),
    [
        (None, "passed=1"),
        ("login=ada", "login=ada; passed=1"),
        ("passed=0; login=ada", "login=ada; passed=1"),
    ],
)
async def test_the_browser_sends_the_cookies_its_page_holds_once(
    tmp_path: Path, callers: str | None, sent: str
) -> None:
    """The guard fetched the page's files through a curl session that kept the cookies answers set and
    added them as a second `Cookie` header, a deleted one too (a server reading the first saw it).
    `--header 'Cookie: ...'` went as a Cookie header of its own beside the browser's, the caller's
    first: a server reading the first never saw the page's cookies. And in one header, the caller's
    `passed=0` went first beside the `passed=1` the page's script set: the page's replaces the
    caller's of its name."""
    with serve() as site:
        site.page("/page", ROTATING, set_cookie="seen=1; Path=/")
        site.page("/check", "ok", content_type="text/plain")
        async with Ferret(
            home=tmp_path, allow_hosts=["127.0.0.1"], chromium_path=CHROMIUM, browser_no_sandbox=True
        ) as ferret:
            headers = (("Cookie", callers),) if callers else ()
            opts = ferret.fetch_options(tier="browser", headers=headers)
            page = await ferret.fetch(site.base + "/page", options=opts)
        checks = [hit.cookies for hit in site.hits if hit.path == "/check"]
    assert page.ok and checks == [[sent]]


def rotating_session(hit: Hit) -> Reply:
    """A page whose server swaps a stale session for a fresh one by a redirect to itself, and reads
    the page only to a client that comes back with the fresh one; of two cookies of one name it reads
    the first, as PHP and Express do."""
    pairs = [pair.strip().partition("=") for pair in hit.headers.get("cookie", "").split(";")]
    session = next((value for name, _, value in pairs if name == "session"), None)
    if session == "fresh":
        return 200, {"content-type": "text/html; charset=utf-8"}, ARTICLE
    return 302, {"location": "/account", "set-cookie": "session=fresh; Path=/"}, b""


@pytest.mark.parametrize("tier", ["http", "impersonate"])
async def test_a_cookie_a_redirect_sets_replaces_the_callers_of_that_name(tmp_path: Path, tier: str) -> None:
    """The caller's `Cookie: session=stale; lang=en` and the redirect's fresh session went on as
    `session=stale; lang=en; session=fresh`: a server reading the first saw the stale one again, and
    redirected until the redirects ran out. A browser replaces a cookie by name; the caller's others stay."""
    with serve() as site:
        site.routes["/account"] = rotating_session
        async with Ferret(home=tmp_path, allow_hosts=["127.0.0.1"]) as ferret:
            options = ferret.fetch_options(tier=tier, headers=(("Cookie", "session=stale; lang=en"),))
            page = await ferret.fetch(site.base + "/account", options=options, fresh=True)
    assert page.ok, page.error
    assert [hit.headers.get("cookie") for hit in site.hits] == [
        "session=stale; lang=en",
        "lang=en; session=fresh",
    ]
