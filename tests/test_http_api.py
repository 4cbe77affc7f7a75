"""`webferret api`: the core over HTTP and JSON, served by uvicorn on loopback and called over real
HTTP, against the simulated web (pages) and a SearXNG-shaped JSON answer on it (search)."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from chromium import CHROMIUM, needs_chromium
from contract import fits_envelope
from simweb import Handler, SimWeb, article_html, wait_for

from webferret.cli import main
from webferret.config import ConfigError, Settings, load_settings
from webferret.http_api.app import build_app
from webferret.http_api.params import FetchParams, ParamError, SearchParams
from webferret.models import Page
from webferret.store.pages import PageStore

HTML = {"Content-Type": "text/html"}
TOKEN = "s3cret-token"


class Api:
    """`build_app` served by uvicorn in a thread; `client` calls it over loopback."""

    def __init__(self, settings: Settings) -> None:
        import socket

        import uvicorn

        # bound here and handed over (a port released here for uvicorn to bind could be taken meanwhile)
        self.socket = socket.socket()
        self.socket.bind(("127.0.0.1", 0))
        self.port = self.socket.getsockname()[1]
        config = uvicorn.Config(
            build_app(settings, "127.0.0.1"), host="127.0.0.1", port=self.port, log_level="warning"
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.socket]}, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started and time.monotonic() < deadline:
            time.sleep(0.02)
        assert self.server.started, "the API did not start within 30 s"
        self.client = httpx.Client(base_url=f"http://127.0.0.1:{self.port}", timeout=60)

    def stop(self) -> None:
        self.client.close()
        self.server.should_exit = True
        self.thread.join(10)
        self.socket.close()


def _settings(home: Path, simweb: SimWeb, **extra: object) -> Settings:
    return Settings(
        home=home,
        allow_hosts=["127.0.0.1"],
        searxng_url=simweb.url("/"),
        engines="searxng",
        **extra,  # type: ignore[arg-type]
    )


@pytest.fixture
def api(tmp_path: Path, simweb: SimWeb) -> Iterator[Api]:
    served = Api(_settings(tmp_path / "home", simweb))
    yield served
    served.stop()


def test_fetch_by_get_and_post_answers_the_clis_envelope(api: Api, simweb: SimWeb) -> None:
    good = simweb.add("/api/guide", article_html("Ferret guide", 6), headers=HTML)
    dead = simweb.add("/api/gone", "gone", status=404)
    got = api.client.get("/fetch", params={"url": good, "max_chars": "80", "link_limit": "2"})
    posted = api.client.post("/fetch", json={"urls": [good, dead]})
    assert got.status_code == 200 and got.headers["content-type"] == "application/json"
    one = got.json()
    fits_envelope(one, "fetch")
    page = one["data"]["pages"][0]
    assert one["ok"] and one["meta"] == {"count": 1, "failed": 0}
    assert page["title"] == "Ferret guide" and len(page["content"]) <= 80 + 40  # clipped, with its note
    assert page["links"] is not None and len(page["links"]) <= 2  # link_limit implies links
    batch = posted.json()
    assert posted.status_code == 200 and not batch["ok"] and batch["meta"] == {"count": 2, "failed": 1}
    kept, failed = batch["data"]["pages"]
    assert kept["ok"] and kept["handle"] == page["handle"] and kept["fetched_via"] == "store"
    assert failed["error"]["code"] == "http_error" and failed["error"]["status"] == 404


def test_reader_answers_a_page_as_markdown_and_says_why_one_failed(api: Api, simweb: SimWeb) -> None:
    url = simweb.add("/api/read", article_html("Ferret reader", 4), headers=HTML)
    read = api.client.get(f"/r/{url}?utm_source=x")
    as_json = api.client.get(f"/r/{url}", headers={"Accept": "application/json"})
    blocked = api.client.get("/r/http://10.1.2.3/admin")
    folded = api.client.get("/r/" + url.replace("http://", "http:/"))  # a proxy folded `//`
    as_text = api.client.get(
        f"/r/{url}", headers={"X-Webferret-Format": "text", "X-Webferret-Max-Chars": "60"}
    )
    as_html = api.client.get(f"/r/{url}", headers={"X-Webferret-Format": "html"})
    bogus = api.client.get(f"/r/{url}", headers={"X-Webferret-Bogus": "1"})
    another = api.client.get(f"/r/{url}", headers={"X-Webferret-Url": url})
    assert read.status_code == 200 and read.headers["content-type"].startswith("text/markdown")
    assert read.text.startswith("# Ferret reader\n") and read.headers["x-webferret-handle"].startswith(
        "127.0.0.1~"
    )
    assert as_json.json()["data"]["pages"][0]["url"] == url
    assert blocked.status_code == 403 and "blocked_address" in blocked.text
    assert folded.status_code == 200 and "Ferret reader" in folded.text
    body = as_text.text.split("\n\n", 1)[1]  # the page's text after its header lines
    assert "\n## " in read.text and as_text.status_code == 200
    assert "#" not in body and len(body) < 200  # plain text (no Markdown headings), clipped
    assert as_text.headers["content-type"].startswith("text/plain")
    assert "<h2>" in as_html.text and as_html.headers["content-type"].startswith("text/plain")
    assert bogus.status_code == 400 and "unknown parameter 'bogus'" in bogus.text
    assert another.status_code == 400 and "the URL is the path" in another.text


@needs_chromium
def test_the_reader_answers_the_rendered_picture_when_asked(tmp_path: Path, simweb: SimWeb) -> None:
    url = simweb.add("/api/picture", article_html("Ferret portrait", 3), headers=HTML)
    served = Api(_settings(tmp_path / "home", simweb, chromium_path=CHROMIUM, browser_no_sandbox=True))
    try:
        picture = served.client.get(f"/r/{url}", headers={"Accept": "image/png"})
        plain_tier = served.client.get(
            f"/r/{url}", headers={"Accept": "image/png", "X-Webferret-Tier": "http"}
        )
    finally:
        served.stop()
    assert picture.status_code == 200 and picture.headers["content-type"] == "image/png"
    assert picture.content.startswith(b"\x89PNG\r\n\x1a\n") and picture.headers["x-webferret-handle"]
    assert plain_tier.status_code == 400 and "needs the browser" in plain_tier.json()["error"]["message"]


def test_the_store_endpoints_read_what_fetch_kept(api: Api, simweb: SimWeb) -> None:
    url = simweb.add("/api/long", article_html("Ferret almanac", 40), headers=HTML)
    handle = api.client.get("/fetch", params={"url": url}).json()["data"]["pages"][0]["handle"]
    second = api.client.get("/open", params={"handle": handle, "page": "2", "page_tokens": "200"}).json()
    outline = api.client.post("/outline", json={"handle": url}).json()  # a URL names its page too
    diff = api.client.get("/diff", params={"handle": handle}).json()
    found = api.client.get("/find", params={"q": "ferret", "n": "2", "handle": handle}).json()
    stored = api.client.get("/stored", params={"site": "127.0.0.1"}).json()
    missing = api.client.get("/open", params={"handle": "127.0.0.1~000000000000"})
    fits_envelope(second, "open")
    fits_envelope(outline, "outline")
    fits_envelope(diff, "diff")
    fits_envelope(found, "find")
    fits_envelope(stored, "store-list")
    assert second["data"]["page"] == 2 and second["data"]["pages"] > 2
    assert outline["data"]["handle"] == handle and diff["data"]["status"] == "new"
    assert found["meta"]["count"] >= 1 and all(p["handle"] == handle for p in found["data"]["passages"])
    assert handle in [page["handle"] for page in stored["data"]["pages"]]
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"


def test_search_map_and_crawl(api: Api, simweb: SimWeb) -> None:
    facts = ("Ferrets sleep eighteen hours a day in hammocks. ", "Otters hold paws while they float. ")
    pages = [
        simweb.add(
            f"/api/s/{n}",
            f"<html><body><article><h1>Ferret {n}</h1><p>{fact * 12}</p></article></body></html>",
            headers=HTML,
        )
        for n, fact in enumerate(facts)
    ]
    results = [{"url": url, "title": f"Ferret {n}", "content": "A ferret."} for n, url in enumerate(pages)]
    simweb.add("/search", json.dumps({"results": results}), headers={"Content-Type": "application/json"})
    start = simweb.add(
        "/api/site/start",
        "<html><body><article><h1>Start</h1><p>Ferrets sleep a lot and play the rest of the day.</p>"
        '<a href="/api/site/care">Care</a> <a href="/api/site/food">Food</a></article></body></html>',
        headers=HTML,
    )
    for name in ("care", "food"):
        simweb.add(f"/api/site/{name}", article_html(f"Ferret {name}", 3), headers=HTML)
    found = api.client.get("/search", params={"q": "ferret", "read": "1"}).json()
    listed = api.client.get("/s/ferret+facts", headers={"X-Webferret-Read": "1", "X-Webferret-N": "5"})
    mapped = api.client.get("/map", params={"url": start, "search": "care", "sitemap": "false"}).json()
    crawled = api.client.post("/crawl", json={"url": start, "depth": 1, "robots": False}).json()
    fits_envelope(found, "search")
    fits_envelope(mapped, "map")
    fits_envelope(crawled, "crawl")
    assert [hit["url"] for hit in found["data"]["results"]] == pages
    assert found["data"]["read"][0]["title"] == "Ferret 0" and found["meta"]["verified"]
    assert listed.status_code == 200 and listed.headers["content-type"].startswith("text/markdown")
    assert 'for "ferret facts"' in listed.text and all(url in listed.text for url in pages)
    assert "Ferrets sleep eighteen hours" in listed.text  # the page read after the listing
    assert mapped["data"]["urls"][0]["url"].endswith("/api/site/care")
    assert crawled["meta"] == {"count": 3, "failed": 0}


def test_fetch_and_crawl_stream_their_pages_as_json_lines(api: Api, simweb: SimWeb) -> None:
    fast = simweb.add("/api/line/fast", article_html("Ferret quick", 4), headers=HTML)
    slow = simweb.add("/api/line/slow", article_html("Ferret slow", 5), headers=HTML, delay=0.6)
    copy = simweb.add("/api/line/copy", article_html("Ferret quick", 4), headers=HTML)
    asked = {"url": [slow, fast, copy, simweb.url("/api/line/none")], "max_chars": 100}
    ndjson = {"Accept": "application/x-ndjson"}
    with api.client.stream("POST", "/fetch", json=asked, headers=ndjson) as answer:
        kind = answer.headers["content-type"]
        lines = [json.loads(line) for line in answer.iter_lines() if line]
    *pages, done = lines
    assert kind.startswith("application/x-ndjson") and len(pages) == 4
    assert pages[-1]["url"] == slow  # finishing order: the slow page last
    marked = {page["url"]: page.get("duplicate_of") for page in pages}
    # whichever of the two copies finished second is marked (under load, either may finish first)
    assert (marked[fast] is None) != (marked[copy] is None), marked
    assert all(len(page["content"]) <= 140 for page in pages)
    assert done["done"] and not done["ok"] and done["data"] is None
    assert done["meta"] == {"count": 4, "failed": 1}
    start = simweb.add(
        "/api/line/start",
        "<html><body><article><h1>Start</h1><p>Ferrets sleep a lot and play the rest of the day.</p>"
        '<a href="/api/line/fast">Fast</a></article></body></html>',
        headers=HTML,
    )
    with api.client.stream("GET", "/crawl", params={"url": start, "depth": "1"}, headers=ndjson) as answer:
        crawled = [json.loads(line) for line in answer.iter_lines() if line]
    *read, summary = crawled
    assert [page["meta"]["crawl"]["depth"] for page in read] == [0, 1]
    assert (
        read[1]["title"] == "Ferret quick"
        and read[1]["content"]
        and summary["ok"]
        and summary["meta"]["count"] == 2
    )
    assert summary["data"]["scope"].endswith("/api/line/") and "pages" not in summary["data"]


def test_a_json_body_is_read_whatever_the_case_of_its_content_type(api: Api, simweb: SimWeb) -> None:
    """A media type is case-insensitive (RFC 9110): `Application/JSON` names a JSON body too."""
    good = simweb.add("/api/cased", article_html("Cased guide", 3), headers=HTML)
    posted = api.client.post(
        "/fetch",
        content=json.dumps({"url": good}),
        headers={"Content-Type": "Application/JSON; charset=UTF-8"},
    )
    assert posted.status_code == 200 and posted.json()["data"]["pages"][0]["title"] == "Cased guide"


def test_an_accept_header_is_read_whatever_the_case_of_its_media_types(api: Api, simweb: SimWeb) -> None:
    """`Accept: Application/X-NDJSON` was answered one envelope, not a stream, and `/r/` with
    `Accept: Application/JSON` Markdown, not the envelope: media types are case-insensitive."""
    good = simweb.add("/api/accepted", article_html("Accepted guide", 3), headers=HTML)
    streamed = api.client.get("/fetch", params={"url": good}, headers={"Accept": "Application/X-NDJSON"})
    read = api.client.get(f"/r/{good}", headers={"Accept": "Application/JSON"})
    assert streamed.headers["content-type"].startswith("application/x-ndjson")
    assert json.loads(streamed.text.splitlines()[-1])["done"]
    assert read.headers["content-type"] == "application/json" and read.json()["ok"]


def test_a_page_that_says_when_to_retry_is_answered_with_retry_after(api: Api, simweb: SimWeb) -> None:
    """`/r/` answered a rate-limited page 429 with the wait only in its text: a client's retry logic
    reads the `Retry-After` header a 429 carries."""
    busy = simweb.add("/api/busy", "slow down", status=429, headers={"Retry-After": "3600"})
    read = api.client.get(f"/r/{busy}")
    as_json = api.client.get(f"/r/{busy}", headers={"Accept": "application/json"})
    assert read.status_code == 429 and read.headers["retry-after"] == "3600"
    assert as_json.status_code == 429 and as_json.headers["retry-after"] == "3600"
    fine = api.client.get(f"/r/{simweb.add('/api/calm', article_html('Calm', 3), headers=HTML)}")
    assert fine.status_code == 200 and "retry-after" not in fine.headers


def test_bad_calls_are_named_never_a_traceback(api: Api) -> None:
    calls = [
        (api.client.get("/search", params={"q": "x", "qq": "y"}), 400, "unknown parameter 'qq'"),
        (api.client.get("/search", params=[("q", "a"), ("q", "b")]), 400, "'q' is given twice"),
        (api.client.get("/search", params={"q": "x", "n": "500"}), 400, "parameter 'n'"),
        (api.client.get("/search", params={"q": "x", "engines": ""}), 400, "no engine selected"),  # not auto
        (api.client.get("/fetch"), 400, "parameter 'url' is missing"),
        (
            api.client.post("/fetch", content=b"[1]", headers={"content-type": "application/json"}),
            400,
            "the body is an array, not a JSON object",
        ),
        (  # named as JSON names it, not as Python does (NoneType)
            api.client.post("/fetch", content=b"null", headers={"content-type": "application/json"}),
            400,
            "the body is null, not a JSON object",
        ),
        (
            api.client.post("/fetch", content=b"{", headers={"content-type": "application/json"}),
            400,
            "no JSON",
        ),
        (api.client.post("/fetch?url=x", json={"url": ["x"]}), 400, "in its JSON body"),
        (
            api.client.post("/fetch", content=b"url=x", headers={"content-type": "text/plain"}),
            400,
            "JSON object",
        ),
        (api.client.get("/crawl", params={"url": "http://x.example/", "scope": "nope"}), 400, "scope 'nope'"),
        (api.client.get("/fetch", params={"url": "x", "action": "hover:#a"}), 400, "hover:#a"),
        (api.client.post("/fetch", json={"url": ["x" * (1 << 20)]}), 413, "the JSON body is larger than"),
        (api.client.get("/nowhere"), 404, "no endpoint '/nowhere'"),
        (api.client.get("/fetch/", params={"url": "x"}), 404, "no endpoint '/fetch/'"),  # no bare redirect
        (api.client.delete("/fetch"), 405, "DELETE /fetch: it takes GET, HEAD, POST"),
        (api.client.post("/r/http://x.example/"), 405, "it takes GET, HEAD"),
        (api.client.get("/fetch", params={"url": "x", "timeout": "inf"}), 400, "parameter 'timeout'"),
        (api.client.post("/fetch", content=b'{"url": ["x"], "budget": Infinity}'), 400, "parameter 'budget'"),
        (api.client.get("/fetch", params={"url": "x", "header": "nocolon"}), 400, "write it NAME: VALUE"),
        (
            api.client.post(
                "/find",
                content=b'{"q":' + b"[" * 5000 + b"]" * 5000 + b"}",
                headers={"content-type": "application/json"},
            ),
            400,
            "nested too deep",
        ),
        (
            api.client.post(
                "/find", content=b'{"q": "a", "q": "b"}', headers={"content-type": "application/json"}
            ),
            400,
            "'q' is given twice",
        ),
        (api.client.post("/find", json={"q": "a", "query": "b"}), 400, "'q' is given twice (as 'query' too)"),
        (api.client.get("/search", params=[("q", "x"), ("", "y")]), 400, "unknown parameter ''"),
        (
            api.client.get("/diff", params={"handle": "x", "page_tokens": "500"}),
            400,
            "unknown parameter 'page_tokens'",
        ),
        (
            api.client.get(
                "/fetch", params={"url": "x", "selector": "<<"}, headers={"Accept": "application/x-ndjson"}
            ),
            400,
            "selector",
        ),
        (api.client.get("/r/http://x.example/a%0Ab"), 400, "line break: 'http://x.example/a\\nb'"),
        (api.client.get("/search", params={"q": "x", "engine_timeout": "1e300"}), 400, "'engine_timeout'"),
        (api.client.get("/s/rust?n=2"), 400, "without a query string (got 'n=2')"),  # not "rust" alone
        (api.client.get("/crawl", params={"url": "http://x.example/", "max_chars": "5"}), 400, "max_chars"),
        # a JSON true is no count (pydantic read it as 1: a page clipped at one character, a crawl of
        # depth 0 for false); a switch such as `links` still takes it
        (api.client.post("/fetch", json={"url": "x", "max_chars": True}), 400, "max_chars': it is no switch"),
        (api.client.post("/crawl", json={"url": "x", "depth": False}), 400, "'depth': it is no switch"),
        (api.client.post("/find", json={"q": "x", "results": True}), 400, "'n': it is no switch"),
        # nor a time (a `Seconds | None`: true was read as a 1 s engine timeout)
        (api.client.post("/search", json={"q": "x", "engine_timeout": True}), 400, "it is no switch"),
        (api.client.post("/fetch", json={"url": "x", "timeout": False}), 400, "'timeout': it is no switch"),
    ]
    deleted = next(answer for answer, _, said in calls if said.startswith("DELETE"))
    assert deleted.headers["allow"] == "GET, HEAD, POST"  # the 405 says what the path takes
    for answer, status, said in calls:
        body = answer.json()
        assert (answer.status_code, body["ok"]) == (status, False), body
        assert said in body["error"]["message"], body
    index = api.client.get("/").json()["data"]["endpoints"]
    assert index["/fetch"]["parameters"][0] == "url" and "/r/{url}" in index
    # the index, the 404's list and /openapi.json name /r/ and /s/ alike (not Starlette's {target:path})
    assert "/s/{q}" in index
    listed = api.client.get("/nope").json()["error"]["message"]
    assert "/r/{url}, /s/{q}," in listed and ":path" not in listed, listed


def test_extract_reads_a_posted_document_as_the_cli_reads_a_file(api: Api, tmp_path: Path) -> None:
    html = article_html("Ferret notes", 5).replace("</article>", '<a href="/more">More notes</a></article>')
    posted = api.client.post(
        "/extract",
        params={"url": "https://notes.example/ferrets", "links": ""},
        content=html.encode(),
        headers={"Content-Type": "text/html"},
    )
    sheet = api.client.post(
        "/extract", content=b"name,legs\nferret,4\n", headers={"Content-Type": "text/csv"}
    )
    huge = api.client.post(
        "/extract", content=b"x" * (Settings().max_bytes + 1), headers={"Content-Type": "text/plain"}
    )
    relative = api.client.post("/extract", params={"url": "notes/ferrets"}, content=b"<p>x</p>")
    (tmp_path / "notes.html").write_text(html, encoding="utf-8")
    cli = _cli_json(
        ["extract", str(tmp_path / "notes.html"), "--url", "https://notes.example/ferrets", "--links"]
    )
    page = posted.json()["data"]["pages"][0]
    fits_envelope(posted.json(), "fetch")
    assert posted.status_code == 200 and page["title"] == "Ferret notes" and page["handle"] is None
    assert "https://notes.example/more" in [link["url"] for link in page["links"]]
    assert page["content"] == cli["data"]["pages"][0]["content"]  # the same pipeline as the command
    assert "| ferret | 4 |" in sheet.json()["data"]["pages"][0]["content"]
    assert huge.status_code == 413 and huge.json()["error"]["code"] == "too_large"
    assert relative.status_code == 400 and "not an absolute URL" in relative.json()["error"]["message"]


def _cli_json(argv: list[str]) -> dict[str, object]:
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main([*argv, "--json"])
    return json.loads(out.getvalue())


def test_openapi_describes_every_endpoint_as_it_is_served(api: Api) -> None:
    from openapi_spec_validator import validate

    from webferret.http_api.calls import endpoints

    described = api.client.get("/openapi.json").json()
    validate(described)
    served = endpoints()
    assert (
        set(described["paths"]) == {*served, "/r/{url}", "/s/{q}", "/extract"} and "security" not in described
    )
    for path, endpoint in served.items():
        asked = described["paths"][path]
        assert [p["name"] for p in asked["get"]["parameters"]] == endpoint.params.names()
        body = asked["post"]["requestBody"]["content"]["application/json"]["schema"]["$ref"]
        assert body.endswith("/" + endpoint.params.__name__)
        assert ("application/x-ndjson" in asked["get"]["responses"]["200"]["content"]) == (
            endpoint.lines is not None
        )
    for path in ("/r/{url}", "/s/{q}"):  # a bad parameter's answer is the JSON error, as served
        assert {"text/markdown", "application/json"} <= set(
            described["paths"][path]["get"]["responses"]["default"]["content"]
        )
    url = next(p for p in described["paths"]["/fetch"]["get"]["parameters"] if p["name"] == "url")
    assert url["required"] and url["schema"]["type"] == "array" and url["explode"]


def test_headers_go_with_the_request_and_a_hang_up_cancels_the_call(api: Api, simweb: SimWeb) -> None:
    echoed = api.client.get("/fetch", params={"url": simweb.url("/echo"), "header": "X-Ferret: Sable"}).json()
    assert '"x-ferret": "Sable"' in echoed["data"]["pages"][0]["content"]
    hung_up = threading.Event()
    slow = simweb.add("/api/hang", stream=lambda handler, web: _until_hung_up(handler, hung_up))
    import logging

    logged: list[logging.LogRecord] = []
    handler = logging.Handler()
    handler.emit = logged.append  # type: ignore[method-assign]
    access = logging.getLogger("uvicorn.access")
    access.addHandler(handler)
    level = access.level
    access.setLevel(logging.INFO)  # (not `.level =`: the logger caches what it logs)
    try:
        with pytest.raises(httpx.ReadTimeout):
            api.client.get("/fetch", params={"url": slow}, timeout=0.5)
        # within the fetch's own 30 s timeout, which would close the request as well
        assert hung_up.wait(15), "the call went on: its request to the page is still open"
        wait_for(lambda: any(record.args and record.args[-1] == 499 for record in logged), 30)
    finally:
        access.removeHandler(handler)
        access.setLevel(level)
    # `--access-log` writes a line for it too: the server logs only what it answers
    assert any(record.args and record.args[-1] == 499 for record in logged), [r.args for r in logged]
    listed = api.client.get("/stored").json()["data"]["pages"]
    assert slow not in [page["url"] for page in listed]


def _until_hung_up(handler: Handler, hung_up: threading.Event) -> None:
    """A page that answers only after 60 s, and says when its client closed the connection first."""
    if select.select([handler.connection], [], [], 60)[0]:  # readable: the client's end is closed
        hung_up.set()
    else:
        handler.reply(200, article_html("Ferret late", 3).encode(), HTML)


def test_the_reader_takes_the_url_as_clients_write_it() -> None:
    from webferret.http_api.markdown import reader_target

    url = "https://docs.example/a%20b/?x=1"
    assert reader_target("https://docs.example/a%20b/", "x=1") == url
    assert reader_target("https%3A%2F%2Fdocs.example%2Fa%2520b%2F%3Fx%3D1", "") == url  # encoded whole
    assert reader_target("https:/docs.example/a%20b/", "x=1") == url  # `//` folded by a proxy
    assert reader_target("http://b%C3%BCcher.example/x%C3%A4", "") == "http://bücher.example/x%C3%A4"


def test_a_handle_header_is_ascii() -> None:
    from webferret.http_api.markdown import handle_header

    assert handle_header("docs.python.org~0123456789ab") == "docs.python.org~0123456789ab"
    assert handle_header("例え.jp~0123456789ab") == "%E4%BE%8B%E3%81%88.jp~0123456789ab"
    assert handle_header("bücher.example~0123456789ab").isascii()


def test_params_from_a_query_string() -> None:
    fetch = FetchParams.from_query([("url", "a"), ("urls", "b"), ("links", ""), ("fresh", "1")])
    assert (fetch.url, fetch.links, fetch.fresh) == (["a", "b"], True, True)
    assert SearchParams.from_query([("query", "x"), ("engines", "a,B"), ("engines", "c")]).engines == [
        "a",
        "b",
        "c",
    ]
    # every region the CLI takes, DuckDuckGo's traditional Chinese of Taiwan (six letters) too
    assert SearchParams.from_query([("q", "x"), ("region", "tw-tzh")]).region == "tw-tzh"
    with pytest.raises(ParamError, match="unknown parameter 'zz'"):
        SearchParams.from_query([("zz", "1")])  # the typo, not the missing `q`, is what is said
    from webferret.http_api.params import FindParams, StoredParams

    # `n` is written `results` on every endpoint that takes it, as the README says
    assert FindParams.from_query([("q", "x"), ("results", "3")]).n == 3
    assert StoredParams.checked({"results": 3}).n == 3
    # a list given under both its names is told to come as one list, not that it takes one value
    with pytest.raises(ParamError, match="it takes its values as one list"):
        FetchParams.checked({"url": ["a"], "urls": ["b"]})


def test_the_guard_refuses_pages_and_strange_hosts_and_wants_the_token(
    tmp_path: Path, simweb: SimWeb
) -> None:
    open_api = Api(_settings(tmp_path / "a", simweb, api_token="  "))  # a blank token is none
    try:
        rebound = open_api.client.get("/", headers={"Host": "evil.example", "Authorization": "Bearer"})
        cross = open_api.client.get("/", headers={"Sec-Fetch-Site": "Cross-Site"})
        origin = open_api.client.get("/", headers={"Origin": "http://evil.example"})
        other_port = open_api.client.get("/", headers={"Origin": "http://127.0.0.1:3000"})
        lost = open_api.client.get("/nowhere", headers={"Host": "evil.example"})  # no 404 list for it
        plain = open_api.client.get("/", headers={"Host": f"localhost:{open_api.port}"})
    finally:
        open_api.stop()
    for answer in (rebound, cross, origin, other_port, lost):
        assert answer.status_code == 403 and answer.json()["error"]["code"] == "forbidden"
    assert plain.status_code == 200
    locked = Api(_settings(tmp_path / "b", simweb, api_token=TOKEN))
    try:
        without = locked.client.get("/")
        wrong = locked.client.get("/", headers={"Authorization": "Bearer nope"})
        right = locked.client.get("/", headers={"Authorization": f"Bearer {TOKEN}", "Host": "api.example"})
        described = locked.client.get("/openapi.json", headers={"Authorization": f"Bearer {TOKEN}"}).json()
    finally:
        locked.stop()
    for answer in (without, wrong):
        assert answer.status_code == 401 and answer.json()["error"]["code"] == "unauthorized"
        assert answer.headers["www-authenticate"] == "Bearer"  # the scheme a 401 asks for
    assert right.status_code == 200  # with the token, any name the server is reached by
    assert described["security"] == [{"token": []}]


def test_the_cli_wants_a_token_past_loopback(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("WEBFERRET_API_TOKEN", raising=False)
    assert main(["api", "--http", "0.0.0.0:8780"]) == 2
    assert "WEBFERRET_API_TOKEN" in capsys.readouterr().err
    assert main(["api", "--http", "nowhere"]) == 2
    assert "--http wants HOST:PORT" in capsys.readouterr().err


@pytest.mark.parametrize("token", ["s\u00e9kret-token", "two\nlines"])
def test_a_token_no_header_can_carry_is_refused_at_start(token: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A token with a character an HTTP header cannot carry (curl sends `é` as UTF-8, read as
    Latin-1) was taken, and every call was `unauthorized`: the API answered no one."""
    monkeypatch.setenv("WEBFERRET_CONFIG", os.devnull)
    monkeypatch.setenv("WEBFERRET_API_TOKEN", token)
    with pytest.raises(ConfigError) as refused:
        load_settings()
    assert "api_token" in str(refused.value) and "visible ASCII" in str(refused.value)
    assert token not in str(refused.value) and "kret" not in str(refused.value)  # a secret: never shown


