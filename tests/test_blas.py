"""numpy's BLAS on one thread in the processes webferret owns, never over the user's own setting."""

from __future__ import annotations

import os

import pytest
from child import run_python

PROGRAM = """
import os
from webferret.cli import main
main([])
print(os.environ.get("OPENBLAS_NUM_THREADS"))
"""

FORKED_WORKER = """
import os
from webferret.extract.pool import ForkedWorkers

def setting():
    return os.environ.get("OPENBLAS_NUM_THREADS")

workers = ForkedWorkers(1)
seen = workers.pool.submit(setting).result()
workers.shutdown(used=False)
print(seen, os.environ.get("OPENBLAS_NUM_THREADS"))
"""


def _last_line(code: str, given: str | None) -> str:
    """What `code` prints last, run in a fresh interpreter with OPENBLAS_NUM_THREADS `given` (or unset)."""
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    if given is not None:
        env["OPENBLAS_NUM_THREADS"] = given
    done = run_python(code, 120, env)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1]


@pytest.mark.parametrize(("given", "expected"), [(None, "1"), ("2", "2")])
def test_the_program_asks_for_one_blas_thread(given: str | None, expected: str) -> None:
    """Set before anything imports numpy, so the program's workers inherit it."""
    assert _last_line(PROGRAM, given) == expected


@pytest.mark.parametrize(("given", "expected"), [(None, "1 None"), ("3", "3 3")])
def test_a_worker_the_library_forks_asks_for_one_blas_thread(given: str | None, expected: str) -> None:
    """In the worker's own environment only: the caller's process is left as it was."""
    assert _last_line(FORKED_WORKER, given) == expected
