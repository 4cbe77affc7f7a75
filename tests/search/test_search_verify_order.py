"""Verification in rank order, against the simulated web on 127.0.0.1: spares are extracted only when
the answer needs them, and the answer does not wait for the ones it does not need."""

from __future__ import annotations

import asyncio
import json
import random
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from search_harness import SearxServer
from simweb import Handler, SimWeb, Stream, wait_for

from webferret.ferret import Ferret
from webferret.models import ErrorCode, Hit, Source
from webferret.search.verify import RankOrder, Verification, verify_hits

pytestmark = pytest.mark.filterwarnings("error")  # an unclosed connection or a lost task fails a test

WORDS = [
    "river",
    "stone",
    "lantern",
    "copper",
    "harbor",
    "meadow",
    "signal",
    "orbit",
    "violet",
    "timber",
    "quartz",
    "falcon",
    "ember",
]


def distinct_article(topic: str) -> str:
    """An article whose words are its own (no near-duplicate of another topic's)."""
    rng = random.Random(topic)
    paragraphs = "".join(
        f"<p>{topic} {' '.join(rng.choice(WORDS) for _ in range(40))}.</p>" for _ in range(8)
    )
    body = f"<article><h1>{topic}</h1>{paragraphs}</article>"
    return f"<html><head><title>{topic}</title></head><body>{body}</body></html>"


def hits(*urls: str) -> list[Hit]:
    return [Hit(url=url, sources=[Source(engine="test", rank=rank)]) for rank, url in enumerate(urls, 1)]


def names(verified: Verification) -> list[str]:
    return [hit.url.rsplit("/", 1)[-1] for hit in verified.kept]


HOLD_SECONDS = 10.0


@pytest.fixture
def held(simweb: SimWeb) -> Iterator[threading.Event]:
    """`/held` answers after `HOLD_SECONDS` (sooner if the simulated web stops); the event is set
    once it did."""
    replied = threading.Event()

    def hold(handler: Handler, web: SimWeb) -> None:
        web.closing.wait(HOLD_SECONDS)
        handler.reply(200, distinct_article("held").encode(), {"Content-Type": "text/html"})
        replied.set()

    simweb.add("/held", stream=hold)
    yield replied


def ferret(home: Path) -> Ferret:
    """Every page of these tests is on one host: the per-host cap is raised so that all are
    requested at once, as candidates on different hosts are."""
    return Ferret(home=home, allow_hosts=["127.0.0.1"], per_host_concurrency=8)


def serve(simweb: SimWeb, *topics: str, delay: float = 0.0) -> list[str]:
    """Pages of distinct articles; `delay` holds their answers (so spares served at once would be
    extracted long before the answer, were they not held back)."""
    return [simweb.add(f"/{topic}", distinct_article(topic), delay=delay) for topic in topics]


def _asked_for_held(web: SimWeb) -> bool:
    return any(path == "/held" for path, _ in web.requests)


async def stored(f: Ferret, url: str) -> bool:
    return await f.stored(url) is not None


async def test_a_slow_spare_does_not_hold_the_answer(
    tmp_path: Path, simweb: SimWeb, held: threading.Event
) -> None:
    def once_the_spare_is_asked(topic: str) -> Stream:
        """The page answers once the spare's request is in (it may come a moment after theirs, and
        they were read and the answer given before it came, on a loaded machine)."""

        def answer(handler: Handler, web: SimWeb) -> None:
            wait_for(lambda: _asked_for_held(web), HOLD_SECONDS)
            handler.reply(200, distinct_article(topic).encode(), {"Content-Type": "text/html"})

        return answer

    urls = [simweb.add(f"/{topic}", stream=once_the_spare_is_asked(topic)) for topic in ("alpha", "beta")]
    urls.append(simweb.url("/held"))
    async with ferret(tmp_path) as f:
        verified = await verify_hits(f, hits(*urls), wanted=2, timeout=30)
        assert not held.is_set()  # the answer did not wait for the spare's response
        assert names(verified) == ["alpha", "beta"]
        assert (verified.not_needed, verified.unreachable, verified.dropped) == (1, [], [])
        assert _asked_for_held(simweb)  # it was requested, in parallel
        assert not await stored(f, urls[2])
        assert asyncio.all_tasks() == {asyncio.current_task()}  # the spare's task is gone


