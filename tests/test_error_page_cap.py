"""An error status is the page's answer whatever its body's size: a 404 page past `max_bytes` is
`http_error` 404, not `too_large` (README: "4xx/5xx are `http_error` (never content)")."""

import gzip

import pytest
from chromium import CHROMIUM, needs_chromium
from simweb import SimWeb

from webferret.config import Settings
from webferret.ferret import Ferret
from webferret.models import ErrorCode

CAP = 50_000
BIG_PAGE = b"<html><body><h1>Not found</h1>" + b"<p>a heavy site template</p>" * 10_000 + b"</body></html>"


@pytest.mark.parametrize("tier", ["http", "impersonate"])
@pytest.mark.parametrize("encoding", ["identity", "gzip"])
async def test_an_error_page_past_the_cap_is_its_status(simweb: SimWeb, tier: str, encoding: str) -> None:
    """Declared past the cap (refused before reading, as a 200 page is), or gzipped and past it
    only once decompressed: either way the server said 404, and that is the page's error."""
    body, headers = BIG_PAGE, {}
    if encoding == "gzip":
        body, headers = gzip.compress(BIG_PAGE), {"Content-Encoding": "gzip"}
    assert len(BIG_PAGE) > CAP
    url = simweb.add(f"/gone-{tier}-{encoding}", body, status=404, headers=headers)
    async with Ferret(allow_hosts=["127.0.0.1"], max_bytes=CAP, tier=tier) as ferret:
        page = await ferret.fetch(url)
    assert page.error is not None
    assert (page.error.code, page.error.status) == (ErrorCode.HTTP_ERROR, 404), page.error


async def test_a_page_past_the_cap_is_still_too_large(simweb: SimWeb) -> None:
    """A 200 page past the cap stays `too_large`: only an error status answers without the body."""
    url = simweb.add("/heavy", BIG_PAGE)
    async with Ferret(allow_hosts=["127.0.0.1"], max_bytes=CAP) as ferret:
        page = await ferret.fetch(url)
    assert page.error is not None and page.error.code == ErrorCode.TOO_LARGE


@pytest.mark.parametrize("tier", ["http", "impersonate"])
async def test_a_redirect_with_a_body_past_the_cap_is_followed(simweb: SimWeb, tier: str) -> None:
    """A redirect's body is never the page: its size does not stop the hop (the impersonate tier
    refused it as `too_large` where the http tier, which never reads it, followed it)."""
    target = simweb.add(
        f"/landing-{tier}", "<html><body><main><p>" + "Ferrets land here. " * 40 + "</p></main></body></html>"
    )
    url = simweb.add(f"/moved-{tier}", BIG_PAGE, status=302, headers={"Location": target})
    async with Ferret(allow_hosts=["127.0.0.1"], max_bytes=CAP, tier=tier) as ferret:
        page = await ferret.fetch(url)
    assert page.ok and page.final_url == target, page.error


WALL = (
    b"<html><head><title>Just a moment...</title>"
    b"<script src='/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1'></script></head><body>"
    + b"<p>a heavy challenge script</p>" * 10_000
    + b"</body></html>"
)


@pytest.mark.parametrize("tier", ["http", "impersonate", pytest.param("browser", marks=needs_chromium)])
async def test_a_wall_page_past_the_cap_is_read_as_a_wall(simweb: SimWeb, tier: str) -> None:
    """An error page past the cap is read to the cap for its wall: the impersonate tier (and the
    browser, whose document it asks) refused one whose Content-Length said so before its body, and
    the browser refused the rendered page as `too_large`, so a Cloudflare challenge read as a bare
    `http_error` 403 (or `too_large`) where the http tier named the wall."""
    assert len(WALL) > CAP
    url = simweb.add(f"/challenged-{tier}", WALL, status=403)
    settings = Settings(chromium_path=CHROMIUM, browser_no_sandbox=True)  # tests run as root
    async with Ferret(settings, allow_hosts=["127.0.0.1"], max_bytes=CAP, tier=tier) as ferret:
        page = await ferret.fetch(url)
    assert page.error is not None
    assert (page.error.code, page.error.status, page.error.vendor) == (
        ErrorCode.BLOCKED_BY_SITE,
        403,
        "cloudflare",
    )
