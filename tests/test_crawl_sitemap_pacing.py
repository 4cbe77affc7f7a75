"""A site's sitemaps are read at the pace its robots.txt asks for (`Crawl-delay`), by a crawl and
a map, on the simulated web."""

from __future__ import annotations

import threading
import time
from typing import Any

from simweb import SimWeb

from webferret.crawler import CrawlOptions, crawl
from webferret.ferret import Ferret
from webferret.site_map import MapOptions, map_site

HTML = {"Content-Type": "text/html"}
DELAY = 0.2


class Sitemaps:
    """Sitemap files that note when each request came and how many were answered at once."""

    def __init__(self, web: SimWeb, names: list[str]) -> None:
        self.started: list[float] = []
        self.most = 0
        self._open = 0
        self._lock = threading.Lock()
        for name in names:
            web.add(f"/paced/{name}.xml", stream=self._serve(web.url(f"/paced/{name}")))

    def _serve(self, page: str) -> Any:
        body = (
            '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
            f"<url><loc>{page}</loc></url></urlset>"
        ).encode()

        def serve(handler: Any, web: SimWeb) -> None:
            with self._lock:
                self.started.append(time.monotonic())
                self._open += 1
                self.most = max(self.most, self._open)
            web.closing.wait(DELAY)  # a slow file: another asked meanwhile would be answered at once
            with self._lock:
                self._open -= 1
            handler.reply(200, body, {"Content-Type": "application/xml"})

        return serve


def paced_site(web: SimWeb) -> Sitemaps:
    names = ["one", "two", "three"]
    named = "".join(f"Sitemap: {web.url(f'/paced/{name}.xml')}\n" for name in names)
    web.add("/robots.txt", f"User-agent: *\nCrawl-delay: {DELAY}\n{named}")
    web.add("/paced/start", "<html><body><p>" + "Ferrets dig. " * 40 + "</p></body></html>", headers=HTML)
    for name in names:
        web.add(f"/paced/{name}", f"<html><body><p>{name} " + "Ferrets swim. " * 40 + "</p></body></html>")
    return Sitemaps(web, names)


def assert_paced(sitemaps: Sitemaps) -> None:
    assert len(sitemaps.started) == 3
    assert sitemaps.most == 1  # one at a time
    gaps = [b - a for a, b in zip(sitemaps.started, sitemaps.started[1:], strict=False)]
    assert all(gap >= DELAY for gap in gaps)  # each asked the pause after the one before it ended


async def test_a_crawl_reads_the_sitemaps_at_the_pace_robots_txt_asks(simweb: SimWeb) -> None:
    sitemaps = paced_site(simweb)
    async with Ferret(allow_hosts=["127.0.0.1"]) as ferret:
        result = await crawl(ferret, simweb.url("/paced/start"), CrawlOptions(depth=1, sitemap=True))
    assert result.sitemap_urls == 3 and result.crawl_delay == DELAY
    assert_paced(sitemaps)


async def test_a_map_reads_the_sitemaps_at_the_pace_robots_txt_asks(simweb: SimWeb) -> None:
    sitemaps = paced_site(simweb)
    async with Ferret(allow_hosts=["127.0.0.1"]) as ferret:
        mapped = await map_site(ferret, simweb.url("/paced/start"), MapOptions())
    assert mapped.sitemap_urls == 3
    assert_paced(sitemaps)


async def test_sitemaps_the_pace_left_no_time_for_are_said_unread(simweb: SimWeb) -> None:
    paced_site(simweb)
    simweb.add("/robots.txt", simweb.routes["/robots.txt"].body.decode().replace(f"{DELAY}", "2"))
    async with Ferret(allow_hosts=["127.0.0.1"]) as ferret:
        opts = ferret.fetch_options(budget=3)  # a pause of 2 s before each: two do not fit
        mapped = await map_site(ferret, simweb.url("/paced/start"), MapOptions(), fetch=opts)
    assert mapped.sitemap_unread is not None
    assert f"{simweb.url('/paced/three.xml')}: not asked for, the call's time budget ran out" in (
        mapped.sitemap_unread
    )
