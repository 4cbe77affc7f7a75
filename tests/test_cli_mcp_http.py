"""`webferret mcp --http HOST:PORT` says so when HOST lets other machines in (there is no authentication);
it and `webferret api` answer an address they cannot listen on as a usage error."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from listening_port import listening_port
from mcp_http import INITIALIZE

from webferret.cli.cmd_mcp import exposure_warning


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.2", "localhost", "::1"])
def test_loopback_needs_no_warning(host: str) -> None:
    assert exposure_warning(host) is None


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.168.1.5", "myhost.example"])
def test_any_other_address_is_warned_about(host: str) -> None:
    warning = exposure_warning(host)
    assert warning is not None and host in warning and "no authentication" in warning


@pytest.mark.parametrize("command", ["mcp", "api"])
def test_a_port_taken_is_a_usage_error_and_no_server_is_announced(command: str) -> None:
    """`mcp --http` said it served streamable HTTP on the port, then exited 3 (uvicorn's code, no exit
    status of the contract); `api` exited 3 too, naming no reason."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        where = f"127.0.0.1:{taken.getsockname()[1]}"
        done = subprocess.run(
            [sys.executable, "-m", "webferret", command, "--http", where],
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert done.returncode == 2, done.stderr
    assert f"invalid_argument: cannot listen on {where}: Address already in use" in done.stderr
    assert "streamable HTTP on" not in done.stderr and "listening on" not in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("command", ["mcp", "api"])
def test_a_home_that_can_hold_no_store_is_a_usage_error_at_start(command: str, tmp_path: Path) -> None:
    """The server listened as if all were well, then answered every call `invalid_argument` (the
    caller's error, HTTP 400) for its own home, a folder it could not create."""
    (tmp_path / "file").write_text("not a folder")
    home = tmp_path / "file" / "home"
    command_line = [sys.executable, "-m", "webferret", command, "--http", "127.0.0.1:0", "--home", str(home)]
    process = subprocess.Popen(command_line, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True)
    said = []
    try:
        assert process.stderr is not None
        for line in process.stderr:  # ends when the program does
            said.append(line)
            assert "streamable HTTP on" not in line and "listening on" not in line, line
    finally:
        process.terminate()
        process.wait(30)
    stderr = "".join(said)
    assert process.returncode == 2, stderr
    assert f"cannot open the page store at {home}" in stderr and "is a file, not a folder" in stderr


@pytest.mark.parametrize("command", ["mcp", "api"])
def test_an_empty_address_is_a_usage_error(command: str) -> None:
    """`mcp --http ""` (an unset variable) served MCP over stdio instead, waiting on its input."""
    done = subprocess.run(
        [sys.executable, "-m", "webferret", command, "--http", ""],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=120,
    )
    assert done.returncode == 2 and "--http wants HOST:PORT, got ''" in done.stderr, done.stderr


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.2"])
def test_a_loopback_server_answers_no_other_host_or_origin(host: str, tmp_path: Path) -> None:
    """A web page reaches a server on loopback through a DNS name it rebinds to that address: the
    call names the page's host. The SDK checked Host and Origin on 127.0.0.1, localhost and ::1
    alone, and `mcp --http 127.0.0.2:PORT` (loopback, so not warned of) answered any name."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("WEBFERRET_")}
    env.update(WEBFERRET_HOME=str(tmp_path), WEBFERRET_CONFIG=os.devnull)
    command = [sys.executable, "-m", "webferret", "mcp", "--http", f"{host}:0"]
    process = subprocess.Popen(command, env=env, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stderr is not None
        port = listening_port(process.stderr, host)
        headers = {"Accept": "application/json, text/event-stream"}
        url = f"http://{host}:{port}/mcp"

        def status(**extra: str) -> int:
            with httpx.stream(
                "POST", url, json=INITIALIZE, headers={**headers, **extra}, timeout=60
            ) as answer:
                return answer.status_code

        assert status(Host=f"attacker.example:{port}") == 421
        assert status(Origin="http://attacker.example") == 403
        assert status() == 200
        assert status(Origin=f"http://{host}:{port}") == 200
        assert status(Host=f"localhost:{port}") == 200
        # a client leaves the port out of Host and Origin when it is 80: the name alone is loopback
        assert status(Host=host) == 200 and status(Host="localhost") == 200
        assert status(Origin=f"http://{host}") == 200
        assert status(Host="attacker.example") == 421
    finally:
        process.terminate()
        try:
            process.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.communicate(timeout=30)