async def test_a_spare_that_is_not_needed_is_never_extracted(tmp_path: Path, simweb: SimWeb) -> None:
    urls = [*serve(simweb, "alpha", "beta", delay=0.5), *serve(simweb, "gamma", "delta")]
    async with ferret(tmp_path) as f:
        verified = await verify_hits(f, hits(*urls), wanted=2, timeout=30)
        assert names(verified) == ["alpha", "beta"] and verified.not_needed == 2
        assert [await stored(f, url) for url in urls] == [True, True, False, False]


async def test_a_dead_top_hit_is_replaced_by_the_first_spare(tmp_path: Path, simweb: SimWeb) -> None:
    urls = [simweb.url("/status/404"), *serve(simweb, "alpha", "beta", delay=0.5)]
    urls += serve(simweb, "spare1", "spare2")
    async with ferret(tmp_path) as f:
        verified = await verify_hits(f, hits(*urls), wanted=3, timeout=30)
        assert names(verified) == ["alpha", "beta", "spare1"]
        assert [item.url for item in verified.unreachable] == [urls[0]]
        assert verified.not_needed == 1 and not await stored(f, urls[-1])


async def test_a_page_that_now_redirects_to_its_sites_home_page_is_gone(
    tmp_path: Path, simweb: SimWeb
) -> None:
    """A removed article redirected home is a soft 404 (the home page answers no query); another
    address of the home page itself (`/en/index.html`) is the home page."""
    simweb.add("/", distinct_article("home"))
    gone = simweb.add("/blog/ferret-news", status=301, headers={"Location": "/"})
    home = simweb.add("/en/index.html", status=301, headers={"Location": "/"})
    urls = [gone, home, *serve(simweb, "alpha")]
    async with ferret(tmp_path) as f:
        verified = await verify_hits(f, hits(*urls), wanted=3, timeout=30)
    assert [hit.url for hit in verified.kept] == [home, urls[2]]
    [dead] = verified.unreachable
    assert dead.url == gone and dead.error is not None and dead.error.code == ErrorCode.NOT_FOUND
    assert "redirects to its site's home page" in dead.error.message


async def test_a_page_redirected_to_a_place_in_the_home_page_is_that_place(
    tmp_path: Path, simweb: SimWeb
) -> None:
    """A one-page site's `/contact` sent to `/#contact`, or an app's `/about` to its route `/#/about`,
    is read at the home page's address (a fragment is no page of its own) but is that place in it, not
    a removed page sent home: it was dropped as gone."""
    simweb.add("/", distinct_article("home"))
    place = simweb.add("/contact", status=301, headers={"Location": "/#contact"})
    route = simweb.add("/about", status=302, headers={"Location": "/#/about"})
    async with ferret(tmp_path) as f:
        for url in (place, route):  # (one search each: the two are one page)
            verified = await verify_hits(f, hits(url), wanted=1, timeout=30)
            assert [hit.url for hit in verified.kept] == [url] and verified.unreachable == []


async def test_a_page_redirected_to_an_apps_home_route_is_gone(tmp_path: Path, simweb: SimWeb) -> None:
    """A hash-routed app's home route (`/#/`, `/#!/`) is its home page, not a place in it: a removed
    page sent there was kept as though it were that place."""
    simweb.add("/", distinct_article("home"))
    gone = [
        simweb.add(f"/blog/gone-{n}", status=301, headers={"Location": to})
        for n, to in enumerate(("/#/", "/#!/"))
    ]
    async with ferret(tmp_path) as f:
        for url in gone:  # (one search each: the two are one page)
            verified = await verify_hits(f, hits(url), wanted=1, timeout=30)
            assert verified.kept == [] and [item.url for item in verified.unreachable] == [url]


