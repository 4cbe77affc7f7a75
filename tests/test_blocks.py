"""Block detection on the real captured walls in ../shared/fixtures/blocks, and on real articles."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from webferret.fetch.blocks import classify, js_shell


def shared_dir() -> Path:
    """`<repo>/../shared` (CI) or the sibling of the worktrees' folder (`/work/shared`)."""
    here = Path(__file__).resolve()
    candidates = [here.parents[2] / "shared", here.parents[3] / "shared"]
    return next((path for path in candidates if path.is_dir()), candidates[0])


FIXTURES = shared_dir() / "fixtures"
needs_fixtures = pytest.mark.skipif(not FIXTURES.is_dir(), reason=f"shared fixtures absent ({FIXTURES})")

WALLS = {
    "akamai_bot-manager_interstitial_amazon-de_2026.html": "akamai",
    "baidu_security_verification.html": "baidu",
    "cloudflare_bot-fight-mode_2021-01-07.html": "cloudflare",
    "cloudflare_iuam_just-a-moment_2020-05-27.html": "cloudflare",
    "cloudflare_managed_please-wait_2021-11-02.html": "cloudflare",
    "cloudflare_recaptcha_attention-required_2019-12-12.html": "cloudflare",
    "duckduckgo_anomaly_challenge_2026.html": "duckduckgo",
    "flaresolverr_cloudflare_captcha_hcaptcha_v1_2022-07.html": "cloudflare",
    "flaresolverr_cloudflare_captcha_norobot_v1_2022-07.html": "cloudflare",
    "flaresolverr_cloudflare_init_v1_2022-07.html": "cloudflare",
    "flaresolverr_cloudflare_spinner_v1_2022-07.html": "cloudflare",
    "google_enablejs_block.html": "google",
    "mojeek_altcha_captcha_200_2026-09-28.html": "captcha",
    "perimeterx_block_adorama_2018-03.html": "perimeterx",
    "reddit_login_wall_soft_block.html": "login wall",
}


def wall_body(name: str) -> bytes:
    return (FIXTURES / "blocks" / name).read_bytes()


def article_paths() -> list[Path]:
    pages = FIXTURES / "pages"
    return sorted(pages.glob("*/*.html")) + sorted(pages.glob("*/*/source.html"))


@needs_fixtures
@pytest.mark.parametrize("status", [200, 403, 503])
@pytest.mark.parametrize(("name", "vendor"), sorted(WALLS.items()))
def test_real_walls_are_blocked_with_their_vendor(name: str, vendor: str, status: int) -> None:
    verdict = classify(status, {"content-type": "text/html"}, wall_body(name), "text/html")
    assert verdict.blocked and not verdict.terminal and verdict.escalate
    assert verdict.vendor == vendor
    assert str(status) in verdict.reason


@needs_fixtures
def test_datadome_json_403_is_blocked() -> None:
    wrapped = json.loads(wall_body("qwant_api_datadome_403_2026-09-28.json"))
    body = json.dumps(wrapped["raw_body"]).encode()
    verdict = classify(403, {"content-type": "application/json"}, body, "application/json")
    assert verdict.blocked and verdict.vendor == "datadome"


@needs_fixtures
@pytest.mark.parametrize("path", article_paths(), ids=lambda p: p.parent.name + "/" + p.name)
def test_real_articles_are_content(path: Path) -> None:
    body = path.read_bytes()
    assert classify(200, {}, body, "text/html") == classify(200, {}, b"<html><body><p>x</p></body></html>")
    assert not classify(200, {}, body, "text/html").blocked
    assert not js_shell(body, "text/html").js_shell


@pytest.mark.parametrize(
    ("status", "headers", "vendor"),
    [
        (403, {"cf-mitigated": "challenge", "server": "cloudflare"}, "cloudflare"),
        (200, {"cf-mitigated": "challenge"}, "cloudflare"),
        (503, {"server": "cloudflare", "cf-ray": "8a1b2c3d4e5f-FRA"}, "cloudflare"),
        (403, {"x-datadome": "protected"}, "datadome"),
        (403, {"set-cookie": "datadome=abc; Path=/"}, "datadome"),
        (403, {"set-cookie": "_pxhd=abc; Path=/"}, "perimeterx"),
        (403, {"server": "AkamaiGHost"}, "akamai"),
        (403, {"x-iinfo": "9-1234-0 0NNN RT(1 2) q(0 -1 -1 0) r(0 -1)"}, "imperva"),
        (202, {"x-amzn-waf-action": "challenge"}, "aws-waf"),
        (405, {"x-amzn-waf-action": "captcha"}, "aws-waf"),
        (403, {"server": "ddos-guard"}, "ddos-guard"),
    ],
)
def test_header_markers_win_over_an_innocent_body(status: int, headers: dict[str, str], vendor: str) -> None:
    verdict = classify(status, headers, b"<html><body><p>hello</p></body></html>", "text/html")
    assert verdict.blocked and verdict.vendor == vendor


