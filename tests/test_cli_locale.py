"""The command line in a locale that is not UTF-8: a page is answered whatever characters it holds,
and a URL list on standard input is read as UTF-8, as a `--urls-from` file is."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from simweb import SimWeb

TITLE = "Frettchen — 日本の 🦦"
PAGE = f"<html><head><title>{TITLE}</title></head><body><article><h1>{TITLE}</h1><p>"
PAGE += "Ein Frettchen schläft viel und spielt gern, sagt man. " * 8 + "</p></article></body></html>"


def _webferret(
    args: list[str], home: Path, stdin: bytes = b"", encoding: str = "ascii"
) -> subprocess.CompletedProcess[bytes]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("WEBFERRET_")}
    env |= {"PYTHONIOENCODING": encoding, "WEBFERRET_SERVE": "off", "WEBFERRET_HOME": str(home)}
    command = [sys.executable, "-m", "webferret", *args, "--allow-host", "127.0.0.1"]
    return subprocess.run(command, env=env, input=stdin, capture_output=True, timeout=60)


def test_json_is_answered_whole_in_an_ascii_locale(simweb: SimWeb, tmp_path: Path) -> None:
    """It was `internal: UnicodeEncodeError`, exit 1, the page lost."""
    done = _webferret(["fetch", simweb.add("/otter", PAGE), "--json"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.isascii()
    assert json.loads(done.stdout)["data"]["pages"][0]["title"] == TITLE


def test_the_text_view_escapes_only_what_the_locale_lacks(simweb: SimWeb, tmp_path: Path) -> None:
    done = _webferret(["fetch", simweb.add("/otter", PAGE)], tmp_path, encoding="latin-1")
    assert done.returncode == 0, done.stderr
    first = done.stdout.decode("latin-1").splitlines()[0]
    assert first == "# Frettchen \\u2014 \\u65e5\\u672c\\u306e \\ud83e\\udda6"
    assert "schläft".encode("latin-1") in done.stdout


def test_a_url_list_on_stdin_is_read_as_utf8(simweb: SimWeb, tmp_path: Path) -> None:
    """It failed as `internal: UnicodeDecodeError` in an ASCII locale (a Latin-1 one read mojibake)."""
    url = simweb.add("/frettch%C3%A9n", PAGE).replace("%C3%A9", "é")
    done = _webferret(["fetch", "-", "--json"], tmp_path, stdin=f"# Frettchen\n{url}\n".encode())
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["data"]["pages"][0]["url"] == url
