"""`webferret store import FILE... | -`: pages written by `store export` (a JSON line each) read back
into a store, on this machine or another.

An imported page keeps its URL, handle, text, metadata and the time it was read, so `open`, `find`,
`outline` and `export` treat it as any stored page. It never answers a fetch: a file is not a
reading webferret made, so a fetch of its URL reads the page anew. A line that is no exported page
(not JSON, a failed page, a body `--max-chars` clipped) is skipped and named on stderr; the others
are kept.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

BATCH = 200
"""Pages written in one transaction."""
NAMED = 20
"""Skipped lines named one by one; the rest are counted."""


def run_import(args: argparse.Namespace, settings: Any) -> int:
    from webferret.cli.common import EXIT_FAILED, EXIT_OK, envelope_json
    from webferret.store.pages import PageStore

    skipped: list[str] = []
    batch: list[Any] = []
    opened: list[PageStore] = []  # the store, opened (made, in a new home) with the first page kept

    def keep() -> int:
        if not opened:
            opened.append(PageStore.in_home(settings.home, page_tokens=settings.page_tokens))
        kept = len(opened[0].put_many(batch, private=True))  # never answers a fetch: see above
        batch.clear()
        return kept

    imported = 0
    try:
        for where, line in _lines(args.files):
            page = _page(line, where, skipped)
            if page is not None:
                batch.append((page, {}))
            if len(batch) >= BATCH:
                imported += keep()
        if batch:
            imported += keep()
    finally:
        for store in opened:
            store.close()
    for problem in skipped[:NAMED]:
        sys.stderr.write(f"webferret: skipped {problem}\n")
    if len(skipped) > NAMED:
        sys.stderr.write(f"webferret: ... and {len(skipped) - NAMED} more lines skipped\n")
    data = {"imported": imported, "skipped": len(skipped), "home": str(settings.home)}
    if args.json:
        envelope_json(True, data=data)
    else:
        sys.stdout.write(f"imported {imported} page{'' if imported == 1 else 's'}, skipped {len(skipped)}\n")
    return EXIT_OK if imported or not skipped else EXIT_FAILED


def _lines(files: list[str]) -> Iterator[tuple[str, str]]:
    """(where, line) of every line of `files` (`-`: standard input), where is `FILE:N`."""
    from webferret.models import ErrorCode, FerretError

    for name in files:
        if name == "-":
            yield from _numbered("stdin", sys.stdin)
            continue
        try:
            with Path(name).open(encoding="utf-8", errors="replace") as stream:
                yield from _numbered(name, stream)
        except OSError as exc:
            message = f"cannot read {name}: {exc.strerror or exc}"
            raise FerretError(ErrorCode.INVALID_ARGUMENT, message) from None


def _numbered(name: str, stream: Iterable[str]) -> Iterator[tuple[str, str]]:
    for number, line in enumerate(stream, start=1):
        if line.strip():
            yield f"{name}:{number}", line


def _page(line: str, where: str, skipped: list[str]) -> Any:
    """The exported page on `line`, or None (its problem added to `skipped`)."""
    from pydantic import ValidationError

    from webferret.models import Page

    try:
        page = Page.model_validate_json(line)
    except ValidationError as exc:
        problem = exc.errors()[0]
        field = ".".join(str(part) for part in problem.get("loc", ())) or "the line"
        skipped.append(f"{where}: not an exported page ({field}: {problem['msg']})")
        return None
    if not page.ok:
        skipped.append(f"{where}: a failed page ({page.url}) holds nothing to keep")
    elif "clipped" in page.meta:
        skipped.append(f"{where}: {page.url} was clipped by export --max-chars: export it whole to import it")
    elif not page.url:
        skipped.append(f"{where}: a page without a URL")
    else:
        return page.model_copy(update={"meta": {k: v for k, v in page.meta.items() if k != "change"}})
    return None
