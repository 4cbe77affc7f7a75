"""A caller's callbacks (`on_page`, `on_read`): a plain function or an `async def` one, either way.

An async library that took only plain functions would let an `async def` callback's coroutine go
unawaited (its body never runs, and Python only warns); `called` runs either kind to its end.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any


async def called(callback: Callable[..., Any], *args: Any) -> None:
    """`callback(*args)`, awaited when it gives an awaitable (an `async def` callback's coroutine)."""
    result = callback(*args)
    if inspect.isawaitable(result):
        await result
