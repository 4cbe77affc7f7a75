"""`webferret store import FILE... | -`: pages written by `store export` (a JSON line each) read back
into a store, on this machine or another.

An imported page keeps its URL, handle (one its own URLs give it: a line cannot file its text under
another page's), text, metadata and the time it was read (a time after the import's own, from a
clock running ahead, is taken as now: a later reading must not rank below it), so `open`, `find`,
`outline` and `export` treat it as any stored page. It never answers a fetch: a file is not a
reading webferret made, so a fetch of its URL reads the page anew. A page whose reading (its URL
and text) the store holds already is kept as stored: an export read back costs no page its links
or the fetches it answers. A line that is no exported page (not JSON, a failed page, one without
text, no http(s) URL, a body `--max-chars` clipped, longer than a body may be) is skipped and
named on stderr; the others are kept.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import ipaddress
import os
import stat
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO, TextIO

from webferret.fetch.charset import bom_charset
from webferret.net.urltext import web_url
from webferret.remote_text import quoted

BATCH = 200
"""Pages written in one transaction."""
NAMED = 20
"""Skipped lines named one by one; the rest are counted."""
EXEMPT = "exempt"
"""The `meta` key `store export` marks a reading fetched under an exemption of the address guard with
(`--allow-host NAME` too, whose address the URL does not show), so an import keeps it as such."""
LINE_BYTES_PER_BODY = 4
"""A line may be this many times `max_bytes` (a body, its Markdown, links and metadata, JSON-escaped);
a longer one is skipped without being held in memory."""


def run_import(args: argparse.Namespace, settings: Any) -> int:
    from webferret.cli.common import EXIT_FAILED, EXIT_OK, envelope_json
    from webferret.models import FerretError
    from webferret.present.pages import counted
    from webferret.store.pages import PageStore

    skipped: list[str] = []
    batch: list[Any] = []
    opened: list[PageStore] = []  # the store, opened (made, in a new home) with the first page kept

    def keep() -> int:
        if not opened:
            opened.append(PageStore.in_home(settings.home, page_tokens=settings.page_tokens))
        # never answers a fetch (see above), nor takes the place of a reading the store holds; a
        # private address's page is marked as read under the guard's exemption (`_private_address`)
        kept = 0
        for exempt in (False, True):
            if pages := [(_unmarked(page), {}) for page in batch if _exempt(page) == exempt]:
                kept += len(opened[0].put_many(pages, private=True, exempt=exempt, over_stored=False))
        batch.clear()
        return kept

    imported = 0
    try:
        most = min(LINE_BYTES_PER_BODY * settings.max_bytes, sys.maxsize - 1)  # what readline takes
        for where, line in _lines(args.files, most=most):
            page = _page(line, where, skipped)
            if page is not None:
                batch.append(page)
            if len(batch) >= BATCH:
                imported += keep()
        if batch:
            imported += keep()
    except FerretError as exc:  # the store failed part-way (a full disk): the pages kept are said
        if not imported:
            raise
        _name_skipped(skipped)
        exc.message += (
            f"; kept before it: {counted(imported, 'page')} (imported again, they are left as they are)"
        )
        raise  # as it was (a store's failure exits 1)
    finally:
        for store in opened:
            store.close()
    _name_skipped(skipped)
    data = {"imported": imported, "skipped": len(skipped), "home": str(settings.home)}
    failed = not imported and bool(skipped)  # every line skipped: the import failed (exit 1)
    if args.json:
        envelope_json(not failed, data=data)
    else:
        sys.stdout.write(f"imported {counted(imported, 'page')}, skipped {len(skipped)}\n")
    return EXIT_FAILED if failed else EXIT_OK


def _name_skipped(skipped: list[str]) -> None:
    """The lines skipped, on stderr: the first `NAMED` by line, the others counted."""
    for problem in skipped[:NAMED]:
        sys.stderr.write(f"webferret: skipped {problem}\n")
    if len(skipped) > NAMED:
        from webferret.present.pages import counted

        sys.stderr.write(f"webferret: ... and {counted(len(skipped) - NAMED, 'more line')} skipped\n")


def _lines(files: list[str], most: int) -> Iterator[tuple[str, str]]:
    """(where, line) of every line of `files` (`-`: standard input), where is `FILE:N`; a line of
    more than `most` characters is read past, never held, and given as "". Every file is opened
    before any is read: one that cannot be would leave those before it half kept (a write's worth)."""
    with contextlib.ExitStack() as kept:
        ready = [_ready(name, kept) for name in files]
        for name, stream in zip(files, ready, strict=True):
            with contextlib.ExitStack() as one:
                try:
                    read = stream or one.enter_context(_text(_opened(name)))
                    yield from _numbered("stdin" if name == "-" else name, read, most)
                except OSError as exc:  # a read that failed part-way
                    raise _unreadable(name, exc) from None


def _ready(name: str, kept: contextlib.ExitStack) -> TextIO | None:
    """`name` opened to know that it can be: a file is closed again, to be opened when its turn comes
    (thousands of files hold no descriptor each); standard input or a pipe named as a file
    (`<(zcat pages.jsonl.gz)`) is kept open in `kept`, as text, for opened again it would have lost
    what the first opening read."""
    if name == "-":
        raw = getattr(sys.stdin, "buffer", None)
        if raw is None:  # a text stream put in its place
            return sys.stdin
        stdin = _text(raw)
        kept.callback(stdin.detach)  # (standard input itself is left open)
        return stdin
    stream = _opened(name)
    if stat.S_ISREG(os.fstat(stream.fileno()).st_mode):
        stream.close()
        return None
    return kept.enter_context(_text(stream))


def _opened(name: str) -> BinaryIO:
    """The file `name`, open for reading its bytes; one that cannot be is a `FerretError` naming it."""
    try:
        return Path(name).open("rb")
    except OSError as exc:
        raise _unreadable(name, exc) from None


def _text(stream: BinaryIO) -> io.TextIOWrapper:
    """`stream` as text, its byte order mark looked at without being read (a pipe reads once)."""
    head = stream.peek(4)[:4] if isinstance(stream, io.BufferedReader) else b""
    return io.TextIOWrapper(stream, encoding=bom_charset(head) or "utf-8", errors="replace")


def _unreadable(name: str, exc: OSError) -> Exception:
    from webferret.models import ErrorCode, FerretError

    return FerretError(ErrorCode.INVALID_ARGUMENT, f"cannot read {name}: {exc.strerror or exc}")


def _numbered(name: str, stream: TextIO, most: int) -> Iterator[tuple[str, str]]:
    number = 0
    while line := stream.readline(most + 1):
        number += 1
        if number == 1:  # a byte order mark, as Windows editors and PowerShell write one: no text
            line = line.removeprefix("\ufeff")
        if len(line) > most and not line.endswith("\n"):
            while (rest := stream.readline(most)) and not rest.endswith("\n"):
                pass  # the rest of an oversize line, a piece at a time
            yield f"{name}:{number}", ""
        elif line.strip():
            yield f"{name}:{number}", line


def _page(line: str, where: str, skipped: list[str]) -> Any:
    """The exported page on `line` ("" for a line read past, too long), or None (its problem added
    to `skipped`)."""
    from pydantic import ValidationError

    from webferret.models import Page

    if not line:
        skipped.append(f"{where}: a line longer than its body may be (setting max_bytes)")
        return None
    try:
        page = Page.model_validate_json(line)
    except ValidationError as exc:
        problem = exc.errors()[0]
        field = ".".join(str(part) for part in problem.get("loc", ())) or "the line"
        skipped.append(f"{where}: not an exported page ({field}: {problem['msg']})")
        return None
    if not page.ok:
        skipped.append(f"{where}: a failed page ({page.url}) holds nothing to keep")
    elif not page.content.strip():  # kept, it would be the page's newest reading: its text hidden
        skipped.append(f"{where}: {quoted(page.url)} has no text (`content`) to keep: not an exported page")
    elif "clipped" in page.meta:
        skipped.append(f"{where}: {page.url} was clipped by export --max-chars: export it whole to import it")
    elif not all(web_url(url) for url in (page.url, page.final_url or page.url)):
        skipped.append(f"{where}: {quoted(page.url)} is no http(s) URL")
    elif why := _unreadable_url(page.url, page.final_url):
        skipped.append(f"{where}: {why}")
    else:
        meta = {key: value for key, value in page.meta.items() if key != "change"}
        named = page.handle if page.handle in _own_handles(page) else None  # never another page's
        # `tokens` is counted from the text kept, not taken from the line (an edited body keeps the
        # old count, and a count too small put every passage on page 1 of a long page)
        update: dict[str, Any] = {"meta": meta, "handle": named, "tokens": None}
        if page.fetched_at is not None and page.fetched_at.timestamp() > time.time():
            update["fetched_at"] = None  # read later than now (a clock ahead): kept as read now
        return page.model_copy(update=update)
    return None


def _unreadable_url(*urls: str | None) -> str | None:
    """Why one of a page's URLs is one a fetch would refuse (a control character, a bad host), or
    None: the store keeps no page under a URL no reading could have had."""
    from webferret.models import FerretError
    from webferret.net.policy import parse_url

    for url in filter(None, urls):
        try:
            parse_url(url)
        except FerretError as exc:
            return exc.message
    return None


def _exempt(page: Any) -> bool:
    """Was the page read under an exemption of the address guard: marked so by the export, or of a
    private address by its URL (an export an older webferret wrote)?"""
    return page.meta.get(EXEMPT) is True or _private_address(page)


def _unmarked(page: Any) -> Any:
    """The page without the export's exemption mark (the store keeps it in a column of its own)."""
    if EXEMPT not in page.meta:
        return page
    return page.model_copy(update={"meta": {k: v for k, v in page.meta.items() if k != EXEMPT}})


def _private_address(page: Any) -> bool:
    """Does one of a page's URLs name a private address by itself (an address the guard refuses, in
    any spelling, or `localhost`)? Only a fetch under an exemption of the guard read it, so it is
    kept as such a fetch keeps it: the MCP server opens, searches and lists it only when its own
    settings have that exemption. (A name that resolves to one cannot be known without asking DNS.)"""
    from webferret.net.addresses import classify_address
    from webferret.net.policy import parse_url

    for url in filter(None, (page.url, page.final_url)):
        host = parse_url(url)[0].host.rstrip(".")
        if host == "localhost" or host.endswith(".localhost"):
            return True
        try:
            if classify_address(ipaddress.ip_address(host)):
                return True
        except ValueError:  # a name
            continue
    return False


def _own_handles(page: Any) -> set[str]:
    """The handles a page's own URLs give it (its document's, and its variant's of either)."""
    from webferret.store.handles import handle_for
    from webferret.store.variants import page_key, variant_handle

    documents = {handle_for(page.url), handle_for(page.final_url or page.url)}
    return documents | {variant_handle(document, page_key(page)) for document in documents}
