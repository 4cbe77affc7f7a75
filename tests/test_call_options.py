"""Per-call options are checked as the settings of the same names are (README: any setting of its kind)."""

from __future__ import annotations

import pytest

from webferret import Ferret
from webferret.models import ErrorCode, FerretError


async def test_a_bad_per_call_option_is_invalid_argument_naming_it() -> None:
    async with Ferret() as ferret:
        for make, name, value in [
            (ferret.fetch_options, "tier", "warp"),
            (ferret.fetch_options, "timeout", -1),
            (ferret.extract_options, "format", "pdf"),
            (ferret.search_options, "results", 0),
        ]:
            with pytest.raises(FerretError) as info:
                make(**{name: value})
            assert info.value.code == ErrorCode.INVALID_ARGUMENT
            assert f"{name}={value!r}" in info.value.message


async def test_per_call_options_are_read_as_settings_are() -> None:
    async with Ferret() as ferret:
        assert ferret.search_options(engines="searxng, wikipedia").engines == ("searxng", "wikipedia")
        assert ferret.search_options(engines=["github"]).engines == ("github",)
        assert ferret.fetch_options(timeout="5").timeout == 5.0
        assert ferret.fetch_options(tier="browser", mobile=True).mobile


async def test_a_misspelt_per_call_option_is_invalid_argument_listing_the_real_ones() -> None:
    """Not a bare TypeError from the dataclass: the README promises FerretError for a bad argument."""
    async with Ferret() as ferret:
        for make, typo, real in [
            (ferret.fetch_options, "timout", "timeout"),
            (ferret.extract_options, "selecter", "selector"),
            (ferret.search_options, "reslts", "results"),
        ]:
            with pytest.raises(FerretError) as info:
                make(**{typo: 1})
            assert info.value.code == ErrorCode.INVALID_ARGUMENT
            assert f"unknown option(s) '{typo}'" in info.value.message and real in info.value.message
