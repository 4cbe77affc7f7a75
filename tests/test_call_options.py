"""Per-call options are checked as the settings of the same names are (README: any setting of its kind)."""

from __future__ import annotations

from pathlib import Path

import pytest

from webferret import Ferret
from webferret.models import ErrorCode, FerretError, Page


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


@pytest.mark.parametrize("weight", [float("nan"), -1.0, float("inf"), True, "2"])
async def test_a_search_weight_the_setting_refuses_is_refused_per_call(weight: object) -> None:
    """`search_options(weights={"searxng": nan})` was taken (the setting `engine_weights` refuses it):
    NaN and inf gave every result that score, -1 weighed as 0 and "2" failed the search with a bare
    TypeError."""
    async with Ferret() as ferret:
        with pytest.raises(FerretError) as info:
            ferret.search_options(weights={"searxng": weight})
        assert info.value.code == ErrorCode.INVALID_ARGUMENT
        assert f"weights: searxng={weight!r}: a weight is a finite number, 0 or more" in info.value.message
        with pytest.raises(FerretError, match="weights: a mapping of engine names to weights, not list"):
            ferret.search_options(weights=[("searxng", 2.0)])
        assert ferret.search_options(weights={"SearXNG": 0, "github": 2}).weights == {
            "searxng": 0,
            "github": 2,
        }


async def test_a_switch_option_that_is_no_boolean_is_refused() -> None:
    """`fetch_options(mobile="no")` was truthy: it picked the browser and rendered as a phone;
    `extract_options(links="no")` listed the links, `search_options(fresh="no")` skipped the store (as
    `CrawlOptions(robots="no")` is refused)."""
    async with Ferret() as ferret:
        for make, name in [
            (ferret.fetch_options, "mobile"),
            (ferret.extract_options, "links"),
            (ferret.extract_options, "whole_page"),
            (ferret.search_options, "fresh"),
        ]:
            with pytest.raises(FerretError) as info:
                make(**{name: "no"})
            assert info.value.code == ErrorCode.INVALID_ARGUMENT
            assert info.value.message == f"{name}: true or false, not 'no'"
        assert ferret.fetch_options(mobile=True).tier == "browser"
        assert ferret.extract_options(links=False).links is False


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


async def _async(make: object, *args: object, **kwargs: object) -> object:
    """A synchronous call, awaitable as the calls of the table are."""
    return make(*args, **kwargs)  # type: ignore[operator]


