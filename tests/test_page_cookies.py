"""A cookie a page's answer sets lives for that page's fetch only (its redirects: `fetch.hop_cookies`):
no tier sends it with a later page, so a session cookie a server gave a call made with the caller's
own `Cookie` never unlocks a later call made without it."""

from __future__ import annotations

from pathlib import Path

import pytest
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
