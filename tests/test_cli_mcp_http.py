"""`webferret mcp --http HOST:PORT` says so when HOST lets other machines in (there is no authentication)."""

from __future__ import annotations

import pytest

from webferret.cli.cmd_mcp import exposure_warning


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.2", "localhost", "::1"])
def test_loopback_needs_no_warning(host: str) -> None:
    assert exposure_warning(host) is None


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.168.1.5", "myhost.example"])
def test_any_other_address_is_warned_about(host: str) -> None:
    warning = exposure_warning(host)
    assert warning is not None and host in warning and "no authentication" in warning
