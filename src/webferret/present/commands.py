"""The `webferret` commands a CLI answer suggests (how to read on, search, fetch more), said so
that copying one reads the same store, in the same view: with the `--home DIR` the command was
given, and an agent view's command (`--agent`) with the `--datamark` it was given.

The command line names its home and view once per call (`given_call`); a library call, the MCP
server and the HTTP API leave them unset, and their hints name no home.
"""

from __future__ import annotations

import shlex

_home: list[str] = []  # the `--home` of the command being run, if it was given one
_datamark: list[bool] = []  # whether the command being run was given `--datamark`


def given_call(home: str | None, *, datamark: bool = False) -> None:
    """The `--home` of the command now running (None: none given; the environment's home holds),
    and whether it was given `--datamark` (an agent view's next command datamarks its text too)."""
    _home[:] = [home] if home is not None else []
    _datamark[:] = [True] if datamark else []


def command(words: str) -> str:
    """`webferret WORDS`, plus `--datamark` after an `--agent` among them when the running command
    had it, and `--home DIR` (quoted for a shell) when it had one."""
    marked = " --datamark" if _datamark and "--agent" in words.split() else ""
    home = f" --home {shlex.quote(_home[0])}" if _home else ""
    return f"webferret {words}{marked}{home}"