def _api_process_get(env: dict[str, str], arguments: list[str], path: str) -> tuple[httpx.Response, str]:
    """`webferret api --http 127.0.0.1:0 ARGUMENTS` in its own process, asked `path` at the port its
    `listening on` line names (any free port), then stopped: the answer and what it wrote on stderr."""
    from listening_port import listening_port

    command = [sys.executable, "-m", "webferret", "api", "--http", "127.0.0.1:0", *arguments]
    process = subprocess.Popen(command, env=env, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stderr is not None
        port = listening_port(process.stderr)
        answer = httpx.get(f"http://127.0.0.1:{port}{path}", timeout=30)
    finally:
        process.terminate()
        _, err = process.communicate(timeout=30)
    return answer, err


def _clean_env(**settings: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("WEBFERRET_")}
    return {**env, "WEBFERRET_CONFIG": os.devnull, **settings}


def test_webferret_api_serves_from_its_own_process(tmp_path: Path, simweb: SimWeb) -> None:
    url = simweb.add("/api/proc", article_html("Ferret process", 3), headers=HTML)
    env = _clean_env(WEBFERRET_HOME=str(tmp_path))
    answer, err = _api_process_get(env, ["--allow-host", "127.0.0.1"], f"/r/{url}")
    assert answer is not None and answer.status_code == 200, err
    assert "Ferret process" in answer.text  # at the port its `listening on` line named
    assert "Traceback" not in err  # SIGTERM ends it (uvicorn then ends by the signal it caught)


def test_a_server_started_with_home_names_no_home_in_its_hints(tmp_path: Path) -> None:
    """`webferret api --home DIR` answered `/open`'s `next` with `--home DIR` (the server's own path, a
    command line's hint), as a server started without `--home` does not: a server's hints name no home."""
    store = PageStore.in_home(tmp_path)
    text = "\n\n".join(f"## Part {i}\n\n" + "Stoats change their coats. " * 40 for i in range(8))
    handle = store.put(Page(url="https://doc.example/long", ok=True, title="Long", content=text)).handle
    store.close()
    opened = f"/open?handle={handle}&page_tokens=300"
    answer, err = _api_process_get(_clean_env(), ["--home", str(tmp_path)], opened)
    assert answer.status_code == 200, err
    assert answer.json()["data"]["next"] == f"webferret open {handle} --page 2 --page-tokens 300"


def test_an_option_header_written_in_utf8_is_read_as_written(api: Api, simweb: SimWeb) -> None:
    body = (
        "<html><head><title>Ads</title></head><body><article><h1>Ferret care</h1>"
        f"<p>{'Ferrets sleep most of the day and play hard when awake. ' * 4}</p>"
        '<p class="anzeige-ä">Sponsored ferret food advert that the caller wants excluded here.</p>'
        "</article></body></html>"
    )
    url = simweb.add("/api/umlaut-class", body, headers=HTML)
    read = api.client.get(f"/r/{url}", headers={"X-Webferret-Exclude": ".anzeige-ä".encode()})
    assert read.status_code == 200, read.text
    assert "Ferrets sleep" in read.text
    assert "Sponsored" not in read.text


def test_extract_refuses_a_form_upload_rather_than_read_its_wrapping(api: Api) -> None:
    html = article_html("Ferret notes", 3).encode()
    uploaded = api.client.post("/extract", files={"file": ("notes.html", html, "text/html")})
    assert uploaded.status_code == 400, uploaded.text[:300]
    error = uploaded.json()["error"]
    assert error["code"] == "invalid_argument" and "--data-binary" in error["message"]
