"""Office files and EPUB books packed with zip features Python does not unpack (Deflate64, a version
past 6.3) or with parts a password encrypts: `unsupported_content` saying so, never an internal error."""

from __future__ import annotations

import io
import json
from pathlib import Path

import openpyxl
import pytest
from rezip import relabelled
from test_ebook import epub
from test_opendoc import odt
from test_slidefile import deck
from test_wordfile import docx

from webferret.cli import main

DEFLATE64 = 9
METHOD, VERSION, FLAGS = 10, 6, 8
ENCRYPTED = 1


def workbook() -> bytes:
    book = openpyxl.Workbook()
    book.active.append(["River", "Fish"])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


@pytest.mark.parametrize(
    ("name", "body"),
    [
        ("notes.docx", docx()),
        ("rivers.xlsx", workbook()),
        ("season.pptx", deck()),
        ("guide.epub", epub()),
        ("guide.odt", odt()),
    ],
)
@pytest.mark.parametrize(
    ("field", "value", "said"),
    [
        (METHOD, DEFLATE64, "zip feature webferret cannot unpack (That compression method"),
        (VERSION, 100, "zip feature webferret cannot unpack (zip file version 10.0)"),
        (FLAGS, ENCRYPTED, "is encrypted, password required"),
    ],
)
def test_a_zip_feature_python_does_not_unpack_or_a_password_is_unsupported_content(
    name: str,
    body: bytes,
    field: int,
    value: int,
    said: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / name
    path.write_bytes(relabelled(body, field, value))
    assert main(["extract", "--json", str(path)]) == 1
    error = json.loads(capsys.readouterr().out)["data"]["pages"][0]["error"]
    assert error["code"] == "unsupported_content"
    assert said in error["message"]
