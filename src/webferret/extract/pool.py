"""Runs extraction off the event loop: in worker processes forked at the start, else in threads.

Extraction is CPU-bound Python (lxml, trafilatura, the renderer), so threads only use one core, and
importing the extractor costs a few tenths of a second. So when a call starts (`warm(pages)`) and
this process still runs a single thread, it forks workers (`worker_count`: every core but one for a
batch, every core for a search's few pages; at most one per page): they import the extractor in
parallel with this process's own start-up and network waits, and the pages are extracted there as
they arrive. Staggered (a search from the command line, where start-up is on the clock), the first
worker imports at once and the others only with CPU time nobody else wants, so they never delay this
process or the first worker. Forking only while single-threaded means no
lock can be held by another thread at the fork; the workers ignore Ctrl-C (this process ends them).

Otherwise (threads already running, or no `fork` on this platform) extraction runs in threads and
`warm()` imports the extractor in one of them while the pages are on the wire; a call that brings
at least `PROCESS_MIN_PAGES` pages (`expect`) then starts a forkserver pool in the background,
used once it is up, so the event loop never waits for it.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import multiprocessing
import os
import select
import signal
import sys
import threading
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING

from webferret.blas import single_threaded
from webferret.extract.largest_first import LargestFirst

if TYPE_CHECKING:  # imported where used: forking must not wait for pydantic (see `prefork`)
    from webferret.extract.types import Extracted, ExtractOptions
    from webferret.fetch.types import RawResponse
    from webferret.models import ErrorInfo

Outcome = tuple["Extracted | None", "ErrorInfo | None"]
PROCESS_MIN_PAGES = 24
"""A call with at least this many pages extracts them in processes once the pool is up."""
PRELOAD = ["webferret.extract.document", "webferret.extract.htmlpage", "webferret.extract.main_content"]


def run_extraction(
    body: bytes, url: str | None, content_type: str | None, options: ExtractOptions
) -> Outcome:
    """Extract in whichever worker; errors come back as values (they cross process boundaries)."""
    from webferret.extract.document import extract_document
    from webferret.models import ErrorCode, ErrorInfo, FerretError
    from webferret.tokens import estimate_tokens

    try:
        extracted = extract_document(body, url=url, content_type=content_type, options=options)
    except FerretError as exc:
        return None, exc.info()
    except (RecursionError, MemoryError) as exc:
        reason = f"the document at {url or 'input'} is too deeply nested or too large to extract"
        return None, ErrorInfo(code=ErrorCode.UNSUPPORTED_CONTENT, message=f"{reason} ({type(exc).__name__})")
    except Exception as exc:
        message = f"extraction of {url or 'input'} failed: {type(exc).__name__}: {exc}"
        return None, ErrorInfo(code=ErrorCode.INTERNAL, message=message)
    # counted here, in the worker: a 50,000-character page takes 4 ms, which the process that
    # forked it would otherwise spend on its event loop, between a search's requests
    extracted.tokens = estimate_tokens(extracted.content)
    return extracted, None


def prepare_extractor(stoplists: Callable[[], bool] = lambda: True) -> None:
    """Import every module an HTML page needs and load the data they read once per process.

    The stoplists (only some pages need them) are built when `stoplists()` says so at that point."""
    import webferret.extract.document
    import webferret.extract.flat
    import webferret.extract.htmlpage
    import webferret.extract.trim  # noqa: F401  (with the classifier's blocks, features and selection)
    from webferret.extract import chooser
    from webferret.extract.classifier import load_default
    from webferret.extract.stoplists import memoize_stoplists, prepare_stoplists

    load_default()
    chooser.model()
    memoize_stoplists()
    if stoplists():
        prepare_stoplists()


def can_fork_now() -> bool:
    """Forking is safe here: Linux, and this process runs one thread (so no lock is held elsewhere)."""
    return sys.platform.startswith("linux") and threading.active_count() == 1


WORKER_NICENESS = 5
"""Forked workers run this much nicer than the process that forked them, so its own start-up and
network handling (the requests still to send) never wait for a worker's imports or pages."""


PR_SET_PDEATHSIG = 1  # prctl(2) option: the signal this process gets when its parent ends


