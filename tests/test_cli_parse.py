"""The command line takes options between positional arguments, as `fetch URL1 --json URL2`."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from webferret.cli import build_parser, main, parse


def test_urls_and_files_on_both_sides_of_options() -> None:
    args = parse(build_parser(), ["fetch", "https://a.example/", "--json", "https://b.example/", "-q"])
    assert args.urls == ["https://a.example/", "https://b.example/"] and args.json and args.quiet
    args = parse(build_parser(), ["extract", "a.html", "--format", "text", "b.html"])
    assert args.files == ["a.html", "b.html"] and args.format == "text"


def test_query_words_on_both_sides_of_options() -> None:
    assert parse(build_parser(), ["search", "rust", "--json", "ownership"]).query == ["rust", "ownership"]
    assert parse(build_parser(), ["find", "borrow", "-n", "3", "checker"]).query == ["borrow", "checker"]


@pytest.mark.parametrize(
    ("argv", "query"),
    [
        (["search", "rust", "async", "-tokio", "--json"], ["rust", "async", "-tokio"]),
        (
            ["search", "python", "-nodejs", "-site:pinterest.com"],
            ["python", "-nodejs", "-site:pinterest.com"],
        ),
        (["search", "gcc", "--json", "-fno-strict-aliasing"], ["gcc", "-fno-strict-aliasing"]),
        (
            ["search", "-tokio", "rust"],
            ["rust", "-tokio"],
        ),  # (an exclusion's place in the query is no matter)
        (["search", "rust", "--", "-x", "-tokio"], ["rust", "-x", "-tokio"]),
    ],
)
def test_a_query_word_starting_with_a_dash_is_a_word(argv: list[str], query: list[str]) -> None:
    """`-word` excludes a word (`-site:x.org` a site) at every engine: argparse called it an
    unrecognized option, and read `-nodejs` as `-n odejs`."""
    args = parse(build_parser(), argv)
    assert args.query == query and args.results is None


@pytest.mark.parametrize(
    ("argv", "query"),
    [
        (["find", "-fno-strict-aliasing"], ["-fno-strict-aliasing"]),
        (["find", "gcc", "-Werror", "--json"], ["gcc", "-Werror"]),
        (["find", "-nodejs", "-n", "3"], ["-nodejs"]),  # not `-n odejs`
    ],
)
def test_a_find_query_word_starting_with_a_dash_is_a_word(argv: list[str], query: list[str]) -> None:
    """`find` takes any text: a word starting with a dash (a compiler flag) was read as an unknown
    option, "the following arguments are required: QUERY" when it was the query's only word."""
    args = parse(build_parser(), argv)
    assert args.query == query and args.n == (3 if "-n" in argv else 5)


def test_a_dashed_option_of_search_stays_an_option(capsys: pytest.CaptureFixture[str]) -> None:
    args = parse(build_parser(), ["search", "q", "-n5", "-tokio", "-n", "3"])
    assert (args.query, args.results) == (["q", "-tokio"], 3)
    with pytest.raises(SystemExit):  # a long option written with one dash is a slip, said so
        parse(build_parser(), ["search", "q", "-json"])
    said = capsys.readouterr().err
    assert "unrecognized arguments: -json (the option is --json)" in said
    assert "a word to exclude goes after --: webferret search ... -- -json" in said  # (it said no more)
    with pytest.raises(SystemExit):
        parse(build_parser(), ["fetch", "https://a.example/", "-json"])
    said = capsys.readouterr().err
    assert "-json (the option is --json)" in said and "word to exclude" not in said
    with pytest.raises(SystemExit):  # a negative number is still an option's value, checked by it
        parse(build_parser(), ["search", "q", "--engine-timeout", "-1"])
    assert "--engine-timeout: expected a number of seconds" in capsys.readouterr().err


def test_store_subcommands_still_parse() -> None:
    assert parse(build_parser(), ["store", "prune", "--older-than", "7d"]).older_than == 7 * 86400


