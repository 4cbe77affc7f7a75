"""The number flags: one parser per kind, each refusing with what it wanted."""

import argparse

import pytest

from webferret.cli.numbers import seconds, whole_number


def test_whole_number_bounds() -> None:
    assert whole_number()("3") == 3
    assert whole_number(1, 100)("100") == 100
    for bad in ("0", "101", "2.5", "ten", ""):
        with pytest.raises(argparse.ArgumentTypeError, match="from 1 to 100"):
            whole_number(1, 100)(bad)
    with pytest.raises(argparse.ArgumentTypeError, match="whole number of tokens per page, 100 or more"):
        whole_number(100, unit=" of tokens per page")("99")


def test_seconds() -> None:
    assert seconds()("0.5") == 0.5
    assert seconds(zero=True)("0") == 0
    for bad in ("0", "-1", "nan", "inf", "soon"):
        with pytest.raises(argparse.ArgumentTypeError, match="seconds above 0"):
            seconds()(bad)
    with pytest.raises(argparse.ArgumentTypeError, match="0 or more"):
        seconds(zero=True)("-1")
