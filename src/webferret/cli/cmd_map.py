"""`webferret map URL [--search WORDS]`: the URLs of a site, found without reading them.

Reads URL (kept in the store) and the site's sitemaps, and lists the URLs they name within a scope
(by default URL's host), each with the link text URL gives it; `--search` keeps those whose link
text or path holds its words, best first. Then `webferret fetch` the ones you need.
"""

from __future__ import annotations

import argparse
import sys

from webferret.cli.common import (
    EXIT_FAILED,
    EXIT_OK,
    add_agent_view,
    add_common,
    add_fetch_limits,
    add_network,
    add_site_rules,
    agent_fence,
    check_agent_view,
    fetch_limits,
    settings_from_args,
    site_rules,
)
from webferret.cli.numbers import whole_number
from webferret.limits import MAX_MAP_URLS


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser(
        "map",
        help="list a site's URLs from a page's links and its sitemaps, without reading them",
        description=__doc__,
    )
    parser.add_argument("url", metavar="URL", help="a page of the site (its links are listed first)")
    parser.add_argument(
        "--search", metavar="WORDS", help="only URLs whose link text or path holds these words"
    )
    parser.add_argument(
        "--limit",
        type=whole_number(1, MAX_MAP_URLS),
        default=100,
        metavar="N",
        help=f"most URLs listed (100, at most {MAX_MAP_URLS})",
    )
    add_site_rules(parser, "list", "URL's host")
    parser.add_argument("--no-sitemap", action="store_true", help="the page's links alone: read no sitemap")
    parser.add_argument(
        "--fresh", action="store_true", help="read the page and the sitemaps anew, not from the store"
    )
    add_fetch_limits(parser, "the whole call's time budget (setting budget)")
    add_network(parser)
    add_common(parser)
    add_agent_view(parser, "link texts and URLs")
    parser.set_defaults(run=run)


async def run(args: argparse.Namespace) -> int:
    from webferret.ferret import Ferret
    from webferret.site_map import MapOptions

    check_agent_view(args)
    settings = settings_from_args(args)
    options = MapOptions(
        limit=args.limit,
        search=args.search,
        sitemap=not args.no_sitemap,
        **site_rules(args, settings),
    )
    async with Ferret(settings) as ferret:
        fetch = fetch_limits(ferret, args)
        result = await ferret.map_site(args.url, options, fetch=fetch, fresh=args.fresh)
    from webferret.present.envelopes import map_envelope

    envelope = map_envelope(result)
    data = envelope.data or {}
    if args.agent:
        from webferret.present.agent import render_map

        sys.stdout.write(render_map(data, agent_fence(args, settings), style="cli") + "\n")
    elif args.json:
        from webferret.cli.common import write_envelope

        write_envelope(envelope)
    else:
        from webferret.present.pages import map_lines

        sys.stdout.write("\n".join(map_lines(data)) + "\n")
    return EXIT_OK if envelope.ok else EXIT_FAILED
