"""A caller's callbacks (`on_page`, `on_read`): a plain function or an `async def` one, either way.

An async library that took only plain functions would let an `async def` callback's coroutine go
unawaited (its body never runs, and Python only warns); `called` runs either kind to its end.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any


def check_callback(name: str, callback: object) -> None:
    """Refuse (`invalid_argument`) a callback that is neither None nor callable, before the call
    it would be given pages of runs (it was found only at the first page, or after the batch)."""
    if callback is not None and not callable(callback):
        from webferret.models import ErrorCode, FerretError

        message = f"{name}: a function (or an async def one), not {type(callback).__name__}"
        raise FerretError(ErrorCode.INVALID_ARGUMENT, message)


async def called(callback: Callable[..., Any], *args: Any) -> None:
    """`callback(*args)`, awaited when it gives an awaitable (an `async def` callback's coroutine)."""
    result = callback(*args)
    if inspect.isawaitable(result):
        await result


class Held:
    """What a caller's callbacks raise, held until the call is finished (every page read and
    stored), then raised: a batch or a crawl is not cut short by its caller's callback."""

    def __init__(self) -> None:
        self.raised: list[Exception] = []

    async def call(self, callback: Callable[..., Any] | None, *args: Any) -> None:
        """`callback(*args)` (awaited if need be), unless None; what it raises is held."""
        if callback is None:
            return
        try:
            await called(callback, *args)
        except Exception as exc:
            self.raised.append(exc)

    def raise_first(self) -> None:
        """Raise the first error held, if any (once the call is finished)."""
        if self.raised:
            raise self.raised[0]
