"""The worker pool: a lone page in a thread, a batch across processes, errors as values."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from child import run_python
from simweb import wait_for

from webferret.cli import main
from webferret.extract.pool import (
    PROCESS_MIN_PAGES,
    Extractor,
    adopt_preforked,
    can_fork_now,
    prefork,
    worker_count,
)
from webferret.extract.types import ExtractOptions
from webferret.fetch.types import RawResponse
from webferret.models import ErrorCode, FerretError

HTML = "<html><head><title>Page {n}</title></head><body><article><p>{text}</p></article></body></html>"


def raw(n: int, padding: int = 0) -> RawResponse:
    body = HTML.format(n=n, text=f"Paragraph number {n} of the batch. " * 20).encode()
    body += b"<!--" + b"x" * padding + b"-->"  # bytes that cost the parser next to nothing
    url = f"https://ex.org/{n}"
    return RawResponse(url=url, final_url=url, status=200, headers={"content-type": "text/html"}, body=body)


async def test_big_batch_runs_in_processes_and_keeps_order() -> None:
    extractor = Extractor(workers=2)
    try:
        small = await asyncio.gather(*(extractor.extract(raw(n), ExtractOptions()) for n in range(3)))
        assert [page.title for page in small] == [f"Page {n}" for n in range(3)]
        assert extractor._processes is None  # a few pages stay on threads
        extractor.expect(PROCESS_MIN_PAGES)  # a big batch starts the pool in the background
        assert extractor._processes is not None and extractor._pool_ready is not None
        await asyncio.wrap_future(extractor._pool_ready)
        assert extractor._executor() is extractor._processes
        big = [raw(n, padding=400_000) for n in range(3)]
        pages = await asyncio.gather(*(extractor.extract(page, ExtractOptions()) for page in big))
        assert [page.title for page in pages] == [f"Page {n}" for n in range(3)]
    finally:
        extractor.close()


SLOW = b"<html><body><article>" + b"<div><p>Ferrets explore tunnels.</p><span>x</span></div>" * 40_000
"""A page whose extraction takes many seconds of CPU (16 s on the machine this was written on)."""


def slow_page() -> RawResponse:
    return RawResponse("https://ex.org/slow", "https://ex.org/slow", 200, {"content-type": "text/html"}, SLOW)


async def test_a_page_given_up_on_does_not_keep_a_worker_from_the_next_pages() -> None:
    """A page whose call gave up on it (its budget ran out, `wait_for`) kept its worker process
    extracting for as long as it took (this one: many seconds), and every later page of the session waited
    behind it, answered `timeout` however small. The pool on it is ended at once."""
    page = slow_page()
    extractor = Extractor(workers=2)
    try:
        extractor.expect(PROCESS_MIN_PAGES)
        assert extractor._processes is not None and extractor._pool_ready is not None
        await asyncio.wrap_future(extractor._pool_ready)
        workers = list(extractor._processes._processes.values())  # type: ignore[attr-defined]
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(extractor.extract(page, ExtractOptions()), 1.0)
        assert wait_for(lambda: not any(worker.is_alive() for worker in workers), 10)
        after = await extractor.extract(raw(1), ExtractOptions())
        assert after.title == "Page 1"
    finally:
        extractor.close()


async def test_after_a_page_given_up_on_the_next_pages_go_to_processes_that_can_be_ended() -> None:
    """After a page was given up on, the session's next pages went to threads, which nothing stops:
    a second hostile page held the CPU and the GIL for good, and every later page of a library
    session (or a server) was a `timeout`. The next page starts a pool of processes in place of the
    one ended, so a second such page is ended too; nothing is started as the page is given up on."""
    extractor = Extractor(workers=2)
    try:
        extractor.expect(PROCESS_MIN_PAGES)
        assert extractor._pool_ready is not None
        await asyncio.wrap_future(extractor._pool_ready)
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(extractor.extract(slow_page(), ExtractOptions()), 1.0)
        assert extractor._processes is None  # ended, and none started in its place yet
        after = await extractor.extract(raw(1), ExtractOptions())
        assert after.title == "Page 1" and extractor._processes is not None
        assert extractor._executor() is extractor._processes
        workers = list(extractor._processes._processes.values())  # type: ignore[attr-defined]
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(extractor.extract(slow_page(), ExtractOptions()), 1.0)
        assert wait_for(lambda: not any(worker.is_alive() for worker in workers), 10)
        again = await extractor.extract(raw(2), ExtractOptions())
        assert again.title == "Page 2" and extractor._executor() is extractor._processes
    finally:
        extractor.close()


async def test_after_a_worker_died_the_next_pages_go_to_a_pool_in_its_place() -> None:
    """A worker killed (out of memory, a crash) broke its pool, which was kept: every later page of
    the session was sent to it, refused, and extracted in a thread, which nothing stops (a hostile
    page there held the CPU and the GIL for good). The next page starts a pool in its place."""
    extractor = Extractor(workers=2)
    try:
        extractor.expect(PROCESS_MIN_PAGES)
        assert extractor._processes is not None and extractor._pool_ready is not None
        await asyncio.wrap_future(extractor._pool_ready)
        broken = extractor._processes
        os.kill(next(iter(broken._processes)), signal.SIGKILL)  # type: ignore[attr-defined]
        assert wait_for(lambda: broken._broken, 10)  # type: ignore[attr-defined]
        first = await extractor.extract(raw(1), ExtractOptions())  # refused by the broken pool: a thread
        assert first.title == "Page 1"
        second = await extractor.extract(raw(2), ExtractOptions())
        assert second.title == "Page 2"
        assert extractor._processes is not None and extractor._processes is not broken
        assert extractor._pool_ready is not None
        await asyncio.wrap_future(extractor._pool_ready)
        assert extractor._executor() is extractor._processes
        third = await extractor.extract(raw(3), ExtractOptions())
        assert third.title == "Page 3"
    finally:
        extractor.close()


GIVEN_UP_IN_A_THREAD = """
import asyncio, os, sys
from webferret.extract.pool import Extractor
from webferret.extract.types import ExtractOptions
from webferret.fetch.types import RawResponse

