"""The settings file read as TOML, by the in-process settings and by the quick look `serve` takes."""

from __future__ import annotations

import tomllib
from os import PathLike
from typing import Any

from webferret.anycase import one_spelling


def read_toml(path: str | PathLike[str]) -> dict[str, Any]:
    """`path` parsed as TOML, whether or not an editor began it with a byte-order mark (TOML forbids
    one; Windows editors write one), its setting names lower-cased: `Home` and `Serve` are read as
    `home` and `serve` are, by every reader. Raises `OSError`, `UnicodeDecodeError`,
    `TOMLDecodeError`, or a `ValueError` for one setting written twice in two cases."""
    with open(path, "rb") as handle:
        values = tomllib.loads(handle.read().decode("utf-8-sig"))
    one_spelling(values, f"in {path}")
    return {name.lower(): value for name, value in values.items()}
