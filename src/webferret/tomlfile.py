"""The settings file read as TOML, by the in-process settings and by the quick look `serve` takes."""

from __future__ import annotations

import tomllib
from os import PathLike
from typing import Any


def read_toml(path: str | PathLike[str]) -> dict[str, Any]:
    """`path` parsed as TOML, whether or not an editor began it with a byte-order mark (TOML forbids
    one; Windows editors write one). Raises `OSError`, `UnicodeDecodeError` or `TOMLDecodeError`."""
    with open(path, "rb") as handle:
        return tomllib.loads(handle.read().decode("utf-8-sig"))
