"""One page read under two URLs (a redirect's start and its end) is one stored document, one handle.

Ferret against the simulated web on 127.0.0.1: `/redirect/0` answers 302 to `/article`.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from simweb import SimWeb

from webferret.ferret import Ferret
from webferret.fetch.types import RawResponse
from webferret.models import Page
from webferret.store.handles import handle_for
from webferret.store.pages import STORE_FILE, PageStore


@pytest.fixture
async def ferret(tmp_path: Path) -> AsyncIterator[Ferret]:
    async with Ferret(home=tmp_path, allow_hosts=["127.0.0.1"]) as session:
        yield session


def _rows(home: Path) -> tuple[int, int]:
    """(rows in the pages table, passages) of the store in `home`."""
    conn = sqlite3.connect(home / STORE_FILE)
    try:
        pages = conn.execute("SELECT count(*) FROM pages").fetchone()[0]
        chunks = conn.execute("SELECT count(*) FROM chunks").fetchone()[0]
        return pages, chunks
    finally:
        conn.close()


async def _one_page_once(ferret: Ferret, pages: list[Page]) -> str:
    """Both answers carry one handle, the store holds one copy, and each URL opens it."""
    start, end = pages
    assert start.ok and end.ok and start.final_url == end.url
    assert start.handle is not None and start.handle == end.handle
    await ferret._written()
    rows, chunks = _rows(ferret.settings.home)
    assert rows == 1 and chunks > 0
    for name in (start.handle, start.url, end.url):
        assert (await ferret.open(name)).handle == start.handle
    passages = await ferret.find("ferret")
    assert passages and {p.handle for p in passages} == {start.handle}
    assert ferret.store.stats().passages == chunks
    return start.handle


async def test_a_redirect_and_its_end_read_at_once_are_stored_once(simweb: SimWeb, ferret: Ferret) -> None:
    pages = await ferret.fetch_many([simweb.url("/redirect/0"), simweb.url("/article")])
    await _one_page_once(ferret, pages)


async def test_a_redirect_read_after_its_end_joins_the_stored_page(simweb: SimWeb, ferret: Ferret) -> None:
    end = await ferret.fetch(simweb.url("/article"))
    start = await ferret.fetch(simweb.url("/redirect/0"))
    handle = await _one_page_once(ferret, [start, end])
    again = await ferret.fetch(simweb.url("/redirect/0"))  # now known: from the store, same handle
    assert again.fetched_via == "store" and again.handle == handle and again.url == start.url


async def test_a_searchs_writes_of_one_page_under_two_urls_join(simweb: SimWeb, ferret: Ferret) -> None:
    """A search's verification answers before its writes end (`keep_later`): the two answers still
    carry one handle, and the store still keeps one copy."""
    opts, xopts = ferret.fetch_options(), ferret.extract_options()
    deadline = time.monotonic() + 30

    async def verified(url: str) -> Page:
        raw = await ferret.fetch_response(url, opts, xopts, deadline)
        assert isinstance(raw, RawResponse)
        return await ferret.finish_page(raw, opts, xopts, deadline, keep_later=True)

    pages = await asyncio.gather(verified(simweb.url("/redirect/0")), verified(simweb.url("/article")))
    await _one_page_once(ferret, list(pages))


async def test_a_redirects_look_up_waits_for_the_write_of_the_page_it_ended_at(
    simweb: SimWeb, tmp_path: Path
) -> None:
    """`/redirect/0` is stored (stale) as a redirect to `/article`; `/article` is read again and its
    write is still pending when `/redirect/0` is asked: the look-up waits for that write and answers
    the fresh copy from the store, with no request."""
    start = simweb.own("/one/start", "/redirect/0")
    old = Page(
        url=start, final_url=simweb.url("/article"), ok=True, status=200,
        content="# Article\n\nAn older ferret article.", fetched_via="http",
        fetched_at=datetime.now(UTC) - timedelta(hours=5),
    )  # fmt: skip
    store = PageStore.in_home(tmp_path)
    store.put(old)
    store.close()
    async with Ferret(home=tmp_path, allow_hosts=["127.0.0.1"], fresh_seconds=600) as ferret:
        opts, xopts = ferret.fetch_options(), ferret.extract_options()
        deadline = time.monotonic() + 30
        raw = await ferret.fetch_response(simweb.url("/article"), opts, xopts, deadline, fresh=True)
        assert isinstance(raw, RawResponse)
        holder = sqlite3.connect(tmp_path / STORE_FILE, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")  # another writer holds the store: the write stays pending
        try:
            written = await ferret.finish_page(raw, opts, xopts, deadline, keep_later=True)
            asked = asyncio.create_task(ferret.fetch(start))
            await asyncio.sleep(0.3)
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        page = await asked
        assert simweb.served("/one/start") == 0
        assert page.ok and page.fetched_via == "store" and page.content == written.content
        assert page.url == start
        assert (await ferret.open(written.handle or "")).handle == page.handle


async def test_a_url_with_tracking_parameters_is_the_page_without_them(
    simweb: SimWeb, ferret: Ferret
) -> None:
    """`utm_*`, `fbclid` and the like never change the page (as the search's canonicalization has
    it): read at once with and without them, one page is stored once, under one handle."""
    tracked, plain = simweb.url("/article?utm_source=feed&fbclid=x1"), simweb.url("/article")
    pages = await ferret.fetch_many([tracked, plain])
    assert pages[0].handle is not None and pages[0].handle == pages[1].handle
    assert [page.url for page in pages] == [tracked, plain]
    await ferret._written()
    assert _rows(ferret.settings.home)[0] == 1
    again = await ferret.fetch(simweb.url("/article?utm_medium=mail"))
    assert again.fetched_via == "store" and again.handle == pages[0].handle


def test_a_session_remembers_a_bounded_number_of_page_handles(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import webferret.store.session as session_module

    monkeypatch.setattr(session_module, "DOCUMENTS_REMEMBERED", 3)
    ferret = Ferret(home=tmp_path)
    for n in range(5):
        assert ferret._session.remember(f"page{n}", f"handle{n}", replace=False) == f"handle{n}"
    assert list(ferret._session.documents) == ["page2", "page3", "page4"]  # the oldest went first
    assert ferret._session.remember("page4", "other", replace=False) == "handle4"  # known: kept
    assert ferret._session.remember("page4", "other", replace=True) == "other"
    assert len(ferret._session.documents) == 3


async def test_a_redirect_that_now_ends_at_another_page_leaves_the_first_as_it_was(
    simweb: SimWeb, ferret: Ferret
) -> None:
    """`/latest` redirected to `/v1`, now to `/v2`: `/v2`'s text was stored as a version of `/v1`'s
    document, so `/v1` (fetched from the store, opened, searched) answered `/v2`'s text."""
    v1 = simweb.add(
        "/v1", "<html><head><title>One</title></head><body><p>Wombats dig release one.</p></body></html>"
    )
    v2 = simweb.add(
        "/v2", "<html><head><title>Two</title></head><body><p>Quokkas hop release two.</p></body></html>"
    )
    simweb.add("/latest", status=302, headers={"Location": "/v1"})
    first = await ferret.fetch(simweb.url("/latest"))
    simweb.add("/latest", status=302, headers={"Location": "/v2"})
    second = await ferret.fetch(simweb.url("/latest"), fresh=True)
    assert first.final_url == v1 and second.final_url == v2 and "Quokkas" in second.content
    assert second.handle != first.handle
    old = await ferret.fetch(v1)
    assert old.fetched_via == "store" and "Wombats" in old.content and old.handle == first.handle
    assert "Wombats" in (await ferret.open(v1)).content
    assert "Quokkas" in (await ferret.open(simweb.url("/latest"))).content  # the redirect's handle moved
    assert [p.handle for p in await ferret.find("wombats")] == [first.handle]


