"""URLs for `webferret fetch` from the command line, standard input (`-`) and `--urls-from FILE`.

A list has one URL a line; blank lines and lines starting with `#` are skipped, and so is a comment
after a URL (`https://x.org/a  # the docs`: a `#` after a space; a URL's own `#fragment` has none
before it). A line that is not a URL is passed on as it is: the fetcher answers it as a page with its
own `invalid_url` error.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

from webferret.arguments import url_list
from webferret.fetch.charset import bom_charset
from webferret.models import ErrorCode, FerretError

STDIN = "-"
_TRAILING_COMMENT = re.compile(r"\s+#.*")


def parse_url_lines(lines: Iterable[str]) -> list[str]:
    """The URLs of a list: each line stripped; blank lines and `#` comments skipped."""
    urls = []
    for number, line in enumerate(lines):
        entry = (line.removeprefix("\ufeff") if number == 0 else line).strip()  # a BOM opening the list
        entry = _TRAILING_COMMENT.sub("", entry)
        if entry and not entry.startswith("#"):
            urls.append(entry)
    return urls


def list_text(data: bytes) -> str:
    """A list's bytes as text: UTF-8, or UTF-16 or UTF-32 where a byte-order mark says so (what
    Windows PowerShell's `>` writes: read as UTF-8, each URL was an `invalid_url` of spaced letters)."""
    return data.decode(bom_charset(data) or "utf-8", errors="replace")


def _stdin_text() -> str:
    raw = getattr(sys.stdin, "buffer", None)  # (a text stream put in its place has none)
    return sys.stdin.read() if raw is None else list_text(raw.read())


def _read_list(name: str) -> list[str]:
    """The URLs of the list file `name` (`-`: standard input); an unreadable file is a usage error."""
    if name == STDIN:
        return parse_url_lines(_stdin_text().splitlines())
    if not name:  # `Path("")` is the current directory: "cannot read it: Is a directory"
        raise FerretError(ErrorCode.INVALID_ARGUMENT, "--urls-from: an empty file name (an unset variable?)")
    try:
        text = list_text(Path(name).read_bytes())
    except FileNotFoundError:
        raise FerretError(ErrorCode.INVALID_ARGUMENT, f"--urls-from {name}: no such file") from None
    except OSError as exc:
        message = f"--urls-from {name}: cannot read it: {exc.strerror or exc}"
        raise FerretError(ErrorCode.INVALID_ARGUMENT, message) from None
    return parse_url_lines(text.splitlines())


def gather_urls(arguments: Sequence[str], lists: Sequence[str]) -> list[str]:
    """The URLs given as arguments (`-` expands to standard input's list, in its place), then those of
    each `--urls-from` file. Standard input can be named once (as `-` or `--urls-from -`)."""
    if not arguments and not lists:
        message = "no URLs given: name them, or `-` to read them from standard input, or --urls-from FILE"
        raise FerretError(ErrorCode.INVALID_ARGUMENT, message)
    if [*arguments, *lists].count(STDIN) > 1:
        raise FerretError(ErrorCode.INVALID_ARGUMENT, "standard input (-) can be read only once")
    urls: list[str] = []
    for name in arguments:
        urls.extend(_read_list(STDIN) if name == STDIN else [name])
    for name in lists:
        urls.extend(_read_list(name))
    if not urls:
        named = " and ".join(name if name != STDIN else "standard input" for name in [*arguments, *lists])
        raise FerretError(ErrorCode.INVALID_ARGUMENT, f"no URLs given: {named} held none")
    return url_list(urls)  # stripped as the core strips them, so its pages are found by their URLs


def reads_lists(arguments: Sequence[str], lists: Sequence[str]) -> bool:
    """Will the URLs come (partly) from a list, so their number is not known before reading it?"""
    return bool(lists) or STDIN in arguments
