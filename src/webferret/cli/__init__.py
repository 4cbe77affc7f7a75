"""`webferret` command line: parse, call the core, render. One module per subcommand.

Subcommand modules are imported by name so a command added in `COMMANDS` needs no other edit,
and `webferret --help` imports nothing heavy (no httpx, trafilatura or chromium drivers).
"""

from __future__ import annotations

import argparse
import gc
import importlib
import re
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

COMMANDS = ("search", "fetch", "crawl", "map", "open", "find", "extract", "store", "mcp", "api", "serve")

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


def _command_modules() -> list[object]:
    modules = []
    for name in COMMANDS:
        try:
            modules.append(importlib.import_module(f"webferret.cli.cmd_{name}"))
        except ModuleNotFoundError as exc:
            if exc.name != f"webferret.cli.cmd_{name}":
                raise
    return modules


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error of a `--json` call is also answered as a JSON envelope on stdout
    (an agent parsing stdout gets `invalid_argument`, not nothing); the exit status stays 2. No
    option is taken by an abbreviation of its name (`--n 5` is not `--no-verify` and a query word):
    every command's parser is this class, as `add_subparsers` makes its subparsers of its own."""

    json_errors = False
    one_line = False  # `--jsonl`: the envelope on one line

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **{"allow_abbrev": False, **kwargs})
        # a word that starts with a minus and a digit is a value, as `-5` is: `--older-than -1d` reaches
        # the option's own check ("expected a duration"), not argparse's "expected one argument"
        self._negative_number_matcher = re.compile(r"^-\d")

    def error(self, message: str) -> NoReturn:
        if _Parser.json_errors:
            from webferret.cli.common import write_envelope
            from webferret.models import ErrorCode
            from webferret.present.envelopes import error_envelope

            envelope = error_envelope(ErrorCode.INVALID_ARGUMENT, f"{self.prog}: {message}")
            write_envelope(envelope, one_line=_Parser.one_line)
        super().error(message)


_built_ahead: list[argparse.ArgumentParser] = []


def build_parser_ahead() -> None:
    """Build the parser the next `main` call uses, before the call comes: `webferret serve` builds
    it as it warms up, and every child it forks pops its own copy (5-7 ms of a spare's start, which
    a call that comes right after another waited for)."""
    _built_ahead.append(build_parser())


def build_parser() -> argparse.ArgumentParser:
    from webferret import __version__

    parser = _Parser(
        prog="webferret",
        description="Self-hosted web search and web reading for AI agents.",
    )
    parser.add_argument("--version", action="version", version=f"webferret {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in _command_modules():
        module.register(sub)  # type: ignore[attr-defined]
    return parser


def parse(parser: argparse.ArgumentParser, argv: list[str]) -> argparse.Namespace:
    """`argv` parsed, options also between a command's positional arguments (`fetch A --json B`):
    plain argparse takes a list of positionals in one run only and calls the rest unrecognized."""
    argv = _dash_words_as_words(parser, argv)
    if before := _options_before_the_command(parser, argv):
        parser.error(before)
    args, extras = parser.parse_known_args(argv)
    command = _subparser(parser, getattr(args, "command", None))
    if extras and command is not None and _has_subcommands(command):  # `store list --bogus`
        leaf = _leaf(command, args)
        leaf.error(f"unrecognized arguments: {' '.join(extras)}")  # named by its own command
    if not extras or command is None or _has_subcommands(command):
        return parser.parse_args(argv)  # as before: no extras, or argparse's own usage error
    if slips := _one_dash_slips(command, extras):
        command.error(slips)
    rest = argv[argv.index(args.command) + 1 :]
    return command.parse_intermixed_args(rest, namespace=argparse.Namespace(command=args.command))


def _options_before_the_command(parser: argparse.ArgumentParser, argv: list[str]) -> str | None:
    """What is wrong with options written before the command (`webferret --json fetch URL`, `webferret
    --home DIR store stats`): they are none of webferret's own, and were dropped, or `DIR` was taken
    for the command ("invalid choice"). None when the first word is the command or -h, --version."""
    if not argv or not argv[0].startswith("-") or argv[0] in ("-h", "--help", "--version"):
        return None
    at = next((i for i, word in enumerate(argv) if _subparser(parser, word) is not None), None)
    if at is None:
        return None
    path, command = [argv[at]], _subparser(parser, argv[at])
    for word in argv[at + 1 :]:  # `store stats`: the options go after the action
        command = _subparser(command, word) if command is not None else None
        if command is None:
            break
        path.append(word)
    before = " ".join(argv[:at])
    written = f"webferret {' '.join(path)} {before} ..."
    return f"unrecognized arguments: {before} (options go after the command: {written})"


def _dash_words_as_words(parser: argparse.ArgumentParser, argv: list[str]) -> list[str]:
    """`argv`, with the words of a command that takes words starting with a dash (`search`, whose
    query may exclude words: `rust async -tokio`, `-site:x.org`; `find`, whose query is any text;
    `set_defaults(dash_words=...)`, naming what such a word is to it)
    that are none of its options moved after `--`, where they are words: argparse took them for
    unrecognized options, and `-nodejs` for `-n odejs`."""
    at = next((i for i, word in enumerate(argv) if not word.startswith("-")), None)
    command = _subparser(parser, argv[at]) if at is not None else None
    if at is None or command is None or not command.get_default("dash_words"):
        return argv
    end = argv.index("--") if "--" in argv[at:] else len(argv)
    options = {name: action for action in command._actions for name in action.option_strings}
    words = [word for word in argv[at + 1 : end] if _dash_word(word, options)]
    if not words:
        return argv
    head = [word for i, word in enumerate(argv[:end]) if i <= at or not _dash_word(word, options)]
    return [*head, *(argv[end:] or ["--"]), *words]


def _dash_word(word: str, options: dict[str, argparse.Action]) -> bool:
    """A word that starts with one dash and is none of `options`: not `-n`, nor `-n5` (a short
    option and its number), nor `-json` (a long option written with one dash: a slip, said as one),
    nor a negative number (a value)."""
    if not word.startswith("-") or word.startswith("--") or len(word) < 2 or word[1].isdigit():
        return False
    if word in options or "-" + word.split("=", 1)[0] in options:
        return False
    short = options.get(word[:2])
    return short is None or short.nargs == 0 or not word[2:].lstrip("=").isdigit()


def _one_dash_slips(command: argparse.ArgumentParser, extras: list[str]) -> str | None:
    """What to say of `extras` that are long options written with one dash (`-json`), or None: each
    named with its two dashes, and, where the command takes words starting with a dash (`search`),
    how such a word is given."""
    options = {name for action in command._actions for name in action.option_strings}
    slips = [word for word in extras if _dash_word(word, {}) and "-" + word.split("=", 1)[0] in options]
    if not slips:
        return None
    said = ", ".join(f"{word} (the option is -{word})" for word in slips)
    if kind := command.get_default("dash_words"):  # what such a word is to the command
        said += f"; {kind} goes after --: {command.prog} ... -- {' '.join(slips)}"
    return f"unrecognized arguments: {said}"


def _subparser(parser: argparse.ArgumentParser, name: str | None) -> argparse.ArgumentParser | None:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction) and name in action.choices:
            return action.choices[name]  # type: ignore[no-any-return]
    return None