async def test_a_redirect_now_ending_at_a_copy_of_its_first_page_loses_neither(
    simweb: SimWeb, ferret: Ferret
) -> None:
    """`/latest` ends at `/v2`, a page with `/v1`'s very text: `/v2` is a document of its own, and
    `/v1`, answered stored before, is still stored (its row was not taken over by `/v2`'s)."""
    same = "<html><head><title>Same</title></head><body><p>Wombats dig the same release.</p></body></html>"
    v1, v2 = simweb.add("/v1", same), simweb.add("/v2", same)
    simweb.add("/latest", status=302, headers={"Location": "/v1"})
    first = await ferret.fetch(simweb.url("/latest"))
    simweb.add("/latest", status=302, headers={"Location": "/v2"})
    second = await ferret.fetch(simweb.url("/latest"), fresh=True)
    assert first.handle and second.handle and first.handle != second.handle
    for url, handle in ((v1, first.handle), (v2, second.handle)):
        opened = await ferret.open(url)
        assert opened.handle == handle and "Wombats" in opened.content


async def test_a_redirect_an_older_webferret_stored_under_its_start_moves_on_too(
    simweb: SimWeb, tmp_path: Path
) -> None:
    """An older webferret stored `/latest` (ending at `/v1`) under `/latest`'s own handle, no alias:
    read again, ending at `/v2`, it still must not make `/v2` a version of `/v1`'s text."""
    v1 = simweb.add("/v1", "<html><body><p>Wombats dig release one.</p></body></html>")
    simweb.add(
        "/v2", "<html><head><title>Two</title></head><body><p>Quokkas hop release two.</p></body></html>"
    )
    simweb.add("/latest", status=302, headers={"Location": "/v2"})
    latest = simweb.url("/latest")
    old = Page(url=latest, final_url=v1, ok=True, status=200, content="# One\n\nWombats dig release one.",
               fetched_via="http", fetched_at=datetime.now(UTC) - timedelta(hours=5))  # fmt: skip
    store = PageStore.in_home(tmp_path)
    own = store.put(old).handle
    store._conn.execute("UPDATE pages SET handle = ?1, document = ?1", (handle_for(latest),))
    store._conn.execute("DELETE FROM aliases")
    store.close()
    async with Ferret(home=tmp_path, allow_hosts=["127.0.0.1"]) as ferret:
        assert "Wombats" in (await ferret.open(v1)).content and own != handle_for(latest)
        second = await ferret.fetch(latest, fresh=True)
        assert "Quokkas" in second.content
        assert "Wombats" in (await ferret.open(v1)).content
        assert "Quokkas" in (await ferret.open(latest)).content


