"""Shared fixtures: an isolated WEBFERRET_HOME for every test and the simulated web on 127.0.0.1."""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from simweb import SimWeb
from storeweb import Web, serve

if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    # a run started as a background job of a script inherits Ctrl-C ignored, and so would every
    # program a test starts (a shell ignores it for its asynchronous commands): the tests of what
    # Ctrl-C does need it heard, as a terminal's job hears it
    signal.signal(signal.SIGINT, signal.default_int_handler)


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
def closed_port() -> Iterator[int]:
    """A loopback port nothing listens on: bound, not listening, for the whole test, so a connection
    to it is refused (released at once, another program could bind it and answer meanwhile)."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        yield sock.getsockname()[1]


@pytest.fixture
def web() -> Iterator[Web]:
    """A loopback web of documents with validators (`storeweb`), for the store's end-to-end tests."""
    with serve() as running:
        yield running


@pytest.fixture
def own_resolver_pool(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The resolver's threads as in a process of its own (`webferret.net.dns`: no pool made, none
    warmed) for one test, which counts them. The pool it made is shut down at its end: left to be
    collected, its threads ended while a later test had counted them as running."""
    from webferret.net import dns

    _join_resolver_starters()  # an earlier test's `warm_soon` done starting threads
    monkeypatch.setattr(dns, "_POOL", None)
    monkeypatch.setattr(dns, "_warmed", 0)
    yield
    _join_resolver_starters()
    if dns._POOL is not None:
        dns._POOL.shutdown(wait=True)


def _join_resolver_starters() -> None:
    for thread in threading.enumerate():
        if thread.name == "webferret-dns-warm":
            thread.join()
