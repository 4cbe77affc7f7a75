"""Time `web_search` calls in one long-lived MCP session, the way a resident agent uses webferret.

    python -m bench.mcp_search_client --warm-up QUERY QUERY... -- SERVER_ARGV...

Starts the server over stdio (with this process's environment), makes one warm-up call that is not
timed, then calls `web_search` for each query in turn (10 results, verified). Prints one JSON line
per timed call: {"query", "t0", "t1", "ok", "results"}, with wall-clock times in seconds, so the
caller can match them with the simulated web's request log.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from typing import Any

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

RESULTS = 10


async def _search(session: ClientSession, query: str) -> dict[str, Any]:
    t0 = time.time()
    result = await session.call_tool("web_search", {"query": query, "results": RESULTS})
    t1 = time.time()
    failed = bool(getattr(result, "isError", False))
    data = getattr(result, "structuredContent", None) or {}
    found = data.get("results") if isinstance(data, dict) else None
    count = len(found) if isinstance(found, list) else _count_in_text(result)
    return {"query": query, "t0": t0, "t1": t1, "ok": not failed, "results": count}


def _count_in_text(result: Any) -> int:
    """Results listed in the text answer (one `http` URL per result line), when no structured data."""
    text = "\n".join(getattr(part, "text", "") for part in result.content)
    return sum(1 for line in text.splitlines() if "http" in line)


async def main(queries: list[str], warm_up: str, server: list[str]) -> int:
    params = StdioServerParameters(command=server[0], args=server[1:], env=dict(os.environ))
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        await _search(session, warm_up)  # the session's start-up: imports, worker start, store
        calls = [await _search(session, query) for query in queries]
    for call in calls:
        sys.stdout.write(json.dumps(call) + "\n")
    return 0 if all(call["ok"] for call in calls) else 1


if __name__ == "__main__":
    argv = sys.argv[1:]
    split = argv.index("--") if "--" in argv else len(argv)
    parser = argparse.ArgumentParser(prog="python -m bench.mcp_search_client")
    parser.add_argument("--warm-up", default="warm up", help="the untimed first query")
    parser.add_argument("queries", nargs="+")
    args = parser.parse_args(argv[:split])
    if not argv[split + 1 :]:
        parser.error("give the server's command after --")
    sys.exit(asyncio.run(main(args.queries, args.warm_up, argv[split + 1 :])))
