"""Failures a search saw, remembered a while: a later search lists the candidate as unreachable without
asking it again. Against the simulated web on 127.0.0.1 and a real searx on loopback."""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest
from search_harness import FakeWeb, SearxServer
from simweb import Handler, SimWeb, article_html

from webferret.cli import main
from webferret.ferret import Ferret
from webferret.models import ErrorCode, ErrorInfo, Hit, Page, Source
from webferret.search.present import header
from webferret.search.types import SearchResult, Unreachable
from webferret.search.unreachable import UNREACHABLE_FILE, Failure, UnreachableMemory, lasting_error
from webferret.search.verify import Verification, verify_hits

pytestmark = pytest.mark.filterwarnings("error")  # an unclosed connection or a lost task fails a test

URL = "https://example.org/gone"


def error(code: ErrorCode, message: str = "it failed") -> ErrorInfo:
    return ErrorInfo(code=code, message=message)


def hits(*urls: str) -> list[Hit]:
    return [Hit(url=url, sources=[Source(engine="test", rank=rank)]) for rank, url in enumerate(urls, 1)]


def ferret(home: Path, **settings: object) -> Ferret:
    return Ferret(home=home, allow_hosts=["127.0.0.1"], per_host_concurrency=8, **settings)


def dead(verified: Verification) -> list[tuple[str, bool]]:
    """Each unreachable candidate's path, and whether its failure was remembered."""
    return [(item.url.rsplit("/", 1)[-1], item.remembered_at is not None) for item in verified.unreachable]


# -- the memory itself ----------------------------------------------------------------------------


def test_a_failure_is_recalled_under_any_spelling_of_its_url(tmp_path: Path) -> None:
    memory = UnreachableMemory(tmp_path / UNREACHABLE_FILE, 600)
    memory.note([Failure(URL, error(ErrorCode.NOT_FOUND, "HTTP 404"), 10, False)], [])
    found = memory.recall(["https://EXAMPLE.org/gone?utm_source=x", "https://example.org/other"], 10, False)
    assert list(found) == ["https://EXAMPLE.org/gone?utm_source=x"]
    recalled = found["https://EXAMPLE.org/gone?utm_source=x"]
    assert recalled.error.code is ErrorCode.NOT_FOUND
    page = recalled.page(URL)
    assert not page.ok and page.fetched_via == "store" and page.fetched_at is not None
    assert page.error is not None and page.error.message.startswith("HTTP 404 (remembered: seen ")


def test_a_timeout_answers_only_a_search_that_would_wait_no_longer(tmp_path: Path) -> None:
    memory = UnreachableMemory(tmp_path / UNREACHABLE_FILE, 600)
    memory.note([Failure(URL, error(ErrorCode.TIMEOUT), 2.0, False)], [])
    assert list(memory.recall([URL], 2.0, False)) == [URL]
    assert list(memory.recall([URL], 1.0, False)) == [URL]
    assert memory.recall([URL], 5.0, False) == {}  # it may answer in 5 s


def test_a_failure_seen_past_the_guard_answers_only_a_call_past_it(tmp_path: Path) -> None:
    memory = UnreachableMemory(tmp_path / UNREACHABLE_FILE, 600)
    memory.note([Failure(URL, error(ErrorCode.CONNECT_FAILED), 10, True)], [])
    assert memory.recall([URL], 10, False) == {}
    assert list(memory.recall([URL], 10, True)) == [URL]


def test_a_failure_is_forgotten_once_read_or_too_old(tmp_path: Path) -> None:
    path = tmp_path / UNREACHABLE_FILE
    memory = UnreachableMemory(path, 600)
    other = "https://example.org/other"
    memory.note([Failure(URL, error(ErrorCode.HTTP_ERROR), 10, False)], [])
    memory.note([Failure(other, error(ErrorCode.DNS_FAILURE), 10, False)], [URL])
    assert list(memory.recall([URL, other], 10, False)) == [other]
    with sqlite3.connect(path) as conn:  # seen eleven minutes ago
        conn.execute("UPDATE unreachable SET failed_at = ?", (time.time() - 660,))
    assert memory.recall([other], 10, False) == {}
    assert UnreachableMemory(path, 900).recall([other], 10, False) != {}  # a longer memory still has it


def test_no_file_is_made_without_a_failure_to_keep(tmp_path: Path) -> None:
    path = tmp_path / UNREACHABLE_FILE
    memory = UnreachableMemory(path, 600)
    memory.note([], [URL])
    assert not path.exists() and memory.recall([URL], 10, False) == {}
    UnreachableMemory(path, 0).note([Failure(URL, error(ErrorCode.TIMEOUT), 10, False)], [])
    assert not path.exists()  # 0 seconds: nothing is remembered


