"""`webferret store list | export | import FILE | stats | prune --older-than 7d | clear [--yes]`: look
after the page store."""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Coroutine
from pathlib import Path
from typing import TYPE_CHECKING, Any

from webferret.cli.common import (
    EXIT_FAILED,
    EXIT_OK,
    EXIT_USAGE,
    add_common,
    add_site,
    fail,
    settings_from_args,
    signals_raise,
)
from webferret.cli.numbers import whole_number
from webferret.limits import MAX_LISTED

if TYPE_CHECKING:
    from webferret.store.types import StoredPages

_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}
_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([smhdw])\s*$")


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser("store", help="page store statistics and housekeeping", description=__doc__)
    actions = parser.add_subparsers(dest="store_action", metavar="ACTION", required=True)
    listed = actions.add_parser("list", help="the pages fetched last, newest first, with their handles")
    add_site(listed)
    listed.add_argument(
        "-n",
        type=whole_number(1, MAX_LISTED),
        default=20,
        metavar="N",
        help=f"most pages listed (20, at most {MAX_LISTED:,})",
    )
    export = actions.add_parser(
        "export", help="write every stored page as a JSON line (content and metadata), newest first"
    )
    add_site(export)
    export.add_argument(
        "--since", type=duration, metavar="AGE", help="only pages read in the last AGE (7d, 12h)"
    )
    export.add_argument("--links", action="store_true", help="keep each page's outgoing links")
    export.add_argument(
        "--max-chars", type=whole_number(), metavar="N", help="clip each body at N characters"
    )
    add_common(export, json=False)
    export.set_defaults(run=run)
    stats = actions.add_parser("stats", help="how many pages, passages and bytes are stored")
    prune = actions.add_parser("prune", help="remove pages fetched longer ago than a duration")
    prune.add_argument(
        "--older-than", type=duration, required=True, metavar="AGE", help="e.g. 30m, 12h, 7d, 2w"
    )
    prune.add_argument("--dry-run", action="store_true", help="say what it would remove, remove nothing")
    add_site(prune, "remove")
    clear = actions.add_parser(
        "clear", help="remove every stored page and the dead links searches remember (asks first, or --yes)"
    )
    clear.add_argument("--yes", "-y", action="store_true", help="do not ask: remove them all")
    imported = actions.add_parser(
        "import", help="keep the pages `store export` wrote (a file of JSON lines, or - for stdin)"
    )
    imported.add_argument("files", nargs="+", metavar="FILE", help="an export's file, or - for stdin")
    for action in (listed, stats, prune, clear, imported):
        add_common(action)
        action.set_defaults(run=run)


def duration(text: str) -> float:
    """Seconds in `7d`, `12h`, `30m`, `45s` or `2w`."""
    match = _DURATION.match(text)
    if not match:
        raise argparse.ArgumentTypeError(f"expected a duration like 7d, 12h, 30m, got {text!r}")
    return float(match.group(1)) * _UNITS[match.group(2)]


def run(args: argparse.Namespace) -> int | Coroutine[Any, Any, int]:
    """`store import` runs before any event loop (it awaits nothing): a Ctrl-C while it reads its
    lines (standard input, a long file) ends it at once, where asyncio's own handler only cancels
    the call's task, which a read holding the loop's thread never lets run. The other actions run
    in the loop."""
    if args.store_action == "import":  # into the home's store, made when it has none
        from webferret.cli.store_import import run_import

        with signals_raise():  # SIGTERM too: no event loop's handler here
            return run_import(args, settings_from_args(args))
    return _run(args)


async def _run(args: argparse.Namespace) -> int:
    from webferret.ferret import Ferret

    async with Ferret(settings_from_args(args)) as ferret:
        ferret.check_store()  # a mistyped --home is said, not made into an empty store
        store = ferret.store
        if args.store_action == "list":
            return _list(args, await ferret.list_stored(args.site, args.n))
        if args.store_action == "export":
            with signals_raise():  # a long export, or a reader that stopped reading (`| less`)
                return _export(args, store)
        if args.store_action == "stats":
            data = store.stats().model_dump(mode="json")
        elif args.store_action == "prune":
            prune = store.prunable if args.dry_run else store.prune
            removed, pages = prune(args.older_than, args.site)
            data = {"removed": removed, "pages_removed": pages, "older_than_seconds": args.older_than}
            if args.site:
                data["site"] = args.site
            if args.dry_run:
                data["dry_run"] = True
            elif removed and (why := store.compact()):
                data["not_compacted"] = why
        else:
            stats = store.stats()
            refused = _confirm_clear(args, stats.pages, stats.versions, str(ferret.settings.home))
            if refused is not None:
                return refused
            removed, pages = store.clear()
            data = {
                "removed": removed,
                "pages_removed": pages,
                "unreachable_forgotten": _forget_unreachable(ferret.settings.home),
            }
            if why := store.compact():
                data["not_compacted"] = why
    if args.json:
        from webferret.cli.common import envelope_json

        envelope_json(True, data=data)
    else:
        sys.stdout.write("".join(f"{key}: {value}\n" for key, value in data.items()))
    return EXIT_OK


