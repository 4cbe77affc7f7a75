"""`webferret fetch --jsonl`: one JSON page a line, each as soon as it is finished."""

import json
from pathlib import Path

import pytest
from simweb import SimWeb
from test_cli_interrupt import _fetch

from webferret.cli import main
from webferret.store.pages import PageStore


def test_lines_come_as_pages_finish(capsys: pytest.CaptureFixture[str], simweb: SimWeb) -> None:
    late = simweb.add(
        "/late", "<html><body><article><p>Late words about stoats.</p></article></body></html>", delay=0.6
    )
    urls = [late, simweb.url("/article"), simweb.url("/status/404"), simweb.url("/redirect/0")]
    code = main(["fetch", "--jsonl", "--fresh", "--max-chars", "60", "--allow-host", "127.0.0.1", *urls])
    out, err = capsys.readouterr()
    pages = [json.loads(line) for line in out.splitlines()]
    assert code == 1 and "Traceback" not in err  # one page failed; the others are answered
    assert len(pages) == 4 and pages[-1]["url"] == late  # the slow page comes last, not first
    by_url = {page["url"]: page for page in pages}
    assert by_url[simweb.url("/status/404")]["error"]["code"] == "http_error"
    assert by_url[simweb.url("/article")]["meta"]["clipped"]["at"] <= 60  # --max-chars clips each line's page
    article, redirected = by_url[simweb.url("/article")], by_url[simweb.url("/redirect/0")]
    # one page read under two URLs (a redirect's start and its end): one document, one handle, so
    # neither line is a copy of the other (as `URL` and `URL#top` are not)
    assert article["handle"] == redirected["handle"] is not None
    assert article["duplicate_of"] is None and redirected["duplicate_of"] is None


def test_a_usage_error_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["fetch", "--jsonl", "--quiet", "https://example.org/"])
    out, _ = capsys.readouterr()
    assert exit_.value.code == 2 and len(out.splitlines()) == 1
    assert json.loads(out)["error"]["message"].endswith("--jsonl cannot be combined with --quiet")


def test_a_reader_that_leaves_stops_the_call(webferret_home: Path, simweb: SimWeb) -> None:
    """`| head -1`: the call ends (exit 141) at its next line instead of reading the rest of the
    list. (It learns of the closed pipe only when it writes: the pages after the first come later.)"""
    later = [
        simweb.add(f"/later/{n}", f"<html><body><p>page {n}</p></body></html>", delay=4.0 * n) for n in (1, 2)
    ]
    slow = [
        simweb.add(f"/slow/{n}", f"<html><body><p>slow page {n}</p></body></html>", delay=20.0)
        for n in range(5)
    ]
    proc = _fetch("--jsonl", simweb.url("/article"), *later, *slow)
    assert proc.stdout is not None
    assert json.loads(proc.stdout.readline())["url"] == simweb.url("/article")
    proc.stdout.close()  # the reader leaves; the next line webferret writes finds the pipe closed
    _, err = proc.communicate(timeout=15)
    assert proc.returncode == 141 and "Traceback" not in err
    store = PageStore.in_home(webferret_home)
    try:
        assert store.lookup(simweb.url("/article")) is not None
        assert all(store.lookup(url) is None for url in slow)
    finally:
        store.close()
