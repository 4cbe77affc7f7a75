"""Run the simulated internet in this process: `python -m bench.simweb.serve [options]`.

Prints one JSON line (the manifest: hosts, URLs by behaviour, the SearXNG URL) once every host
listens, then serves until stdin closes or the process is terminated.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import sys
from pathlib import Path
from typing import IO

from bench.simweb.corpus import corpus_problem, load_corpus, shared_dir
from bench.simweb.handlers import Listing, searx_handler, site_handler
from bench.simweb.http import Host, Pace, listen
from bench.simweb.sites import Profile, Site, build_sites

SEARX_NAME, SEARX_IP = "searx.example.com", "127.0.2.1"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def _start_sites(
    sites: list[Site], profile: Profile, log: IO[str], netns: bool
) -> list[asyncio.Server]:
    """Listen for every live site; a dead site only gets a port (nothing listens on it)."""
    servers = []
    for index, site in enumerate(sites):
        if not netns:
            site.port = _free_port()
        if site.kind == "dead":
            continue
        pace = Pace(site.latency_ms, profile.jitter, site.bandwidth)
        host = Host(site.name, site_handler(site.docs, site.base_url(netns)), pace, log, seed=index)
        server, _ = await listen(host, site.ip, site.port)
        servers.append(server)
    return servers


def _listing(sites: list[Site], netns: bool) -> Listing:
    live, redirects, missing, dead = [], [], [], []
    for site in sites:
        base = site.base_url(netns)
        if site.kind == "dead":
            dead += [f"{base}/a/{n:04d}" for n in range(3)]
            continue
        missing.append(f"{base}/a/removed-{site.name.split('.')[0]}")
        for slug, doc in site.docs.items():
            live.append((f"{base}/a/{slug}", doc.title))
            redirects.append((f"{base}/go/{slug}", doc.title))
    return Listing(live, redirects, missing, dead)


async def main(args: argparse.Namespace) -> None:
    shared = Path(args.shared) if args.shared else shared_dir()
    if shared is None:
        sys.exit(f"simweb: {corpus_problem()}")
    profile = Profile.instant() if args.instant else Profile()
    docs = load_corpus(shared, args.limit)
    sites = build_sites(docs, args.sites, profile, args.seed, args.netns)
    log = open(args.log, "a", buffering=1)  # noqa: SIM115 - lives as long as the process
    servers = await _start_sites(sites, profile, log, args.netns)
    listing = _listing(sites, args.netns)
    searx = Host(
        SEARX_NAME,
        searx_handler(listing),
        Pace(profile.searx_latency_ms, profile.jitter, 1 << 40),
        log,
        seed=999,
    )
    ip = SEARX_IP if args.netns else "127.0.0.1"
    searx_server, searx_port = await listen(searx, ip, 80 if args.netns else 0)
    searx_url = f"http://{SEARX_NAME}" if args.netns else f"http://127.0.0.1:{searx_port}"
    manifest = {
        "searx": searx_url,
        "hosts": [[site.ip, site.name] for site in sites] + [[SEARX_IP, SEARX_NAME]],
        "sites": [
            {
                "name": s.name,
                "kind": s.kind,
                "base_url": s.base_url(args.netns),
                "latency_ms": round(s.latency_ms, 1),
                "pages": len(s.docs),
            }
            for s in sites
        ],
        "live": [url for url, _ in listing.live],
        "redirects": [url for url, _ in listing.redirects],
        "missing": listing.missing,
        "dead_host": listing.dead_host,
    }
    sys.stdout.write(json.dumps(manifest) + "\n")
    sys.stdout.flush()
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
    for server in [*servers, searx_server]:
        server.close()


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.simweb.serve")
    parser.add_argument("--sites", type=int, default=52)
    parser.add_argument("--limit", type=int, default=None, help="serve only the first N pages")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--instant", action="store_true", help="no latency, no bandwidth cap")
    parser.add_argument("--netns", action="store_true", help="one address per site, port 80, by name")
    parser.add_argument("--log", default="/dev/null", help="JSON lines, one per answered request")
    parser.add_argument("--shared", default=None, help="the shared/ folder (default: beside the repo)")
    return parser.parse_args(argv)


if __name__ == "__main__":
    asyncio.run(main(parse_args()))
