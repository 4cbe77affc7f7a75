"""A forked extraction worker's stray output (a library that prints while it extracts) goes to the
program's stderr: the program's stdout is its answer (a `--json` envelope, `webferret mcp`'s JSON-RPC
wire), where one stray line breaks the reader."""

from __future__ import annotations

import subprocess
import sys

STRAY = """
import os, time
from webferret.extract.pool import ForkedWorkers

def stray():  # as a library that prints would, at both levels, and one that reads stdin
    print("stray line of a worker", flush=True)
    os.write(1, b"stray bytes of a worker\\n")
    return os.read(0, 100)  # (multiprocessing already points sys.stdin at the null device)

workers = ForkedWorkers(1)
deadline = time.monotonic() + 60
while workers.ready() < 1 and time.monotonic() < deadline:
    time.sleep(0.05)
read = workers.pool.submit(stray).result()
workers.shutdown(used=True)
print("answer", repr(read))
"""


def test_a_workers_stray_output_goes_to_stderr_not_the_programs_stdout() -> None:
    done = subprocess.run(
        [sys.executable, "-c", STRAY], input="the caller's input", capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "answer b''\n"  # nor does a worker read the caller's stdin
    assert "stray line of a worker" in done.stderr and "stray bytes of a worker" in done.stderr


POOL_STRAY = """
import os
from webferret.extract.pool import Extractor

extractor = Extractor(workers=1)
extractor._start_processes(workers=1)  # a pool of processes from the forkserver, as a session's
extractor._pool_ready.result(timeout=60)
pool = extractor._processes
pool.submit(os.write, 1, b"stray bytes of a pool worker\\n").result()
read = pool.submit(os.read, 0, 100).result()
extractor.close()
print("answer", repr(read))
"""


def test_a_pool_workers_stray_output_goes_to_stderr_too() -> None:
    """The pool of processes a session starts (a big batch's; in place of one ended) is forked from
    the forkserver, which holds the program's stdin and stdout as they were when it started."""
    done = subprocess.run(
        [sys.executable, "-c", POOL_STRAY],
        input="the caller's input",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "answer b''\n"
    assert "stray bytes of a pool worker" in done.stderr
