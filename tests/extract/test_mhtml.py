"""A web page saved as one file (MHTML: Chrome's and Edge's "Webpage, Single File", `.mhtml`, `.mht`)
is read as the page it holds, its relative links made absolute against the address it was saved from."""

from __future__ import annotations

import base64
import gzip
import json
import quopri
from pathlib import Path

import pytest

from webferret.cli import main

PAGE = """<!DOCTYPE html><html><head><meta charset="utf-8">
<title>Otters of the Tay | River Notes</title></head>
<body><nav><a href="/">Home</a></nav><article><h1>Otters of the Tay</h1>
<p>Otters came back to the Tay in the nineties, and a café by the bridge now counts them every spring.
Read <a href="/counts/2024">this year's counts</a> before you go, and bring a warm coat.</p>
<h2>Where to look</h2><ul><li>Under the old railway bridge</li><li>By the weir at dawn</li></ul>
<p>They are shy animals: keep to the path, keep your dog on its lead and keep your voice low.</p>
</article></body></html>"""
BOUNDARY = "----MultipartBoundary--otters----"


def chrome_archive(page: str = PAGE, *, html_type: str = "text/html") -> bytes:
    """An archive as Chrome saves one: CRLF lines, the page quoted-printable, an image in base64."""
    encoded = quopri.encodestring(page.encode("utf-8")).decode("ascii")
    lines = [
        "From: <Saved by Blink>",
        "Snapshot-Content-Location: https://rivers.example/otters/tay",
        "Subject: Otters of the Tay | River Notes",
        "Date: Sat, 5 Dec 2026 10:00:00 -0000",
        "MIME-Version: 1.0",
        "Content-Type: multipart/related;",
        '\ttype="text/html";',
        f'\tboundary="{BOUNDARY}"',
        "",
        "",
        f"--{BOUNDARY}",
        f"Content-Type: {html_type}",
        "Content-ID: <frame-1@mhtml.blink>",
        "Content-Transfer-Encoding: quoted-printable",
        "Content-Location: https://rivers.example/otters/tay",
        "",
        *encoded.splitlines(),
        "",
        f"--{BOUNDARY}",
        "Content-Type: image/png",
        "Content-Transfer-Encoding: base64",
        "Content-Location: https://rivers.example/otter.png",
        "",
        base64.b64encode(b"\x89PNG\r\n\x1a\n" + bytes(64)).decode(),
        "",
        f"--{BOUNDARY}--",
        "",
    ]
    return "\r\n".join(lines).encode("ascii")


def extract(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, dict]:
    code = main(["extract", "--json", "--links", str(path)])
    return code, json.loads(capsys.readouterr().out)["data"]["pages"][0]


def test_a_saved_page_is_read_as_the_page_it_holds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "otters.mhtml"
    path.write_bytes(chrome_archive())
    code, page = extract(path, capsys)
    assert code == 0
    assert (page["title"], page["content_type"], page["url"]) == (
        "Otters of the Tay",
        "text/html",
        path.as_uri(),
    )
    assert "a café by the bridge now counts them" in page["content"]  # quoted-printable undone, UTF-8
    assert "- Under the old railway bridge\n- By the weir at dawn" in page["content"]
    assert "Content-Type" not in page["content"] and "=C3=A9" not in page["content"]
    assert "[this year's counts](https://rivers.example/counts/2024)" in page["content"]
    assert {"archive": "mhtml", "saved_from": "https://rivers.example/otters/tay"}.items() <= page["meta"][
        "extract"
    ].items()


def test_an_archive_without_a_page_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "pictures.mht"
    path.write_bytes(chrome_archive(html_type="text/css"))
    code, page = extract(path, capsys)
    assert code == 1
    assert page["error"]["code"] == "unsupported_content"
    assert page["error"]["message"] == f"the MHTML archive at {path.as_uri()} holds no HTML page"


def test_a_saved_page_packed_in_gzip_is_read_as_the_page_it_holds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "otters.mht.gz"  # as a server compressing it twice sends it too
    path.write_bytes(gzip.compress(chrome_archive()))
    code, page = extract(path, capsys)
    assert code == 0
    assert page["title"] == "Otters of the Tay"
    assert "a café by the bridge now counts them" in page["content"]
    assert "Content-Type" not in page["content"] and "Saved by Blink" not in page["content"]
    assert "[this year's counts](https://rivers.example/counts/2024)" in page["content"]
    assert page["meta"]["extract"]["archive"] == "mhtml"
