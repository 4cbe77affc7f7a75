"""The MCP server's stdin, read so that Ctrl-C ends the server at once.

The SDK's stdio transport reads each line in a worker thread and, when the server is cancelled,
waits for that read to end: a Ctrl-C (or any cancellation) held `webferret mcp` until the client
wrote another line or closed stdin. Here a cancelled read is left to its thread (the process is
ending), and the server goes.

As the SDK does with the stdin it opens itself, the wire is read through a private descriptor while
fd 0 points at the null device, so nothing the server starts can read the client's messages; fd 0
is pointed back at the wire when serving ends.
"""

from __future__ import annotations

import contextlib
import fcntl
import io
import os
import sys
from collections.abc import Iterator
from typing import TextIO

import anyio.to_thread

JSON_BLANKS = " \t\r\n"  # the white space JSON allows between values


class StdinLines:
    """stdin's lines as the SDK's `stdio_server(stdin=...)` iterates them (`async for line in ...`)."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def __aiter__(self) -> StdinLines:
        return self

    async def __anext__(self) -> str:
        """The next line that is not blank: a blank line (a keep-alive, two line ends in a row) holds
        no message, and was answered as a parse error of nothing (`EOF while parsing a value at
        line 2 column 0`) that no request of the client's was waiting for."""
        while True:
            line = await anyio.to_thread.run_sync(self.stream.readline, abandon_on_cancel=True)
            if not line:
                raise StopAsyncIteration
            if line.strip(JSON_BLANKS):
                return line


@contextlib.contextmanager
def wire_stdin() -> Iterator[StdinLines]:
    """The client's messages on stdin, fd 0 on the null device meanwhile (when it can be moved)."""
    try:
        private = fcntl.fcntl(0, fcntl.F_DUPFD_CLOEXEC, 3)
    except OSError:  # no fd 0 to move: read it in place
        yield StdinLines(sys.stdin)
        return
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    # never closed: a read left to its thread may still wait on it (closefd=False, as the SDK's)
    wire = io.TextIOWrapper(os.fdopen(private, "rb", closefd=False), encoding="utf-8", errors="replace")
    try:
        yield StdinLines(wire)
    finally:
        os.dup2(private, 0)
