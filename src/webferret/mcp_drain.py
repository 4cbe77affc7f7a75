"""Requests a client sent before it closed stdin are answered before `webferret mcp` ends.

The SDK cancels every call still running once its input ends ("their callers are gone"), so
`printf '...initialize...\\n...tools/call...\\n' | webferret mcp` answered the handshake, and the call
only when it happened to finish first (one run in five in a shell). A client that closes its side
of the pipe may still read the other: the end of stdin is held from the server until each request
read before it is answered, cancelled by the client (`notifications/cancelled`), or a call's budget
(setting budget, past which no call runs) and `MARGIN` have passed.
"""

from __future__ import annotations

from typing import Any

import anyio
from mcp import types
from mcp.shared.dispatcher import coerce_request_id

MARGIN = 10.0
"""Seconds past a call's budget that an answer is waited for (its pages' last reads, its writing)."""


class Unanswered:
    """The ids of the requests relayed to the server and not yet answered."""

    def __init__(self) -> None:
        self._ids: set[Any] = set()
        self._settled = anyio.Event()
        self._settled.set()

    def asked(self, message: Any) -> None:
        """Note a message relayed to the server: a request waits for its answer; a cancellation
        of one says none will come."""
        if isinstance(message, types.JSONRPCRequest):
            self._ids.add(coerce_request_id(message.id))
            self._settled = anyio.Event() if self._settled.is_set() else self._settled
        elif isinstance(message, types.JSONRPCNotification) and message.method == "notifications/cancelled":
            self._drop((message.params or {}).get("requestId"))

    def answered(self, message: Any) -> None:
        """Note a message the server sent: an answer (a result or an error) settles its request."""
        if isinstance(message, types.JSONRPCResponse | types.JSONRPCError):
            self._drop(message.id)

    def _drop(self, request_id: Any) -> None:
        """`request_id` settled; as the SDK matches ids, `"7"` is request 7 (a cancellation of
        request 7 by `"7"` was held as unanswered, and the end of stdin with it, for a budget)."""
        if isinstance(request_id, str | int) and not isinstance(request_id, bool):
            request_id = coerce_request_id(request_id)
        self._ids.discard(request_id)
        if not self._ids:
            self._settled.set()

    async def settled(self, budget: float) -> None:
        """Return once every request noted is answered, or after `budget` and `MARGIN` seconds."""
        with anyio.move_on_after(budget + MARGIN):
            await self._settled.wait()