def _die_with_parent(parent: int) -> None:
    """Have the kernel end this worker when the process that forked it ends, however it ends (an
    `os._exit`, a crash, SIGKILL): an orphaned worker would wait for work forever, holding the
    program's stdout and stderr open."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    if os.getppid() != parent:  # the parent ended before the line above took effect
        os._exit(0)


LATER_WORKER_NICENESS = 19
"""Staggered, every forked worker but the first imports the extractor at this niceness, so only with
CPU time nobody else wants (the program's own start-up and the first worker's imports come first),
and then extracts at `WORKER_NICENESS` where the system lets a process lower its niceness again
(root may; a user process stays at 19, which is why only short-lived commands stagger)."""


def _off_the_program_output() -> None:
    """A worker's stdout is the program's stderr and its stdin the null device: what a library prints
    while it extracts never lands in the program's answer (a `--json` envelope, `webferret mcp`'s
    JSON-RPC wire on stdout, which the MCP SDK diverts only in the server's own process, after the
    workers were forked), and a worker holds no end of the caller's pipes. (The pool flushed the
    program's streams before it forked: the worker's buffers hold nothing of the program's.)"""
    with contextlib.suppress(OSError):
        os.dup2(2, 1)
    with contextlib.suppress(OSError):
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.close(null)


def _forked_worker_start(parent: int, first: int, ready: int, stoplists: bool) -> None:
    """A forked worker's start: tied to its parent, deaf to Ctrl-C, niced, the extractor imported
    (and, with `stoplists`, justext's stoplist built: see `prefork`).

    `first` is a pipe holding a byte per worker that imports at once (one when staggered, else one
    for each); a worker that finds it empty imports only with spare CPU time. Once ready, a worker
    writes one byte to the pipe `ready`."""
    # the parent's SIGTERM handler (a running call's: `cli.common`) would only wake a loop this
    # process does not run, and the death signal below is SIGTERM: a worker forked mid-call must die
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    with contextlib.suppress(ValueError):
        signal.set_wakeup_fd(-1)  # the parent's loop's self-pipe is not this process's to write to
    _die_with_parent(parent)
    _off_the_program_output()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle; it ends the pool
    single_threaded()  # this process's own environment, before it imports numpy (`webferret.blas`)
    try:
        is_first = os.read(first, 1) == b"1"
    except OSError:  # empty: another worker took the byte
        is_first = False
    base = os.getpriority(os.PRIO_PROCESS, 0)  # the program's own niceness
    _renice(base + (WORKER_NICENESS if is_first else LATER_WORKER_NICENESS))
    prepare_extractor(lambda: stoplists)
    gc.freeze()  # its collections skip the extractor's modules and data (no collect: it is on the clock)
    gc.enable()  # off if it was forked during the program's start-up (`webferret.cli.main`)
    if not is_first:
        _renice(base + WORKER_NICENESS)
    os.write(ready, b".")


def _renice(niceness: int) -> None:
    """Set this process's niceness (raising the priority back may be refused: then it stays)."""
    with contextlib.suppress(OSError):
        os.setpriority(os.PRIO_PROCESS, 0, min(niceness, 19))


def end_now(pool: ProcessPoolExecutor) -> None:
    """End `pool` without waiting for the page a worker is on: its workers are terminated."""
    workers = list((getattr(pool, "_processes", None) or {}).values())  # the executor's own table
    pool.shutdown(wait=False, cancel_futures=True)
    for worker in workers:
        with contextlib.suppress(Exception):
            worker.terminate()


class ForkedWorkers:
    """`count` extraction workers forked now (make one only when `can_fork_now()`), as `pool`;
    `stagger` as in the module docstring, `stoplists` and `reaped` as in `prefork`."""

    def __init__(
        self, count: int, stagger: bool = False, stoplists: bool = True, reaped: bool = True
    ) -> None:
        self.count = count
        self.reaped = reaped  # `shutdown` waits for idle workers to end
        first, first_w = os.pipe()
        os.write(first_w, b"1" * (1 if stagger else count))
        os.close(first_w)
        os.set_blocking(first, False)
        self._ready, ready_w = os.pipe()
        os.set_blocking(self._ready, False)
        self._ready_count = 0
        self.pool = ProcessPoolExecutor(
            count,
            mp_context=multiprocessing.get_context("fork"),
            initializer=_forked_worker_start,
            initargs=(os.getpid(), first, ready_w, stoplists),
        )
        try:
            self.pool.submit(os.getpid)  # the workers are forked now, before the pool's own thread starts
        finally:
            os.close(first)
            os.close(ready_w)

    def ready(self) -> int:
        """How many workers have the extractor imported by now."""
        if self._ready >= 0:
            with contextlib.suppress(BlockingIOError):
                self._ready_count += len(os.read(self._ready, self.count))
        return self._ready_count

    def shutdown(self, used: bool, abandoned: bool = False) -> None:
        """End the workers. Once they extracted (`used`) and all are ready, they are idle and end at
        once: wait, so they are reaped (and counted in this process's resource use). Else they are
        ended now, not waited for: a worker still importing, or one still on a page nobody waits for
        (`abandoned`). Left to end on its own, a worker still importing held up the program's exit
        (the interpreter waits for the pool's thread, which waits for it), and for ever in a
        `multiprocessing` child, whose exit closes the pool's queue before that thread sends the
        workers their last message."""
        if not abandoned and self.reaped and used and self.ready() >= self.count:
            self.pool.shutdown(wait=True, cancel_futures=True)
        else:
            end_now(self.pool)
        if self._ready >= 0:
            os.close(self._ready)
            self._ready = -1


