"""A search opens the page store while its engines are asked, so the candidates' look-ups find it
open (`Ferret.open_store_soon`), and starts the resolver's threads then too (`dns.warm_soon`); one
session never opens the store twice, and a store that cannot be used is reported where the call
first needs it."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from webferret.ferret import Ferret
from webferret.models import ErrorCode, FerretError
from webferret.search.service import spare_candidates
from webferret.store.pages import STORE_FILE
from webferret.store.schema import UnusableStore

ANSWER_AFTER = 0.5  # seconds the engine takes: time enough for the store to be opened meanwhile


class _Web(BaseHTTPRequestHandler):
    """A SearXNG that answers slowly (and notes whether the store was there by then), and its pages."""

    server: _WebServer

    def log_message(self, format: str, *args: object) -> None:
        return

    def do_GET(self) -> None:
        if self.path.startswith("/search"):
            time.sleep(ANSWER_AFTER)
            self.server.store_there.append((self.server.home / STORE_FILE).exists())
            self.server.resolver_threads.append(_resolver_threads())
            base = f"http://127.0.0.1:{self.server.server_address[1]}"
            results = [
                {"url": f"{base}/page/{n}", "title": f"Page {n}", "engines": ["bing"]} for n in range(2)
            ]
            body = json.dumps({"query": "q", "results": results}).encode()
            kind = "application/json"
        else:
            words = " ".join(f"ferrets sleep in burrows, page {self.path}" for _ in range(40))
            page = f"<html><head><title>Ferrets</title></head><body><article><p>{words}</p></article></body>"
            body = page.encode()
            kind = "text/html; charset=utf-8"
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class _WebServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, home: Path) -> None:
        super().__init__(("127.0.0.1", 0), _Web)
        self.home = home
        self.store_there: list[bool] = []
        self.resolver_threads: list[int] = []


@pytest.fixture
def web(tmp_path: Path) -> Iterator[_WebServer]:
    server = _WebServer(tmp_path / "home")
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def _resolver_threads() -> int:
    return sum(thread.name.startswith("webferret-dns_") for thread in threading.enumerate())


@pytest.mark.usefixtures("own_resolver_pool")  # as in a process of its own
async def test_a_verified_search_opens_the_store_while_the_engines_answer(web: _WebServer) -> None:
    before = _resolver_threads()  # an earlier test's pool
    base = f"http://127.0.0.1:{web.server_address[1]}"
    async with Ferret(
        home=web.home, searxng_url=base, engines=["searxng"], engine_min_interval=0, allow_private_hosts=True
    ) as ferret:
        result = await ferret.search("ferrets", ferret.search_options(results=2))
    assert web.store_there == [True]  # made before the engine's answer came
    assert web.resolver_threads == [before + spare_candidates(2)]  # started then too
    assert len(result.results) == 2 and all(hit.handle for hit in result.results)


async def test_an_unverified_search_leaves_the_store_alone(web: _WebServer) -> None:
    base = f"http://127.0.0.1:{web.server_address[1]}"
    async with Ferret(home=web.home, searxng_url=base, engines=["searxng"], engine_min_interval=0) as ferret:
        await ferret.search("ferrets", ferret.search_options(verify=False))
    assert web.store_there == [False]
    assert not (web.home / STORE_FILE).exists()


def _opened(ferret: Ferret) -> object:
    deadline = time.monotonic() + 10
    while ferret._store is None and time.monotonic() < deadline:
        time.sleep(0.005)
    return ferret._store


async def test_the_store_opened_soon_is_the_one_the_session_uses(tmp_path: Path) -> None:
    ferret = Ferret(home=tmp_path)
    ferret.open_store_soon()
    opened = _opened(ferret)
    assert opened is not None and ferret.store is opened  # not opened a second time
    ferret.open_store_soon()  # open already: nothing more
    assert ferret.store is opened
    await ferret.aclose()
    assert ferret._store is None


async def test_a_closed_session_opens_no_store(tmp_path: Path) -> None:
    ferret = Ferret(home=tmp_path)
    await ferret.aclose()
    ferret.open_store_soon()
    time.sleep(0.2)
    assert ferret._store is None and not (tmp_path / STORE_FILE).exists()


async def test_an_unusable_store_is_reported_where_the_call_needs_it(tmp_path: Path) -> None:
    (tmp_path / STORE_FILE).write_bytes(b"not a database, a file of the user's" * 100)
    ferret = Ferret(home=tmp_path)
    ferret.open_store_soon()  # the thread's failure is not raised anywhere
    time.sleep(0.3)
    with pytest.raises(UnusableStore, match="cannot use the page store"):
        _ = ferret.store
    with pytest.raises(FerretError) as caught:  # the library's one error type, with its code
        await ferret.find("ferrets")
    assert caught.value.code == ErrorCode.INVALID_ARGUMENT and "another --home" in caught.value.message
    await ferret.aclose()


async def test_one_thread_opens_it_however_often_it_is_asked(tmp_path: Path) -> None:
    ferret = Ferret(home=tmp_path)
    with ferret._store_lock:  # the first opener waits here, still opening
        for _ in range(3):  # a search asks once per engine request
            ferret.open_store_soon()
        openers = [thread for thread in threading.enumerate() if thread.name == "webferret-store-open"]
        assert len(openers) == 1
    assert _opened(ferret) is not None
    await ferret.aclose()