def _list(args: argparse.Namespace, listed: StoredPages) -> int:
    from webferret.remote_text import one_line

    if args.json:
        from webferret.cli.common import write_envelope
        from webferret.present.envelopes import data_envelope

        write_envelope(data_envelope(listed))
        return EXIT_OK
    of = f" of {listed.site}" if listed.site else ""
    shown = f" (the {len(listed.pages)} fetched last shown)" if len(listed.pages) < listed.total else ""
    lines = [f"{listed.total} page{'' if listed.total == 1 else 's'}{of} stored{shown}"]
    for page in listed.pages:
        when = page.fetched_at.strftime("%Y-%m-%d %H:%M")
        versions = f" · {page.versions} versions" if page.versions > 1 else ""
        lines.append(
            f"{when}  {page.handle}  {page.tokens} tokens{versions}  {one_line(page.title or '', 120)}"
        )
        lines.append(f"{'':18}{page.url}")
    sys.stdout.write("\n".join(lines) + "\n")
    return EXIT_OK


def _export(args: argparse.Namespace, store: Any) -> int:
    """Each stored document's reading (the one `open` opens) as a JSON line on stdout; the count on
    stderr. A reader that closes the pipe (`| head`) ends it quietly."""
    from webferret.cli.store_import import EXEMPT
    from webferret.present.pages import clip_page

    written, damaged = 0, []
    for stored in store.readings(args.site, args.since, damaged):
        page = stored.page if args.links else stored.page.model_copy(update={"links": None})
        if stored.exempt:  # read under the guard's exemption: an import keeps it so
            page = page.model_copy(update={"meta": {**page.meta, EXEMPT: True}})
        try:
            sys.stdout.write(clip_page(page, args.max_chars).model_dump_json() + "\n")
        except BrokenPipeError:
            from webferret.cli.common import stdout_gone

            stdout_gone()
            return EXIT_OK
        written += 1
    sys.stdout.flush()
    for problem in damaged:
        sys.stderr.write(f"webferret: skipped: {problem}\n")
    sys.stderr.write(f"exported {written} page{'' if written == 1 else 's'}\n")
    return EXIT_FAILED if damaged else EXIT_OK


def _forget_unreachable(home: Path) -> int:
    """Forget the dead links searches remember (`search.unreachable`): a cleared store starts afresh."""
    import sqlite3

    from webferret.search.unreachable import UNREACHABLE_FILE, UnreachableMemory

    try:
        return UnreachableMemory(home / UNREACHABLE_FILE, 1).clear()
    except sqlite3.Error:  # a damaged file: deleting it forgets as much
        (home / UNREACHABLE_FILE).unlink(missing_ok=True)
        return 0


def _confirm_clear(args: argparse.Namespace, pages: int, versions: int, home: str) -> int | None:
    """None to go ahead; else the exit code. Asks on a terminal; elsewhere `--yes` is required."""
    if args.yes or pages == 0:
        return None
    readings = f" ({versions} readings)" if versions != pages else ""
    what = f"{pages} stored page{'s' if pages != 1 else ''}{readings} in {home}"
    if not sys.stdin.isatty():
        message = f"store clear would remove {what}; add --yes to confirm (stdin is not a terminal to ask)"
        return fail(args, "invalid_argument", message, EXIT_USAGE)
    with signals_raise():  # before the question: a Ctrl-C once it is shown ends the call
        sys.stderr.write(f"Remove {what}? [y/N] ")
        sys.stderr.flush()
        answer = sys.stdin.readline()
    if answer.strip().lower() in ("y", "yes"):
        return None
    sys.stderr.write("nothing removed\n")
    return EXIT_FAILED
