"""What a long-lived process (`webferret serve`, `webferret mcp`) loads before its first call.

A call imports most of what it needs on first use (httpx, the fetch path, the store, the search
engines): a one-shot command should not pay for what it never uses. A resident process imports it
all at start instead, then moves everything built so far out of the garbage collector's reach
(`gc.freeze`): its full collections then scan only what calls create. On a warm `webferret mcp`
heap (about 100,000 objects) a full collection took 35-55 ms, inside some call about one in ten.
"""

from __future__ import annotations

import gc
import importlib

CALL_MODULES = (
    "httpx",
    "anyio",
    "anyio._backends._asyncio",
    "anyio.streams.tls",
    "anyio.to_thread",
    "webferret.cli.common",
    "webferret.cli.pages_out",
    "webferret.cli.url_list",
    "webferret.config",
    "webferret.models",
    "webferret.ferret",
    "webferret.fetch.fetcher",
    "webferret.fetch.http",
    "webferret.fetch.blocks",
    "webferret.present.pages",
    "webferret.present.commands",
    "webferret.present.agent",
    "webferret.present.dedup",
    "webferret.present.envelopes",
    "webferret.present.fence",
    "webferret.present.paging",
    "webferret.present.outline",
    "webferret.present.shares",
    "webferret.search.present",
    "webferret.search.reading",
    "webferret.search.service",
    "webferret.search.runner",
    "webferret.search.verify",
    "webferret.search.unreachable",
    "webferret.mcp_tools",
    "webferret.store.pages",
    "webferret.store.passages",
    "webferret.store.batching",
    "webferret.net.hostspec",
    "encodings.idna",  # a host name given to the resolver is encoded with it
    "multiprocessing.popen_fork",  # the call forks its extraction workers
    "multiprocessing.synchronize",
)
"""The modules a search, fetch or open imports in the calling process (found by diffing `sys.modules`
around calls, in a `webferret serve` child: tests/test_serve.py checks a fetch and a search import
nothing more), beyond the command modules; extraction has its own (`prepare_extractor`)."""


def import_call_modules(extra: tuple[str, ...] = ()) -> None:
    """Import `CALL_MODULES` (and `extra`); a module renamed since is skipped (the call imports what
    it needs itself)."""
    for name in (*CALL_MODULES, *extra):
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise


def freeze_heap() -> None:
    """Collect once, then freeze what is left: later collections skip it (and a forked child's
    collections do not touch, so do not copy, the pages it shares with its parent)."""
    gc.collect()
    settle_heap()


def settle_heap() -> None:
    """Freeze what was built so far and turn the collector on (`webferret.cli.main` turns it off
    for start-up: collecting while modules load finds next to nothing, 30-45 ms of CPU a command)."""
    gc.freeze()
    gc.enable()