def test_only_failures_of_the_page_are_worth_keeping() -> None:
    def lasting(code: ErrorCode) -> bool:
        return lasting_error(Page.failed(URL, error(code))) is not None

    assert all(lasting(code) for code in (ErrorCode.NOT_FOUND, ErrorCode.TIMEOUT, ErrorCode.NEEDS_JAVASCRIPT))
    refusals = (ErrorCode.BLOCKED_ADDRESS, ErrorCode.ROBOTS_DISALLOWED, ErrorCode.RATE_LIMITED)
    assert not any(lasting(code) for code in (*refusals, ErrorCode.BROWSER_UNAVAILABLE))
    recalled = Page.failed(URL, error(ErrorCode.NOT_FOUND), fetched_via="store")
    assert lasting_error(recalled) is None  # kept already: seeing it again does not make it younger


def test_the_human_view_says_how_many_were_remembered() -> None:
    gone = error(ErrorCode.HTTP_ERROR, "HTTP 404")
    result = SearchResult(
        query="q",
        verified=True,
        candidates=3,
        unreachable=[
            Unreachable(url=URL, error=gone, remembered_at=datetime.now(UTC)),
            Unreachable(url="https://example.org/b", error=gone),
        ],
    )
    said = "0 results of 3 candidates (2 unreachable (2 http_error; 1 remembered, not asked again))"
    assert header(result).startswith(said)


# -- verification ---------------------------------------------------------------------------------


async def test_a_dead_candidate_is_not_asked_again_by_the_next_search(tmp_path: Path, simweb: SimWeb) -> None:
    urls = [simweb.own("/dead/404", "/status/404"), simweb.add("/alive", article_html("Alive"))]
    async with ferret(tmp_path) as f:
        first = await verify_hits(f, hits(*urls), wanted=2, timeout=10)
    assert dead(first) == [("404", False)] and simweb.served("/dead/404") == 1
    assert (tmp_path / UNREACHABLE_FILE).exists()
    async with ferret(tmp_path) as f:  # another process of the same home
        second = await verify_hits(f, hits(*urls), wanted=2, timeout=10)
        fresh = await verify_hits(f, hits(*urls), wanted=2, timeout=10, fresh=True)
    assert dead(second) == [("404", True)] and [hit.url for hit in second.kept] == urls[1:]
    error = second.unreachable[0].error
    assert error is not None and error.status == 404 and "(remembered: seen " in error.message
    assert dead(fresh) == [("404", False)] and simweb.served("/dead/404") == 2  # asked again when fresh


SOFT_404 = (
    "<html><head><title>Page not found</title></head><body><h1>404 Page not found</h1>"
    "<p>Sorry, the page you requested does not exist.</p></body></html>"
)
LOGIN_WALL = (
    "<html><head><title>Members</title></head><body><h1>Members only</h1>"
    "<p>Sign in to continue reading this story.</p><form><input type='password'></form></body></html>"
)
COOKIE_WALL = (
    "<html><head><title>Before you continue</title></head><body><h1>Before you continue</h1>"
    "<p>We use cookies and data to deliver services.</p><button>Accept all</button>"
    "<button>Reject all</button></body></html>"
)


async def test_a_page_read_as_something_else_is_unreachable(tmp_path: Path, simweb: SimWeb) -> None:
    """HTTP 200 with a soft 404, a login wall or a cookie wall (the extractor's vetoes): what was read
    is not the page the engine ranked, so a spare takes its place, also when the store answers."""
    walls = [simweb.add(f"/{name}", body) for name, body in [("soft", SOFT_404), ("login", LOGIN_WALL)]]
    walls.append(simweb.add("/cookie", COOKIE_WALL))
    urls = [*walls, simweb.add("/alive", article_html("Alive"))]
    async with ferret(tmp_path) as f:
        for _ in range(2):  # the second from the store
            verified = await verify_hits(f, hits(*urls), wanted=1, timeout=10)
            assert [hit.url for hit in verified.kept] == urls[3:]
            assert dead(verified) == [("soft", False), ("login", False), ("cookie", False)]
            codes = [item.error.code if item.error else None for item in verified.unreachable]
            assert codes == [ErrorCode.NOT_FOUND, ErrorCode.BLOCKED_BY_SITE, ErrorCode.BLOCKED_BY_SITE]
    assert simweb.served("/soft") == 1
    message = verified.unreachable[0].error.message if verified.unreachable[0].error else ""
    assert "soft 404" in message and message.endswith("/soft")


