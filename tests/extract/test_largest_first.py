"""Waiting pages reach the extraction workers largest first; a cancelled job never keeps a turn."""

from __future__ import annotations

import asyncio

from webferret.extract.largest_first import LargestFirst
from webferret.extract.pool import Extractor
from webferret.extract.types import ExtractOptions
from webferret.fetch.types import RawResponse


async def _job(turns: LargestFirst, size: int, started: list[int], release: asyncio.Event) -> None:
    await turns.turn(size, capacity=1)
    started.append(size)
    try:
        await release.wait()
    finally:
        turns.done(capacity=1)


async def test_the_largest_waiting_job_goes_next() -> None:
    turns, started, release = LargestFirst(), [], asyncio.Event()
    first = asyncio.create_task(_job(turns, 5, started, release))
    await asyncio.sleep(0)
    waiting = [asyncio.create_task(_job(turns, size, started, release)) for size in (10, 300, 50, 300)]
    await asyncio.sleep(0)
    assert started == [5] and turns.running == 1  # the first runs at once, the others wait
    release.set()
    await asyncio.gather(first, *waiting)
    assert started == [5, 300, 300, 50, 10]
    assert turns.running == 0


async def test_a_cancelled_job_gives_its_turn_away() -> None:
    turns, started, release = LargestFirst(), [], asyncio.Event()
    first = asyncio.create_task(_job(turns, 1, started, release))
    await asyncio.sleep(0)
    doomed = asyncio.create_task(_job(turns, 900, started, release))
    later = asyncio.create_task(_job(turns, 2, started, release))
    await asyncio.sleep(0)
    doomed.cancel()  # cancelled while it waits
    release.set()
    await asyncio.gather(first, later)
    assert started == [1, 2] and doomed.cancelled()
    assert turns.running == 0

    # handed its turn at the moment it is cancelled: the turn passes on
    handed = LargestFirst()
    handed.running = 1
    task = asyncio.create_task(handed.turn(10, capacity=1))
    await asyncio.sleep(0)
    handed.done(capacity=1)  # the turn goes to `task`, which has not resumed yet
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    assert handed.running == 0


def _page(n: int, size: int) -> RawResponse:
    body = f"<html><body><p>Page {n}. {'word ' * 40}</p><!--{'x' * size}--></body></html>".encode()
    url = f"https://ex.org/{n}"
    return RawResponse(url=url, final_url=url, status=200, headers={"content-type": "text/html"}, body=body)


async def test_an_extractor_with_one_worker_extracts_the_largest_waiting_page_first() -> None:
    extractor = Extractor(workers=1, fork=False)
    done: list[int] = []

    async def one(n: int, size: int) -> None:
        await extractor.extract(_page(n, size), ExtractOptions(format="text"))
        done.append(n)

    try:
        await one(0, 0)  # the extractor imported, so the next calls only wait for each other
        sizes = ((1, 10), (2, 50), (3, 5_000), (4, 20_000))
        await asyncio.gather(*(asyncio.create_task(one(n, size)) for n, size in sizes))
    finally:
        extractor.close()
    # page 1 came first to the idle worker and page 2 waits at hand in its queue (a single worker gets
    # one page ahead); of the pages that waited for their turn, the largest went first
    assert done == [0, 1, 2, 4, 3]
