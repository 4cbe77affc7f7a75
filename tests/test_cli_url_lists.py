"""`webferret fetch -` and `--urls-from FILE`: URLs one a line, blank lines and `#` comments skipped."""

import io
import json
from pathlib import Path

import pytest
from simweb import SimWeb

from webferret.cli import main
from webferret.cli.url_list import parse_url_lines

ALLOW = ["--allow-host", "127.0.0.1"]


def fetch_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict]:
    code = main(["fetch", "--json", *ALLOW, *args])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, json.loads(out)


def test_a_list_saved_with_a_byte_order_mark_and_crlf_reads_its_first_url() -> None:
    """Windows editors save UTF-8 with a BOM and CRLF line ends."""
    assert parse_url_lines(["\ufeffhttps://a.example/\r\n", "https://b.example/\r\n"]) == [
        "https://a.example/",
        "https://b.example/",
    ]


def test_list_lines() -> None:
    lines = ["  https://a.example/ \n", "\n", "# a comment\n", "   # indented comment\n", "b c\n"]
    assert parse_url_lines(lines) == ["https://a.example/", "b c"]


def test_a_comment_after_a_url_is_no_part_of_it() -> None:
    """`URL  # note` was read as the URL `URL  # note` (fetched as `URL` with a fragment, or refused);
    a URL's own fragment, with no space before its `#`, stays."""
    lines = ["https://a.example/docs  # the docs\n", "https://b.example/p#part\t# a section\n"]
    assert parse_url_lines(lines) == ["https://a.example/docs", "https://b.example/p#part"]


def test_urls_from_stdin_in_place_of_dash(
    capsys: pytest.CaptureFixture[str], simweb: SimWeb, monkeypatch: pytest.MonkeyPatch
) -> None:
    listed = f"# pages to read\n{simweb.url('/json')}\n\n{simweb.url('/text')}\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(listed))
    code, envelope = fetch_json(capsys, simweb.url("/article"), "-")
    urls = [page["url"] for page in envelope["data"]["pages"]]
    assert code == 0 and urls == [simweb.url(path) for path in ("/article", "/json", "/text")]


def test_urls_from_files_with_a_bad_line(
    capsys: pytest.CaptureFixture[str], simweb: SimWeb, tmp_path: Path
) -> None:
    first, second = tmp_path / "first.txt", tmp_path / "second.txt"
    first.write_text(f"{simweb.url('/article')}\nnot a url\n")
    second.write_text(f"\n# nothing but\n{simweb.url('/text')}\n")
    code, envelope = fetch_json(capsys, "--urls-from", str(first), "--urls-from", str(second))
    pages = envelope["data"]["pages"]
    assert code == 1
    assert [(page["url"], page["ok"]) for page in pages] == [
        (simweb.url("/article"), True),
        ("not a url", False),
        (simweb.url("/text"), True),
    ]
    assert pages[1]["error"]["code"] == "invalid_url"


@pytest.mark.parametrize(
    ("args", "stdin", "message"),
    [
        (["--urls-from", "/no/such/list.txt"], "", "--urls-from /no/such/list.txt: no such file"),
        (["--urls-from", ""], "", "--urls-from: an empty file name"),  # was "Is a directory" (.)
        (["-"], "# only a comment\n\n", "no URLs given: standard input held none"),
        (["-", "--urls-from", "-"], "", "standard input (-) can be read only once"),
    ],
)
def test_list_problems_are_usage_errors(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    args: list[str],
    stdin: str,
    message: str,
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = main(["fetch", *args])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.startswith(f"webferret: error: invalid_argument: {message}")


def test_an_argument_with_spaces_around_it_is_shown(
    capsys: pytest.CaptureFixture[str], simweb: SimWeb
) -> None:
    """The core reads " URL " as URL; the human view waited for the page under its spaced spelling,
    so it printed nothing for it (and exit 0 when another page of the call was read)."""
    code = main(["fetch", *ALLOW, f" {simweb.url('/text')} ", simweb.url("/json")])
    out, err = capsys.readouterr()
    assert code == 0 and "Traceback" not in err
    assert out.count("/text") >= 1 and out.count("/json") >= 1, out


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-32"])
def test_a_list_in_utf16_or_utf32_with_its_mark_reads_its_urls(
    capsys: pytest.CaptureFixture[str],
    simweb: SimWeb,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    encoding: str,
) -> None:
    """Windows PowerShell's `>` writes UTF-16 with a byte-order mark: read as UTF-8, every URL was an
    `invalid_url` of letters spaced by NULs."""
    listed = f"# pages\r\n{simweb.url('/json')}\r\n\r\n{simweb.url('/text')}\r\n"
    data = ("\ufeff" if encoding == "utf-16-be" else "").encode(encoding) + listed.encode(encoding)
    saved = tmp_path / "urls.txt"
    saved.write_bytes(data)
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data)))
    code, envelope = fetch_json(capsys, "-", "--urls-from", str(saved))
    urls = [page["url"] for page in envelope["data"]["pages"]]
    assert code == 0 and urls == [simweb.url("/json"), simweb.url("/text")] * 2