@pytest.mark.parametrize(
    ("call", "says"),
    [
        (lambda f: f.fetch(None), "url: a string, not NoneType"),
        (lambda f: f.fetch_many(5), "urls: a list of URLs, not int"),
        (lambda f: f.search(None), "query: a string, not NoneType"),
        (lambda f: f.open("a.example~0123456789ab", page_tokens=-5), "page_tokens: a whole number"),
        (lambda f: f.open("a.example~0123456789ab", page_tokens=0), "page_tokens: a whole number"),
        (lambda f: f.open("a.example~0123456789ab", link_limit=-1), "link_limit: a whole number"),
        (lambda f: f.open("a.example~0123456789ab", page=0), "page: a whole number"),
        (lambda f: f.find("ferrets", n=0), "n: a whole number"),
        (lambda f: f.find("ferrets", handles="a.example~0123456789ab"), "handles: a list of handles"),
        (
            lambda f: f.open("a.example~0123456789ab", page_tokens=5),
            "page_tokens: a whole number of at least 100",
        ),
        (lambda f: f.find("ferrets", n=10**9), "n: a whole number from 1 to 1000"),
        (lambda f: f.open("  "), "the handle is empty"),
        (lambda f: f.find("ferrets", handles=[""]), "the handle is empty"),
        (lambda f: f.find('* ( " :'), "has no words to look for"),
        # each was a bare AttributeError or TypeError from inside
        (lambda f: f.find("ferrets", handles=5), "handles: a list of handles, not 5"),
        (lambda f: f.fetch_many(["http://a.example/"], on_page=5), "on_page: a function"),
        (lambda f: f.crawl("http://a.example/", on_read="x"), "on_read: a function"),
        (lambda f: _async(f.extract_options, selector=5), "selector: a string, not int"),
        (lambda f: _async(f.extract_options, exclude=[5]), "exclude: CSS selectors"),
        (lambda f: _async(f.fetch_options, wait_for=5), "wait_for: a string, not int"),
        # each was taken, then a TypeError traceback or an `internal` page once a fetch used it
        (lambda f: _async(f.fetch_options, screenshot=True), "screenshot: a string, not bool"),
        (lambda f: _async(f.fetch_options, rate_limits=5), "rate_limits: a RateLimits"),
        (lambda f: _async(f.fetch_options, admit="x"), "admit: an async function"),
        (lambda f: _async(f.fetch_options, clip="yes"), "clip: true or false"),
        (lambda f: _async(f.fetch_options, budget_set="x"), "budget_set: a number of seconds"),
        (lambda f: _async(Ferret, {"timeout": 5}), "settings: a Settings"),
        # a truthy string was read as true (fresh="no" skipped the store)
        (lambda f: f.fetch("http://a.example/", fresh="no"), "fresh: true or false, not 'no'"),
        (lambda f: f.crawl("http://a.example/", fresh=1), "fresh: true or false, not 1"),
        (lambda f: f.map_site("http://a.example/", fresh=None), "fresh: true or false, not None"),
        (lambda f: f.open("a.example~0123456789ab", links="yes"), "links: true or false"),
    ],
)
async def test_a_bad_argument_is_invalid_argument_naming_it(
    tmp_path: object, call: object, says: str
) -> None:
    """Not an AttributeError, a ValueError, nor a silent default (page_tokens=0 read as the setting)."""
    async with Ferret(home=tmp_path) as ferret:
        with pytest.raises(FerretError) as raised:
            await call(ferret)  # type: ignore[operator]
    assert raised.value.code == ErrorCode.INVALID_ARGUMENT and says in raised.value.message


async def test_a_handle_is_read_as_typed_and_an_unknown_long_one_is_named_short(tmp_path: object) -> None:
    async with Ferret(home=tmp_path) as ferret:
        page = ferret.store.put(Page(url="https://a.example/ferrets", ok=True, content="Ferrets sleep."))
        handle = page.handle or ""
        opened = await ferret.open(f"  {handle.upper()}\n")
        assert opened.handle == handle and (await ferret.find("sleep", [f" {handle} "]))[0].handle == handle
        with pytest.raises(FerretError) as raised:
            await ferret.open("x" * 5000)
    assert raised.value.code == ErrorCode.NOT_FOUND and len(raised.value.message) < 200


async def test_urls_may_be_any_iterable(tmp_path: object) -> None:
    async with Ferret(home=tmp_path) as ferret:
        pages = await ferret.fetch_many(url for url in ["file:///x", "ftp://y/"])
    assert [page.error.code for page in pages if page.error] == ["unsupported_scheme"] * 2


async def test_the_script_facade_inside_a_running_loop_says_what_to_call() -> None:
    import warnings

    import webferret

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no "coroutine was never awaited" either
        with pytest.raises(FerretError) as raised:
            webferret.fetch("https://example.org/")
    assert "await ferret.fetch(...)" in raised.value.message


@pytest.mark.parametrize(
    ("facade", "args", "typo", "meant"),
    [
        ("crawl", ("http://127.0.0.1:9/",), "dept", "depth"),
        ("search", ("ferrets",), "time_rang", "time_range"),
        ("map_site", ("http://127.0.0.1:9/",), "serach", "search"),
        ("open", ("docs.example~0123456789ab",), "link", "links"),
        ("fetch", ("http://127.0.0.1:9/",), "frsh", "fresh"),
    ],
)
def test_a_misspelt_argument_of_a_script_facade_names_the_argument_meant(
    facade: str, args: tuple[str, ...], typo: str, meant: str
) -> None:
    """It was "no such setting (the README's Configuration table lists them)": the facade's other
    keywords are settings, so its own argument misspelt sent its caller to the settings table."""
    import webferret
    from webferret.config import ConfigError

    with pytest.raises(ConfigError) as raised:
        getattr(webferret, facade)(*args, **{typo: 1})
    assert f"did you mean {meant}=?" in str(raised.value) and f"webferret.{facade}()" in str(raised.value)


