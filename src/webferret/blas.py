"""numpy's BLAS on one thread, in the processes webferret owns.

numpy's wheels bundle OpenBLAS, which starts a thread per core as numpy is imported; those threads
spin while they wait for work. webferret's numpy work is element-wise (block features, the tree
ensemble, MinHash signatures) and never calls BLAS, so they only took CPU from the program and its
extraction workers: on two cores a `fetch` of one page used 0.92 s of CPU with one thread against
1.0 s with the default (median of 10 runs each), and importing numpy alone 80 ms against 150 ms.

Set only where nothing has imported numpy yet, and never over a value the user chose: the command
line program at its start (its workers inherit the setting), and a worker forked by the library
(only that process's environment; the caller's own process is left as it is). `webferret serve`
alone insists on one thread: it forks a child per call, which is safe only in a process that runs no
other thread.
"""

from __future__ import annotations

import os

THREAD_SETTINGS = ("OPENBLAS_NUM_THREADS",)


def single_threaded(force: bool = False) -> None:
    """Ask for one BLAS thread unless the environment already says how many (with `force`, whatever
    it says: `webferret serve` forks its calls and must start no thread)."""
    for name in THREAD_SETTINGS:
        if force:
            os.environ[name] = "1"
        else:
            os.environ.setdefault(name, "1")
