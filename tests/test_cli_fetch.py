"""`webferret fetch` end to end on the simulated web: every error code, exit codes, views, flags."""

import json
import re

import pytest
from simweb import SimWeb, article_html, shared_dir

from webferret.cli import main

ALLOW = ["--allow-host", "127.0.0.1"]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["fetch", *args])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict]:
    code, out, _ = run(capsys, "--json", *args)
    return code, json.loads(out)


def test_article_markdown_view(capsys: pytest.CaptureFixture[str], simweb: SimWeb) -> None:
    code, out, _ = run(capsys, *ALLOW, simweb.url("/article"))
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "# The Ferret Field Guide"
    assert lines[1] == simweb.url("/article")
    assert lines[2].startswith("Burrow News · by Ada Burrow · published 2024-05-01 · ")
    assert lines[2].endswith(" words")
    assert "> How ferrets find things." in out
    assert "## Tunnels" in out and "- Short tunnels" in out
    assert "Copyright Burrow News" not in out


def test_json_envelope(capsys: pytest.CaptureFixture[str], simweb: SimWeb) -> None:
    code, envelope = run_json(capsys, *ALLOW, simweb.url("/redirect/1"))
    assert code == 0
    assert set(envelope) == {"contract_version", "ok", "data", "error", "meta"}
    assert envelope["ok"] is True and envelope["error"] is None
    page = envelope["data"]["pages"][0]
    fields = "url final_url status ok content_type title byline site_name published description language"
    fields += " word_count format content fetched_via fetched_at error"
    assert set(fields.split()) <= set(page)
    assert page["url"] == simweb.url("/redirect/1")
    assert page["final_url"] == simweb.url("/article")
    assert (page["status"], page["ok"], page["fetched_via"], page["published"]) == (
        200,
        True,
        "http",
        "2024-05-01",
    )
    assert page["error"] is None and page["word_count"] > 100


ERROR_CASES = [
    ("/status/404", "http_error"),
    ("/status/500", "http_error"),
    ("/rate-limited-long", "rate_limited"),
    ("/loop/a", "too_many_redirects"),
    ("/redirect/7", "too_many_redirects"),
    ("/gzip-bomb", "too_large"),
    ("/lying-length", "http_error"),
    ("/png-as-html", "unsupported_content"),
    ("/binary", "unsupported_content"),
    ("/empty", "empty_content"),
]


@pytest.mark.parametrize(("path", "code"), ERROR_CASES)
def test_page_errors(capsys: pytest.CaptureFixture[str], simweb: SimWeb, path: str, code: str) -> None:
    url = simweb.url(path)
    exit_code, out, _ = run(capsys, *ALLOW, url)
    assert exit_code == 1
    assert out.startswith(f"ERROR {code}: {url}: ") and out.count(url) == 1 + out.count(f"-> {url}")
    exit_code, envelope = run_json(capsys, *ALLOW, url)
    assert exit_code == 1 and envelope["ok"] is False
    page = envelope["data"]["pages"][0]
    assert page["ok"] is False and page["error"]["code"] == code and page["error"]["message"]


def test_http_error_and_rate_limit_carry_status(capsys: pytest.CaptureFixture[str], simweb: SimWeb) -> None:
    _, envelope = run_json(capsys, *ALLOW, simweb.url("/status/503"), simweb.url("/rate-limited-long"))
    gone, limited = envelope["data"]["pages"]
    assert gone["error"]["status"] == 503 and gone["status"] == 503
    assert limited["error"]["status"] == 429 and limited["error"]["retry_after"] == 3600


@pytest.mark.parametrize(
    ("url", "code"),
    [
        ("not-a-url", "invalid_url"),
        ("http://[::1/", "invalid_url"),
        ("ftp://127.0.0.1/file", "unsupported_scheme"),
        ("file:///etc/passwd", "unsupported_scheme"),
        ("http://does-not-exist.invalid/", "dns_failure"),
        ("http://127.0.0.2:{port}/refused", "blocked_address"),
        ("http://[::1]:{port}/refused", "blocked_address"),
        ("http://0.0.0.0:{port}/refused", "blocked_address"),
        ("http://2130706433:{port}/refused", "blocked_address"),
        ("http://0x7f000001:{port}/refused", "blocked_address"),
        ("http://169.254.169.254/latest/meta-data/", "blocked_address"),
    ],
)
def test_url_errors(capsys: pytest.CaptureFixture[str], simweb: SimWeb, url: str, code: str) -> None:
    url = url.format(port=simweb.port)
    exit_code, out, _ = run(capsys, *ALLOW, url)
    assert exit_code == 1
    assert out.startswith(f"ERROR {code}: {url}: ") and out.count(url) == 1 + out.count(f"-> {url}")
    assert f"{url}: {url}: " not in out  # the URL is said once
    assert simweb.served("/refused") == 0