@pytest.mark.parametrize(
    ("facade", "args", "option", "maker"),
    [
        ("fetch", ("http://127.0.0.1:9/",), "selector", "extract_options"),
        ("fetch_many", (["http://127.0.0.1:9/"],), "wait_for", "fetch_options"),
        ("crawl", ("http://127.0.0.1:9/",), "headers", "fetch_options"),
    ],
)
def test_a_call_option_given_to_a_script_facade_names_the_options_that_take_it(
    facade: str, args: tuple[object, ...], option: str, maker: str
) -> None:
    """`webferret.fetch(url, selector="article")` was "no such setting (the README's Configuration
    table lists them)", where the README names it with the options of a Ferret's call."""
    import webferret
    from webferret.config import ConfigError

    with pytest.raises(ConfigError) as raised:
        getattr(webferret, facade)(*args, **{option: "x"})
    assert f"ferret.{maker}({option}=...)" in str(raised.value)


def test_one_exclude_string_is_one_selector_not_its_letters() -> None:
    """`exclude="nav"` was the selectors n, a and v: every link of the page went, silently."""
    from webferret.extract.types import ExtractOptions

    assert ExtractOptions(exclude="nav").exclude == ("nav",)  # type: ignore[arg-type]
    assert ExtractOptions(exclude=".ads").exclude == (".ads",)  # type: ignore[arg-type]


async def test_a_batch_item_that_is_no_string_fails_alone(tmp_path: object) -> None:
    """A list in a URL list was an unhashable TypeError from inside; it fails alone, saying so."""
    async with Ferret(home=tmp_path) as ferret:
        pages = await ferret.fetch_many([["http://a.example/"], ""])  # type: ignore[list-item]
    assert [page.error.code for page in pages if page.error] == [ErrorCode.INVALID_URL, ErrorCode.INVALID_URL]


def test_the_public_names_are_listed() -> None:
    import webferret

    assert {"Ferret", "FerretError", "crawl", "fetch_many"} <= set(dir(webferret))


async def test_a_screenshot_path_may_be_a_path(tmp_path: Path) -> None:
    async with Ferret(home=tmp_path) as ferret:
        assert ferret.fetch_options(screenshot=tmp_path / "a.png").screenshot == str(tmp_path / "a.png")


async def test_a_screenshot_path_in_the_home_folder_is_there(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--screenshot=~/shots/a.png` (no shell expands a `~` after `=`) wrote the picture in a folder
    named `~` made in the directory the call ran in."""
    monkeypatch.setenv("HOME", str(tmp_path / "me"))
    monkeypatch.chdir(tmp_path)
    async with Ferret(home=tmp_path / "store") as ferret:
        assert ferret.fetch_options(screenshot="~/shots/a.png").screenshot == str(tmp_path / "me/shots/a.png")
        with pytest.raises(FerretError) as raised:
            ferret.fetch_options(screenshot="~no-such-user-here/a.png")
    assert raised.value.code == ErrorCode.INVALID_ARGUMENT and "names no home folder" in raised.value.message
    assert not (tmp_path / "~").exists()


async def test_a_page_past_the_last_says_how_many_there_are(tmp_path: Path) -> None:
    """`open --page 5` of a one-page document said "has 1 page(s)"."""
    async with Ferret(home=tmp_path) as ferret:
        page = ferret.store.put(Page(url="https://a.example/ferrets", ok=True, content="Ferrets sleep."))
        with pytest.raises(FerretError) as raised:
            await ferret.open(page.handle or "", page=5)
    assert "has 1 page of " in raised.value.message and "there is no page 5" in raised.value.message
