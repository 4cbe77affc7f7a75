"""Runs extraction off the event loop: in a thread for a page or two, in a process pool for batches.

Extraction is CPU-bound Python (lxml, trafilatura, the renderer), so threads only help one page at a
time. When several pages and at least `PROCESS_MIN_BYTES` of them are being extracted at once, they go
to worker processes (one per core). The pool starts on that first need (about a second, paid once
per `Extractor`), so a lone page or a handful of small ones never pays it.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from webferret.extract.types import Extracted, ExtractOptions
from webferret.fetch.types import RawResponse
from webferret.models import ErrorCode, ErrorInfo, FerretError

Outcome = tuple[Extracted | None, ErrorInfo | None]
PROCESS_MIN_BYTES = 1024 * 1024


def run_extraction(
    body: bytes, url: str | None, content_type: str | None, options: ExtractOptions
) -> Outcome:
    """Extract in whichever worker; errors come back as values (they cross process boundaries)."""
    from webferret.extract.document import extract_document

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


def _import_extractor() -> None:
    import webferret.extract.document  # noqa: F401


class Extractor:
    """Extraction in worker pools, so a batch never blocks the event loop and uses every core."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers or os.cpu_count() or 1
        self._threads = ThreadPoolExecutor(max_workers=self.workers, thread_name_prefix="webferret-extract")
        self._processes: ProcessPoolExecutor | None = None
        self._in_flight = 0
        self._bytes_in_flight = 0

    def _executor(self) -> Executor:
        """Threads for a page or two; processes once a batch is big enough (and there are cores)."""
        batch = self._in_flight > 1 and self._bytes_in_flight >= PROCESS_MIN_BYTES
        if not batch or self.workers <= 1:
            return self._threads
        if self._processes is None:
            context = multiprocessing.get_context("forkserver" if os.name == "posix" else "spawn")
            if os.name == "posix":  # the server imports the extractor once; workers fork from it
                context.set_forkserver_preload(["webferret.extract.document", "webferret.extract.htmlpage"])
            self._processes = ProcessPoolExecutor(max_workers=self.workers, mp_context=context)
        return self._processes

    def warm(self) -> None:
        """Import the extractor in a worker thread now, while the pages are still on the wire."""
        self._threads.submit(_import_extractor)

    async def extract(self, raw: RawResponse, options: ExtractOptions) -> Extracted:
        """Extract one response; raises `FerretError` (with a code) when it cannot be read."""
        loop = asyncio.get_running_loop()
        args = (raw.body, raw.final_url, raw.content_type, options)
        self._in_flight += 1
        self._bytes_in_flight += len(raw.body)
        try:
            try:
                extracted, error = await loop.run_in_executor(self._executor(), run_extraction, *args)
            except BrokenProcessPool:
                extracted, error = await loop.run_in_executor(self._threads, run_extraction, *args)
        finally:
            self._in_flight -= 1
            self._bytes_in_flight -= len(raw.body)
        if error is not None:
            raise FerretError(error.code, error.message)
        assert extracted is not None
        return extracted

    def close(self) -> None:
        self._threads.shutdown(wait=False, cancel_futures=True)
        if self._processes is not None:
            self._processes.shutdown(wait=True, cancel_futures=True)
            self._processes = None
