"""Strings no URL or query can be (a lone surrogate, as `json.loads('"\\ud800"')` gives and an
undecodable command-line byte becomes) and options of the wrong type: a clear error each, and a batch
keeps the pages that worked."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from simweb import SimWeb, article_html

from webferret.cli import main
from webferret.ferret import Ferret
from webferret.models import ErrorCode, FerretError


async def test_a_url_that_is_no_text_fails_alone_in_its_batch(tmp_path: Path, simweb: SimWeb) -> None:
    good = simweb.add("/ferrets", article_html())
    bad = json.loads(f'"{good}\\ud800"')
    async with Ferret(home=tmp_path, allow_hosts=["127.0.0.1"]) as f:
        first, second = await f.fetch_many([good, bad])
        again = await f.fetch(bad)  # the store is looked in first: that path too
    assert first.ok and not second.ok and second.error is not None
    assert second.error.code == ErrorCode.INVALID_URL and "no text" in second.error.message
    assert second.url == good + "\\ud800" and not again.ok


@pytest.mark.parametrize("where", ["path", "host"])
async def test_a_crawl_or_map_from_a_url_that_is_no_text_answers_its_start_page_failed(
    tmp_path: Path, simweb: SimWeb, where: str
) -> None:
    """A crawl or a map from such a URL was a UnicodeEncodeError from inside (its key, then its
    robots.txt and sitemaps were looked up); its start page fails `invalid_url`, as a fetch's does."""
    good = simweb.add("/ferrets", article_html())
    start = json.loads(f'"{good}\\ud800"' if where == "path" else '"http://\\ud800.example/guide/"')
    async with Ferret(home=tmp_path, allow_hosts=["127.0.0.1"]) as f:
        crawled = await f.crawl(start)
        mapped = await f.map_site(start)
    (page,) = crawled.pages
    assert page.error is not None and page.error.code == ErrorCode.INVALID_URL
    assert mapped.start_error is not None and mapped.start_error.code == ErrorCode.INVALID_URL
    assert mapped.urls == [] and mapped.sitemap_urls is None


@pytest.mark.parametrize("call", ["open", "find", "search"])
async def test_a_handle_or_query_that_is_no_text_is_invalid(tmp_path: Path, call: str) -> None:
    text = json.loads('"ferret\\ud800"')
    async with Ferret(home=tmp_path) as f:
        with pytest.raises(FerretError) as caught:
            await getattr(f, call)(text)
    assert caught.value.code == ErrorCode.INVALID_ARGUMENT and "no text" in caught.value.message


@pytest.mark.parametrize("field", ["selector", "exclude"])
def test_a_css_selector_that_is_no_text_is_invalid(field: str) -> None:
    """An `exclude` selector holding a lone surrogate (an undecodable `--exclude` byte, JSON's
    `"\\ud800"` given to web_fetch or the API) was an internal UnicodeEncodeError from lxml."""
    from webferret.extract.types import ExtractOptions

    css = json.loads('"nav\\ud800"')
    with pytest.raises(FerretError) as caught:
        ExtractOptions(**{field: css if field == "selector" else [css]})  # type: ignore[arg-type]
    assert caught.value.code == ErrorCode.INVALID_ARGUMENT and f"{field}: it has a character" in str(
        caught.value
    )


@pytest.mark.parametrize(("name", "value"), [("options", {"timeout": 5}), ("extract", "markdown")])
async def test_options_of_the_wrong_type_are_invalid(tmp_path: Path, name: str, value: object) -> None:
    async with Ferret(home=tmp_path) as f:
        with pytest.raises(FerretError) as caught:
            await f.fetch("https://ferret.example/", **{name: value})
    assert caught.value.code == ErrorCode.INVALID_ARGUMENT and caught.value.message.startswith(f"{name}: a ")


