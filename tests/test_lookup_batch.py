"""Store look-ups asked in one loop turn go to the store in one call (`webferret.store.batching`)."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path

import pytest

from webferret.ferret import Ferret
from webferret.models import Page
from webferret.store.batching import LookupBatch
from webferret.store.pages import PageStore


class Recorder:
    def __init__(self, fail: bool = False) -> None:
        self.calls: list[list[str]] = []
        self.threads: set[int] = set()
        self.fail = fail

    def __call__(self, keys: Sequence[str]) -> list[str]:
        self.calls.append(list(keys))
        self.threads.add(threading.get_ident())
        if self.fail:
            raise sqlite3.OperationalError("disk I/O error")
        return [key.upper() for key in keys]


async def test_one_turn_is_one_call_answered_in_order() -> None:
    many = Recorder()
    batch = LookupBatch(many)
    answers = await asyncio.gather(*(batch.get(key) for key in ["a", "b", "c", "a"]))
    assert answers == ["A", "B", "C", "A"]
    assert many.calls == [["a", "b", "c"]]  # a key asked twice is looked up once
    assert threading.get_ident() not in many.threads  # off the event loop


async def test_later_turns_are_later_calls() -> None:
    many = Recorder()
    batch = LookupBatch(many)
    assert await batch.get("x") == "X"
    assert await asyncio.gather(batch.get("y"), batch.get("z")) == ["Y", "Z"]
    assert many.calls == [["x"], ["y", "z"]]


async def test_an_error_reaches_every_waiter() -> None:
    batch = LookupBatch(Recorder(fail=True))
    results = await asyncio.gather(batch.get("a"), batch.get("b"), return_exceptions=True)
    assert all(isinstance(result, sqlite3.OperationalError) for result in results)


async def test_a_cancelled_waiter_leaves_the_others_their_answer() -> None:
    many = Recorder()
    batch = LookupBatch(many)
    first = asyncio.ensure_future(batch.get("k"))
    second = asyncio.ensure_future(batch.get("k"))
    await asyncio.sleep(0)
    first.cancel()
    assert await second == "K"
    with pytest.raises(asyncio.CancelledError):
        await first


async def test_ferret_looks_up_a_batch_of_urls_in_one_store_call(tmp_path: Path) -> None:
    urls = [f"https://example.org/p{i}" for i in range(5)]
    ferret = Ferret(home=tmp_path)
    stored = ferret.store.put(Page(url=urls[1], ok=True, content="Stored text of page one. " * 20))
    calls: list[list[tuple[str, str]]] = []
    lookup_many = PageStore.lookup_many

    def counted(store: PageStore, asked: Sequence[tuple[str, str]]) -> list[object]:
        calls.append(list(asked))
        return lookup_many(store, asked)  # type: ignore[return-value]

    async with ferret:
        ferret.store.lookup_many = counted.__get__(ferret.store)  # type: ignore[method-assign]
        found = await asyncio.gather(*(ferret._session.lookup(url) for url in urls))
    assert calls == [[(url, "") for url in urls]]
    assert [page is not None for page in found] == [False, True, False, False, False]
    assert found[1] is not None and found[1].page.handle == stored.handle