async def test_a_page_read_again_is_forgotten(tmp_path: Path, simweb: SimWeb) -> None:
    url = simweb.add("/flaky", b"down for a moment", status=503)
    async with ferret(tmp_path) as f:
        assert dead(await verify_hits(f, hits(url), wanted=1, timeout=10)) == [("flaky", False)]
        simweb.add("/flaky", article_html("Back up"))
        assert dead(await verify_hits(f, hits(url), wanted=1, timeout=10)) == [("flaky", True)]
        again = await verify_hits(f, hits(url), wanted=1, timeout=10, fresh=True)
        assert [hit.url for hit in again.kept] == [url]
    async with ferret(tmp_path, fresh_seconds=0.001) as f:  # the stored copy does not answer
        time.sleep(0.01)
        assert [hit.url for hit in (await verify_hits(f, hits(url), wanted=1, timeout=10)).kept] == [url]
    assert simweb.served("/flaky") == 3  # the read forgot the failure: the last search asked anew


async def test_a_page_fetched_since_its_failure_answers_from_the_store(
    tmp_path: Path, simweb: SimWeb
) -> None:
    url = simweb.add("/later", b"", status=404)
    async with ferret(tmp_path) as f:
        await verify_hits(f, hits(url), wanted=1, timeout=10)
        simweb.add("/later", article_html("Written since"))
        assert (await f.fetch(url)).ok  # a fetch asks whatever a search remembers
        verified = await verify_hits(f, hits(url), wanted=1, timeout=10)
    assert [hit.url for hit in verified.kept] == [url] and simweb.served("/later") == 2


async def test_a_timeout_is_asked_again_by_a_search_that_waits_longer(tmp_path: Path, simweb: SimWeb) -> None:
    replied = threading.Event()

    def slow(handler: Handler, web: SimWeb) -> None:
        web.closing.wait(1.5)
        handler.reply(200, article_html("Slow").encode(), {"Content-Type": "text/html"})
        replied.set()

    url = simweb.add("/verify/slow", stream=slow)
    async with ferret(tmp_path) as f:
        first = await verify_hits(f, hits(url), wanted=1, timeout=0.5)
        assert dead(first) == [("slow", False)]
        message = str(first.unreachable[0].error and first.unreachable[0].error.message)
        assert "setting verify_timeout" in message and "setting timeout" not in message  # the one to raise
        assert dead(await verify_hits(f, hits(url), wanted=1, timeout=0.5)) == [("slow", True)]
        assert simweb.served("/verify/slow") == 1
        waited = await verify_hits(f, hits(url), wanted=1, timeout=5)
    assert [hit.url for hit in waited.kept] == [url] and simweb.served("/verify/slow") == 2


async def test_no_memory_when_its_setting_is_zero(tmp_path: Path, simweb: SimWeb) -> None:
    url = simweb.own("/quiet/410", "/status/410")
    async with ferret(tmp_path, unreachable_seconds=0) as f:
        for _ in range(2):
            assert dead(await verify_hits(f, hits(url), wanted=1, timeout=10)) == [("410", False)]
    assert simweb.served("/quiet/410") == 2 and not (tmp_path / UNREACHABLE_FILE).exists()


async def test_a_damaged_memory_is_asked_around(tmp_path: Path, simweb: SimWeb) -> None:
    (tmp_path / UNREACHABLE_FILE).write_bytes(b"not a database, " * 64)
    url = simweb.own("/damaged/404", "/status/404")
    async with ferret(tmp_path) as f:
        for _ in range(2):
            assert dead(await verify_hits(f, hits(url), wanted=1, timeout=10)) == [("404", False)]
    assert simweb.served("/damaged/404") == 2


# -- the command line -----------------------------------------------------------------------------


def test_cli_search_remembers_a_dead_result_and_fresh_asks_again(
    tmp_path: Path, searx: SearxServer, fake_web: FakeWeb, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["search", "ferret", "--engines", "searxng", "--searxng-url", searx.url]
    argv += ["--allow-host", "127.0.0.1", "--home", str(tmp_path), "--json"]
    before = fake_web.server.paths.count("/pages/dead")

    def unreachable(*flags: str) -> list[dict]:
        assert main([*argv, *flags]) == 0
        return json.loads(capsys.readouterr().out)["data"]["unreachable"]

    first, second, fresh = unreachable(), unreachable(), unreachable("--fresh")
    assert [item["remembered_at"] for item in (first[0], fresh[0])] == [None, None]
    assert second[0]["url"] == first[0]["url"] and second[0]["url"].endswith("/pages/dead")
    assert second[0]["remembered_at"] and second[0]["error"]["code"] == "http_error"
    assert fake_web.server.paths.count("/pages/dead") - before == 2  # the first search and --fresh
    assert main(argv[:-1]) == 0  # the human view
    assert (
        "(1 unreachable (1 http_error; 1 remembered, not asked again))"
        in capsys.readouterr().out.splitlines()[0]
    )