def test_connect_failed(capsys: pytest.CaptureFixture[str], closed_port: int) -> None:
    url = f"http://127.0.0.1:{closed_port}/"
    exit_code, out, _ = run(capsys, *ALLOW, url)
    assert (exit_code, out.split(":")[0]) == (1, "ERROR connect_failed")


def test_page_timeout(capsys: pytest.CaptureFixture[str], simweb: SimWeb) -> None:
    exit_code, out, _ = run(capsys, *ALLOW, "--timeout", "0.5", simweb.url("/drip"))
    assert exit_code == 1 and out.startswith(f"ERROR timeout: {simweb.url('/drip')}: ")


@pytest.mark.parametrize("tier", ["http", "impersonate"])
def test_a_dripping_server_meets_the_page_timeout_in_every_tier(
    capsys: pytest.CaptureFixture[str], simweb: SimWeb, tier: str
) -> None:
    """A byte every 0.1 s passes a low-speed limit: the page timeout, not the call's budget, ends it."""
    exit_code, out, _ = run(
        capsys, *ALLOW, "--tier", tier, "--timeout", "0.5", "--budget", "20", simweb.url("/drip")
    )
    assert exit_code == 1 and out.startswith(
        f"ERROR timeout: {simweb.url('/drip')}: not read in full within 0.5 s"
    )


def test_max_bytes_flag(capsys: pytest.CaptureFixture[str], simweb: SimWeb) -> None:
    exit_code, out, _ = run(capsys, *ALLOW, "--max-bytes", "1000", simweb.url("/article"))
    assert exit_code == 1 and out.startswith("ERROR too_large:") and "1000 bytes" in out


def test_without_allow_host_loopback_is_blocked(capsys: pytest.CaptureFixture[str], simweb: SimWeb) -> None:
    exit_code, out, _ = run(capsys, simweb.url("/article"))
    assert exit_code == 1 and out.startswith("ERROR blocked_address:")
    exit_code, out, _ = run(capsys, "--allow-private-hosts", simweb.url("/article"))
    assert exit_code == 0


