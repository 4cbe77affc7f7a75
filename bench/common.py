"""Shared helpers of the benchmark scripts: where the shared data is, and the shared evaluator."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path
from types import ModuleType

REPO = Path(__file__).resolve().parents[1]


def shared_dir() -> Path:
    """The shared folder: the sibling `shared/` of the repository's parent folder."""
    return (
        REPO.parent.parent / "shared" if (REPO.parent.parent / "shared").is_dir() else REPO.parent / "shared"
    )


def unwritable(folder: Path) -> str | None:
    """Why results cannot be written in `folder` (made if missing), or None: checked before a run,
    which only writes at its end."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return f"cannot make {folder}: {exc.strerror}"
    return None if os.access(folder, os.W_OK) else f"{folder} is not writable"


def evaluator() -> ModuleType:
    """The shared evaluator (../shared/bench/extraction/evaluate.py), imported by path."""
    path = shared_dir() / "bench" / "extraction" / "evaluate.py"
    if not path.is_file():
        raise SystemExit(f"the shared benchmark is missing: {path} not found")
    spec = importlib.util.spec_from_file_location("shared_evaluate", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SETS = ("articles", "multitype")


def check_sets(names: list[str]) -> list[str]:
    """`names` if each is a benchmark set, else a stop naming the sets (a misspelt "articles" ran
    the multitype set under that name)."""
    unknown = [name for name in names if name not in SETS]
    if unknown:
        raise SystemExit(f"no such set: {', '.join(unknown)} (the sets are {', '.join(SETS)})")
    return names


def load_pages(dataset: str) -> list:
    """The pages of a benchmark set: "articles" (181) or "multitype" (1,497 dev pages)."""
    check_sets([dataset])
    ev = evaluator()
    root = shared_dir() / "bench"
    if dataset == "articles":
        return ev.load_aeb(root / "extraction")
    return ev.load_wcxb(root / "multitype", "dev")
