"""`webferret find QUERY`: the best passages across stored pages (BM25)."""

from __future__ import annotations

import argparse
import sys

from webferret.cli.common import EXIT_OK, add_common, settings_from_args
from webferret.cli.numbers import whole_number


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser("find", help="find passages in stored pages", description=__doc__)
    parser.add_argument("query", nargs="+", metavar="QUERY", help="words to look for (any text is safe)")
    parser.add_argument(
        "--handle",
        action="append",
        metavar="H",
        help="search only this stored page: a handle or its URL (repeatable)",
    )
    parser.add_argument(
        "-n", type=whole_number(1, 1000), default=5, metavar="N", help="most passages answered (5)"
    )
    add_common(parser)
    parser.set_defaults(run=run)


async def run(args: argparse.Namespace) -> int:
    from webferret.ferret import Ferret

    args.query = " ".join(args.query)
    async with Ferret(settings_from_args(args)) as ferret:
        passages = await ferret.find(args.query, handles=args.handle, n=args.n)
    if args.json:
        from webferret.cli.common import envelope_json

        data = {"query": args.query, "passages": [p.model_dump(mode="json") for p in passages]}
        envelope_json(True, data=data, meta={"count": len(passages)})
        return EXIT_OK
    if not passages:
        sys.stdout.write(f"no stored passage matches {args.query!r}\n")
        return EXIT_OK
    blocks = []
    for rank, p in enumerate(passages, start=1):
        head = f"{rank}. {p.title or p.url} · {p.handle} · page {p.page} · score {p.score:.2f}"
        blocks.append(f"{head}\n{p.url}\n\n{p.text.strip()}")
    sys.stdout.write("\n\n---\n\n".join(blocks) + "\n")
    return EXIT_OK
