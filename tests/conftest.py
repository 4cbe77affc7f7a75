"""Shared fixtures: an isolated WEBFERRET_HOME for every test and the simulated web on 127.0.0.1."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from simweb import SimWeb
from storeweb import Web, serve


@pytest.fixture(autouse=True)
def webferret_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own home and config dirs; no test writes to ~/.cache or reads ~/.config.

    The caller's WEBFERRET_* variables are cleared; the default home (XDG cache dir) points into
    tmp_path, so `Settings().home` is the path this fixture answers.
    """
    for name in list(os.environ):
        if name.startswith("WEBFERRET_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    return tmp_path / "cache" / "webferret"


@pytest.fixture(scope="session")
def _simweb_server() -> Iterator[SimWeb]:
    web = SimWeb().start()
    yield web
    web.stop()


@pytest.fixture
def simweb(_simweb_server: SimWeb) -> Iterator[SimWeb]:
    """The simulated web; routes a test adds are removed when it ends."""
    _simweb_server.reset()
    yield _simweb_server
    _simweb_server.reset()


@pytest.fixture
def closed_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def web() -> Iterator[Web]:
    """A loopback web of documents with validators (`storeweb`), for the store's end-to-end tests."""
    with serve() as running:
        yield running
