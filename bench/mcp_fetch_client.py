"""Drive an MCP `fetch` server over stdio the way an agent would: one session, tool calls in parallel.

    python -m bench.mcp_fetch_client --concurrency 8 URLS_FILE -- SERVER_ARGV...

Prints every tool result's text (separated by a rule) and `ok=N failed=M` on stderr.
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

MAX_LENGTH = 999_999


async def _call(session: ClientSession, url: str, limit: asyncio.Semaphore) -> tuple[bool, str]:
    async with limit:
        try:
            result = await session.call_tool("fetch", {"url": url, "max_length": MAX_LENGTH})
        except Exception as exc:  # a transport or protocol failure counts as a failed page
            return False, f"{type(exc).__name__}: {exc}"
    text = "\n".join(getattr(part, "text", "") for part in result.content)
    failed = getattr(result, "is_error", getattr(result, "isError", False))
    return not failed, text


async def main(urls: list[str], server: list[str], concurrency: int) -> int:
    params = StdioServerParameters(command=server[0], args=server[1:])
    limit = asyncio.Semaphore(concurrency)
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        results = await asyncio.gather(*(_call(session, url, limit) for url in urls))
    sys.stdout.write("\n\n---\n\n".join(text for _, text in results) + "\n")
    ok = sum(flag for flag, _ in results)
    sys.stderr.write(f"ok={ok} failed={len(results) - ok}\n")
    return 0 if ok == len(results) else 1


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m bench.mcp_fetch_client")
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("urls_file")
    parser.add_argument("server", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    server = args.server[1:] if args.server[:1] == ["--"] else args.server
    with open(args.urls_file) as handle:
        listed = [line.strip() for line in handle if line.strip()]
    sys.exit(asyncio.run(main(listed, server, args.concurrency)))