def test_an_undecodable_byte_on_the_command_line_is_an_invalid_url(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = b"http://127.0.0.1:9/\xff".decode("utf-8", "surrogateescape")  # as Python reads argv
    assert main(["fetch", url, "--home", str(tmp_path), "--json"]) == 1
    page = json.loads(capsys.readouterr().out)["data"]["pages"][0]
    assert page["error"]["code"] == "invalid_url" and "Traceback" not in page["error"]["message"]


async def test_a_closed_ferret_answers_no_more_calls(tmp_path: Path, simweb: SimWeb) -> None:
    url = simweb.add("/ferrets", article_html())
    async with Ferret(home=tmp_path, allow_hosts=["127.0.0.1"]) as f:
        assert (await f.fetch(url)).ok
    await f.aclose()  # a second close does nothing
    for call in (lambda: f.fetch(url), lambda: f.search("ferret"), lambda: f.find("ferret")):
        with pytest.raises(FerretError) as caught:
            await call()
        assert caught.value.code == ErrorCode.INVALID_ARGUMENT and "closed" in caught.value.message
    with pytest.raises(FerretError, match="closed"):  # nor is its store opened again (glue's spool)
        _ = f.store


def test_a_ferret_is_used_in_the_event_loop_it_began_in(tmp_path: Path, simweb: SimWeb) -> None:
    import asyncio

    url = simweb.add("/ferrets", article_html())
    f = Ferret(home=tmp_path, allow_hosts=["127.0.0.1"])
    assert asyncio.run(f.fetch(url)).ok
    for call in (lambda: f.fetch(url), lambda: f.open(url)):
        with pytest.raises(FerretError) as caught:
            asyncio.run(call())
        assert (
            caught.value.code == ErrorCode.INVALID_ARGUMENT and "another event loop" in caught.value.message
        )
    asyncio.run(f.aclose())  # closing still works from another loop
    with pytest.raises(FerretError, match="closed"):
        asyncio.run(f.fetch(url))


def test_a_page_given_up_on_does_not_hold_the_command(tmp_path: Path, simweb: SimWeb) -> None:
    """A page whose extraction outlasts the budget is answered `timeout` at the budget, and the
    worker process still on it is ended, not waited for (its extraction alone takes ten seconds of
    CPU). Told by the CPU time the command and its reaped workers used, not by the wall clock, which a
    loaded machine stretches past any bound for the command's own start."""
    import os
    import subprocess
    import sys

    from simweb import wait_for

    links = "".join(f'<li><a href="/p/{i}">link number {i} with words</a></li>' for i in range(40_000))
    url = simweb.add("/big", f"<html><body><main><h1>Big</h1><ul>{links}</ul></main></body></html>")
    argv = ["fetch", url, "--budget", "1", "--allow-host", "127.0.0.1", "--home", str(tmp_path), "--json"]
    cpu = _children_cpu()
    done = subprocess.run(
        [sys.executable, "-m", "webferret", *argv],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "WEBFERRET_SERVE": "off"},
    )
    used = _children_cpu() - cpu
    assert done.returncode == 1 and json.loads(done.stdout)["data"]["pages"][0]["error"]["code"] == "timeout"
    assert used < 6, f"the command and its workers used {used:.1f} s of CPU (the extraction was waited for)"
    assert wait_for(lambda: not _naming(tmp_path), 10), "a worker process lives on"


def _children_cpu() -> float:
    """CPU seconds of this process's ended children (and of the children they waited for)."""
    import resource

    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _naming(folder: Path) -> list[Path]:
    """The processes whose command line names `folder`."""
    return [proc for proc in Path("/proc").glob("[0-9]*") if _cmdline(proc).count(str(folder))]


def _cmdline(proc: Path) -> str:
    try:
        return (proc / "cmdline").read_bytes().decode(errors="replace")
    except OSError:
        return ""


