"""Work that can wait until a served call's client has its answer.

A call that `webferret serve` runs in a child is over for its caller when the client gets the exit
code: what the child does after that is off the call's clock. `later(action)` runs `action` at once
in every other process (a command of its own, a library, the MCP server); in a served call's child
(after `hold()`) it is kept until `run_held()`, which the child runs once it has sent the exit code
and let go of the client's standard streams. Only housekeeping nobody waits for belongs here, such
as the page store's close with its WAL checkpoint (about 5 ms); never a write a later call may read:
those are committed before the answer.
"""

from __future__ import annotations

from collections.abc import Callable

_held: list[Callable[[], object]] | None = None


def hold() -> None:
    """Keep every `later` action of this process from now on until `run_held`."""
    global _held
    _held = []


def holding() -> bool:
    """Does this process hold `later` actions until after its answer (a served call's child)?"""
    return _held is not None


def later(action: Callable[[], object]) -> None:
    """Run `action` now, or after the answer when this process holds (`hold`)."""
    if _held is None:
        action()
    else:
        _held.append(action)


def run_held() -> list[Exception]:
    """Run the held actions in their order, each whatever the others did; answer their errors.
    `later` runs actions at once again after this."""
    global _held
    actions, _held = _held or [], None
    errors = []
    for action in actions:
        try:
            action()
        except Exception as exc:
            errors.append(exc)
    return errors
