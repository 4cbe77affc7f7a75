"""`webferret extract` end to end through `cli.main`."""

from __future__ import annotations

import gzip
import io
import json
import os
import sys
from pathlib import Path

import pytest

from webferret.cli import main

ARTICLE = """<html lang="en"><head><title>Ferrets at work | Ferret Weekly</title>
<meta property="og:site_name" content="Ferret Weekly"><meta name="author" content="Jo Ferret">
<meta property="article:published_time" content="2024-05-06T08:00:00Z">
<meta name="description" content="How ferrets read the web."></head>
<body><nav><a href="/">Home</a></nav><article><h1>Ferrets at work</h1>
<p>Ferrets are curious animals that explore every tunnel they find, and they read pages with care.
They follow <a href="/links/one">every link</a> and remember what they saw for a long while afterwards.</p>
<h2>Tools</h2><p>A ferret keeps its notes in plain Markdown, easy for people and for programs to read.
It uses tables, lists and code blocks, and it never forgets where a page came from or when it was written.</p>
<pre><code class="language-python">def ferret():
    return "curious"</code></pre></article><footer>(c) 2001 Ferret Weekly</footer></body></html>"""


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(args)
    return code, capsys.readouterr().out


def test_extract_file_json_contract(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page_file = tmp_path / "story.html"
    page_file.write_text(ARTICLE, encoding="utf-8")
    code, out = run_cli(
        ["extract", str(page_file), "--url", "https://ferrets.example/news/at-work", "--json"], capsys
    )
    assert code == 0
    envelope = json.loads(out)
    assert envelope["ok"] is True
    page = envelope["data"]["pages"][0]
    assert page["fetched_via"] == "file"
    assert page["url"] == "https://ferrets.example/news/at-work"
    assert page["title"] == "Ferrets at work"
    assert page["byline"] == "Jo Ferret"
    assert page["published"] == "2024-05-06"
    assert page["site_name"] == "Ferret Weekly"
    assert "[every link](https://ferrets.example/links/one)" in page["content"]
    assert '```python\ndef ferret():\n    return "curious"\n```' in page["content"]
    assert page["error"] is None


def test_missing_file_is_a_page_error_not_a_crash(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "ok.html"
    good.write_text(ARTICLE, encoding="utf-8")
    missing = tmp_path / "missing.html"
    code, out = run_cli(["extract", str(good), str(missing)], capsys)
    assert code == 1
    assert "# Ferrets at work" in out
    assert f"ERROR not_found: {missing.as_uri()}: no such file: {missing}" in out
    code, out = run_cli(["extract", str(tmp_path), "--json"], capsys)
    assert code == 1
    assert json.loads(out)["data"]["pages"][0]["error"]["code"] == "invalid_argument"


def test_stdin_text_format_and_links(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(ARTICLE.encode())))
    args = ["extract", "-", "--url", "https://ferrets.example/a", "--format", "text", "--links", "--json"]
    code, out = run_cli(args, capsys)
    assert code == 0
    page = json.loads(out)["data"]["pages"][0]
    assert page["format"] == "text"
    assert "https://" not in page["content"]
    assert {"url": "https://ferrets.example/links/one", "text": "every link", "in_main": True} in page[
        "links"
    ]
    assert {"url": "https://ferrets.example/", "text": "Home", "in_main": False} in page["links"]


def test_a_password_in_the_url_is_in_no_field_nor_link(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(ARTICLE.encode())))
    args = ["extract", "-", "--url", "https://jo:s3cret@ferrets.example/a", "--links", "--json"]
    code, out = run_cli(args, capsys)
    page = json.loads(out)["data"]["pages"][0]
    assert code == 0 and "s3cret" not in out
    assert page["url"] == page["final_url"] == "https://jo@ferrets.example/a"
    assert "[every link](https://ferrets.example/links/one)" in page["content"]


