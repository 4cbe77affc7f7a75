"""Store look-ups asked together, answered by one trip to a worker thread.

A search starts every candidate's fetch at once, and each fetch first asks the store for its page.
One thread call per URL queued them behind each other on the store's read lock and the GIL, each
paying a thread hand-off: the last of 15 candidates left for the network 15-25 ms after the first.
Here the look-ups asked in one turn of the event loop are gathered and answered by one thread call.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Hashable, Sequence
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
T = TypeVar("T")


class LookupBatch(Generic[K, T]):
    """`await batch.get(key)`: the answer of `many(keys)` for every key asked in the same loop turn.

    `many` runs in a worker thread and answers one value per key, in order. When it raises, every
    key of that call gets the exception. A waiter that is cancelled leaves the others their answer.
    """

    def __init__(self, many: Callable[[Sequence[K]], Sequence[T]]) -> None:
        self._many = many
        self._asked: dict[K, asyncio.Future[T]] = {}
        self._running: set[asyncio.Task[None]] = set()

    async def get(self, key: K) -> T:
        answer = self._asked.get(key)
        if answer is None:
            loop = asyncio.get_running_loop()
            if not self._asked:  # the first key of this turn: answer them all once the turn is over
                loop.call_soon(self._send)
            answer = self._asked[key] = loop.create_future()
            answer.add_done_callback(_retrieved)  # an error only cancelled waiters saw is not logged
        return await asyncio.shield(answer)

    def _send(self) -> None:
        asked, self._asked = self._asked, {}
        task = asyncio.get_running_loop().create_task(self._answer(asked))
        self._running.add(task)  # held until done (the loop keeps only weak references)
        task.add_done_callback(self._running.discard)

    async def _answer(self, asked: dict[K, asyncio.Future[T]]) -> None:
        try:
            values = await asyncio.to_thread(self._many, list(asked))
        except asyncio.CancelledError:  # the loop is closing: so are the waiters
            for answer in asked.values():
                answer.cancel()
            raise
        except Exception as exc:  # handed to every waiter
            for answer in asked.values():
                if not answer.done():
                    answer.set_exception(exc)
            return
        for answer, value in zip(asked.values(), values, strict=True):
            if not answer.done():
                answer.set_result(value)


def _retrieved(answer: asyncio.Future[object]) -> None:
    if not answer.cancelled():
        answer.exception()