def test_cloudflare_served_site_with_a_plain_200_is_content() -> None:
    headers = {"server": "cloudflare", "cf-ray": "8a1b2c3d4e5f-FRA", "x-datadome": "protected"}
    assert not classify(200, headers, b"<html><body><p>hello</p></body></html>", "text/html").blocked


@pytest.mark.parametrize("status", [401, 404, 410, 429, 451])
def test_terminal_statuses_are_not_escalated(status: int) -> None:
    verdict = classify(status, {}, b"<html><body>Just a moment... g-recaptcha</body></html>", "text/html")
    assert verdict.terminal and not verdict.escalate


def test_geo_block_is_terminal() -> None:
    body = b"<html><body><h1>Sorry</h1><p>This content is not available in your country.</p></body></html>"
    verdict = classify(403, {}, body, "text/html")
    assert verdict.terminal and "geo" in verdict.reason


def test_incapsula_iframe_page_on_200_is_blocked() -> None:
    body = (
        b'<html><head><META NAME="robots" CONTENT="noindex,nofollow"><script '
        b'src="/_Incapsula_Resource?SWJIYLWA=5074a744e2e3d891814e9a2dace20bd4,719d34d31c8e3a6e6fffd425f7e032f3">'
        b'</script></head><body><iframe id="main-iframe" src="/_Incapsula_Resource?CWUDNSAI=9"></iframe>'
        b"</body></html>"
    )
    verdict = classify(200, {}, body, "text/html")
    assert verdict.blocked and verdict.vendor == "imperva"


HELP = "<p>Open the portal, choose your provider, and the g-recaptcha box may ask you to pick buses.</p>"


@pytest.mark.parametrize(
    ("title", "form", "vendor"),
    [
        ("How to sign in with single sign-on (SSO)", "", None),
        ("What is a CAPTCHA and how does it work?", "", None),
        (
            "Sign in to your account",
            '<form><input name="u"><input type="password" name="p"></form>',
            "login wall",
        ),
        ("Log in", "<form><input type=password></form>", "login wall"),
        ("Captcha", '<form action="/verify"><img src="/c.png"><input name="c"></form>', "captcha"),
        ("Checking", '<div class="g-recaptcha" data-sitekey="6Lc"></div>', "captcha"),
        ("Checking", '<div class="cf-turnstile"></div>', "captcha"),
    ],
)
def test_a_short_page_is_a_wall_by_its_form_not_by_its_title(
    title: str, form: str, vendor: str | None
) -> None:
    """A help page about signing in or captchas is short and names them in its title: content. A
    wall has the form or widget of one."""
    body = f"<html><head><title>{title}</title></head><body><h1>{title}</h1>{HELP}{form}</body></html>"
    verdict = classify(200, {}, body.encode(), "text/html")
    assert verdict.vendor == vendor and verdict.blocked == (vendor is not None)


def test_long_article_about_challenges_is_content() -> None:
    prose = "<p>" + "Cloudflare serves window._cf_chl_opt and g-recaptcha to bots, we explain why. " * 60
    body = f"<html><head><title>Just a moment...</title></head><body>{prose}</p></body></html>".encode()
    assert not classify(200, {}, body, "text/html").blocked


@pytest.mark.parametrize(
    "body",
    [
        b"<html><body><noscript>You need to enable JavaScript to run this app.</noscript>"
        b'<div id="root"></div><script src="/main.js"></script></body></html>',
        b'<html><body><div id="__next"></div><script src="/_next/app.js"></script></body></html>',
        b'<html><body><script src="/bundle.js"></script></body></html>',
    ],
)
def test_javascript_shells(body: bytes) -> None:
    assert js_shell(body, "text/html").js_shell
    assert not classify(200, {}, body, "text/html").blocked


CHROME = (
    "<header><nav>" + "Shop women men kids sale gift cards help account orders. " * 10 + "</nav></header>"
)