def test_pdf_file_page_count_in_meta(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from test_extract_kinds import make_pdf

    pdf = tmp_path / "report.pdf"
    pdf.write_bytes(make_pdf(["Alpha page", "Beta page", "Gamma page"]))
    code, out = run_cli(["extract", str(pdf), "--json"], capsys)
    assert code == 0
    page = json.loads(out)["data"]["pages"][0]
    assert page["meta"]["extract"]["pages"] == 3
    assert page["title"] == "Field Notes"
    assert "<!-- page 3 -->\n\nGamma page" in page["content"]


def test_a_scope_on_a_pdf_is_said_to_be_ignored(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`--selector` cannot choose inside a PDF: its whole text is answered, and the page says so."""
    from test_extract_kinds import make_pdf

    pdf = tmp_path / "report.pdf"
    pdf.write_bytes(make_pdf(["Alpha page", "Beta page"]))
    code, out = run_cli(["extract", str(pdf), "--selector", "main", "--json"], capsys)
    page = json.loads(out)["data"]["pages"][0]
    assert code == 0 and "Beta page" in page["content"]
    assert (
        page["meta"]["extract"]["scope_ignored"] == "a PDF document has no HTML elements to select or exclude"
    )
    code, out = run_cli(["extract", str(pdf), "--exclude", "nav"], capsys)
    assert code == 0 and "scope ignored: a PDF document has no HTML elements" in out
    _, out = run_cli(["extract", str(pdf), "--json"], capsys)
    assert "scope_ignored" not in json.loads(out)["data"]["pages"][0]["meta"]["extract"]


def test_url_with_several_files_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("a.html", "b.html"):
        (tmp_path / name).write_text("<p>One page.</p>", encoding="utf-8")
    files = [str(tmp_path / "a.html"), str(tmp_path / "b.html")]
    code, out = run_cli(["extract", *files, "--url", "https://example.org/", "--json"], capsys)
    assert code == 2 and json.loads(out)["error"]["code"] == "invalid_argument"
    assert "--url is the address of one page, and 2 files were given" in json.loads(out)["error"]["message"]
    code, _ = run_cli(["extract", files[0], "--url", "https://example.org/", "--json"], capsys)
    assert code == 0


def test_stdin_without_url_has_no_url(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Standard input has no URL: `url` is null in JSON and the human view names it `stdin`."""
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(ARTICLE.encode())))
    code, out = run_cli(["extract", "-", "--json"], capsys)
    assert code == 0
    page = json.loads(out)["data"]["pages"][0]
    assert (page["url"], page["final_url"], page["title"]) == (None, None, "Ferrets at work")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"just a line of text")))
    code, out = run_cli(["extract", "-"], capsys)
    assert code == 0
    assert out.splitlines()[:2] == ["# stdin", "stdin"]
    assert "\n-\n" not in out


def test_empty_stdin_and_an_empty_url_are_named_as_what_they_are(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"")))
    code, out = run_cli(["extract", "-"], capsys)
    assert code == 1 and out.strip() == "ERROR empty_content: stdin: no readable content"  # no "at "
    code, out = run_cli(["fetch", "", "--home", str(tmp_path)], capsys)
    assert code == 1 and out.strip() == 'ERROR invalid_url: "": empty URL'  # not "stdin"


def test_an_empty_json_file_is_empty_content(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "e.json").write_bytes(b"")
    code, out = run_cli(["extract", str(tmp_path / "e.json")], capsys)
    assert code == 1 and out.strip().endswith("e.json: no readable content"), out  # not an empty fence, ok


def test_stdin_too_large_names_stdin(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("WEBFERRET_MAX_BYTES", "100")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(ARTICLE.encode())))
    code, out = run_cli(["extract", "-"], capsys)
    assert code == 1
    assert "ERROR too_large: stdin: it is larger than max_bytes (100 bytes)" in out
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(ARTICLE.encode())))
    code, out = run_cli(["extract", "-", "--json"], capsys)
    page = json.loads(out)["data"]["pages"][0]
    assert page["url"] is None
    assert page["error"] == {
        "code": "too_large",
        "message": "stdin is larger than max_bytes (100 bytes)",
        "status": None,
        "retry_after": None,
        "vendor": None,
    }


def test_standard_input_named_twice_is_a_usage_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(ARTICLE.encode())))
    code, out = run_cli(["extract", "-", "-", "--json"], capsys)
    error = json.loads(out)["error"]
    assert code == 2 and error["code"] == "invalid_argument" and "read once" in error["message"]


