"""Runs extraction off the event loop: in a thread for a page or two, in a process pool for batches.

Extraction is CPU-bound Python (lxml, trafilatura, the renderer), so threads only help one page at a
time. A call that brings at least `PROCESS_MIN_PAGES` pages (`expect`) starts worker processes (one
per core) in the background (a forkserver that imports the extractor once, about a second of CPU on
another core): pages go to threads until the pool is up, so the event loop never waits for it. A
smaller call never starts it: on a batch of a few pages the pool would be ready about when the
threads are done, and its start would only cost CPU and memory.

`warm()` imports the extractor and loads its one-off data (the block classifier, trafilatura's
stoplists) in a worker thread: called when a request is about to leave, it runs while the process
would otherwise only wait for the network.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from webferret.extract.stoplists import memoize_stoplists, prepare_stoplists
from webferret.extract.types import Extracted, ExtractOptions
from webferret.fetch.types import RawResponse
from webferret.models import ErrorCode, ErrorInfo, FerretError

Outcome = tuple[Extracted | None, ErrorInfo | None]
PROCESS_MIN_PAGES = 24
"""A call with at least this many pages extracts them in processes once the pool is up."""
PRELOAD = ["webferret.extract.document", "webferret.extract.htmlpage", "webferret.extract.main_content"]


def run_extraction(
    body: bytes, url: str | None, content_type: str | None, options: ExtractOptions
) -> Outcome:
    """Extract in whichever worker; errors come back as values (they cross process boundaries)."""
    from webferret.extract.document import extract_document

    memoize_stoplists()
    try:
        return extract_document(body, url=url, content_type=content_type, options=options), None
    except FerretError as exc:
        return None, exc.info()
    except (RecursionError, MemoryError) as exc:
        reason = f"the document at {url or 'input'} is too deeply nested or too large to extract"
        return None, ErrorInfo(code=ErrorCode.UNSUPPORTED_CONTENT, message=f"{reason} ({type(exc).__name__})")
    except Exception as exc:
        message = f"extraction of {url or 'input'} failed: {type(exc).__name__}: {exc}"
        return None, ErrorInfo(code=ErrorCode.INTERNAL, message=message)


def prepare_extractor(stoplists: Callable[[], bool] = lambda: True) -> None:
    """Import every module an HTML page needs and load the data they read once per process.

    The stoplists (only some pages need them) are built when `stoplists()` says so at that point."""
    import webferret.extract.document
    import webferret.extract.htmlpage  # noqa: F401
    from webferret.extract.classifier import load_default

    load_default()
    memoize_stoplists()
    if stoplists():
        prepare_stoplists()


def _worker_ready() -> int:
    prepare_extractor()
    return os.getpid()


class Extractor:
    """Extraction in worker pools, so a batch never blocks the event loop and uses every core."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers or os.cpu_count() or 1
        self._threads = ThreadPoolExecutor(max_workers=self.workers, thread_name_prefix="webferret-extract")
        self._processes: ProcessPoolExecutor | None = None
        self._pool_ready: Future[None] | None = None
        self._warmed: Future[None] | None = None
        self._extracting = 0

    def warm(self) -> None:
        """Prepare the extractor in a worker thread now (once), while pages are still on the wire.

        The stoplists are built only if no page has arrived by then: once pages are being extracted,
        building data that a page may not need would only take the CPU from them."""
        if self._warmed is None:
            self._warmed = self._threads.submit(prepare_extractor, lambda: self._extracting == 0)

    def expect(self, pages: int) -> None:
        """A call is about to bring `pages` pages: a big batch starts the process pool now."""
        if pages >= PROCESS_MIN_PAGES:
            self._start_processes()

    def _start_processes(self) -> None:
        """Start the process pool in the background; `_pool_ready` is done once every worker is up."""
        if self._processes is not None or self.workers <= 1:
            return
        context = multiprocessing.get_context("forkserver" if os.name == "posix" else "spawn")
        if os.name == "posix":  # the server imports the extractor once; workers fork from it
            context.set_forkserver_preload(PRELOAD)
        pool = self._processes = ProcessPoolExecutor(max_workers=self.workers, mp_context=context)
        ready: Future[None] = Future()
        self._pool_ready = ready

        def start() -> None:
            try:
                for job in [pool.submit(_worker_ready) for _ in range(self.workers)]:
                    job.result()
                ready.set_result(None)
            except BaseException as exc:  # a pool that cannot start leaves the work to threads
                ready.set_exception(exc)

        threading.Thread(target=start, name="webferret-pool-start", daemon=True).start()

    def _executor(self) -> Executor:
        """Processes once the pool is up (started by a big batch); threads until then and otherwise."""
        ready = self._pool_ready
        if self._processes is not None and ready is not None and ready.done() and not ready.exception():
            return self._processes
        return self._threads

    async def extract(self, raw: RawResponse, options: ExtractOptions) -> Extracted:
        """Extract one response; raises `FerretError` (with a code) when it cannot be read."""
        loop = asyncio.get_running_loop()
        args = (raw.body, raw.final_url, raw.content_type, options)
        self._extracting += 1
        try:
            extracted, error = await loop.run_in_executor(self._executor(), run_extraction, *args)
        except BrokenProcessPool:
            extracted, error = await loop.run_in_executor(self._threads, run_extraction, *args)
        finally:
            self._extracting -= 1
        if error is not None:
            raise FerretError(error.code, error.message)
        assert extracted is not None
        return extracted

    def close(self) -> None:
        self._threads.shutdown(wait=False, cancel_futures=True)
        if self._processes is not None:
            self._processes.shutdown(wait=True, cancel_futures=True)
            self._processes = None
