"""`webferret find QUERY`: the best passages across stored pages (BM25)."""

from __future__ import annotations

import argparse
import sys

from webferret.cli.common import (
    EXIT_OK,
    add_agent_view,
    add_common,
    add_site,
    agent_fence,
    check_agent_view,
    settings_from_args,
)
from webferret.cli.numbers import whole_number
from webferret.limits import MAX_PASSAGES


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser("find", help="find passages in stored pages", description=__doc__)
    parser.add_argument("query", nargs="+", metavar="QUERY", help="words to look for (any text is safe)")
    parser.add_argument(
        "--handle",
        action="append",
        metavar="H",
        help="search only this stored page: a handle or its URL (repeatable)",
    )
    add_site(parser, "search")
    parser.add_argument(
        "-n", type=whole_number(1, MAX_PASSAGES), default=5, metavar="N", help="most passages answered (5)"
    )
    add_common(parser)
    add_agent_view(parser, "passages")
    parser.set_defaults(run=run, dash_words="a word that starts with a dash")  # `-Werror` is a word


async def run(args: argparse.Namespace) -> int:
    from webferret.ferret import Ferret

    check_agent_view(args)
    args.query = " ".join(args.query)
    settings = settings_from_args(args)
    async with Ferret(settings) as ferret:
        passages = await ferret.find(args.query, handles=args.handle, n=args.n, site=args.site)
    if args.agent:
        from webferret.present.agent import render_passages

        one = args.handle[0] if args.handle and len(args.handle) == 1 else None
        if one and passages:  # named by its handle, as the hint's command is: a URL needs no quoting then
            one = passages[0].handle
        found = [passage.model_dump(mode="json") for passage in passages]
        data = {"handle": one, "search": args.query, "site": args.site, "passages": found}
        sys.stdout.write(render_passages(data, agent_fence(args, settings), style="cli") + "\n")
        return EXIT_OK
    if args.json:
        from webferret.cli.common import write_envelope
        from webferret.present.envelopes import passages_envelope

        write_envelope(passages_envelope(args.query, passages))
        return EXIT_OK
    if not passages:
        from webferret.models import clipped

        where = f" of {args.site}" if args.site else ""  # (none may be stored: the site narrowed it)
        said = clipped(args.query, 200)  # not a 30 KB echo
        sys.stdout.write(f"no stored passage{where} matches {said!r}\n")
        return EXIT_OK
    blocks = []
    for rank, p in enumerate(passages, start=1):
        head = f"{rank}. {p.title or p.url} · {p.handle} · page {p.page} · score {p.score:.2f}"
        blocks.append(f"{head}\n{p.url}\n\n{p.text.strip()}")
    sys.stdout.write("\n\n---\n\n".join(blocks) + "\n")
    return EXIT_OK