async def test_a_near_duplicate_top_hit_is_replaced_by_the_first_spare(
    tmp_path: Path, simweb: SimWeb
) -> None:
    alpha, beta = serve(simweb, "alpha", "beta", delay=0.5)
    spare1, spare2 = serve(simweb, "spare1", "spare2")
    mirror = simweb.add("/mirror", distinct_article("alpha"))
    async with ferret(tmp_path) as f:
        listed = hits(alpha, mirror, beta, spare1, spare2)
        listed[1] = listed[1].model_copy(update={"sources": [Source(engine="other", rank=1)]})
        verified = await verify_hits(f, listed, wanted=3, timeout=30)
        assert names(verified) == ["alpha", "beta", "spare1"]
        assert [(d.url, d.duplicate_of) for d in verified.dropped] == [(mirror, alpha)]
        # the engine that listed the mirror is named by the page it mirrors
        assert [s.engine for s in verified.kept[0].sources] == ["test", "other"]
        assert verified.not_needed == 1 and not await stored(f, spare2)


async def test_too_few_candidates_are_all_decided(tmp_path: Path, simweb: SimWeb, closed_port: int) -> None:
    dead = f"http://127.0.0.1:{closed_port}/gone"
    urls = [*serve(simweb, "alpha"), dead, simweb.url("/empty")]
    async with ferret(tmp_path) as f:
        verified = await verify_hits(f, hits(*urls), wanted=5, timeout=30)
    assert names(verified) == ["alpha"] and verified.not_needed == 0
    # an empty page exists, but nothing of it can be read: not listed, with its error
    unlisted = {item.url: item.error.code for item in verified.unreachable if item.error}
    assert unlisted == {dead: "connect_failed", simweb.url("/empty"): "empty_content"}


def test_spares_become_needed_only_as_better_ones_drop_out() -> None:
    from webferret.models import ErrorCode, ErrorInfo, Page

    order = RankOrder(hits(*(f"https://x.org/{n}" for n in range(5))), wanted=2, threshold=0.9)
    assert order.needed() == [0, 1]
    dead = Page.failed("https://x.org/1", ErrorInfo(code=ErrorCode.HTTP_ERROR, message="HTTP 404"))
    order.arrived(1, dead)
    assert order.needed() == [0, 1, 2] and order.cursor == 0  # 0 is not in yet: nothing decided
    order.arrived(0, Page(url="https://x.org/0", ok=True, content=distinct_article("zero")))
    assert order.cursor == 2 and not order.settled
    order.arrived(2, Page(url="https://x.org/2", ok=True, content=distinct_article("two")))
    assert order.settled and order.outcome.not_needed == 2


async def test_a_search_lists_its_first_hits_and_counts_the_spares_it_did_not_need(
    tmp_path: Path, searx: SearxServer
) -> None:
    options = dict(searxng_url=searx.url, engine_min_interval=0)
    async with Ferret(home=tmp_path, allow_hosts=["127.0.0.1"], **options) as f:
        result = await f.search("ferret", f.search_options(engines=("searxng",), results=1))
        assert [hit.url.rsplit("/", 1)[-1] for hit in result.results] == ["alpha"]  # the consensus hit
        assert (result.verified, result.candidates, result.not_needed) == (True, 3, 2)
        assert result.unreachable == [] and result.dropped_duplicates == []
        assert result.results[0].handle and await f.stored(result.results[0].handle) is not None