def test_a_page_carries_its_json_ld_blocks(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The raw JSON-LD blocks are part of what a page carries: whole blocks up to 100,000 characters,
    text that cannot be written (an escaped lone surrogate) replaced, NaN (no JSON) left out."""
    article = {"@context": "https://schema.org", "@type": "NewsArticle", "headline": "Stoats \ud800"}
    big = {"@type": "ItemList", "itemListElement": ["x" * 60_000, "y" * 60_000]}
    scripts = "".join(
        f'<script type="application/ld+json">{text}</script>'
        for text in (json.dumps(article), '{"@type": "Thing", "size": NaN}', json.dumps(big))
    )
    page = tmp_path / "p.html"
    page.write_text(
        f"<html><head><title>Stoats</title>{scripts}</head><body><article><p>"
        + "Stoats turn white in winter. " * 20
        + "</p></article></body></html>",
        encoding="utf-8",
    )
    code, out = run_cli(["extract", str(page), "--json"], capsys)
    assert code == 0
    blocks = json.loads(out)["data"]["pages"][0]["jsonld"]
    assert blocks == [article | {"headline": "Stoats \ufffd"}]  # the big one is over the limit


def test_a_json_ld_block_too_large_is_passed_over_not_the_end(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A shop's catalogue block over the limit, written before the page's breadcrumb and its article's
    node, leaves those answered."""
    big = {"@type": "OfferCatalog", "itemListElement": ["x" * 60_000, "y" * 60_000]}
    crumbs = {
        "@type": "BreadcrumbList",
        "itemListElement": [{"@type": "ListItem", "position": 1, "name": "Home"}],
    }
    article = {"@type": "Article", "headline": "Stoats in winter"}
    scripts = "".join(
        f'<script type="application/ld+json">{json.dumps(b)}</script>' for b in (big, crumbs, article)
    )
    page = tmp_path / "p.html"
    page.write_text(f"<html><head><title>Stoats</title>{scripts}</head><body><p>Stoats.</p></body></html>")
    code, out = run_cli(["extract", str(page), "--json"], capsys)
    assert code == 0 and json.loads(out)["data"]["pages"][0]["jsonld"] == [crumbs, article]


@pytest.mark.parametrize("cap", [str(2**50), str(sys.maxsize)])
def test_a_large_max_bytes_reads_a_small_file(
    cap: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The cap bounds what is read, not what is asked for at once: a file is read a piece at a
    time, so a cap of a petabyte (or the largest there is) reads a small file as any other."""
    monkeypatch.setenv("WEBFERRET_MAX_BYTES", cap)
    page_file = tmp_path / "story.html"
    page_file.write_text(ARTICLE, encoding="utf-8")
    code, out = run_cli(["extract", str(page_file), "--json"], capsys)
    page = json.loads(out)["data"]["pages"][0]
    assert code == 0 and page["ok"] and page["title"] == "Ferrets at work", page["error"]


def test_a_file_past_the_cap_is_too_large(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("WEBFERRET_MAX_BYTES", str(3 * 1024 * 1024))
    page_file = tmp_path / "long.txt"
    page_file.write_bytes(b"word " * (1024 * 1024))
    code, out = run_cli(["extract", str(page_file), "--json"], capsys)
    assert code == 1 and json.loads(out)["data"]["pages"][0]["error"]["code"] == "too_large"
    monkeypatch.setenv("WEBFERRET_MAX_BYTES", str(5 * 1024 * 1024))
    code, out = run_cli(["extract", str(page_file), "--json"], capsys)
    assert code == 0 and json.loads(out)["data"]["pages"][0]["word_count"] == 1024 * 1024


def test_an_empty_file_name_is_a_usage_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`extract ""` (an unset variable) read the current directory: a page named by its `file:` URL
    that said `cannot read : Is a directory`."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ok.html").write_text(ARTICLE, encoding="utf-8")
    code, out = run_cli(["extract", "ok.html", "", "--json"], capsys)
    envelope = json.loads(out)
    assert code == 2 and envelope["error"]["code"] == "invalid_argument"
    assert "empty FILE name" in envelope["error"]["message"] and tmp_path.as_uri() not in out


def _through_a_pipe(document: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, dict, str]:
    """`webferret extract /dev/fd/N --json` of `document` written to a pipe (as `<(cmd)` gives it):
    the exit code, the page, and the pipe's name."""
    import os

    reading, writing = os.pipe()
    os.write(writing, document.encode())
    os.close(writing)
    try:
        code, out = run_cli(["extract", f"/dev/fd/{reading}", "--json"], capsys)
    finally:
        os.close(reading)
    return code, json.loads(out)["data"]["pages"][0], f"/dev/fd/{reading}"


def test_a_pipe_given_as_a_file_is_named_as_given(capsys: pytest.CaptureFixture[str]) -> None:
    """`webferret extract <(curl ...)`: the page was `file:///proc/PID/fd/pipe%3A%5B24972%5D`."""
    code, page, pipe = _through_a_pipe(ARTICLE, capsys)
    assert code == 0 and page["title"] == "Ferrets at work"
    assert page["url"] == f"file://{pipe}"


def test_a_pipes_relative_links_stay_relative(capsys: pytest.CaptureFixture[str]) -> None:
    """A pipe is at no place: its page's relative links were made `file:///dev/fd/guide.html`,
    which names nothing; they stay relative, as standard input's do."""
    words = "Ferrets dig long burrows and sleep in them through the day, often eighteen hours. " * 6
    link = '<a href="guide.html">the guide</a>'
    page = f"<html><body><article><h1>Burrows</h1><p>See {link}. {words}</p></article></body></html>"
    code, read, pipe = _through_a_pipe(page, capsys)
    assert code == 0 and read["url"] == read["final_url"] == f"file://{pipe}"
    assert "[the guide](guide.html)" in read["content"]


def test_a_missing_file_whose_name_is_no_utf8_is_a_page_error_in_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = tmp_path / "ok.html"
    good.write_text(ARTICLE, encoding="utf-8")
    missing = os.fsdecode(bytes(tmp_path) + b"/missing\xfe.html")  # a name as a shell passes it
    code, out = run_cli(["extract", str(good), missing, "--json"], capsys)
    assert code == 1
    pages = json.loads(out)["data"]["pages"]
    assert pages[0]["title"] == "Ferrets at work"
    assert pages[1]["error"]["code"] == "not_found"
    assert pages[1]["error"]["message"] == f"no such file: {tmp_path}/missing\ufffd.html"


def test_a_file_name_with_a_line_break_titles_the_page_on_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    named = tmp_path / "river\nnotes.txt"
    named.write_text("The Tay runs fast in spring.\n", encoding="utf-8")
    code, out = run_cli(["extract", str(named)], capsys)
    assert code == 0
    assert out.splitlines()[:2] == ["# river notes.txt", named.as_uri()]


def test_a_file_name_that_holds_control_characters_cannot_drive_the_terminal_in_its_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "notes\x1b]0;owned\x07\x1b[2J\nx"  # sets the title, clears the screen
    folder.mkdir()
    missing = tmp_path / "gone\x9b31m.html"  # C1's CSI: an escape on its own
    code, out = run_cli(["extract", str(folder), str(missing)], capsys)
    assert code == 1
    errors = [line for line in out.splitlines() if line.startswith("ERROR")]
    assert len(errors) == 2 and not any(char in "".join(errors) for char in "\x1b\x07\x9b")
    assert f"cannot read {tmp_path}/notes\ufffd]0;owned\ufffd\ufffd[2J\ufffdx: Is a directory" in errors[0]
    assert errors[1].endswith(f"no such file: {tmp_path}/gone\ufffd31m.html")


def test_an_address_given_as_a_file_says_how_it_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page_file = tmp_path / "river notes.html"
    page_file.write_text(ARTICLE, encoding="utf-8")
    code, out = run_cli(["extract", "https://ferrets.example/news", page_file.as_uri()], capsys)
    assert code == 1
    assert "no such file: https://ferrets.example/news (a web address: `webferret fetch` reads it)" in out
    assert f"(a file: URL: FILE is its path, {page_file})" in out


def test_a_gzip_file_unpacks_as_far_as_max_bytes_allows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    packed = tmp_path / "notes.txt.gz"  # 11 MiB unpacked: past the 10 MiB floor, within max_bytes
    packed.write_bytes(gzip.compress(b" " * (11 * 1024 * 1024) + b"ferret burrows\n"))
    monkeypatch.setenv("WEBFERRET_MAX_BYTES", str(20 * 1024 * 1024))
    code, out = run_cli(["extract", str(packed), "--json"], capsys)
    assert code == 0
    page = json.loads(out)["data"]["pages"][0]
    assert (page["error"], page["content"]) == (None, "ferret burrows\n")
