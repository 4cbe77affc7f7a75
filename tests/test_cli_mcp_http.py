"""`webferret mcp --http HOST:PORT` says so when HOST lets other machines in (there is no authentication);
it and `webferret api` answer an address they cannot listen on as a usage error."""

from __future__ import annotations

import socket
import subprocess
import sys

import pytest

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