def test_search_json_meta_counts_the_spares_not_needed(
    tmp_path: Path, searx: SearxServer, capsys: pytest.CaptureFixture[str]
) -> None:
    from webferret.cli import main

    argv = ["search", "ferret", "--engines", "searxng", "--searxng-url", searx.url, "-n", "1", "--json"]
    code = main([*argv, "--allow-host", "127.0.0.1", "--home", str(tmp_path)])
    meta = json.loads(capsys.readouterr().out)["meta"]
    assert code == 0 and (meta["candidates"], meta["not_needed"], meta["verified"]) == (3, 2, True)


async def test_pages_queued_behind_their_host_get_their_own_timeout(tmp_path: Path, simweb: SimWeb) -> None:
    """Six pages of one host (a `--site` search), two at a time, each 0.6 s: the last pair starts
    after 1.2 s, past a 1 s timeout shared by all, yet each page took 0.6 s of its own."""
    topics = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta"]
    urls = serve(simweb, *topics, delay=0.6)
    async with Ferret(home=tmp_path, allow_hosts=["127.0.0.1"], per_host_concurrency=2) as f:
        verified = await verify_hits(f, hits(*urls), wanted=6, timeout=1.0)
    assert names(verified) == topics and verified.unreachable == []


def test_host_waves_counts_the_busiest_host() -> None:
    from webferret.search.verify import host_waves

    urls = ["https://a.example/1", "https://a.example/2", "https://A.example./3", "https://b.example/"]
    assert host_waves(urls, 2) == 2 and host_waves(urls, 3) == 1 and host_waves([], 2) == 1
    assert host_waves(["http://[::1", "http://[::1/x"], 1) == 2  # unparsable: one host of their own


async def test_when_the_first_candidates_fall_short_the_next_ones_are_asked(
    tmp_path: Path, simweb: SimWeb, closed_port: int
) -> None:
    dead = [f"http://127.0.0.1:{closed_port}/gone{n}" for n in range(4)]
    good = serve(simweb, "alpha", "beta", "gamma", "delta", "omega")
    urls = [good[0], *dead, good[1], good[2], good[3], good[4]]  # 5 asked at first: one good
    async with ferret(tmp_path) as f:
        verified = await verify_hits(f, hits(*urls), wanted=3, timeout=30, first=5)
    assert names(verified) == ["alpha", "beta", "gamma"]
    assert len(verified.unreachable) == 4 and verified.asked == 9  # needed 7, and 2 spares again


async def test_no_more_are_asked_when_the_first_suffice(tmp_path: Path, simweb: SimWeb) -> None:
    urls = serve(simweb, "alpha", "beta", "gamma", "unasked")  # a path no other test asks for
    async with ferret(tmp_path) as f:
        verified = await verify_hits(f, hits(*urls), wanted=2, timeout=30, first=3)
    assert names(verified) == ["alpha", "beta"] and verified.asked == 3
    assert simweb.served("/unasked") == 0


async def test_asking_on_stops_when_the_time_is_spent(tmp_path: Path, simweb: SimWeb) -> None:
    """Every candidate too slow: more are asked while the verification has time, not all 20."""
    slow = serve(simweb, *(f"slow{n}" for n in range(20)), delay=2.0)
    async with ferret(tmp_path) as f:
        verified = await verify_hits(f, hits(*slow), wanted=2, timeout=0.4, first=3)
    assert verified.kept == [] and 3 < verified.asked < 20
    assert {item.error.code for item in verified.unreachable if item.error} == {"timeout"}


async def test_an_answer_of_hundreds_of_candidates_is_verified(tmp_path: Path, simweb: SimWeb) -> None:
    """Engines may list hundreds of results (a SearXNG page, `-n 100` of several engines): the
    verification asks what it needs of them, and the call's options stay within their bounds."""
    many = serve(simweb, "alpha", "beta") + [simweb.url(f"/never/{n}") for n in range(300)]
    async with ferret(tmp_path) as f:
        verified = await verify_hits(f, hits(*many), wanted=2, timeout=30, first=3)
    assert names(verified) == ["alpha", "beta"] and verified.asked == 3