_preforked: list[ForkedWorkers] = []


def prefork(
    pages: int, spare_core: bool = True, stagger: bool = False, stoplists: bool = True, reaped: bool = True
) -> None:
    """At a program's start: fork the workers (`worker_count`) for the first `Extractor` to adopt.

    The workers then import the extractor in parallel with the program's own imports and start-up,
    not after them. Does nothing when forking is not safe (see `can_fork_now`) or already done.
    `stoplists`: each worker also builds justext's all-language stoplist before it takes a page (about
    70 ms), which only pages where trafilatura finds little text need; a command whose workers wait for
    the network anyway (a search's engines) builds it then, a fetch of a page or two leaves it to the
    first page that needs it (a local page answered 0.09 s sooner, median of 40 runs). `reaped=False`:
    their end is not waited for (a `webferret serve` spare's: they end with the call's process, and
    nobody counts its resource use; 4-5 ms of a served call's end)."""
    if not _preforked and pages > 0 and can_fork_now():
        # pydantic and the shared models first: both sides need them, and the workers inherit them
        # rather than importing them again (CPU a busy machine does not have to spare)
        import webferret.extract.types  # noqa: F401

        count = worker_count(os.cpu_count() or 1, pages, spare_core)
        _preforked.append(ForkedWorkers(count, stagger, stoplists, reaped))


def release_preforked() -> None:
    """End the workers `prefork` made that no `Extractor` adopted (the command stopped early, e.g. on
    a bad setting); without waiting for their imports."""
    while _preforked:
        _preforked.pop().shutdown(used=False)


def worker_count(cores: int, pages: int, spare_core: bool = True) -> int:
    """Workers to fork, at most one per page. With `spare_core` one core stays with this process
    (network, verdicts, store, output): a big batch keeps it busy, and that measured faster on two
    cores than a second worker fighting it for the CPU. Without it (a search's few pages, while this
    process mostly waits for them) every core extracts, so pages arriving together wait for none."""
    return max(1, min(cores - 1 if spare_core else cores, pages))


def adopt_preforked() -> ForkedWorkers | None:
    return _preforked.pop() if _preforked else None


def _worker_ready() -> int:
    prepare_extractor()
    return os.getpid()