@pytest.mark.parametrize(
    "argv",
    [
        ["search", "q", "--n", "5"],
        ["search", "q", "--no-ver"],
        ["store", "prune", "--older", "7d"],
        ["--vers"],
    ],
)
def test_no_option_is_taken_by_an_abbreviation(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """`--n 5` was `--no-verify` (its one option starting `--n`), and 5 a word of the query."""
    with pytest.raises(SystemExit) as exit_info:
        parse(build_parser(), argv)
    assert exit_info.value.code == 2 and "error:" in capsys.readouterr().err  # unrecognized, or missing


@pytest.mark.parametrize(
    "argv", [["fetch", "https://a.example/", "--bogus"], ["open", "h~1", "extra"], ["store", "stats", "x"]]
)
def test_what_no_command_takes_is_still_a_usage_error(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        parse(build_parser(), argv)
    err = capsys.readouterr().err
    assert exit_info.value.code == 2 and "unrecognized arguments" in err
    assert f"webferret {' '.join(argv[:2] if argv[0] == 'store' else argv[:1])}: error:" in err  # named


@pytest.mark.parametrize(
    "argv", [["--json", "fetch", "https://a.example/"], ["--bogus", "search", "q", "--json", "w"]]
)
def test_an_option_before_the_command_is_a_usage_error(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """`webferret --json fetch URL` fetched as if `--json` were never given (a human answer, no
    envelope): the options before the command were dropped when the command's were intermixed."""
    with pytest.raises(SystemExit) as exit_info:
        parse(build_parser(), argv)
    err = capsys.readouterr().err
    assert exit_info.value.code == 2 and f"webferret: error: unrecognized arguments: {argv[0]}" in err


def test_a_setting_s_flag_before_the_command_says_where_it_goes(capsys: pytest.CaptureFixture[str]) -> None:
    """`webferret --home DIR store stats` said "invalid choice: 'DIR'", as if DIR were meant for a
    command: the flag is the command's, and the message says so, with where to write it."""
    with pytest.raises(SystemExit) as exit_info:
        parse(build_parser(), ["--home", "/srv/pages", "store", "stats"])
    err = capsys.readouterr().err
    assert exit_info.value.code == 2 and "invalid choice" not in err
    assert "unrecognized arguments: --home /srv/pages (options go after the command: " in err
    assert "webferret store stats --home /srv/pages ...)" in err


@pytest.mark.parametrize("url", ["notaurl", "example.org/page", "/a/b", "https://"])
def test_extract_url_must_be_absolute(url: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A bare word as --url resolved every relative link against nothing, silently."""
    with pytest.raises(SystemExit) as usage:
        parse(build_parser(), ["extract", "a.html", "--url", url])
    err = capsys.readouterr().err
    assert usage.value.code == 2 and f"argument --url: {url} " in err
    assert ("is not an absolute URL (" in err) != (url == "https://" and "has no host" in err)


def test_extract_takes_an_absolute_url() -> None:
    for url in ("https://lwn.net/Articles/1/", "file:///tmp/a.html"):
        assert parse(build_parser(), ["extract", "a.html", "--url", url]).url == url


def test_the_program_hands_the_gil_over_quickly() -> None:
    """Every command (and `webferret mcp`) runs with a short GIL switch interval, so the event loop is
    not held back by a background thread (store writes, name look-ups) for Python's default 5 ms."""
    from webferret.cli import SWITCH_INTERVAL, main

    before = sys.getswitchinterval()
    sys.setswitchinterval(0.005)  # Python's default
    try:
        main([])  # no command: prints the help
        assert sys.getswitchinterval() == pytest.approx(SWITCH_INTERVAL)
    finally:
        sys.setswitchinterval(before)


def test_the_collector_is_off_for_start_up_only() -> None:
    """A command starts with the garbage collector off and turns it on (its start-up frozen) once it
    first waits; `main` leaves an in-process caller's collector as it found it."""
    import asyncio
    import gc

    from webferret.cli import main
    from webferret.cli.common import _collecting_once_waiting

    seen: list[bool] = []

    async def command() -> bool:
        seen.append(gc.isenabled())  # start-up: still off
        await asyncio.sleep(0)
        return gc.isenabled()

    assert gc.isenabled()
    gc.disable()
    try:
        assert asyncio.run(_collecting_once_waiting(command())) is True and seen == [False]
    finally:
        gc.unfreeze()
        gc.enable()
    main([])
    assert gc.isenabled()


def test_a_parser_built_ahead_serves_the_next_call(capsys: pytest.CaptureFixture[str]) -> None:
    """A `webferret serve` spare builds the parser before its call comes; the call uses that one."""
    import webferret.cli as cli

    cli.build_parser_ahead()
    ahead = cli._built_ahead[0]
    assert cli.main([]) == cli.EXIT_USAGE  # no command: the help, from the parser built ahead
    assert cli._built_ahead == [] and ahead.format_help() in capsys.readouterr().out
    assert cli.main([]) == cli.EXIT_USAGE  # the next call builds its own


def _help(command: str, capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit):
        parse(build_parser(), [command, "--help"])
    return " ".join(capsys.readouterr().out.split())


def test_server_help_names_what_they_serve(capsys: pytest.CaptureFixture[str]) -> None:
    """`mcp --help` said web_search, web_fetch and web_open (the server serves web_crawl and web_map
    too), and `api --help` left out its /extract."""
    from webferret.mcp_tools import TOOLS

    mcp_help = _help("mcp", capsys)
    assert all(name in mcp_help for name in TOOLS), mcp_help
    assert "extract" in _help("api", capsys)


def test_a_verify_timeout_without_verifying_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--no-verify --verify-timeout 3` was taken, the timeout timing nothing (`--read` is refused so)."""
    argv = ["search", "q", "--no-verify", "--verify-timeout", "3", "--home", str(tmp_path), "--json"]
    assert main(argv) == 2
    assert "--verify-timeout times the verification --no-verify skips" in capsys.readouterr().out
