"""The resolver the SSRF policy asks: the system's on threads of its own, and a short cache."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Callable

import pytest
from child import passes

from webferret.net import dns
from webferret.net.dns import CachingResolver, system_resolver


class CountingDns:
    """A resolver that answers after `delay` seconds, counting the questions it was asked."""

    def __init__(self, answers: dict[str, list[str]], delay: float = 0.0) -> None:
        self.answers = answers
        self.delay = delay
        self.asked: list[str] = []

    async def __call__(self, host: str, port: int) -> list[str]:
        self.asked.append(host)
        await asyncio.sleep(self.delay)
        if host not in self.answers:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return list(self.answers[host])


async def test_a_name_is_asked_once_within_the_ttl_and_again_after_it() -> None:
    dns = CountingDns({"a.example": ["93.184.216.34"]})
    cached = CachingResolver(dns, ttl=0.2)
    assert await cached("a.example", 443) == ["93.184.216.34"]
    assert await cached("a.example", 443) == ["93.184.216.34"]
    assert dns.asked == ["a.example"]
    await asyncio.sleep(0.25)
    await cached("a.example", 443)
    assert dns.asked == ["a.example", "a.example"]


async def test_two_questions_at_once_for_one_name_are_one_question() -> None:
    dns = CountingDns({"a.example": ["93.184.216.34"], "b.example": ["93.184.216.35"]}, delay=0.05)
    cached = CachingResolver(dns, ttl=60)
    answers = await asyncio.gather(cached("a.example", 80), cached("a.example", 80), cached("b.example", 80))
    assert answers == [["93.184.216.34"], ["93.184.216.34"], ["93.184.216.35"]]
    assert sorted(dns.asked) == ["a.example", "b.example"]


async def test_a_failure_is_not_kept_and_ttl_zero_keeps_nothing() -> None:
    dns = CountingDns({})
    cached = CachingResolver(dns, ttl=60)
    for _ in range(2):
        with pytest.raises(socket.gaierror):
            await cached("missing.example", 80)
    assert dns.asked == ["missing.example", "missing.example"]
    dns.answers["a.example"] = ["93.184.216.34"]
    uncached = CachingResolver(dns, ttl=0)
    await uncached("a.example", 80)
    await uncached("a.example", 80)
    assert dns.asked.count("a.example") == 2


async def test_the_cache_keeps_so_many_names_the_oldest_giving_way() -> None:
    """Every name ever resolved was kept, expired or not: a session serving for days grew without end."""
    names = [f"n{n}.example" for n in range(dns.KEPT_MOST + 1)]
    counting = CountingDns({name: ["93.184.216.34"] for name in names})
    cached = CachingResolver(counting, ttl=3600)
    for name in names:
        await cached(name, 443)
    await cached(names[-1], 443)  # the newest is kept
    await cached(names[0], 443)  # the oldest gave way: asked again
    assert counting.asked.count(names[-1]) == 1 and counting.asked.count(names[0]) == 2


async def test_one_caller_giving_up_does_not_stop_the_question_for_the_others() -> None:
    dns = CountingDns({"a.example": ["93.184.216.34"]}, delay=0.1)
    cached = CachingResolver(dns, ttl=60)
    impatient = asyncio.create_task(cached("a.example", 80))
    patient = asyncio.create_task(cached("a.example", 80))
    await asyncio.sleep(0.02)
    impatient.cancel()
    assert await patient == ["93.184.216.34"]
    assert dns.asked == ["a.example"]


async def test_the_system_resolver_runs_on_threads_of_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[str] = []

    def fake_getaddrinfo(host: str, port: int, **kwargs: object) -> list[tuple[object, ...]]:
        seen.append(threading.current_thread().name)
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("93.184.216.34", port))]

    monkeypatch.setattr(socket, "getaddrinfo", fake_getaddrinfo)
    assert await system_resolver("a.example", 443) == ["93.184.216.34"]
    assert seen and seen[0].startswith("webferret-dns")


def _resolver_threads() -> int:
    return sum(thread.name.startswith("webferret-dns_") for thread in threading.enumerate())


def _until(check: Callable[[], bool]) -> None:
    deadline = time.monotonic() + 10
    while not check():
        assert time.monotonic() < deadline
        time.sleep(0.01)


def _warmed_up() -> int:
    """The resolver threads running once every `warm_soon` starter has handed its tasks over (the
    pool starts its threads as tasks are handed over)."""
    _until(lambda: not any(thread.name == "webferret-dns-warm" for thread in threading.enumerate()))
    return _resolver_threads()


@pytest.mark.usefixtures("own_resolver_pool")  # a process of its own: no thread yet
def test_the_resolver_threads_are_started_ahead_and_topped_up() -> None:
    before = _resolver_threads()  # an earlier test's pool
    dns.warm_soon(5)
    assert _warmed_up() == before + 5
    dns.warm_soon(3)  # as many as that run already: none more
    assert _warmed_up() == before + 5
    # A thread of the first five that has not yet gone back to wait when the next tasks come is
    # topped up too (the pool starts a thread when none waits), so the counts from here on are bounds.
    dns.warm_soon(8)
    topped_up = _warmed_up()
    assert before + 8 <= topped_up <= before + dns.DNS_THREADS
    dns.warm_soon(dns.DNS_THREADS + 10)
    assert topped_up < _warmed_up() <= before + dns.DNS_THREADS  # never more than the pool's cap
    pool = dns._pool()
    assert pool.submit(lambda: threading.current_thread().name).result(timeout=5).startswith("webferret-dns_")
    pool.shutdown(wait=True)
    assert _resolver_threads() == before


def test_a_child_forked_after_a_look_up_resolves_names_too() -> None:
    """The child had none of its parent's resolver threads while the pool counted them idle and
    started none: every look-up there waited until the page's timeout (a worker forked by a server
    after its parent had read a page never read one)."""
    passes(
        """
import asyncio, os
from webferret.net import dns

async def resolved() -> list[str]:
    return await asyncio.wait_for(dns.system_resolver("localhost", 80), 20)  # bounds a regression only

assert asyncio.run(resolved())
idle = dns._pool()._idle_semaphore  # its thread back waiting for work, as after any look-up but just now
assert idle.acquire(timeout=20)
idle.release()
pid = os.fork()
if pid == 0:
    try:
        os._exit(0 if asyncio.run(resolved()) else 1)
    except BaseException:
        os._exit(2)
_, status = os.waitpid(pid, 0)
assert os.waitstatus_to_exitcode(status) == 0, status
"""
    )
