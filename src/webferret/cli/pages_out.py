"""The output of `fetch` and `extract`: one JSON envelope, or the human view of each page."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from webferret.cli.common import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, stdout_gone, write_envelope


def write_pages(args: argparse.Namespace, pages: Sequence[Any], meta: dict[str, Any] | None = None) -> int:
    """Write `pages` as `--json` or the human view; the exit status (1 when a page failed).
    `meta` is added to the envelope's `meta` (e.g. `interrupted`, `unfinished` after Ctrl-C).

    With `--quiet` stdout carries the bodies only: a failed page's `ERROR` line goes to stderr."""
    all_ok = all(page.ok for page in pages)
    if args.json:
        from webferret.present.envelopes import pages_envelope

        write_envelope(pages_envelope(pages, meta))
    else:
        stream = PageStream(args, range(len(pages)))
        for index, page in enumerate(pages):
            stream.add(index, page)
        stream.finish()
    return EXIT_OK if all_ok else EXIT_FAILED


def say_interrupted(unfinished: int, total: int) -> int:
    """After Ctrl-C, once the finished pages are written: how many of the call's `total` pages were
    not finished, on stderr; the exit status (130)."""
    sys.stdout.flush()
    sys.stderr.write(f"webferret: interrupted: {unfinished} of {total} pages not finished\n")
    return EXIT_INTERRUPTED


def page_lines(args: argparse.Namespace, settings: Any) -> PageLines:
    """The `--jsonl` writer of this call; a closed stdout cancels the call (see `PageLines`)."""
    import asyncio

    task = asyncio.current_task()
    return PageLines(args, settings.dedup_threshold, on_gone=task.cancel if task else lambda: None)


class PageLines:
    """`--jsonl`: each page as one JSON line the moment it is finished, so a long URL list shows its
    progress and a reader can start at once. Lines come in finishing order (each names its `url`);
    `duplicate_of` names a page of an earlier line. When the reader closes the pipe (`| head`), the
    call is cancelled like a Ctrl-C: what was finished is stored, the rest is not fetched."""

    def __init__(self, args: argparse.Namespace, threshold: float, on_gone: Any) -> None:
        from webferret.present.dedup import StreamCopies

        self.max_chars: int | None = args.max_chars
        self.copies = StreamCopies(threshold)
        self.on_gone = on_gone  # called once when stdout is closed by its reader
        self.written = self.failed = 0
        self.gone = False

    def write_page(self, page: Any) -> None:
        self.write(page.url or "", page)

    def write(self, url: str, page: Any) -> None:
        from webferret.present.pages import clip_page

        if self.gone:
            return
        line = clip_page(self.copies.marked(page), self.max_chars).model_dump_json() + "\n"
        try:
            sys.stdout.write(line)
            sys.stdout.flush()
        except BrokenPipeError:
            self._closed()
            return
        self.written += 1
        self.failed += not page.ok

    def _closed(self) -> None:
        self.gone = True
        stdout_gone()
        self.on_gone()


class PageStream:
    """The human and `--quiet` views of pages (clipped already), written one by one in the order of
    `keys` (a URL list's URLs) as soon as every page before it is finished, so a long list shows its
    first pages at once. With `--quiet` stdout carries the bodies only: a failed page's `ERROR` line
    goes to stderr. The text is the same however the pages arrive."""

    def __init__(self, args: argparse.Namespace, keys: Sequence[Any]) -> None:
        self.quiet: bool = args.quiet
        self.keys: list[Any] = list(keys)
        self.done: dict[Any, Any] = {}  # finished pages by key
        self.next = 0  # keys[:next] are written
        self.started = False  # a body is on stdout
        self.held = ""  # the last body's trailing newlines, written only if another body follows
        self.failed = False

    def add(self, key: Any, page: Any) -> None:
        self.done[key] = page
        while self.next < len(self.keys) and self.keys[self.next] in self.done:
            self._write(self.done[self.keys[self.next]])
            self.next += 1

    def finish(self) -> int:
        """Write what is left (after Ctrl-C: the finished pages after the first unfinished one), end
        the text; the exit status (1 when a page failed or none was finished)."""
        for key in self.keys[self.next :]:
            if key in self.done:
                self._write(self.done[key])
        if self.started:
            sys.stdout.write("\n")
        sys.stdout.flush()
        wrote = any(key in self.done for key in self.keys)
        return EXIT_OK if wrote and not self.failed else EXIT_FAILED

    def _write(self, page: Any) -> None:
        from webferret.present.pages import render_page

        self.failed = self.failed or not page.ok
        if self.quiet and not page.ok:
            sys.stdout.flush()
            sys.stderr.write(render_page(page) + "\n")
            return
        text = render_page(page, quiet=self.quiet, link_flag="--link-limit")
        separator = "\n\n" if self.quiet else "\n\n---\n\n"
        body = text.rstrip("\n")
        sys.stdout.write((self.held + separator if self.started else "") + body)
        self.started, self.held = True, text[len(body) :]  # join().rstrip() drops them only at the end
        sys.stdout.flush()
