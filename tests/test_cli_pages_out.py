"""`extract` shares `fetch`'s output: with `--quiet`, bodies on stdout and errors on stderr."""

from pathlib import Path

import pytest

from webferret.cli import main


def test_extract_quiet_puts_errors_on_stderr(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "notes.txt"
    good.write_text("ferrets sleep fourteen hours a day\n")
    code = main(["extract", "-q", str(good), str(tmp_path / "missing.html")])
    out, err = capsys.readouterr()
    assert code == 1
    assert out == "ferrets sleep fourteen hours a day\n"
    assert err.startswith("ERROR not_found: ") and "missing.html" in err
