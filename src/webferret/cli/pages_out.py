"""The output of `fetch` and `extract`: one JSON envelope, or the human view of each page."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from webferret.cli.common import EXIT_FAILED, EXIT_OK, envelope_json


def write_pages(args: argparse.Namespace, pages: Sequence[Any], meta: dict[str, Any] | None = None) -> int:
    """Write `pages` as `--json` or the human view; the exit status (1 when a page failed).
    `meta` is added to the envelope's `meta` (e.g. `interrupted`, `unfinished` after Ctrl-C).

    With `--quiet` stdout carries the bodies only: a failed page's `ERROR` line goes to stderr."""
    from webferret.present.pages import render_page

    all_ok = all(page.ok for page in pages)
    if args.json:
        data = {"pages": [page.model_dump(mode="json") for page in pages]}
        counts = {"count": len(pages), "failed": sum(not p.ok for p in pages)}
        envelope_json(all_ok and not (meta or {}).get("interrupted"), data=data, meta=counts | (meta or {}))
    elif args.quiet:
        bodies = [render_page(page, quiet=True) for page in pages if page.ok]
        errors = [render_page(page) for page in pages if not page.ok]
        if bodies:
            sys.stdout.write("\n\n".join(bodies).rstrip("\n") + "\n")
        if errors:
            sys.stdout.flush()
            sys.stderr.write("\n".join(errors) + "\n")
    else:
        out = [render_page(page) for page in pages]
        sys.stdout.write("\n\n---\n\n".join(out).rstrip("\n") + "\n")
    return EXIT_OK if all_ok else EXIT_FAILED
