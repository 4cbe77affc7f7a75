"""argparse types for the numbers flags take, each refusing a bad value with what it wanted."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable


def whole_number(low: int = 1, high: int | None = None, unit: str = "") -> Callable[[str], int]:
    """A whole number from `low` (to `high`); `unit` names what is counted in the message."""
    wanted = f"a whole number{unit} from {low} to {high}" if high else f"a whole number{unit}, {low} or more"

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {wanted}, got {text!r}") from None
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"expected {wanted}, got {text!r}")
        return value

    return parse


def seconds(zero: bool = False) -> Callable[[str], float]:
    """A finite number of seconds, above 0 (or with `zero`, 0 or more)."""
    wanted = "a number of seconds, 0 or more" if zero else "a number of seconds above 0"

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {wanted}, got {text!r}") from None
        if not math.isfinite(value) or value < 0 or (value == 0 and not zero):
            raise argparse.ArgumentTypeError(f"expected {wanted}, got {text!r}")
        return value

    return parse
