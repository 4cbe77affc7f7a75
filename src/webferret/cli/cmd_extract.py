"""`webferret extract FILE... | -`: extract local HTML, PDF or text files (or stdin) like fetched pages."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Coroutine
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from webferret.cli.cmd_fetch import POSITIVE
from webferret.cli.common import (
    add_common,
    add_links,
    add_scope,
    scope_options,
    settings_from_args,
    signals_raise,
    start_early,
)

if TYPE_CHECKING:
    from webferret.models import FerretError


def _absolute_url(text: str) -> str:
    """`--url`: an absolute URL (relative links are resolved against it), not a bare word: checked
    as a fetch checks its URLs, any scheme (`file:` too)."""
    from webferret.models import FerretError
    from webferret.net.urltext import EXAMPLE, absolute_url

    try:
        absolute_url(
            text, None, local=f" (a path: FILE is the file read; --url is its address, such as {EXAMPLE})"
        )
    except FerretError as exc:
        raise argparse.ArgumentTypeError(exc.message) from None
    return text.strip()


READ_PIECE = 1024 * 1024
"""Bytes of a file or standard input read at a time."""


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser("extract", help="extract local files or stdin as Markdown", description=__doc__)
    parser.add_argument("files", nargs="+", metavar="FILE", help="files to extract; `-` reads stdin")
    parser.add_argument(
        "--url", type=_absolute_url, help="the page's URL (resolves relative links, names the page)"
    )
    parser.add_argument(
        "--format", choices=("markdown", "text", "html"), help="body format (default markdown)"
    )
    parser.add_argument("--max-chars", type=POSITIVE, metavar="N", help="clip each body at N characters")
    add_links(parser)
    add_scope(parser)
    parser.add_argument("--quiet", "-q", action="store_true", help="body only, for pipes")
    add_common(parser, home=False)  # nothing is stored: local files are no fetched pages
    parser.set_defaults(run=run, early=_prefork)


def _prefork(args: argparse.Namespace) -> None:
    start_early(len(args.files), tls=False, stoplists=False)


def _read(name: str, max_bytes: int) -> bytes:
    """The bytes of a file or stdin; raises `FerretError` naming the file when it cannot be read."""
    from webferret.models import ErrorCode, FerretError
    from webferret.present.pages import STDIN_LABEL

    shown = STDIN_LABEL if name == "-" else _shown(name)
    try:
        if name == "-":
            data = _read_capped(sys.stdin.buffer, max_bytes + 1)
        else:
            with Path(name).open("rb") as handle:
                data = _read_capped(handle, max_bytes + 1)
    except FileNotFoundError:
        raise FerretError(ErrorCode.NOT_FOUND, f"no such file: {shown}{_address_hint(shown)}") from None
    except OSError as exc:
        raise FerretError(ErrorCode.INVALID_ARGUMENT, f"cannot read {shown}: {exc.strerror or exc}") from None
    if len(data) > max_bytes:
        raise FerretError(ErrorCode.TOO_LARGE, f"{shown} is larger than max_bytes ({max_bytes} bytes)")
    return data


def _address_hint(name: str) -> str:
    """What to do with an address given as FILE: a web page is fetched, and a `file:` URL (a page
    `extract` named so) is read by its path."""
    from urllib.parse import unquote, urlsplit

    scheme = name.partition(":")[0].lower()
    if scheme in ("http", "https"):
        return " (a web address: `webferret fetch` reads it)"
    if scheme == "file" and (path := unquote(urlsplit(name).path)):
        return f" (a file: URL: FILE is its path, {path})"
    return ""


_CONTROLS = {code: "\ufffd" for code in (*range(32), *range(127, 160))}
"""Control characters (ESC, BEL, a line break, C1's CSI), which a name may hold: in an error line
they would move the terminal's cursor, colour it or rewrite its title, as the file's author chose."""


def _shown(name: str) -> str:
    """A file name as text: bytes that are no UTF-8 (which Python keeps as lone surrogates, that
    no JSON or UTF-8 output can hold) and control characters shown as U+FFFD, as `ls` shows them
    as `?` (a name is shown on one line, never driving the terminal it is printed to)."""
    return os.fsencode(name).decode("utf-8", "replace").translate(_CONTROLS)


def _read_capped(stream: BinaryIO, most: int) -> bytes:
    """At most `most` bytes of `stream`, a piece at a time: one `read(most)` asks for a buffer of
    `most` bytes before it reads any, which a large `max_bytes` (100 GB) cannot have."""
    pieces, size = [], 0
    while size < most and (piece := stream.read(min(READ_PIECE, most - size))):
        pieces.append(piece)
        size += len(piece)
    return b"".join(pieces)


def _source(name: str, url: str | None) -> tuple[str | None, str | None, str | None]:
    """The page URL (as reported), the content type guessed from the file name, and the URL the
    page's relative links are at. Standard input has no URL of its own: without `--url` its page's
    `url` is None (shown as `stdin`). A file is named by its resolved path; a pipe (`<(cmd)`,
    `/dev/fd/63`) by the name given, as resolved it is `/proc/PID/fd/pipe:[N]`, and its links,
    at no place, stay relative as stdin's do (`file:///dev/fd/guide.html` names nothing)."""
    import mimetypes

    if name == "-":
        return url, None, url
    guessed, _ = mimetypes.guess_type(name)
    path = Path(name)
    if url or path.is_file():
        page_url = url or path.resolve().as_uri()
        return page_url, guessed, page_url
    return path.absolute().as_uri(), guessed, None


def _body(name: str, max_bytes: int) -> bytes | FerretError:
    """The bytes of a file or standard input, or why they cannot be read (that page's error)."""
    from webferret.models import FerretError

    try:
        return _read(name, max_bytes)
    except FerretError as exc:
        return exc


async def _one(ferret: Any, name: str, url: str | None, xopts: Any, body: bytes | FerretError) -> Any:
    from webferret.local_pages import page_of
    from webferret.models import FerretError, Page, without_password

    page_url, content_type, base = _source(name, url)
    if isinstance(body, FerretError):
        return Page.failed(without_password(page_url), body.info(), fetched_via="file")
    page = await page_of(ferret, body, content_type, base, xopts)
    return page if base == page_url else page.model_copy(update={"url": page_url, "final_url": page_url})


def run(args: argparse.Namespace) -> Coroutine[Any, Any, int]:
    """The files checked, and they and standard input read before the event loop runs, then the
    extraction: a Ctrl-C while a read waits (stdin, a named pipe no one writes to yet) ends the call
    at once (read in a worker thread, it held the loop's end until the read was over: for ever)."""
    from webferret.models import ErrorCode, FerretError

    if "" in args.files:  # `Path("")` is the current directory
        raise FerretError(ErrorCode.INVALID_ARGUMENT, "an empty FILE name was given (an unset variable?)")
    if args.files.count("-") > 1:
        raise FerretError(ErrorCode.INVALID_ARGUMENT, "- (standard input) given twice: it can be read once")
    if args.url and len(args.files) > 1:  # one address for several pages would give them one handle
        given = f"{len(args.files)} files were given"
        message = f"--url is the address of one page, and {given}: extract them one by one"
        raise FerretError(ErrorCode.INVALID_ARGUMENT, message)
    settings = settings_from_args(args)
    with signals_raise():  # SIGTERM too: the loop's handler is not in place yet
        bodies = [_body(name, settings.max_bytes) for name in args.files]
    return _extract(args, settings, bodies)


async def _extract(args: argparse.Namespace, settings: Any, bodies: list[bytes | FerretError]) -> int:
    """The pages, each written as soon as those before it are (`PageStream`; `--json`: one envelope
    at the end). Ctrl-C: the pages finished before it are written, then how many were not."""
    import asyncio

    from webferret.cli.pages_out import PageStream, say_interrupted, write_pages
    from webferret.ferret import Ferret
    from webferret.present.pages import clip_page

    indices = range(len(args.files))  # a file named twice is two pages
    done: dict[int, Any] = {}
    stream = None if args.json else PageStream(args, indices)
    add = stream.add if stream else done.__setitem__

    async def extracted(ferret: Ferret, xopts: Any, index: int) -> None:
        page = await _one(ferret, args.files[index], args.url, xopts, bodies[index])
        add(index, clip_page(page, args.max_chars))

    try:
        async with Ferret(settings) as ferret:
            xopts = ferret.extract_options(
                format=args.format, links=args.links, link_limit=args.link_limit, **scope_options(args)
            )
            ferret.extractor.warm(len(args.files))
            await asyncio.gather(*(extracted(ferret, xopts, index) for index in indices))
    except asyncio.CancelledError:  # Ctrl-C: asyncio.run cancels this task; what is finished is kept
        finished = stream.done if stream else done
        unfinished = len(indices) - len(finished)
        if stream:
            stream.finish()
        else:
            pages = [done[index] for index in indices if index in done]
            write_pages(args, pages, {"interrupted": True, "unfinished": unfinished})
        return say_interrupted(unfinished, len(indices))
    return stream.finish() if stream else write_pages(args, [done[index] for index in indices])