def test_end_now_ends_a_busy_worker() -> None:
    import multiprocessing
    import time
    from concurrent.futures import ProcessPoolExecutor

    from webferret.extract.pool import end_now

    pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
    pool.submit(time.sleep, 60)
    time.sleep(0.5)
    (worker,) = list(pool._processes.values())  # type: ignore[attr-defined]
    end_now(pool)
    # asked of the system, not of `worker`: the pool's own thread may reap the process first, and
    # then `is_alive()` cannot learn that it ended (its `waitpid` finds no child and says "alive")
    deadline = time.monotonic() + 10
    while _running(worker.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _running(worker.pid)


def _running(pid: int | None) -> bool:
    """Whether the process `pid` runs (a zombie, ended but not yet reaped, does not)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "\nState:\tZ" not in status


async def test_calls_under_way_when_a_ferret_is_closed_say_so(tmp_path: Path, simweb: SimWeb) -> None:
    """`aclose` while a batch is being read (a task left running): the page whose request was at the
    site failed `connect_failed`, as if the site had dropped it, and the pages waiting their turn
    `internal` ("RuntimeError: Cannot send a request, as the client has been closed")."""
    import asyncio

    urls = [simweb.add(f"/closing/{i}", article_html(f"Closing {i}"), delay=1.0) for i in range(3)]
    f = Ferret(home=tmp_path, allow_hosts=["127.0.0.1"], per_host_concurrency=1)
    batch = asyncio.create_task(f.fetch_many(urls))
    while not simweb.served("/closing/0"):  # the others wait their turn
        await asyncio.sleep(0.01)
    await f.aclose()
    pages = await batch
    assert all(page.error is None or page.error.code != ErrorCode.INTERNAL for page in pages), [
        (page.ok, page.error, page.meta.get("store_error")) for page in pages
    ]
    for page in pages:
        if page.ok:  # read before the close: answered, and said not kept
            assert "closed (aclose)" in page.meta["store_error"]
        else:
            assert page.error is not None and page.error.code == ErrorCode.INVALID_ARGUMENT
            assert "closed (aclose)" in page.error.message


async def test_a_crawl_whose_ferret_is_closed_under_it_answers_what_it_read(
    tmp_path: Path, simweb: SimWeb
) -> None:
    """`aclose` from a crawl's `on_page`: the crawl's next request (its site's robots.txt) was sent by
    the closed HTTP client, and the crawl raised httpx's RuntimeError ("Cannot send a request, as
    the client has been closed") in place of its answer."""
    from webferret.crawler import CrawlOptions

    links = "".join(f'<p><a href="/shut/{n}">Part {n}</a></p>' for n in range(2))
    start = simweb.add("/shut/", article_html("Start").replace("</article>", links + "</article>"))
    for n in range(2):
        simweb.add(f"/shut/{n}", article_html(f"Part {n}"))
    f = Ferret(home=tmp_path, allow_hosts=["127.0.0.1"])

    async def close(entry: object) -> None:
        await f.aclose()

    crawled = await f.crawl(start, CrawlOptions(depth=1, limit=3), on_page=close)
    assert crawled.pages[0].ok and crawled.pages[0].url == start


async def test_a_closed_ferret_makes_no_client_or_worker_anew(tmp_path: Path, simweb: SimWeb) -> None:
    """A part a call still under way asks for after `aclose` (its first request, its first page to
    extract) was made anew, and nothing closed it: an HTTP client's sockets, the extractor's worker
    processes. It is refused instead, and the page fails saying why."""
    from webferret.fetch.types import RawResponse

    url = simweb.add("/ferrets", article_html())
    async with Ferret(home=tmp_path, allow_hosts=["127.0.0.1"]) as f:
        assert (await f.fetch(url)).ok
    for part in ("fetcher", "engine_client", "extractor"):
        with pytest.raises(FerretError) as caught:
            getattr(f, part)
        assert caught.value.code == ErrorCode.INVALID_ARGUMENT and "closed (aclose)" in caught.value.message
    html = {"Content-Type": "text/html"}
    raw = RawResponse(url=url, final_url=url, status=200, headers=html, body=article_html().encode())
    page = await f.page_from_raw(raw)
    assert page.error is not None and page.error.code == ErrorCode.INVALID_ARGUMENT


async def test_a_page_whose_connection_opened_as_its_ferret_closed_leaves_no_socket_open(
    tmp_path: Path,
) -> None:
    """`aclose` while a request's connection was still being made (here: a proxy slow to open the
    tunnel): its pool, closed, no longer held that connection, so once the page was read nothing
    closed it, and its socket was left to the garbage collector (`ResourceWarning: unclosed`)."""
    import asyncio
    import gc
    import socket
    import threading
    import warnings

    asked, go = threading.Event(), threading.Event()
    page = article_html().encode()

    def tunnel(server: socket.socket) -> None:
        client, _ = server.accept()
        with client:
            client.recv(4096)  # the CONNECT
            asked.set()
            go.wait(30)
            client.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
            client.recv(4096)  # the GET, through the tunnel
            head = f"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {len(page)}\r\n\r\n"
            client.sendall(head.encode() + page)
            client.recv(1)  # kept open until the client closes it, as a kept-alive connection is

    gc.collect()  # what earlier tests left for the collector is not this test's
    with socket.create_server(("127.0.0.1", 0)) as server:
        proxy = f"http://127.0.0.1:{server.getsockname()[1]}"
        serving = threading.Thread(target=tunnel, args=(server,), daemon=True)
        serving.start()
        f = Ferret(home=tmp_path, allow_hosts=["127.0.0.1"], proxy=proxy, no_proxy="elsewhere.example")
        reading = asyncio.create_task(f.fetch("http://127.0.0.1:9/page"))
        while not asked.is_set():
            await asyncio.sleep(0.01)
        await f.aclose()
        go.set()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            await reading
            gc.collect()
        serving.join(30)
    assert not [w for w in caught if issubclass(w.category, ResourceWarning)], [
        str(w.message) for w in caught
    ]


async def test_a_closed_ferret_of_a_home_with_no_store_says_it_is_closed(tmp_path: Path) -> None:
    """After `aclose`, a reading call of a home with no store answered not_found ('no page store at
    ...'), as if the home were mistyped, where a home with a store answered that the Ferret is closed."""
    f = Ferret(home=tmp_path / "new")
    await f.aclose()
    for call in (lambda: f.find("ermine"), lambda: f.open("x.example~0123456789ab"), lambda: f.list_stored()):
        with pytest.raises(FerretError) as caught:
            await call()
        assert caught.value.code == ErrorCode.INVALID_ARGUMENT and "closed (aclose)" in caught.value.message