def _leaf(parser: argparse.ArgumentParser, args: argparse.Namespace) -> argparse.ArgumentParser:
    """The innermost command `args` chose under `parser` (`store` -> `store list`)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            chosen = action.choices.get(getattr(args, action.dest or "", None))
            if chosen is not None:
                return _leaf(chosen, args)
    return parser


def _has_subcommands(parser: argparse.ArgumentParser) -> bool:
    return any(isinstance(action, argparse._SubParsersAction) for action in parser._actions)


SWITCH_INTERVAL = 0.0005
"""Seconds a thread may hold the GIL while another waits for it (Python's default is 0.005). The
event loop (requests to send, pages to hand to the workers, the answer) shares it with threads that
work in the background: store writes, name look-ups, the CA store load. With the default, a write
in progress held a resident server's next call back by up to 5 ms at every step (15-20 ms at the
start of a call); at 0.5 ms the loop gets the GIL back within half a millisecond."""


def main(argv: Sequence[str] | None = None) -> int:
    from webferret.blas import single_threaded
    from webferret.cli.stdio import any_locale

    single_threaded()  # before anything imports numpy (see `webferret.blas`)
    any_locale()  # no page lost to a locale that is not UTF-8 (see `webferret.cli.stdio`)
    sys.setswitchinterval(SWITCH_INTERVAL)
    collecting = gc.isenabled()
    gc.disable()  # until the command first waits (`common.run_command`): see `webferret.cli.warm`
    try:
        return _main(argv)
    finally:
        if collecting:  # as it was (a caller in-process, such as a test, keeps its collector)
            gc.enable()


def _main(argv: Sequence[str] | None) -> int:
    # httpx imports its own command line (click, pygments, rich: tens of milliseconds) whenever those
    # happen to be installed; this program never runs it, so it is skipped (httpx then defines a stub)
    sys.modules.setdefault("httpx._main", None)  # type: ignore[arg-type]
    parser = _built_ahead.pop() if _built_ahead else build_parser()
    given = sys.argv[1:] if argv is None else list(argv)
    _Parser.one_line = "--jsonl" in given
    _Parser.json_errors = "--json" in given or _Parser.one_line
    args = parse(parser, given)
    if not getattr(args, "run", None):
        parser.print_help()
        return EXIT_USAGE
    early = getattr(args, "early", None)
    if early is None:
        return _run(args)
    early(args)  # e.g. extraction workers forked before the heavy imports below
    try:
        return _run(args)
    finally:  # workers no call adopted (it stopped before it fetched anything) end with it
        from webferret.extract.pool import release_preforked

        release_preforked()


def _run(args: argparse.Namespace) -> int:
    from webferret.cli.common import run_command

    return run_command(args)


if __name__ == "__main__":  # pragma: no cover
    from webferret.launch import entry

    entry()
