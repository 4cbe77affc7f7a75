"""The tier ladder: pure escalation rules, then end to end through `Ferret` on loopback with chromium."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
from chromium import CHROMIUM, needs_chromium
from tiers_web import Hit, Reply, serve, shared_dir

from webferret.config import Settings
from webferret.ferret import Ferret
from webferret.fetch.ladder import climb
from webferret.fetch.types import RawResponse, Tier
from webferret.models import ErrorCode, FerretError

WALL = b"<html><head><title>Just a moment...</title></head><body><p>Checking your browser</p></body></html>"
ARTICLE = (
    b"<html><body><h1>Ferrets</h1>" + b"<p>Ferrets are small, playful mustelids.</p>" * 20 + b"</body></html>"
)
SHELL = b'<html><body><div id="root"></div><script src="/app.js"></script></body></html>'


def answers(by_tier: dict[str, tuple[int, bytes]]):  # type: ignore[no-untyped-def]
    """An attempt function answering fixed bodies per tier, recording the tiers asked."""
    asked: list[str] = []

    async def attempt(tier: str) -> RawResponse:
        asked.append(tier)
        status, body = by_tier[tier]
        raw = RawResponse(
            "http://a.example/", "http://a.example/", status, {"content-type": "text/html"}, body
        )
        raw.fetched_via = tier
        raw.trail = [{"url": raw.final_url, "status": status, "via": tier}]
        return raw

    attempt.asked = asked  # type: ignore[attr-defined]
    return attempt


async def test_auto_climbs_on_a_block_and_stops_at_content() -> None:
    attempt = answers({"http": (403, WALL), "impersonate": (200, ARTICLE)})
    raw = await climb("auto", attempt)
    assert attempt.asked == ["http", "impersonate"] and raw.fetched_via == "impersonate"
    assert [(hop["via"], hop["verdict"]) for hop in raw.trail] == [("http", "blocked"), ("impersonate", "ok")]
    assert raw.trail[0]["vendor"] == "cloudflare"


BIG_WALL = WALL.replace(b"</body>", b"<script>" + b"var challenge = 1;" * 1200 + b"</script></body>")
"""A wall with 20 KB of script: its verdict reads the parse until it knows the page is wall-sized."""


async def test_a_big_body_is_judged_off_the_event_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    """Parsing a big page for its verdict held the event loop up (a 10 MB page: 0.4 s); a small one is
    judged in place (a thread's hand-over would cost it more than the parse)."""
    import threading

    from webferret.fetch import ladder

    judged: list[bool] = []
    real = ladder.judge

    def recorded(raw: RawResponse, tier: str, climbs: bool = False) -> object:
        judged.append(threading.current_thread() is threading.main_thread())
        return real(raw, tier, climbs)

    monkeypatch.setattr(ladder, "judge", recorded)
    big = ARTICLE.replace(b"</body>", b"<div><p>more</p></div>" * (ladder.JUDGED_APART // 20) + b"</body>")
    for body in (ARTICLE, big):
        raw = await climb("auto", answers({"http": (200, body)}))
        assert raw.fetched_via == "http" and raw.trail[-1]["verdict"] == "ok"
    assert judged == [True, False]


async def test_a_long_wall_still_climbs() -> None:
    attempt = answers({"http": (403, BIG_WALL), "impersonate": (503, BIG_WALL), "browser": (200, ARTICLE)})
    raw = await climb("auto", attempt)
    assert attempt.asked == ["http", "impersonate", "browser"] and raw.fetched_via == "browser"
    assert [hop["verdict"] for hop in raw.trail] == ["blocked", "blocked", "ok"]
    assert raw.trail[0]["vendor"] == raw.trail[1]["vendor"] == "cloudflare"


async def test_auto_still_blocked_after_the_browser_is_blocked_by_site() -> None:
    attempt = answers({tier: (403, WALL) for tier in ("http", "impersonate", "browser")})
    with pytest.raises(FerretError) as caught:
        await climb("auto", attempt)
    assert attempt.asked == ["http", "impersonate", "browser"]
    error = caught.value
    assert error.code == ErrorCode.BLOCKED_BY_SITE and error.vendor == "cloudflare" and error.status == 403
    assert "http, impersonate, browser" in error.message


async def test_a_javascript_shell_goes_straight_to_the_browser() -> None:
    attempt = answers({"http": (200, SHELL), "browser": (200, ARTICLE)})
    raw = await climb("auto", attempt)
    assert attempt.asked == ["http", "browser"] and raw.fetched_via == "browser"


@pytest.mark.parametrize("status", [404, 401, 451, 429])
async def test_terminal_answers_are_not_escalated(status: int) -> None:
    attempt = answers({"http": (status, WALL)})
    raw = await climb("auto", attempt)
    assert attempt.asked == ["http"] and raw.status == status and raw.trail[0]["verdict"] == "terminal"


FORBIDDEN = b"<html><head><title>403 Forbidden</title></head><body><h1>Forbidden</h1></body></html>"


async def test_a_bare_403_is_asked_again_with_a_browsers_fingerprint_once() -> None:
    """A 403 no vendor marks (a server refusing clients by their TLS fingerprint answers so) ended the
    fetch at the http tier; it is asked once more by the impersonate tier, whose own 403 is the answer."""
    through = answers({"http": (403, FORBIDDEN), "impersonate": (200, ARTICLE)})
    raw = await climb("auto", through)
    assert through.asked == ["http", "impersonate"] and raw.status == 200
    assert raw.trail[0]["verdict"] == "blocked" and "fingerprint" in raw.trail[0]["reason"]
    refused = answers({"http": (403, FORBIDDEN), "impersonate": (403, FORBIDDEN), "browser": (200, ARTICLE)})
    raw = await climb("auto", refused)
    assert refused.asked == ["http", "impersonate"] and raw.status == 403  # the page's answer: http_error
    alone = answers({"http": (403, FORBIDDEN)})
    assert (await climb("http", alone)).status == 403  # a fixed tier: no block said


@pytest.mark.parametrize("tier", ["http", "impersonate"])
async def test_a_fixed_tier_without_the_browser(tier: Tier) -> None:
    with pytest.raises(FerretError) as shell:
        await climb(tier, answers({tier: (200, SHELL)}))
    with pytest.raises(FerretError) as wall:
        await climb(tier, answers({tier: (503, WALL)}))
    assert shell.value.code == ErrorCode.NEEDS_JAVASCRIPT and "--tier browser" in shell.value.message
    assert wall.value.code == ErrorCode.BLOCKED_BY_SITE and wall.value.vendor == "cloudflare"


async def test_a_failing_upper_tier_reports_the_block_it_met() -> None:
    async def attempt(tier: str) -> RawResponse:
        if tier == "http":
            return await answers({"http": (403, WALL)})(tier)
        raise FerretError(ErrorCode.CONNECT_FAILED, "refused")

    with pytest.raises(FerretError) as caught:
        await climb("auto", attempt)
    assert (
        caught.value.code == ErrorCode.BLOCKED_BY_SITE
        and "impersonate tier then failed" in caught.value.message
    )


@pytest.mark.parametrize(
    ("status", "body", "said"),
    [(403, WALL, "is walled (cloudflare)"), (200, SHELL, "only renders with JavaScript")],
)
async def test_a_page_that_needs_a_browser_that_cannot_start_says_so(
    status: int, body: bytes, said: str
) -> None:
    """Not `blocked_by_site` or `needs_javascript`: a client tells "install chromium" from "refused"."""

    async def attempt(tier: str) -> RawResponse:
        if tier != "browser":
            return await answers({"http": (status, body), "impersonate": (status, body)})(tier)
        raise FerretError(ErrorCode.BROWSER_UNAVAILABLE, "cannot start chromium at /nowhere")

    with pytest.raises(FerretError) as caught:
        await climb("auto", attempt)
    assert caught.value.code == ErrorCode.BROWSER_UNAVAILABLE
    assert said in caught.value.message and caught.value.message.endswith("cannot start chromium at /nowhere")


# -- end to end: Ferret -> Fetcher -> tiers -> real loopback servers --------------------------------


def gate(hit: Hit) -> Reply:
    """The real page only for a client that ran the interstitial's script (it carries the cookie)."""
    if "passed=1" in hit.headers.get("cookie", ""):
        return 200, {"content-type": "text/html"}, ARTICLE
    script = (
        b"<script>setTimeout(function(){document.cookie='passed=1; path=/'; location.reload();}, 50)</script>"
    )
    return 503, {"content-type": "text/html"}, WALL.replace(b"</body>", script + b"</body>")


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def ferret(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Ferret]:
    """One session for the module, so its store too: every test here fetches `fresh` (a later test's
    server may get an earlier one's port, and its page would come from the store). Its home is its
    own: made before the per-test home, the default would be the user's cache folder."""
    settings = Settings(
        chromium_path=CHROMIUM,
        browser_no_sandbox=True,
        allow_hosts=["127.0.0.1"],
        timeout=20,
        home=tmp_path_factory.mktemp("ladder-home"),
    )
    async with Ferret(settings) as session:
        yield session


@needs_chromium
@pytest.mark.asyncio(loop_scope="module")
async def test_auto_reads_a_javascript_page_through_the_browser(ferret: Ferret) -> None:
    script = b"document.getElementById('root').innerHTML = '<p>Ferrets play a lot.</p>'.repeat(9);"
    with serve() as site:
        site.page("/", SHELL)
        site.page("/app.js", script, content_type="application/javascript")
        page = await ferret.fetch(site.base + "/", fresh=True)
    assert page.ok and page.fetched_via == "browser", page.error
    assert "Ferrets play a lot." in page.content
    assert [(hop["via"], hop["verdict"]) for hop in page.meta["trail"]] == [
        ("http", "js_shell"),
        ("browser", "ok"),
    ]


SENT_ON = (
    b'<html><body><p>Redirecting...</p><script>window.location.href = "/article";</script></body></html>'
)


@needs_chromium
@pytest.mark.asyncio(loop_scope="module")
async def test_auto_follows_a_page_that_a_script_sends_on(ferret: Ferret) -> None:
    """A "Redirecting..." page whose script sets `location` is a shell: the browser follows it."""
    with serve() as site:
        site.page("/", SENT_ON)
        site.page("/article", ARTICLE)
        page = await ferret.fetch(site.base + "/", fresh=True)
        fixed = await ferret.fetch(site.base + "/", options=ferret.fetch_options(tier="http"), fresh=True)
    assert page.ok and page.fetched_via == "browser", page.error
    assert "playful mustelids" in page.content and page.final_url == site.base + "/article"
    first = page.meta["trail"][0]
    assert (first["via"], first["verdict"]) == ("http", "js_shell")
    assert fixed.error is not None and fixed.error.code == ErrorCode.NEEDS_JAVASCRIPT


def test_a_large_scripts_blocks_are_looked_back_on_only_around_a_location_set(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every block of a script was judged by the words before its `{` (a look back of 200 characters,
    two patterns), though only the blocks around a location set matter: a 5 MB inline bundle took 4 s
    per tier. A block is judged only when a location set stands inside it, and once."""
    from webferret.fetch import script_redirect

    judged: list[int] = []
    real = script_redirect._ReadersBlocks.opens

    def counted(self: script_redirect._ReadersBlocks, start: int) -> bool:
        judged.append(start)
        return real(self, start)

    monkeypatch.setattr(script_redirect._ReadersBlocks, "opens", counted)
    bundle = "function n(e){if(e){return r.o(e,{a:1})}var i=e.x||{};return i};" * 1000
    assert script_redirect.sends_on(bundle + "window.location.href = '/next';")
    assert judged == []  # at the top level: no block around it
    inside = "function away() { if (ready) { location.href = '/a'; } } " + bundle + "away();"
    assert script_redirect.sends_on(inside) and len(judged) == 2  # `away` (called) and its `if` alone
    assert not script_redirect.sends_on("function go(u) { location.href = u; location.replace(u); }")
    assert len(judged) == 3  # `go`, uncalled: judged once for both of its location sets


def test_a_script_that_only_reads_the_location_is_no_redirect() -> None:
    from webferret.fetch.blocks import js_shell

    script = b'<script>if (location.href == "x") { var here = location.href; }</script>'
    buster = b"<script>if (top != self) { top.location = self.location; }</script>"
    reads = b"<html><body><p>Hello there</p>" + script + b"</body></html>"
    assert not js_shell(reads, "text/html").js_shell
    assert not js_shell(reads.replace(script, buster), "text/html").js_shell
    for sends in (
        b"location = '/a'",
        b"document.location.href='/a'",
        b"window.location.replace('/a')",
        b"setTimeout(function () { location.href = '/a'; }, 2000)",
        b"function away() { location.href = '/a'; } away();",
        b"var away = function () { location.href = '/a'; }; away();",  # a function assigned, then called
        b"const away = () => { location.href = '/a'; }; away();",
    ):
        page = reads.replace(script, b"<script>" + sends + b"</script>")
        assert js_shell(page, "text/html").js_shell, sends
    named = b"<script>function away() { location.href = '/a'; }</script>"
    for runs in (b"<body onload='away()'>", b"<body><script>window.onload = away;</script>"):
        page = reads.replace(b"<body>", runs).replace(script, named)
        assert js_shell(page, "text/html").js_shell, runs
    timed = named.replace(b"}</script>", b"} setTimeout(away, 3000);</script>")
    assert js_shell(reads.replace(script, timed), "text/html").js_shell
    long_page = ARTICLE.replace(b"</body>", b'<script>location.href = "/elsewhere";</script></body>')
    assert not js_shell(long_page, "text/html").js_shell


@pytest.mark.asyncio(loop_scope="module")
async def test_a_short_page_whose_script_names_a_variable_location_is_read(ferret: Ferret) -> None:
    """A script's own variable named `location` sends no one anywhere: a short store page that set
    `var location = "Paris"` failed as needs_javascript on the http tier (a script redirect)."""
    script = b"<script>var location = 'Paris'; document.title = location;</script>"
    with serve() as site:
        site.page("/", b"<html><body><p>Our store in Paris is open.</p>" + script + b"</body></html>")
        page = await ferret.fetch(site.base + "/", options=ferret.fetch_options(tier="http"), fresh=True)
    assert page.ok and "Our store in Paris is open." in page.content, page.error


@pytest.mark.asyncio(loop_scope="module")
async def test_a_short_page_whose_script_moves_only_when_the_reader_acts_is_read(ferret: Ferret) -> None:
    """A country picker whose link calls `go(this.href)`, a select whose change sets `location`: the
    script sends the reader on when they act, not as the page loads. Such a short page failed as
    needs_javascript on the http tier (browser_unavailable in auto without Chromium)."""
    picks = (
        b"<script>function go(u) { window.location.href = u; }</script>",
        b"<script>menu.onchange = function() { location.href = this.value; };</script>",
        b"<script>button.addEventListener('click', () => { location.assign('/fr'); });</script>",
    )
    with serve() as site:
        for number, script in enumerate(picks):
            body = b"<html><body><h1>Choose your country</h1><p><a href='/fr'>France</a></p>"
            site.page(f"/{number}", body + script + b"</body></html>")
        http = ferret.fetch_options(tier="http")
        pages = [await ferret.fetch(f"{site.base}/{n}", options=http, fresh=True) for n in range(len(picks))]
    for page in pages:
        assert page.ok and "France" in page.content, page.error


@needs_chromium
@pytest.mark.asyncio(loop_scope="module")
async def test_auto_gets_through_the_interstitial_with_the_browser(ferret: Ferret) -> None:
    with serve() as site:
        site.routes["/"] = gate
        page = await ferret.fetch(site.base + "/", fresh=True)
    assert page.ok and page.fetched_via == "browser", page.error
    assert "playful mustelids" in page.content
    hops = [(hop["via"], hop["status"]) for hop in page.meta["trail"]]  # the browser's own reload too
    assert hops == [("http", 503), ("impersonate", 503), ("browser", 503), ("browser", 200)]
    agents = [hit.headers.get("user-agent", "") for hit in site.hits]
    assert "webferret" in agents[0] and "webferret" not in agents[1]


@needs_chromium
@pytest.mark.asyncio(loop_scope="module")
@pytest.mark.parametrize(
    ("name", "headers", "vendor"),
    [
        (
            "cloudflare_managed_please-wait_2021-11-02.html",
            {"cf-mitigated": "challenge", "server": "cloudflare"},
            "cloudflare",
        ),
        ("perimeterx_block_adorama_2018-03.html", {}, "perimeterx"),
    ],
)
async def test_captured_walls_on_loopback_end_blocked_by_site(
    ferret: Ferret, name: str, headers: dict[str, str], vendor: str
) -> None:
    wall = shared_dir() / "fixtures" / "blocks" / name
    if not wall.is_file():
        pytest.skip(f"shared fixture {wall} absent")
    with serve() as site:
        site.routes["/"] = lambda hit: (403, {"content-type": "text/html", **headers}, wall.read_bytes())
        page = await ferret.fetch(site.base + "/", fresh=True)
    assert page.error is not None and page.error.code == ErrorCode.BLOCKED_BY_SITE
    assert page.error.vendor == vendor and page.error.status == 403
    assert len([hit for hit in site.hits if hit.path == "/"]) == 3  # http, impersonate, browser
    assert [(hop["via"], hop["verdict"]) for hop in page.meta["trail"]] == [
        ("http", "blocked"),
        ("impersonate", "blocked"),
        ("browser", "blocked"),
    ]


@needs_chromium
@pytest.mark.asyncio(loop_scope="module")
async def test_a_long_wall_on_loopback_is_escalated_to_the_browser(ferret: Ferret) -> None:
    """A long wall climbs the same tiers as a short one, through the real fetcher."""

    def long_gate(hit: Hit) -> Reply:
        status, headers, body = gate(hit)
        return status, headers, body.replace(b"</body>", BIG_WALL[len(WALL) - len(b"</body></html>") :])

    with serve() as site:
        site.routes["/"] = long_gate
        page = await ferret.fetch(site.base + "/", fresh=True)
    assert page.ok and page.fetched_via == "browser", page.error
    hops = [(hop["via"], hop.get("verdict")) for hop in page.meta["trail"]]  # the browser's reload too
    assert hops == [("http", "blocked"), ("impersonate", "blocked"), ("browser", None), ("browser", "ok")]


@needs_chromium
@pytest.mark.asyncio(loop_scope="module")
async def test_the_guard_refuses_a_redirect_to_a_refused_address(ferret: Ferret) -> None:
    with serve() as site, serve("127.0.0.2") as secret:
        secret.page("/", ARTICLE)
        site.page("/", b"", status=302, location=secret.base + "/")
        opts = ferret.fetch_options(tier="browser")
        page = await ferret.fetch(site.base + "/", options=opts, fresh=True)
    assert page.error is not None and page.error.code == ErrorCode.BLOCKED_ADDRESS
    assert secret.hits == []


@needs_chromium
@pytest.mark.asyncio(loop_scope="module")
async def test_the_trail_marks_the_browser_hop_that_failed_after_a_climb(ferret: Ferret) -> None:
    """A "Redirecting..." shell climbs to the browser, whose script leads to a refused address: the
    message said the browser tier then failed, but the trail listed the http hop alone, though a
    hop's error marks the hop it struck (as a timeout's did, and a bare 403's second asking)."""
    with serve() as site, serve("127.0.0.2") as secret:
        secret.page("/", ARTICLE)
        site.page("/", SENT_ON.replace(b'"/article"', f'"{secret.base}/"'.encode()))
        page = await ferret.fetch(site.base + "/", fresh=True)
    assert page.error is not None and "browser tier then failed" in page.error.message, page.error
    assert [(hop["via"], hop.get("verdict"), hop.get("error")) for hop in page.meta["trail"]] == [
        ("http", "js_shell", None),
        ("browser", None, "blocked_address"),
    ]
    assert secret.hits == []


@pytest.mark.asyncio(loop_scope="module")
async def test_a_bare_403_stands_when_the_impersonate_tier_then_fails(ferret: Ferret) -> None:
    """A bare 403 asked once more by the impersonate tier, which then fails on its own (here its
    redirect to a refused address): the page's answer is its 403 (http_error), as before the tier was
    asked, not a block by an 'unknown' vendor."""

    def refusing(hit: Hit) -> Reply:
        if "webferret" in hit.headers.get("user-agent", ""):
            return 403, {"content-type": "text/html"}, FORBIDDEN
        return 302, {"location": "http://10.0.0.1/"}, b""

    with serve() as site:
        site.routes["/"] = refusing
        page = await ferret.fetch(site.base + "/", fresh=True)
    assert page.error is not None and page.error.code == ErrorCode.HTTP_ERROR, page.error
    assert page.error.status == 403 and page.error.vendor is None
    assert [hop["via"] for hop in page.meta["trail"]] == ["http", "impersonate"]
    assert page.meta["trail"][-1]["error"] == "blocked_address"


@pytest.mark.parametrize(
    ("status", "body", "parses"),
    [
        (200, b"<html><body><div id='root'></div><script>x()</script></body></html>", 1),
        (200, b"<html><body><p>" + b"Plenty of text to read here. " * 40 + b"</p></body></html>", 1),
        (404, b"<html><body><p>Not here</p></body></html>", 0),  # terminal: no parse at all
    ],
)
def test_both_verdicts_share_one_parse(
    monkeypatch: pytest.MonkeyPatch, status: int, body: bytes, parses: int
) -> None:
    import webferret.fetch.blocks as blocks
    from webferret.fetch.ladder import judge

    calls: list[int] = []
    real = blocks.read_markup

    def counted(data: bytes) -> blocks.Markup | None:
        calls.append(len(data))
        return real(data)

    monkeypatch.setattr(blocks, "read_markup", counted)
    headers = {"content-type": "text/html"}
    raw = RawResponse(
        url="https://ex.org/", final_url="https://ex.org/", status=status, headers=headers, body=body
    )
    verdict = judge(raw, "http")
    assert len(calls) == parses
    assert verdict.js_shell == (parses == 1 and b"root" in body)


@needs_chromium
@pytest.mark.asyncio(loop_scope="module")
async def test_the_trail_names_where_a_challenge_took_the_browser(ferret: Ferret) -> None:
    """A challenge whose form posts to a URL that fails: the error and the trail both name that URL."""
    form = (
        b'<form id="f" method="POST" action="/verify?token=1"></form>'
        b"<script>setTimeout(function(){document.getElementById('f').submit();}, 50)</script>"
    )
    with serve() as site:
        site.page("/", WALL.replace(b"</body>", form + b"</body>"), status=503)
        page = await ferret.fetch(site.base + "/", options=ferret.fetch_options(tier="browser"), fresh=True)
    assert not page.ok and page.error is not None and page.error.code == "http_error"
    assert "/verify?token=1" in page.error.message
    hops = [(hop["url"].removeprefix(site.base), hop["status"]) for hop in page.meta["trail"]]
    assert hops == [("/", 503), ("/verify?token=1", 404)]  # the loopback server has no route for it


NAV = "".join(
    f"<a href='/{name}'>{name.title()}</a> " for name in ("home", "shop", "stories", "contact", "about")
)
LOADING = (
    f"<html><head><title>Ferret news</title></head><body><header>{NAV}<p>Free delivery on orders over "
    "twenty pounds this week only</p></header><div id='__next'><div class='spinner'>Loading the app"
    "</div></div><script src='/app.js'></script><script>window.a = 1</script><script>window.b = 2</script>"
    "</body></html>"
).encode()
"""A page the fetch verdict passes (its app root is not empty, and it has 150+ letters of header)
whose content only the app's script draws: extraction finds the shell (`empty_shell`)."""
FACTS = (
    "Ferrets sleep fourteen hours a day.",
    "A group of ferrets is called a business, and each of them steals socks.",
    "They were kept to hunt rabbits for more than two thousand years.",
    "Young ferrets are called kits and open their eyes after five weeks.",
    "Their bodies are long and thin, so they can follow prey into burrows.",
)
DRAWN = (
    "document.getElementById('__next').innerHTML = " + repr("".join(f"<p>{fact}</p>" for fact in FACTS)) + ";"
).encode()


def test_the_fetch_verdict_passes_the_loading_page() -> None:
    """The premise of the tests below: only extraction can tell this page is a shell."""
    from webferret.fetch.blocks import js_shell

    assert not js_shell(LOADING, "text/html").js_shell


@needs_chromium
@pytest.mark.asyncio(loop_scope="module")
async def test_auto_renders_a_shell_that_only_extraction_finds(ferret: Ferret) -> None:
    with serve() as site:
        site.page("/", LOADING)
        site.page("/app.js", DRAWN, content_type="application/javascript")
        page = await ferret.fetch(site.base + "/", fresh=True)
        fixed = await ferret.fetch(site.base + "/", options=ferret.fetch_options(tier="http"), fresh=True)
    assert page.ok and page.fetched_via == "browser", page.error
    assert "Ferrets sleep fourteen hours a day." in page.content and page.quality > 0.5
    hops = [(hop["via"], hop["verdict"]) for hop in page.meta["trail"]]
    assert hops == [("http", "js_shell"), ("browser", "ok")]
    assert "extraction found a JavaScript app shell" in page.meta["trail"][0]["reason"]
    # a fixed tier is that tier alone: the shell's few words, vetoed
    assert fixed.fetched_via == "http" and fixed.meta["extract"]["quality_veto"] == "empty_shell"
    assert [hit.path for hit in site.hits].count("/") == 3  # http, browser; then http alone


@needs_chromium
@pytest.mark.asyncio(loop_scope="module")
async def test_auto_waits_for_a_shell_whose_app_draws_late(ferret: Ferret) -> None:
    """The app draws on a timer, after the network went quiet: the browser waits for the page to show
    more than the shell the server sent, as extraction found it."""
    with serve() as site:
        site.page("/", LOADING)
        late = b"setTimeout(function () {" + DRAWN + b"}, 1500);"
        site.page("/app.js", late, content_type="application/javascript")
        page = await ferret.fetch(site.base + "/", fresh=True)
    assert page.ok and page.fetched_via == "browser", page.error
    assert "Ferrets sleep fourteen hours a day." in page.content


@needs_chromium
@pytest.mark.asyncio(loop_scope="module")
async def test_a_shell_the_browser_left_empty_points_to_wait_for(ferret: Ferret) -> None:
    """A page whose app draws nothing by the time it is read: the error says how to wait for it."""
    with serve() as site:
        site.page("/", SHELL)
        site.page("/app.js", b"setTimeout(function () {}, 60000);", content_type="application/javascript")
        page = await ferret.fetch(site.base + "/", fresh=True)
    assert not page.ok and page.error is not None and page.error.code == ErrorCode.EMPTY_CONTENT
    assert "also as the browser rendered it" in page.error.message and "--wait-for CSS" in page.error.message


async def test_without_a_browser_the_first_reading_is_kept(tmp_path: Path) -> None:
    settings = Settings(chromium_path=str(tmp_path / "no-chromium"), allow_hosts=["127.0.0.1"], home=tmp_path)
    with serve() as site:
        site.page("/", LOADING)
        site.page("/shell", SHELL.replace(b"<body>", b"<body><p>" + b"Shop menu link " * 20 + b"</p>"))
        async with Ferret(settings) as session:
            page = await session.fetch(site.base + "/", fresh=True)
    assert page.ok and page.fetched_via == "http" and "Loading the app" in page.content
    last = page.meta["trail"][-1]
    assert last["via"] == "browser" and "error" in last
    assert page.meta["trail"][0]["verdict"] == "js_shell"


def brotli_stored(data: bytes) -> bytes:
    """`data` as a brotli stream of one uncompressed meta-block (RFC 7932, 9.2), so no brotli library
    is needed: a window-size bit 0, ISLAST 0, MNIBBLES 0 (four nibbles), MLEN-1 in 16 bits,
    ISUNCOMPRESSED 1, padding to the byte; the bytes; then a last, empty meta-block (ISLAST,
    ISLASTEMPTY)."""
    assert 0 < len(data) <= 1 << 16
    header = (len(data) - 1) << 4 | 1 << 20  # bits from the lowest: 0, 0, 00, MLEN-1, 1
    return header.to_bytes(3, "little") + data + b"\x03"


@pytest.mark.asyncio(loop_scope="module")
async def test_a_body_in_brotli_sent_unasked_is_read_by_the_next_tier(ferret: Ferret) -> None:
    """A server sending brotli though the http tier asked for gzip or deflate only: the page was
    `unsupported_content`; the impersonate tier, whose curl decodes brotli, reads it now."""
    with serve() as site:
        site.page("/", brotli_stored(ARTICLE), content_encoding="br")
        page = await ferret.fetch(site.base + "/", fresh=True)
        assert page.ok and page.fetched_via == "impersonate", page.error
        assert "playful mustelids" in page.content
        hops = [(hop["via"], hop.get("error"), hop.get("verdict")) for hop in page.meta["trail"]]
        assert hops == [("http", "unsupported_content", None), ("impersonate", None, "ok")]
        assert 'content encoding "br"' in page.meta["trail"][0]["reason"]
        alone = await ferret.fetch(site.base + "/", fresh=True, options=ferret.fetch_options(tier="http"))
    assert alone.error is not None and alone.error.code == ErrorCode.UNSUPPORTED_CONTENT
    assert 'content encoding "br"' in alone.error.message
