"""A separate process working on a shared page store (run by test_store_processes.py).

python store_worker.py mixed HOME ID COUNT GO_FILE   # write, read and search, then print "done N"
python store_worker.py writer HOME                   # write forever; print each committed handle
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from webferret.models import Page
from webferret.store.pages import PageStore


def _text(worker: str, i: int, size: int = 30) -> str:
    return f"# Worker {worker} page {i}\n\n" + f"Token w{worker}x{i} sits among filler words. " * size


def mixed(home: Path, worker: str, count: int, go: Path) -> None:
    while not go.exists():
        time.sleep(0.005)
    store = PageStore.in_home(home)
    for i in range(count):
        own = Page(url=f"https://w{worker}.example/{i}", ok=True, content=_text(worker, i))
        handle = store.put(own).handle
        shared = Page(url="https://shared.example/", ok=True, content=f"Shared page by {worker} at {i}.")
        store.put(shared)
        stored = store.get(handle or "")
        assert stored is not None and stored.page.content == _text(worker, i), f"lost {handle}"
        found = store.find(f"w{worker}x{i}", n=1)
        assert found and found[0].handle == handle, f"passage of {handle} not found"
        assert store.lookup("https://shared.example/") is not None
    store.close()
    print(f"done {count}", flush=True)


def writer(home: Path) -> None:
    store = PageStore.in_home(home)
    i = 0
    while True:
        page = store.put(Page(url=f"https://k.example/{i}", ok=True, content=_text("k", i, size=400)))
        print(page.handle, i, flush=True)
        i += 1


if __name__ == "__main__":
    mode, home = sys.argv[1], Path(sys.argv[2])
    if mode == "mixed":
        mixed(home, sys.argv[3], int(sys.argv[4]), Path(sys.argv[5]))
    else:
        writer(home)
