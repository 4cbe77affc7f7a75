"""Setting names read in any case, as the settings read them (`WEBFERRET_timeout`, `Timeout = 5` in
the file, `Ferret(Timeout=5)`): one place for the look-ups that read a name before the settings do
(the hand-off's `serve`, the settings file's path), and for the one fault any case allows, a setting
given twice in one source. Imported by the hand-off client too, so it needs nothing but the
standard library's built-ins."""

from __future__ import annotations

TYPE_CHECKING = False  # (as in `webferret.handoff`: no `typing` import on a served call's start)
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping


def one_spelling(names: Iterable[str], where: str) -> None:
    """A ValueError when two of `names` (of `where`: the environment, a file, the arguments) are one
    name in two cases (`Timeout` and `timeout`): one of the two would win without a word."""
    seen: dict[str, str] = {}
    for name in names:
        other = seen.setdefault(name.lower(), name)
        if other != name:
            first, second = sorted((other, name))  # (an environment's order is no order)
            raise ValueError(
                f"{first} and {second} ({where}) are one setting given twice, in two cases: keep one"
            )


def env_value(env: Mapping[str, str], name: str) -> str | None:
    """The value of the variable `name` (upper case) in `env`, however its name is cased, or None;
    a ValueError when it is set in two cases."""
    spellings = [key for key in env if key.upper() == name]
    if len(spellings) > 1:
        one_spelling(spellings, "the environment")
    return env[spellings[0]] if spellings else None
