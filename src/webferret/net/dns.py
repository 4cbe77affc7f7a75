"""Name resolution for the SSRF policy: the system resolver on threads of its own, and a short cache.

`system_resolver` asks the system (`getaddrinfo`) on a pool of `DNS_THREADS` threads of its own. On
the event loop's default executor (as `loop.getaddrinfo` does) a search's twenty candidates shared
six threads (cores + 4) with the store's reads and writes, so on a real network their lookups went
out in waves, each as slow as the slowest name of its wave.

`CachingResolver` keeps what a name resolved to for `ttl` seconds (as a browser's host cache does,
about a minute) and asks once for a name asked for twice at the same time (two URLs on one host).
Failures are not kept, nor more than `KEPT_MOST` names (the oldest give way). A cached answer is
vetted again on every use: the policy classifies the addresses each time, and the transport connects
to the vetted address it is given, so a name that resolves differently later (DNS rebinding) changes
nothing for a request already vetted.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import threading
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor

Resolver = Callable[[str, int], Awaitable[list[str]]]
"""`async resolve(host, port) -> [address, ...]`; raises `socket.gaierror` (or OSError) on failure."""

DNS_THREADS = 32
KEPT_MOST = 4096
"""The most names `CachingResolver` keeps: a served session that searched and crawled for days kept
every name it had ever resolved, each long expired, its memory growing without end."""
_POOL: ThreadPoolExecutor | None = None
_POOL_PID = 0  # the process `_POOL` was made in
_warmed = 0  # resolver threads of `_POOL` asked for by `warm_soon` so far


def _pool() -> ThreadPoolExecutor:
    """The resolver's threads, made on first use (a process that never resolves starts none), and
    made anew in a child forked after it: the child has none of its parent's threads, while the
    pool counts them idle and starts none, so each look-up there waited for ever (a timeout)."""
    global _POOL, _POOL_PID, _warmed
    if _POOL is None or os.getpid() != _POOL_PID:
        _POOL = ThreadPoolExecutor(DNS_THREADS, thread_name_prefix="webferret-dns")
        _POOL_PID, _warmed = os.getpid(), 0
    return _POOL


def warm_soon(threads: int) -> None:
    """Have `threads` of the resolver's threads (at most `DNS_THREADS`) running soon, started from a
    thread of its own: a search calls this once its engine request has left, so its candidates'
    look-ups find them. A thread the pool starts on a look-up holds the event loop until it runs
    (`Thread.start` waits for it): about 0.4 ms each, fifteen at once for a search's candidates."""
    global _warmed
    pool = _pool()
    wanted = min(threads, DNS_THREADS)
    if wanted <= _warmed:
        return
    _warmed = wanted
    starter = threading.Thread(target=_start_threads, args=(pool, wanted), name="webferret-dns-warm")
    starter.daemon = True
    starter.start()


def _start_threads(pool: ThreadPoolExecutor, count: int) -> None:
    """Give `pool` `count` tasks that wait for each other: it runs them at once, on `count` threads
    (those it has, and new ones), which then wait for work."""
    together = threading.Barrier(count)

    def meet() -> None:
        with contextlib.suppress(threading.BrokenBarrierError):
            together.wait(timeout=1.0)  # never longer: a pool that cannot start them all goes on

    for _ in range(count):
        pool.submit(meet)


async def system_resolver(host: str, port: int) -> list[str]:
    """Resolve through the system resolver (`getaddrinfo`), off the event loop, on the DNS threads."""
    loop = asyncio.get_running_loop()
    infos = await loop.run_in_executor(
        _pool(), lambda: socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP)
    )
    return [str(info[4][0]) for info in infos]


class CachingResolver:
    """`inner`'s answers kept for `ttl` seconds (0: not kept), one question at a time per name."""

    def __init__(self, inner: Resolver, ttl: float) -> None:
        self.inner = inner
        self.ttl = ttl
        self._kept: dict[tuple[str, int], tuple[float, list[str]]] = {}
        self._asking: dict[tuple[str, int], asyncio.Future[list[str]]] = {}

    async def __call__(self, host: str, port: int) -> list[str]:
        key = (host, port)
        kept = self._kept.get(key)
        if kept is not None and kept[0] > time.monotonic():
            return list(kept[1])
        asking = self._asking.get(key)
        if asking is None:
            asking = self._asking[key] = asyncio.ensure_future(self.inner(host, port))
            asking.add_done_callback(lambda done: self._settled(key, done))
        return list(await asyncio.shield(asking))  # one caller giving up does not stop the others

    def _settled(self, key: tuple[str, int], done: asyncio.Future[list[str]]) -> None:
        self._asking.pop(key, None)
        if self.ttl > 0 and not done.cancelled() and done.exception() is None:
            self._kept.pop(key, None)  # kept anew: the newest
            if len(self._kept) >= KEPT_MOST:
                now = time.monotonic()
                self._kept = {name: kept for name, kept in self._kept.items() if kept[0] > now}
                while len(self._kept) >= KEPT_MOST:
                    del self._kept[next(iter(self._kept))]  # the oldest answer
            self._kept[key] = (time.monotonic() + self.ttl, done.result())
