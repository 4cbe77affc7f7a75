"""A `webferret mcp --http 127.0.0.1:0` server started for a test and an MCP client session on it,
the process given too, for a test that signals it mid-call."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

from listening_port import listening_port
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"},
    },
}
"""A client's first message, as the MCP wire carries it (stdio lines and HTTP posts alike)."""


@dataclass
class Served:
    process: subprocess.Popen[str]
    port: int
    session: ClientSession
    stderr: str = ""  # what the server wrote after its listening line, once it has ended


@asynccontextmanager
async def mcp_http(home: Path, *extra: str) -> AsyncIterator[Served]:
    """The server (any free port: the line it writes names it) with the client's session initialized;
    on leaving, the server is ended (SIGTERM, then killed if it lingers) and its stderr kept."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("WEBFERRET_")}
    env.update(WEBFERRET_HOME=str(home), WEBFERRET_CONFIG=os.devnull)
    command = [sys.executable, "-m", "webferret", "mcp", "--http", "127.0.0.1:0", *extra]
    process = subprocess.Popen(command, env=env, stderr=subprocess.PIPE, text=True)
    served: Served | None = None
    try:
        assert process.stderr is not None
        port = listening_port(process.stderr)
        async with (
            streamable_http_client(f"http://127.0.0.1:{port}/mcp") as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            served = Served(process, port, session)
            yield served
    finally:
        process.terminate()
        try:
            _, err = process.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            _, err = process.communicate(timeout=30)
        if served is not None:
            served.stderr = err
