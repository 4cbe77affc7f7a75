"""A search answers before its pages' store writes end: the handles it names still open at once, in
this session and after it, and nothing is left running (the simulated web on 127.0.0.1)."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from simweb import SimWeb
from test_search_verify_order import distinct_article, ferret, hits

from webferret.ferret import Ferret
from webferret.store.pages import PageStore

pytestmark = pytest.mark.filterwarnings("error")  # an unclosed connection or a lost task fails a test


@pytest.fixture
def slow_writes(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    """Every store write waits until the event is set (at most 10 s), so the test sees the answer
    while the writes are still under way."""
    release = threading.Event()
    put = PageStore.put

    def held(self: PageStore, *args: Any, **kwargs: Any) -> Any:
        release.wait(10)
        return put(self, *args, **kwargs)

    monkeypatch.setattr(PageStore, "put", held)
    yield release
    release.set()


def pages(simweb: SimWeb, *topics: str) -> list[str]:
    return [simweb.add(f"/{topic}", distinct_article(topic)) for topic in topics]


async def test_the_answer_does_not_wait_for_the_store_and_its_handles_open_at_once(
    tmp_path: Path, simweb: SimWeb, slow_writes: threading.Event
) -> None:
    from webferret.search.verify import verify_hits

    urls = pages(simweb, "alpha", "beta", "gamma")
    async with ferret(tmp_path) as f:
        verified = await verify_hits(f, hits(*urls), wanted=3, timeout=30)
        assert [hit.url for hit in verified.kept] == urls
        assert f._session._work  # answered while every write is still held
        slow_writes.set()
        for hit in verified.kept:
            assert hit.handle is not None
            opened = await f.open(hit.handle)  # waits for the writes first
            stored = await f.stored(hit.handle)
            assert stored is not None and stored.page.tokens == hit.tokens
            assert hit.url.rsplit("/", 1)[-1] in opened.content
        assert not f._session._work


async def test_a_session_that_ends_right_after_the_answer_still_stores_its_pages(
    tmp_path: Path, simweb: SimWeb, slow_writes: threading.Event
) -> None:
    from webferret.search.verify import verify_hits

    urls = pages(simweb, "delta", "epsilon")
    async with ferret(tmp_path) as f:
        verified = await verify_hits(f, hits(*urls), wanted=2, timeout=30)
        asyncio.get_running_loop().call_later(0.2, slow_writes.set)
    # the session is closed: its writes ended first
    assert asyncio.all_tasks() == {asyncio.current_task()}
    async with Ferret(home=tmp_path) as later:
        for hit in verified.kept:
            assert hit.handle is not None and await later.stored(hit.handle) is not None


async def test_a_search_reads_the_store_only_once_earlier_writes_are_done(
    tmp_path: Path, simweb: SimWeb, slow_writes: threading.Event
) -> None:
    """A second search of the same pages in the session finds them stored (it waited for the first
    one's writes), so it reads none of them again."""
    from webferret.search.verify import verify_hits

    urls = pages(simweb, "zeta", "eta")
    async with ferret(tmp_path) as f:
        await verify_hits(f, hits(*urls), wanted=2, timeout=30)
        assert simweb.served("/zeta", "/eta") == 2
        asyncio.get_running_loop().call_later(0.2, slow_writes.set)
        again = await verify_hits(f, hits(*urls), wanted=2, timeout=30)
        assert [hit.url for hit in again.kept] == urls and simweb.served("/zeta", "/eta") == 2


async def test_a_search_of_other_pages_does_not_wait_for_earlier_writes(
    tmp_path: Path, simweb: SimWeb, slow_writes: threading.Event
) -> None:
    """Only a look-up of a page being written waits for its write: a search of other pages is
    answered while the first search's writes are still held (they would hold it for 10 s)."""
    from webferret.search.verify import verify_hits

    first, other = pages(simweb, "iota"), pages(simweb, "kappa", "lambda")
    async with ferret(tmp_path) as f:
        await verify_hits(f, hits(*first), wanted=1, timeout=30)
        held = set(f._session._work)
        verified = await asyncio.wait_for(verify_hits(f, hits(*other), wanted=2, timeout=30), 5)
        assert [hit.url for hit in verified.kept] == other
        assert not all(write.done() for write in held)  # the first search's write is still held
        slow_writes.set()


async def test_a_store_write_that_fails_after_the_answer_is_logged(
    tmp_path: Path, simweb: SimWeb, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from webferret.search.verify import verify_hits

    def broken(self: PageStore, *args: Any, **kwargs: Any) -> Any:
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(PageStore, "put", broken)
    urls = pages(simweb, "theta")
    with caplog.at_level(logging.WARNING, logger="webferret"):
        async with ferret(tmp_path) as f:
            verified = await verify_hits(f, hits(*urls), wanted=1, timeout=30)
            assert verified.kept[0].handle is not None
    assert "the page store did not keep this page: disk I/O error" in caplog.text
