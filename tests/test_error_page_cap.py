"""An error status is the page's answer whatever its body's size: a 404 page past `max_bytes` is
`http_error` 404, not `too_large` (README: "4xx/5xx are `http_error` (never content)")."""

import gzip

import pytest
from simweb import SimWeb

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