def _end_with_program(program: int) -> None:
    """A pool worker's start: it ends when `program` (the process that started the pool) does,
    however that ends. Its parent is the forkserver, which lives as long as any worker does (each
    holds the server's keep-alive pipe), so a worker of a pool the program did not end (a `close`
    racing its start, an `os._exit`, a crash) waited for work for ever, holding the program's stdout:
    a reader of its output (`| tail`) waited for ever too."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the program's to handle; it ends the pool
    _off_the_program_output()  # (the forkserver holds the program's stdin and stdout of its start)
    try:
        program_fd = os.pidfd_open(program)
    except ProcessLookupError:  # it ended already
        os._exit(0)
    except (OSError, AttributeError):  # no pidfd here (an old kernel, not Linux): ended by `close` only
        return

    def watch() -> None:
        select.select([program_fd], [], [])  # readable once the program has ended
        os._exit(0)

    threading.Thread(target=watch, name="webferret-program-watch", daemon=True).start()


_FORKED: list[bool] = []
"""Not empty once an `Extractor` of this process has forked its workers."""


def _forking_pays() -> bool:
    """Whether a call's own workers are worth forking: on this process's first call (they import the
    extractor while it waits for the network), or once it has the extractor itself (they inherit it).
    A process that forked before and has it not (a program calling `webferret.fetch` page after page,
    each call's workers importing it anew: a second a call) imports it in a thread, once, instead."""
    return not _FORKED or "webferret.extract.htmlpage" in sys.modules


class Extractor:
    """Extraction in worker pools, so a batch never blocks the event loop and uses every core."""

    def __init__(self, workers: int | None = None, fork: bool = True) -> None:
        self.workers = workers or os.cpu_count() or 1
        self.fork = fork
        self._threads = ThreadPoolExecutor(max_workers=self.workers, thread_name_prefix="webferret-extract")
        self._forked: ForkedWorkers | None = None
        self._processes: ProcessPoolExecutor | None = None
        self._pool_ready: Future[None] | None = None
        self._warmed: Future[None] | None = None
        self._extracting = 0
        self._used = False
        self._abandoned = False  # a page was given up on (its time ran out) while a worker was on it
        self._replace = False  # ... and the next page starts a pool of processes in place (`_replaced`)
        self._starting = threading.Lock()  # held while a pool's workers are being started
        self._turns = LargestFirst()

    def warm(self, pages: int = 1, threads: bool = True, spare_core: bool = True) -> None:
        """Get the extractor ready now (once), while the pages are still on the wire.

        Forks `worker_count(cores, pages)` workers when that is safe (see the module docstring); else, unless
        `threads` is False, imports the extractor in a thread, building the stoplists only if no page
        has arrived by then (once pages are being extracted, data a page may not need would only take
        the CPU from them)."""
        if self._warmed is not None or self._forked is not None:
            return
        if self.fork:
            self._forked = adopt_preforked() or (
                ForkedWorkers(worker_count(self.workers, pages, spare_core))
                if can_fork_now() and _forking_pays()
                else None
            )
            if self._forked is not None:
                _FORKED.append(True)
                return
        if threads:
            self._warmed = self._threads.submit(prepare_extractor, lambda: self._extracting == 0)

    def expect(self, pages: int) -> None:
        """A call is about to bring `pages` pages: without forked workers, a big batch starts a pool."""
        if pages >= PROCESS_MIN_PAGES and self._forked is None:
            self._start_processes()

    def _start_processes(self, workers: int | None = None) -> None:
        """Start a pool of `workers` processes (default: one per core, none on a single core) in the
        background; `_pool_ready` is done once every worker is up."""
        count = workers or (self.workers if self.workers > 1 else 0)
        if self._processes is not None or count < 1:
            return
        context = multiprocessing.get_context("forkserver" if os.name == "posix" else "spawn")
        if os.name == "posix":  # the server imports the extractor once; workers fork from it
            context.set_forkserver_preload(PRELOAD)
        pool = self._processes = ProcessPoolExecutor(
            max_workers=count, mp_context=context, initializer=_end_with_program, initargs=(os.getpid(),)
        )
        ready: Future[None] = Future()
        self._pool_ready = ready

        def start() -> None:
            try:
                with self._starting:  # `close` ends the pool only once its workers exist (`end_now`)
                    jobs = [pool.submit(_worker_ready) for _ in range(count)]
                for job in jobs:
                    job.result()
                outcome: BaseException | None = None
            except BaseException as exc:  # a pool that cannot start leaves the work to threads
                outcome = exc
            if ready.set_running_or_notify_cancel():  # else a caller gone (Ctrl-C) cancelled the wait
                ready.set_result(None) if outcome is None else ready.set_exception(outcome)

        threading.Thread(target=start, name="webferret-pool-start", daemon=True).start()

    def _capacity(self) -> int:
        """How many extractions go to the executor of the moment at once: as many as it runs, and with a
        single worker (a batch's, a core left to this process) one more, queued there, so the worker
        has its next page at hand (handing it over from the event loop cost a batch 4% of its pages
        a second); several workers take the waiting pages strictly largest first (a search's answer
        waits for its slowest extraction: one query's overhead fell from 157 to 120 ms)."""
        running = self._forked.count if self._forked is not None else self.workers
        return running + 1 if running == 1 else running

    def _executor(self) -> Executor:
        """The forked workers; else processes once a big batch's pool is up; else threads."""
        if self._forked is not None:
            return self._forked.pool
        ready = self._pool_ready
        if self._processes is not None and ready is not None and ready.done() and not ready.exception():
            return self._processes
        return self._threads

    async def extract(self, raw: RawResponse, options: ExtractOptions) -> Extracted:
        """Extract one response; raises `FerretError` (with a code) when it cannot be read."""
        import asyncio

        from webferret.models import ErrorCode, FerretError

        loop = asyncio.get_running_loop()
        args = (raw.body, raw.final_url, raw.content_type, options)
        self._extracting += 1
        self._used = True
        try:
            await self._turns.turn(len(raw.body), self._capacity())  # the largest waiting page first
            await self._replaced()
            executor = self._executor()
            job: Future[Outcome] | None = None
            try:
                job = executor.submit(run_extraction, *args)
                extracted, error = await asyncio.wrap_future(job)
            except BrokenProcessPool:  # a worker died (killed, out of memory): this page goes to a thread
                self._end_pool(executor)
                extracted, error = await loop.run_in_executor(self._threads, run_extraction, *args)
            except asyncio.CancelledError:
                if job is not None and job.cancelled() and not _being_cancelled():
                    # `close` cancelled the job waiting for a worker: the page fails, its caller goes on
                    message = "the extractor was closed (aclose) while this page was waiting for it"
                    raise FerretError(ErrorCode.INVALID_ARGUMENT, message) from None
                self._abandoned = True
                if job is not None:
                    self._abandon(executor, job)
                raise
            finally:
                self._turns.done(self._capacity())
        finally:
            self._extracting -= 1
        if error is not None:
            raise FerretError(error.code, error.message)
        assert extracted is not None
        return _titled_by_attachment(extracted, raw)

    async def _replaced(self) -> None:
        """After a page was given up on mid-extraction (`_abandon`), the session's next page starts
        a pool of processes in place of the one ended, and waits for it (about a second, once): a
        page in a thread cannot be ended, so a second hostile page there would hold the CPU and the
        GIL for good and every later page would be a `timeout`. Started here, when the session goes
        on, not when the page is given up on: a one-call command ending then has no pool to end. A
        pool that cannot start leaves the pages to threads."""
        import asyncio

        if self._replace and self._forked is None:
            self._replace = False
            self._start_processes(workers=self.workers)
        ready = self._pool_ready
        if ready is not None and not ready.done() and self._abandoned:
            with contextlib.suppress(Exception):  # shielded: a caller giving up must not cancel it
                await asyncio.shield(asyncio.wrap_future(ready))

    def _abandon(self, executor: Executor, job: Future[Outcome]) -> None:
        """A page was given up on (its call's time ran out, or the call was cancelled) while `job`
        extracted it: a worker process on it would go on for as long as the page takes (minutes, for
        a hostile one), and every later page of the session would wait behind it (a 6 KB page
        answered `timeout`). So the pool is ended now (a page of another call still in it goes to a
        thread, as for a worker that died), and the next page starts a new one (`_replaced`). A job
        not started yet is only cancelled; a thread cannot be stopped (the next pages go to a pool
        of processes too)."""
        if not (job.cancel() or job.done()):
            self._end_pool(executor)

    def _end_pool(self, executor: Executor) -> None:
        """End the pool of processes `executor` is (a page on it given up on, or a worker of it dead:
        a broken pool answers no page again), and have the next page start one in its place
        (`_replaced`); pages in threads, which cannot be stopped, go to processes from then on too.
        A worker dying left its pool in place: every later page of the session went to a thread."""
        self._replace = True
        if self._forked is not None and executor is self._forked.pool:
            self._forked.shutdown(used=True, abandoned=True)
            self._forked = None
        elif executor is self._processes:
            end_now(self._processes)
            self._processes = self._pool_ready = None

    def close(self) -> None:
        """End the pools: a worker process still on a page nobody waits for any more is ended, not
        waited for (a page over the budget can take seconds more; its answer was given)."""
        self._threads.shutdown(wait=False, cancel_futures=True)
        if self._forked is not None:
            self._forked.shutdown(self._used, self._abandoned)
            self._forked = None
        if self._processes is not None:
            with self._starting:  # its workers all started: none is left out of `end_now`
                if self._abandoned:
                    end_now(self._processes)
                else:
                    self._processes.shutdown(wait=True, cancel_futures=True)
            self._processes = None


def _being_cancelled() -> bool:
    """Whether the running task itself is being cancelled (not only a future it awaited)."""
    import asyncio

    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


def _titled_by_attachment(extracted: Extracted, raw: RawResponse) -> Extracted:
    """`extracted`, titled by the file name its download gave (`Content-Disposition: attachment;
    filename="rivers-2024.csv"`) where its title was only its address's last segment (a document
    naming no title of its own, read from `/download?id=7`: titled "download")."""
    from webferret.net.urlpath import file_name

    named = raw.attachment_name
    if named and extracted.title == file_name(raw.final_url) and named != extracted.title:
        return extracted.model_copy(update={"title": named})
    return extracted