def page(body):
    return RawResponse("https://ex.org/", "https://ex.org/", 200, {"content-type": "text/html"}, body)

async def main():
    extractor = Extractor(workers=2, fork=False)
    try:
        await asyncio.wait_for(extractor.extract(page(open(sys.argv[1], "rb").read()), ExtractOptions()), 0.5)
    except TimeoutError:
        pass
    small = page(b"<html><body><article><p>Ferrets sleep a lot.</p></article></body></html>")
    following = asyncio.create_task(extractor.extract(small, ExtractOptions()))
    while extractor._processes is None and not following.done():
        await asyncio.sleep(0)
    print("replacement", extractor._processes is not None, flush=True)
    extractor.close()  # at once, while its workers start: none may outlive the program

asyncio.run(main())
os._exit(0)  # the thread still on the slow page cannot be stopped: the program ends without it
"""


def test_a_page_given_up_in_a_thread_sends_the_next_to_processes_that_end_with_the_program(
    tmp_path: Path,
) -> None:
    """A page given up on in a thread (no pool yet) sends the next pages to processes too. A pool
    being started as the program ends must not outlive it: a worker left waiting for work held the
    program's stdout, so a reader of its output (`| tail`) waited for ever."""
    (tmp_path / "slow.html").write_bytes(SLOW)
    argv = [sys.executable, "-c", GIVEN_UP_IN_A_THREAD, str(tmp_path / "slow.html")]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["replacement", "True"]


async def test_single_page_uses_a_thread_and_errors_come_back_as_ferret_errors() -> None:
    extractor = Extractor(workers=2)
    try:
        page = await extractor.extract(raw(1), ExtractOptions(format="text"))
        assert page.format == "text" and "Paragraph number 1" in page.content
        assert extractor._processes is None
        png = RawResponse(
            url="u",
            final_url="https://ex.org/p.png",
            status=200,
            headers={},
            body=b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
        )
        with pytest.raises(FerretError) as caught:
            await extractor.extract(png, ExtractOptions())
        assert caught.value.code == ErrorCode.UNSUPPORTED_CONTENT
    finally:
        extractor.close()


async def test_the_worker_counts_the_tokens_of_what_it_extracted() -> None:
    from webferret.tokens import estimate_tokens

    extractor = Extractor(workers=2)
    try:
        page = await extractor.extract(raw(7), ExtractOptions())
    finally:
        extractor.close()
    assert page.content and page.tokens == estimate_tokens(page.content)


def test_worker_count_leaves_a_core_to_the_caller() -> None:
    assert [worker_count(cores, 10) for cores in (1, 2, 4, 8)] == [1, 1, 3, 7]
    assert worker_count(8, 2) == 2  # never more workers than pages


def test_worker_count_without_a_spare_core_uses_every_core() -> None:
    assert [worker_count(cores, 10, spare_core=False) for cores in (1, 2, 4, 8)] == [1, 2, 4, 8]
    assert worker_count(8, 3, spare_core=False) == 3


FORKED_WORKERS = """
import os, time
from webferret.extract.pool import ForkedWorkers
base = os.getpriority(os.PRIO_PROCESS, 0)
workers = ForkedWorkers(2, stagger={stagger})
deadline = time.monotonic() + 60
while workers.ready() < 2 and time.monotonic() < deadline:
    time.sleep(0.05)
nice = {workers.pool.submit(os.getpriority, os.PRIO_PROCESS, 0).result() for _ in range(8)}
workers.shutdown(used=True)
print(workers.ready(), base, sorted(nice))
"""


