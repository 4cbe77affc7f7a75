"""The XDG base directories webferret uses (cache, config, runtime), read as the XDG Base Directory
specification says: a variable that is unset, empty or a relative path is not used (the spec calls
a relative path invalid), and the default takes its place. Imported by the hand-off client too, so
it needs nothing but `os`."""

from __future__ import annotations

import os

TYPE_CHECKING = False  # (as in `webferret.handoff`: no `typing` import on a served call's start)
if TYPE_CHECKING:
    from collections.abc import Mapping


def xdg_dir(name: str, default: str | None, env: Mapping[str, str] | None = None) -> str | None:
    """The folder `$name` names when it is an absolute path, else `default` (`~` expanded)."""
    value = (os.environ if env is None else env).get(name, "")
    if value and os.path.isabs(value):
        return value
    return os.path.expanduser(default) if default is not None else None