def test_allow_hosts_from_env(
    capsys: pytest.CaptureFixture[str], simweb: SimWeb, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WEBFERRET_ALLOW_HOSTS", "127.0.0.1")
    assert run(capsys, simweb.url("/article"))[0] == 0


def test_batch_keeps_order_and_the_good_pages(capsys: pytest.CaptureFixture[str], simweb: SimWeb) -> None:
    urls = [simweb.url("/article"), "gopher://x/", simweb.url("/status/404"), simweb.url("/json")]
    exit_code, envelope = run_json(capsys, *ALLOW, *urls)
    assert exit_code == 1 and envelope["ok"] is False
    pages = envelope["data"]["pages"]
    assert [page["url"] for page in pages] == urls
    assert [page["ok"] for page in pages] == [True, False, False, True]
    assert envelope["meta"] == {"count": 4, "failed": 2}
    assert '"legs": 4' in pages[3]["content"]


def test_budget_keeps_finished_pages(capsys: pytest.CaptureFixture[str], simweb: SimWeb) -> None:
    # the process ready (a first call loads the fetch and extraction layers): on a loaded machine
    # that took the budget, and the fast page ran out of it too
    assert run_json(capsys, *ALLOW, simweb.url("/json"))[0] == 0
    exit_code, envelope = run_json(
        capsys, *ALLOW, "--budget", "1", simweb.url("/article"), simweb.url("/slow")
    )
    assert exit_code == 1
    done, pending = envelope["data"]["pages"]
    assert done["ok"] is True
    assert pending["error"]["code"] == "timeout" and "budget" in pending["error"]["message"]


def test_max_chars_clips_and_says_where(capsys: pytest.CaptureFixture[str], simweb: SimWeb) -> None:
    exit_code, out, _ = run(capsys, *ALLOW, "--max-chars", "300", simweb.url("/article"))
    assert exit_code == 0
    assert "[clipped at " in out and " of " in out
    body = out.split("\n\n", 2)[-1]
    assert len(body.split("[clipped at")[0]) <= 300 + 200  # header lines and description precede the body


def test_quiet_prints_the_body_only(capsys: pytest.CaptureFixture[str], simweb: SimWeb) -> None:
    exit_code, out, _ = run(capsys, *ALLOW, "--quiet", "--format", "text", simweb.url("/article"))
    assert exit_code == 0
    assert out.startswith("The Ferret Field Guide") or out.startswith("Ferrets are curious")
    assert simweb.url("/article") not in out and "words" not in out.splitlines()[0]


@pytest.mark.parametrize(
    ("fmt", "headline"),
    [
        ("markdown", "# Stoats & Weasels\n\n"),
        ("text", "Stoats & Weasels\n\n"),
        ("html", "<h1>Stoats &amp; Weasels</h1>\n"),
    ],
)
def test_quiet_puts_the_headline_back_in_every_format(
    capsys: pytest.CaptureFixture[str], simweb: SimWeb, fmt: str, headline: str
) -> None:
    """The opening headline extraction leaves out as a repeat of the title: `--quiet --format html`
    left it out, so a page piped as HTML had no headline anywhere."""
    url = simweb.add(f"/quiet-headline-{fmt}", article_html("Stoats &amp; Weasels"))
    exit_code, out, _ = run(capsys, *ALLOW, "--quiet", "--format", fmt, url)
    assert exit_code == 0 and out.startswith(headline), out[:200]
    assert out.count("Weasels") == 1


def test_text_plain_and_cp1252(capsys: pytest.CaptureFixture[str], simweb: SimWeb) -> None:
    exit_code, out, _ = run(capsys, *ALLOW, "--quiet", simweb.url("/text"), simweb.url("/cp1252"))
    assert exit_code == 0
    assert "Plain text about ferrets." in out
    assert "Café crème – naïve" in out and "3€ “seulement”" in out and "Ã" not in out


def test_a_long_list_is_read_whole(capsys: pytest.CaptureFixture[str], simweb: SimWeb) -> None:
    """`max_urls` caps a library or MCP call; the command line reads every URL it is given."""
    urls = [simweb.url(f"/article?n={n}") for n in range(11)] + [simweb.url("/status/404")]
    exit_code, envelope = run_json(capsys, *ALLOW, "--max-chars", "50", *urls)
    pages = envelope["data"]["pages"]
    assert exit_code == 1 and [page["url"] for page in pages] == urls  # one 404 among them, order kept
    assert [page["ok"] for page in pages] == [True] * 11 + [False]


@pytest.mark.parametrize("args", [["--timeout", "0"], ["--max-chars", "-3"], ["--budget", "soon"], []])
def test_bad_flags_are_usage_errors(capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["fetch", *args, *(["http://127.0.0.1:9/"] if args else [])])
    assert info.value.code == 2
    assert "Traceback" not in capsys.readouterr().err


@pytest.mark.parametrize(
    ("path", "title", "phrase"),
    [
        ("readability/guardian-1", "What is the sea telling us?", "whale"),
        ("trafilatura/en.wikipedia.org_t-SNE.html", "t-distributed stochastic neighbor embedding", "t-SNE"),
    ],
)
def test_real_pages_from_the_shared_fixtures(
    capsys: pytest.CaptureFixture[str], simweb: SimWeb, path: str, title: str, phrase: str
) -> None:
    shared_dir()
    code, envelope = run_json(capsys, *ALLOW, simweb.url(f"/fixture/{path}"))
    assert code == 0
    page = envelope["data"]["pages"][0]
    assert title.lower() in page["title"].lower()
    assert phrase in page["content"] and page["word_count"] > 300


def test_quiet_keeps_error_lines_out_of_stdout(capsys: pytest.CaptureFixture[str], simweb: SimWeb) -> None:
    """`--quiet` is for pipes: stdout is bodies only, a failed page's line goes to stderr."""
    exit_code, out, err = run(capsys, *ALLOW, "--quiet", simweb.url("/text"), simweb.url("/status/404"))
    assert exit_code == 1
    assert "Plain text about ferrets." in out and "ERROR" not in out
    assert err.startswith("ERROR http_error: ") and simweb.url("/status/404") in err


@pytest.mark.parametrize("args", [["--timeout", "0", "http://127.0.0.1:9/"], ["--format", "pdf", "x"], []])
def test_a_usage_error_with_json_is_an_envelope(capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["fetch", "--json", *args])
    out, err = capsys.readouterr()
    assert info.value.code == 2
    envelope = json.loads(out)
    assert envelope["ok"] is False and envelope["error"]["code"] == "invalid_argument"
    assert envelope["error"]["message"].startswith("webferret fetch: ")
    assert "usage:" in err


def test_a_usage_error_without_json_leaves_stdout_empty(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["fetch", "--timeout", "0", "http://127.0.0.1:9/"])
    assert capsys.readouterr().out == ""


def test_counts_in_views_read_as_english() -> None:
    """`1 words`, `used its 1 searches`, `a xml document` were written."""
    from webferret.extract.types import scope_ignored
    from webferret.present.pages import counted

    assert [counted(1, "word"), counted(3, "word"), counted(1, "search", "searches")] == [
        "1 word",
        "3 words",
        "1 search",
    ]
    assert counted(2, "search", "searches") == "2 searches"
    assert [scope_ignored(kind).split(" document")[0] for kind in ("xml", "pdf", "text")] == [
        "an XML",
        "a PDF",
        "a text",
    ]


def test_human_links_say_how_many_are_listed_and_how_to_list_them_all(
    capsys: pytest.CaptureFixture[str], simweb: SimWeb
) -> None:
    """A list of links cut at `--link-limit` says so, as the agent view does: a reader of 3 links
    with no sign of the other 77 took them for all there is."""
    anchors = "".join(f'<a href="/many-links/p{i}">part number {i}</a> and more. ' for i in range(80))
    simweb.add(
        "/many-links", body=f"<html><body><article><h1>Parts</h1><p>{anchors}</p></article></body></html>"
    )
    code, out, _ = run(capsys, *ALLOW, "--link-limit", "3", simweb.url("/many-links"))
    assert code == 0
    assert out.endswith(
        f"- [part number 2]({simweb.url('/many-links/p2')})\n"
        "(3 of 80 links listed: --link-limit 80 lists them all)\n"
    )
    code, out, _ = run(capsys, *ALLOW, "--link-limit", "80", simweb.url("/many-links"))
    assert code == 0 and "links listed" not in out
    assert out.endswith(f"- [part number 79]({simweb.url('/many-links/p79')})\n")


def test_human_max_chars_names_the_stored_page_to_read_on_from(
    capsys: pytest.CaptureFixture[str], simweb: SimWeb
) -> None:
    """A body `--max-chars` clipped says which page of the stored document it stopped on, with the
    command that reads it (the human view shows no handle: the rest was out of reach but by a fetch
    without the clip)."""
    parts = "".join(f"<h2>Part {i}</h2><p>In part {i}: {'Polecats swim well. ' * 40}</p>" for i in range(60))
    url = simweb.add(
        "/clipped-human", f"<html><head><title>Long</title></head><body><article>{parts}</article></body>"
    )
    code, whole = run_json(capsys, *ALLOW, url)
    content = whole["data"]["pages"][0]["content"]
    code, out, _ = run(capsys, *ALLOW, "--max-chars", "25000", url)
    assert code == 0
    clipped = re.search(
        r"\[clipped at (\d+) of \d+ characters\]\n"
        r"\[read on where it was clipped: webferret (open \S+ --page (\d+))\]\n$",
        out,
    )
    assert clipped, out[-300:]
    at, command, page = int(clipped.group(1)), clipped.group(2), int(clipped.group(3))
    assert page > 1
    assert main(command.split()) == 0
    opened = capsys.readouterr().out
    assert content[at : at + 200].strip()[:60] in opened  # the text just past the clip is on that page
    code, quiet, _ = run(capsys, *ALLOW, "--max-chars", "25000", "--quiet", url)
    assert "read on" not in quiet  # (bodies only)
