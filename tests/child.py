"""Code run in a child Python process with a time limit: a slow path that regresses fails its test
rather than hanging the suite, and what a fresh interpreter loads is the code's alone."""

from __future__ import annotations

import subprocess
import sys


def run_python(
    code: str, timeout: float = 60, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """`code` run by this interpreter in a child, its output captured as text."""
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout, env=env
    )


def passes(code: str, timeout: float = 60) -> None:
    """Assert that `code` (its own asserts) runs to its end in a child within `timeout` seconds."""
    done = run_python(code, timeout)
    assert done.returncode == 0, done.stderr
