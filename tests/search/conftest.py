"""Fixtures of the search tests: the shared fixture folder, a simulated web, a real local searx."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest
from search_harness import FakeWeb, SearxServer, searx_available

from webferret.search.runner import EngineRunner

REPO = Path(__file__).resolve().parents[2]


def shared_dir() -> Path:
    """The shared folder: the sibling `shared/` of the repo's parent folder (CI: `<repo>/../shared`)."""
    for candidate in (REPO.parent.parent / "shared", REPO.parent / "shared"):
        if (candidate / "fixtures").is_dir():
            return candidate
    return REPO.parent.parent / "shared"


@pytest.fixture(scope="session")
def engine_fixtures() -> Path:
    folder = shared_dir() / "fixtures" / "engines"
    if not folder.is_dir():
        pytest.skip(f"captured engine responses not found at {folder} (the shared folder is absent)")
    return folder


@pytest.fixture(scope="session")
def block_fixtures() -> Path:
    folder = shared_dir() / "fixtures" / "blocks"
    if not folder.is_dir():
        pytest.skip(f"captured block pages not found at {folder} (the shared folder is absent)")
    return folder


@pytest.fixture
async def engine_runner() -> AsyncIterator[EngineRunner]:
    """An engine runner without pacing, for engines pointed at the simulated web (`search_harness.local`)."""
    async with httpx.AsyncClient() as client:
        yield EngineRunner(client, None, min_interval=0)


@pytest.fixture(scope="module")
def fake_web() -> Iterator[FakeWeb]:
    with FakeWeb() as web:
        yield web


@pytest.fixture(scope="module")
def searx(fake_web: FakeWeb, tmp_path_factory: pytest.TempPathFactory) -> Iterator[SearxServer]:
    if not searx_available():
        pytest.skip("Debian's searx is not installed (/usr/bin/searx-run); .ci/run installs it")
    server = start_searx(tmp_path_factory, fake_web.base)
    try:
        yield server
    finally:
        server.__exit__()


def start_searx(tmp_path_factory: pytest.TempPathFactory, upstream: str, attempts: int = 3) -> SearxServer:
    """Start searx, on a fresh free port per attempt (another process may take a port between
    choosing it and searx binding it)."""
    for attempt in range(1, attempts + 1):
        try:
            return SearxServer(tmp_path_factory.mktemp("searx"), upstream).__enter__()
        except RuntimeError:
            if attempt == attempts:
                raise
    raise AssertionError("not reached")
