"""A command that forks its extraction workers mid-call (crawl, map) and ends without using them
leaves none behind: an orphaned worker would hold the program's stdout open, and a pipeline reading
it (`webferret crawl URL | cat`) would never end."""

from __future__ import annotations

import subprocess
import sys

import pytest


@pytest.mark.parametrize("command", ["crawl", "map"])
def test_a_pipeline_ends_when_the_command_does(command: str, closed_port: int, tmp_path: object) -> None:
    url = f"http://127.0.0.1:{closed_port}/"
    line = (
        f"{sys.executable} -m webferret {command} {url} --json --allow-host 127.0.0.1 --home {tmp_path} | cat"
    )
    done = subprocess.run(["bash", "-c", line], capture_output=True, text=True, timeout=60)
    assert '"ok": false' in done.stdout and "connect_failed" in done.stdout


@pytest.mark.parametrize("command", ["crawl", "map"])
def test_a_start_that_is_no_url_is_a_failed_page_not_an_internal_error(
    command: str, capsys: pytest.CaptureFixture[str], tmp_path: object
) -> None:
    import json

    from webferret.cli import main

    assert main([command, "http://[bad/", "--json", "--home", str(tmp_path)]) == 1
    answer = json.loads(capsys.readouterr().out)
    assert answer["error"] is None and "invalid_url" in json.dumps(answer["data"])
