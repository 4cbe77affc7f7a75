"""argparse types for the numbers flags take, each refusing a bad value with what it wanted."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TypeVar

from webferret.limits import MAX_SECONDS

N = TypeVar("N", int, float)


def whole_number(low: int = 1, high: int | None = None, unit: str = "") -> Callable[[str], int]:
    """A whole number from `low` (to `high`); `unit` names what is counted in the message."""
    wanted = f"a whole number{unit} from {low} to {high}" if high else f"a whole number{unit}, {low} or more"
    return _number(int, lambda value: low <= value and (high is None or value <= high), wanted)


def seconds(zero: bool = False, most: float = MAX_SECONDS) -> Callable[[str], float]:
    """A number of seconds above 0 (or with `zero`, 0 or more), at most `most`."""
    wanted = f"a number of seconds {'from 0 to' if zero else 'above 0, at most'} {most:g}"
    return _number(float, lambda value: (value > 0 or (zero and value == 0)) and value <= most, wanted)


def _number(read: Callable[[str], N], fits: Callable[[N], bool], wanted: str) -> Callable[[str], N]:
    """The argparse type reading a number with `read` that `fits`, else saying it expected `wanted`."""

    def parse(text: str) -> N:
        try:
            value = read(text)
        except ValueError:
            value = None
        if value is None or not fits(value):
            raise argparse.ArgumentTypeError(f"expected {wanted}, got {text!r}")
        return value

    return parse
