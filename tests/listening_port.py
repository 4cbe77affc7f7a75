"""The port a `webferret api --http 127.0.0.1:0` or `webferret mcp --http 127.0.0.1:0` listens on, read
from the line it writes once it listens. (A port picked free beforehand could be bound by another
program before the server bound it, and the test then spoke to that program.)"""

from __future__ import annotations

import re
from typing import IO


def listening_port(stderr: IO[str], host: str = "127.0.0.1") -> int:
    """The port named on the program's `http://HOST:PORT/` line; its stderr is read up to it."""
    for line in stderr:  # ends when the program does
        found = re.search(rf"http://{re.escape(host)}:(\d+)/", line)
        if found:
            return int(found.group(1))
    raise AssertionError("the server ended before it listened")
