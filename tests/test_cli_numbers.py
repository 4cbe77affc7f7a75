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
    assert seconds()("86400") == 86400
    for bad in ("0", "-1", "nan", "inf", "soon", "86401", "1e300"):
        with pytest.raises(argparse.ArgumentTypeError, match="seconds above 0, at most 86400"):
            seconds()(bad)
    with pytest.raises(argparse.ArgumentTypeError, match="from 0 to 60"):
        seconds(zero=True, most=60)("-1")
    with pytest.raises(argparse.ArgumentTypeError, match="from 0 to 60"):
        seconds(zero=True, most=60)("61")


def test_a_search_time_limit_is_named_by_its_own_name() -> None:
    """`engine_timeout` past a day reached the engines' libraries, which failed each with their
    own words; `verify_timeout` past a day was refused as `timeout`, a name a search does not take."""
    from webferret.fetch.types import FetchOptions
    from webferret.models import FerretError
    from webferret.search.types import SearchOptions

    for name in ("engine_timeout", "verify_timeout"):
        with pytest.raises(FerretError, match=f"^{name}: a number of seconds above 0 and at most 86400"):
            SearchOptions(**{name: 1e300})
    with pytest.raises(FerretError, match=r"^verify_timeout: "):
        FetchOptions(timeout=1e9, budget=1e9, timed_by="verify_timeout")
    with pytest.raises(FerretError, match=r"^budget: "):
        FetchOptions(budget=0)