def test_an_empty_app_root_amid_a_server_rendered_header_is_a_shell() -> None:
    """Some hundred letters of menus around an empty mount point: the app's content is not there."""
    page = f'<html><body>{CHROME}<div id="root"></div><script src="/app.js"></script></body></html>'
    verdict = js_shell(page.encode(), "text/html")
    assert verdict.js_shell and "#root" in verdict.reason
    static = f'<html><body>{CHROME}<div id="root"></div></body></html>'  # no script: nothing will draw there
    assert not js_shell(static.encode(), "text/html").js_shell
    article = f'<html><body>{CHROME}<div id="root"></div><p>{"Ferrets nap. " * 300}</p><script></script>'
    assert not js_shell(article.encode(), "text/html").js_shell


def test_short_static_page_is_not_a_shell() -> None:
    body = b"<html><body><h1>Hello</h1><p>A short page, no scripts at all.</p></body></html>"
    assert not js_shell(body, "text/html").js_shell
    assert not js_shell(b'{"a": 1}', "application/json").js_shell


def test_visible_text_skips_unseen_elements_and_keeps_their_tails() -> None:
    from webferret.fetch.blocks import visible_text

    body = (
        b"<html><head><title>T</title></head><body><p>Seen</p><script>hidden()</script> tail "
        b"<svg><text>no</text></svg> after<noscript>JS off</noscript></body></html>"
    )
    assert visible_text(body) == "Seen tail afterJS off"


def test_a_root_a_reader_cannot_see_does_not_count() -> None:
    """The first root outside `<template>`/`<noscript>` decides, as if those were stripped."""
    hidden_full = b"<template><div id='root'>x</div></template><div id='root'> </div><script>a()</script>"
    assert js_shell(b"<html><body>" + hidden_full + b"</body></html>", "text/html").js_shell
    hidden_empty = b"<noscript><div id='app'></div></noscript><div id='app'>Hello</div><script>a()</script>"
    assert not js_shell(b"<html><body>" + hidden_empty + b"</body></html>", "text/html").js_shell


def test_a_long_page_is_content_once_its_text_is_long() -> None:
    """The verdicts stop reading a long page's tree once it has enough letters: no root lookups."""
    from webferret.fetch.blocks import BodyView

    body = b"<html><body><div id='root'></div><p>" + b"Ferrets sleep a lot. " * 200 + b"</p></body></html>"
    view = BodyView(body, "text/html")
    assert classify(200, {}, body, "text/html", view).kind == "ok"
    assert js_shell(body, "text/html", view).kind == "ok"
    assert view.markup is not None and "empty_root" not in vars(view.markup)


@pytest.mark.parametrize(
    ("status", "body", "vendor"),
    [
        (
            202,
            b"<html><head><script>window.gokuProps = {key: 'x'};</script>"
            b'<script src="https://abc.token.awswaf.com/abc/challenge.js"></script></head><body></body></html>',
            "aws-waf",
        ),
        (
            200,
            b"<html><head><title>DDoS-Guard</title>"
            b'<script src="/.well-known/ddos-guard/js-challenge/index.js"></script></head>'
            b"<body><p>Checking your browser before accessing the site.</p></body></html>",
            "ddos-guard",
        ),
    ],
)
def test_aws_waf_and_ddos_guard_challenges_are_walls(status: int, body: bytes, vendor: str) -> None:
    """Neither was known: the challenge page was read as the page (a one-line page, or none)."""
    verdict = classify(status, {}, body, "text/html")
    assert verdict.blocked and verdict.vendor == vendor


def test_a_short_page_using_aws_wafs_javascript_integration_is_content() -> None:
    """AWS WAF's JavaScript integration (its `challenge.js` from `token.awswaf.com`, the page's calls to
    `AwsWafIntegration`) runs on a site's own pages, to hold a token for their requests: a short page
    using it (an order's tracking) was taken for AWS WAF's challenge, whose own mark is `window.gokuProps`."""
    body = (
        b"<html><head><title>Track your order</title>"
        b'<script src="https://abc.eu-west-1.token.awswaf.com/abc/def/challenge.js" defer></script></head>'
        b"<body><h1>Track your order</h1><p>Enter the number on your receipt to see where it is.</p>"
        b"<form><input name='order'><button>Track</button></form>"
        b"<script>form.onsubmit = () => AwsWafIntegration.fetch('/track', {method: 'POST'});</script>"
        b"</body></html>"
    )
    assert classify(200, {"content-type": "text/html"}, body, "text/html").kind == "ok"
