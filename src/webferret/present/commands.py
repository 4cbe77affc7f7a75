"""The `webferret` commands a CLI answer suggests (how to read on, search, fetch more), said so
that copying one reads the same store: with the `--home DIR` the command was given.

The command line names its home once per call (`given_home`); a library call, the MCP server and
the HTTP API leave it unset, and their hints name no home.
"""

from __future__ import annotations

import shlex

_home: list[str] = []  # the `--home` of the command being run, if it was given one


def given_home(home: str | None) -> None:
    """The `--home` of the command now running (None: none given; the environment's home holds)."""
    _home[:] = [home] if home is not None else []


def command(words: str) -> str:
    """`webferret WORDS`, plus `--home DIR` (quoted for a shell) when the running command had one."""
    home = f" --home {shlex.quote(_home[0])}" if _home else ""
    return f"webferret {words}{home}"