async def test_urls_that_redirected_to_one_page_and_now_answer_themselves_are_pages_of_their_own(
    simweb: SimWeb, ferret: Ferret
) -> None:
    """`/a` and `/b` redirected to `/maintenance` for a while, then answered their own pages: each
    was stored as a version of the maintenance page's document, so `/a` opened (and, fetched from
    the store, answered) `/b`'s text, and so did `/maintenance`."""
    page = "<html><head><title>{0}</title></head><body><p>{0} {1} {1} {1}.</p></body></html>"
    maintenance = simweb.add("/maintenance", page.format("Down", "Scaffolding"))
    a, b = simweb.url("/a"), simweb.url("/b")
    for path in ("/a", "/b"):
        simweb.add(path, status=302, headers={"Location": "/maintenance"})
    during = await ferret.fetch_many([a, b])
    assert all(p.final_url == maintenance and "Scaffolding" in p.content for p in during)
    simweb.add("/a", page.format("Aardvarks", "aardvarks"))
    simweb.add("/b", page.format("Bumblebees", "bumblebees"))
    after = await ferret.fetch_many([a, b], fresh=True)
    assert [p.final_url for p in after] == [a, b]
    assert len({p.handle for p in after} | {during[0].handle}) == 3
    assert "Aardvarks" in (await ferret.open(a)).content
    assert "Bumblebees" in (await ferret.open(b)).content
    assert "Scaffolding" in (await ferret.open(maintenance)).content
    stored = await ferret.fetch(a)
    assert stored.fetched_via == "store" and "Aardvarks" in stored.content
    assert [p.handle for p in await ferret.find("aardvarks")] == [after[0].handle]