@pytest.mark.parametrize("stagger", [True, False])
def test_forked_workers_report_ready_and_run_niced(stagger: bool) -> None:
    """Both workers import the extractor and say so; they extract niced (the later one may stay at
    the lower priority it imported at, where lowering the niceness again is not allowed)."""
    code = FORKED_WORKERS.replace("{stagger}", str(stagger))
    done = run_python(code, 120)
    assert done.returncode == 0, done.stderr
    ready, base, nice = done.stdout.split(" ", 2)
    assert ready == "2"
    expected = {5, 19} if stagger else {5}  # above the program's own niceness, never past 19
    assert set(eval(nice)) <= {min(int(base) + step, 19) for step in expected}  # our subprocess's list


STOPLIST_WORKER = """
import time
from webferret.extract.pool import ForkedWorkers

def built():
    from trafilatura import external
    return bool(getattr(external, "JT_STOPLIST", None))

def extract_short():  # trafilatura finds little text on it: justext's rescue reads the stoplist
    from webferret.extract.document import extract_document
    from webferret.extract.types import ExtractOptions
    html = b"<html><body><div><span>Ferrets sleep a lot and play hard.</span></div></body></html>"
    page = extract_document(html, url="https://ex.org/", content_type="text/html", options=ExtractOptions())
    return page.content.strip(), built()

workers = ForkedWorkers(1, stoplists={stoplists})
deadline = time.monotonic() + 60
while workers.ready() < 1 and time.monotonic() < deadline:
    time.sleep(0.05)
before = workers.pool.submit(built).result()
text, after = workers.pool.submit(extract_short).result()
workers.shutdown(used=True)
print(before, after, text)
"""


@pytest.mark.parametrize("stoplists", [True, False])
def test_a_worker_builds_the_stoplist_at_start_or_when_a_page_needs_it(stoplists: bool) -> None:
    """A search's workers build justext's stoplist while they wait; a fetch's leave it to the first
    page whose rescue reads it, which extracts the same either way."""
    code = STOPLIST_WORKER.replace("{stoplists}", str(stoplists))
    done = run_python(code, 120)
    assert done.returncode == 0, done.stderr
    before, after, text = done.stdout.strip().split(" ", 2)
    assert before == str(stoplists) and after == "True"
    assert text == "Ferrets sleep a lot and play hard."


async def test_warm_forks_workers_while_single_threaded_and_they_extract() -> None:
    extractor = Extractor(workers=2)
    try:
        forkable = can_fork_now()
        extractor.warm(4)
        assert (extractor._forked is not None) == forkable
        assert (extractor._warmed is None) == forkable  # else the extractor warms in a thread
        pages = await asyncio.gather(*(extractor.extract(raw(n), ExtractOptions()) for n in range(4)))
        assert [page.title for page in pages] == [f"Page {n}" for n in range(4)]
    finally:
        extractor.close()


async def test_a_preforked_pool_is_adopted_by_one_extractor() -> None:
    forkable = can_fork_now()
    prefork(2)
    first, second = Extractor(workers=2), Extractor(workers=2)
    try:
        first.warm(2)
        assert (first._forked is not None) == forkable  # it took the forked pool
        assert adopt_preforked() is None
        second.warm(2, threads=False)  # threads run now: no second fork, and no thread warm-up
        assert second._forked is None and second._warmed is None
    finally:
        first.close()
        second.close()


def test_preforked_workers_end_with_a_program_that_stops_early() -> None:
    """The program ends at once (`os._exit`, as the CLI does) without using its workers: they must not
    outlive it holding its stdout/stderr, or a reader of its output would wait for ever."""
    code = "import os\nfrom webferret.extract.pool import prefork\nprefork(4)\nos._exit(3)\n"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=60)  # EOF needed
    assert done.returncode == 3


def test_a_command_that_fails_before_fetching_releases_its_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WEBFERRET_TIMEOUT", "soon")
    assert main(["fetch", "http://127.0.0.1:9/"]) == 2
    assert adopt_preforked() is None


async def test_a_page_waiting_for_a_closed_extractor_fails_and_its_caller_goes_on() -> None:
    """`close` (a Ferret's `aclose` under a call) cancelled the jobs still waiting for a worker, and
    the task awaiting one was raised `CancelledError` though nobody cancelled it: a batch or a crawl
    under way ended in a CancelledError in place of its answer."""
    import threading

    extractor = Extractor(workers=1, fork=False)
    started, gate = threading.Event(), threading.Event()
    extractor._threads.submit(lambda: (started.set(), gate.wait()))  # its one thread busy
    started.wait()
    waiting = asyncio.create_task(extractor.extract(raw(1), ExtractOptions()))
    while not extractor._threads._work_queue.qsize():  # the page's job queued behind the busy thread
        await asyncio.sleep(0)
    extractor.close()
    gate.set()
    with pytest.raises(FerretError) as caught:
        await waiting
    assert caught.value.code == ErrorCode.INVALID_ARGUMENT and "closed" in caught.value.message
