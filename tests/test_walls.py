"""Walled sites: once a wall sent a page of a site up the ladder, its next pages start at the tier that
got through (`fetch.walls`), for a while."""

from __future__ import annotations

from pathlib import Path

from test_ladder import ARTICLE, WALL
from tiers_web import Hit, Reply, serve

from webferret.config import Settings
from webferret.ferret import Ferret
from webferret.fetch.walls import Walls


def walled(hit: Hit) -> Reply:
    """A site that walls webferret's own plain requests, and lets a browser's look through."""
    if "webferret" in hit.headers.get("user-agent", ""):
        return 403, {"content-type": "text/html", "cf-mitigated": "challenge"}, WALL
    return 200, {"content-type": "text/html"}, ARTICLE


async def test_the_next_page_of_a_walled_site_starts_past_its_wall(tmp_path: Path) -> None:
    """Each page of a walled site climbed again: a plain request refused before every page."""
    settings = Settings(allow_hosts=["127.0.0.1"], home=tmp_path / "home")
    with serve() as site:
        site.fallback = walled
        async with Ferret(settings) as ferret:
            first = await ferret.fetch(site.base + "/a")
            second = await ferret.fetch(site.base + "/b")
            plain_only = ferret.fetch_options(tier="http")  # a tier asked is that tier
            other_tier = await ferret.fetch(site.base + "/c", options=plain_only)
    assert first.ok and second.ok and second.fetched_via == "impersonate", second.error
    assert [(hop["via"], hop["verdict"]) for hop in first.meta["trail"]] == [
        ("http", "blocked"),
        ("impersonate", "ok"),
    ]
    assert [hop["via"] for hop in second.meta["trail"]] == ["impersonate"]
    assert second.meta["trail"][0]["skipped_tiers"] == ["http"]
    plain = [hit.path for hit in site.hits if "webferret" in hit.headers.get("user-agent", "")]
    assert plain == ["/a", "/c"]  # none for /b
    assert not other_tier.ok and other_tier.error is not None


async def test_a_wall_a_redirect_leads_to_is_the_site_it_stands_at(tmp_path: Path) -> None:
    """A page of an open site redirected to a walled one: the open site was remembered as walled (its
    next page skipped plain HTTP) and the walled one was not (its next page knocked on the wall)."""
    settings = Settings(allow_hosts=["127.0.0.1"], home=tmp_path / "home")
    with serve() as walled_site, serve() as open_site:
        walled_site.fallback = walled
        open_site.page("/moved", b"", 302, location=walled_site.base + "/a")
        open_site.page("/own", ARTICLE)
        async with Ferret(settings) as ferret:
            first = await ferret.fetch(open_site.base + "/moved")
            own = await ferret.fetch(open_site.base + "/own")
            other = await ferret.fetch(walled_site.base + "/b")
    assert first.ok and own.ok and other.ok, (first.error, own.error, other.error)
    assert [hop["via"] for hop in own.meta["trail"]] == ["http"]
    assert [hop["via"] for hop in other.meta["trail"]] == ["impersonate"]
    assert other.meta["trail"][0]["skipped_tiers"] == ["http"]


async def test_a_page_refused_by_every_tier_leaves_its_site_unwalled(tmp_path: Path) -> None:
    """A bare 403 (no wall's mark) is asked once more by the impersonate tier; its same 403 got past
    nothing, yet the site was remembered as walled: one forbidden page, and its next pages skipped http."""
    settings = Settings(allow_hosts=["127.0.0.1"], home=tmp_path / "home")
    with serve() as site:
        site.page("/private", b"<html><body><h1>Forbidden</h1></body></html>", 403)
        site.page("/open", ARTICLE)
        async with Ferret(settings) as ferret:
            refused = await ferret.fetch(site.base + "/private")
            page = await ferret.fetch(site.base + "/open")
    assert refused.error is not None and refused.error.status == 403
    assert [hop["via"] for hop in refused.meta["trail"]] == ["http", "impersonate"]
    assert page.ok and page.fetched_via == "http", page.error
    assert [hop["via"] for hop in page.meta["trail"]] == ["http"]


def trail(*hops: tuple[str, str]) -> list[dict[str, str]]:
    return [{"url": "https://x.org/", "via": via, "verdict": verdict} for via, verdict in hops]


def test_what_is_remembered_and_for_how_long() -> None:
    walls = Walls()
    walls.learn("https://x.org/a", trail(("http", "blocked"), ("browser", "ok")))
    walls.learn("https://app.org/", trail(("http", "js_shell"), ("browser", "ok")))  # the page's own
    assert walls.start("https://X.org:443/b") == "browser" and walls.start("http://x.org/b") is None
    assert walls.start("https://app.org/other") is None and walls.start("not a url") is None
    walls.learn("https://x.org/c", trail(("http", "ok")))  # read plainly: the wall is gone
    assert walls.start("https://x.org/d") is None
    brief = Walls(memory=0.0)
    brief.learn("https://x.org/a", trail(("http", "blocked"), ("impersonate", "ok")))
    assert brief.start("https://x.org/b") is None  # its time is up: the next page learns again
