"""Calls of one Ferret that ask for the same page at once: the site is asked once, the store written
once, and a caller's cancellation leaves the others their page (`webferret.readings`)."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest
from simweb import Handler, SimWeb, article_html

from webferret.ferret import Ferret
from webferret.models import ErrorCode, Page
from webferret.store.pages import PageStore


async def _until_asked(simweb: SimWeb, path: str) -> None:
    while not simweb.served(path):
        await asyncio.sleep(0.01)


def _count_puts(monkeypatch: pytest.MonkeyPatch) -> list[str | None]:
    real = PageStore.put
    puts: list[str | None] = []

    def counted(self: PageStore, page: Page, *args: Any, **kwargs: Any) -> Page:
        puts.append(page.url)
        return real(self, page, *args, **kwargs)

    monkeypatch.setattr(PageStore, "put", counted)
    return puts


async def test_concurrent_fetches_of_one_url_read_it_once(
    simweb: SimWeb, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = simweb.add("/once", article_html("Once"), delay=0.5)
    puts = _count_puts(monkeypatch)
    async with Ferret(allow_hosts=["127.0.0.1"]) as ferret:
        pages = await asyncio.gather(*(ferret.fetch(url) for _ in range(4)))
        again = await asyncio.gather(ferret.fetch(url, fresh=True), ferret.fetch_many([url], fresh=True))
    assert all(page.ok and page.title == "Once" for page in pages)
    assert len({page.handle for page in pages}) == 1
    assert len({id(page) for page in pages}) == 4  # each caller its own Page
    assert again[0].ok and again[1][0].ok
    assert simweb.served("/once") == 2 and len(puts) == 2  # once for the four, once for the fresh two


async def test_other_options_are_another_reading(simweb: SimWeb) -> None:
    url = simweb.add("/twice", article_html("Twice"), delay=0.3)
    async with Ferret(allow_hosts=["127.0.0.1"]) as ferret:
        text = ferret.extract_options(format="text")
        plain, markdown = await asyncio.gather(ferret.fetch(url, extract=text), ferret.fetch(url, fresh=True))
    assert plain.ok and markdown.ok and plain.format == "text" and markdown.format == "markdown"
    assert simweb.served("/twice") == 2


async def test_options_made_by_hand_with_a_list_still_fetch(simweb: SimWeb) -> None:
    """`FetchOptions(allow_hosts=[...])` holds a list, so it cannot key a reading: read alone."""
    from webferret.fetch.types import FetchOptions

    by_hand = FetchOptions(allow_hosts=["127.0.0.1"])  # type: ignore[arg-type]
    async with Ferret() as ferret:
        page = await ferret.fetch(simweb.url("/article"), options=by_hand)
    assert page.ok


async def test_a_cancelled_caller_leaves_the_reading_to_the_others(simweb: SimWeb) -> None:
    url = simweb.add("/shared", article_html("Shared"), delay=1.0)
    async with Ferret(allow_hosts=["127.0.0.1"]) as ferret:
        first = asyncio.create_task(ferret.fetch(url))
        await _until_asked(simweb, "/shared")
        second = asyncio.create_task(ferret.fetch(url))
        await asyncio.sleep(0.2)  # the second call is waiting for the first's reading
        first.cancel()
        with pytest.raises(asyncio.CancelledError):
            await first
        page = await second
        after = await ferret.fetch(url)
    assert page.ok and page.title == "Shared" and page.handle
    assert after.fetched_via == "store" and after.handle == page.handle
    assert simweb.served("/shared") == 1


async def test_a_reading_whose_budget_ran_out_is_read_again_for_a_later_caller(simweb: SimWeb) -> None:
    release = threading.Event()
    served: list[int] = []

    def first_hangs(handler: Handler, web: SimWeb) -> None:
        served.append(1)
        if len(served) == 1:
            release.wait(10)
            return
        handler.reply(200, article_html("Late").encode(), {"Content-Type": "text/html; charset=utf-8"})

    url = simweb.add("/hangs", stream=first_hangs)
    try:
        async with Ferret(allow_hosts=["127.0.0.1"], budget=2) as ferret:
            await ferret.fetch(simweb.url("/article"))  # the extractor ready
            first = asyncio.create_task(ferret.fetch(url))
            await _until_asked(simweb, "/hangs")
            await asyncio.sleep(1.0)
            second = await ferret.fetch(url)  # joins, and has a second of its budget left after
            failed = await first
    finally:
        release.set()
    assert failed.error is not None and failed.error.code == ErrorCode.TIMEOUT
    assert second.ok and second.title == "Late"  # not the first call's timeout
    assert len(served) == 2


async def test_a_call_cancelled_as_anyio_cancels_closes_the_connection_it_was_reading(simweb: SimWeb) -> None:
    """The MCP server's calls are cancelled by anyio (`notifications/cancelled`), which cancels again
    at every await: the reading's cleanup must not be cancelled too, or the connection stays open
    and its slot in the pool is taken for as long as the server runs."""
    import anyio

    started, gone = threading.Event(), threading.Event()

    def drips(handler: Handler, web: SimWeb) -> None:
        handler.send_response(200)
        handler.send_header("Content-Type", "text/html")
        handler.send_header("Content-Length", "100000")
        handler.end_headers()
        try:
            for _ in range(400):
                handler.wfile.write(b"<p>drip</p>")
                handler.wfile.flush()
                started.set()
                if web.closing.wait(0.05):
                    return
        except OSError:
            gone.set()

    url = simweb.add("/drips", stream=drips)
    async with Ferret(allow_hosts=["127.0.0.1"], respect_robots=False) as ferret:
        async with anyio.create_task_group() as group:
            group.start_soon(ferret.fetch, url)
            assert await anyio.to_thread.run_sync(started.wait, 10)
            group.cancel_scope.cancel()
        closed = await anyio.to_thread.run_sync(gone.wait, 10)  # while the Ferret (its pool) is open
    assert closed
