"""`python -m bench`: webferret and its peers on a simulated internet, inside a private network namespace.

Installs the peers (outside the namespace: PyPI needs the network), re-executes itself inside
`unshare --net --mount`, starts the simulated internet, measures, and writes bench/results/.
"""

from __future__ import annotations

import argparse
import math
import sys
from datetime import UTC, datetime
from pathlib import Path

from bench import netns, scenarios
from bench.common import unwritable
from bench.figures import Bench
from bench.peers import compile_bytecode, install_peers
from bench.report import Figure, machine, write
from bench.simweb.corpus import corpus_problem
from bench.simweb.process import SimWeb, SimWebOptions
from bench.tools import Peer, Tool, all_tools

RESULTS = Path(__file__).resolve().parent / "results"
FIGURES = ("search", "resident", "serve", "batch", "throughput", "cold", "tokens")


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("--runs", type=int, default=5, help="runs per figure (median); default 5")
    parser.add_argument("--throughput-urls", type=int, default=200)
    parser.add_argument("--timeout", type=float, default=120.0, help="longest one process may run, seconds")
    tools = [tool.name for tool in all_tools()]
    parser.add_argument(
        "--tools", default="", help=f"comma-separated subset of {','.join(tools)} (default: all)"
    )
    parser.add_argument("--sites", type=int, default=52)
    parser.add_argument("--no-install", action="store_true", help="do not (re)install the peers")
    parser.add_argument("--no-netns", action="store_true", help="run here, without the private namespace")
    parser.add_argument(
        "--figures", default=",".join(FIGURES), help=f"comma-separated subset of {','.join(FIGURES)}"
    )
    args = parser.parse_args(argv)
    for flag, value, known in (("--tools", args.tools, tools), ("--figures", args.figures, FIGURES)):
        unknown = [name for name in _names(value) if name not in known]
        if unknown:
            parser.error(f"{flag}: no such name: {', '.join(unknown)} (known: {', '.join(known)})")
    if not _names(args.figures):
        parser.error("--figures names no figure")
    if args.runs < 1 or args.throughput_urls < 1 or not 0 < args.timeout < math.inf:  # (nan: never killed)
        parser.error("--runs, --throughput-urls and --timeout must be positive (a --timeout finite)")
    if not 11 <= args.sites <= 249:
        parser.error(
            "--sites goes from 11 (figure 2's 8 fast hosts beside 3 slow ones) to 249 (127.0.1.N each)"
        )
    return args


def _names(value: str) -> list[str]:
    """The names of a comma-separated option, blanks left out."""
    return [name.strip() for name in value.split(",") if name.strip()]


def pick_urls(manifest: dict, count: int) -> tuple[list[str], list[str]]:
    """Eight pages on eight different fast hosts, and `count` URLs for throughput (a few broken)."""
    normal = [site["base_url"] for site in manifest["sites"] if site["kind"] == "normal"]
    first = {}
    for url in manifest["live"]:
        base = url.rsplit("/a/", 1)[0]
        if base in normal and base not in first:
            first[base] = url
    batch = list(first.values())[:8]
    broken = manifest["redirects"][:6] + manifest["missing"][:2] + manifest["dead_host"][:2]
    live = manifest["live"]
    many = [live[i % len(live)] for i in range(max(0, count - len(broken)))] + broken
    return batch, many[:count]


def peers_to_install(args: argparse.Namespace) -> list[str]:
    """The peers the install step (re)installs: those `--tools` names (all by default)."""
    wanted = _names(args.tools)
    return [
        tool.venv for tool in all_tools() if isinstance(tool, Peer) and (not wanted or tool.name in wanted)
    ]


def choose_tools(names: str) -> tuple[list[Tool], dict[str, str]]:
    """The tools `names` asks for (all by default) that can run here, and why each other one cannot."""
    tools = all_tools()
    wanted = _names(names)
    chosen = [tool for tool in tools if not wanted or tool.name in wanted]
    ready, missing = [], {}
    for tool in chosen:
        reason = tool.missing()
        if reason:
            print(f"bench: skipping {tool.name}: {reason}", file=sys.stderr)
            missing[tool.name] = reason
        else:
            ready.append(tool)
    return ready, missing


def measure(args: argparse.Namespace, tools: list[Tool]) -> list[Figure]:
    wanted = set(_names(args.figures))
    figures: list[Figure] = []
    in_ns = netns.in_netns()
    with (
        SimWeb(SimWebOptions(sites=args.sites, netns=in_ns)) as web,
        SimWeb(SimWebOptions(sites=2, limit=6, instant=True)) as local,
    ):
        if in_ns:
            netns.install_hosts(web.manifest["hosts"])
        bench = Bench(web, tools, args.runs, args.timeout)
        local_bench = Bench(local, tools, args.runs, args.timeout)
        batch, many = pick_urls(web.manifest, args.throughput_urls)
        try:
            figures += _figures(bench, local_bench, wanted, batch, many, local.manifest["live"])
        finally:
            bench.close()
            local_bench.close()
    return figures


def _figures(
    bench: Bench, local: Bench, wanted: set[str], batch: list[str], many: list[str], pages: list[str]
) -> list[Figure]:
    out: list[Figure] = []
    if "search" in wanted:
        series = _log("search+verify", scenarios.search_verify(bench))
        out += _with_overhead(
            series,
            ("search_verify", "1. search + verify 10 results, wall"),
            ("search_overhead", "1b. overhead over the critical path"),
        )
    if "resident" in wanted:
        series = _log("resident search+verify", scenarios.resident_search(bench))
        out += _with_overhead(
            series,
            ("resident_search", "1d. search + verify in a resident session, wall per call"),
            ("resident_overhead", "1e. its overhead over the critical path"),
        )
    if "serve" in wanted:
        series = _log("search+verify, webferret serve running", scenarios.served_search(bench))
        out += _with_overhead(
            series,
            ("served_search", "1f. search + verify, CLI with `webferret serve` running, wall"),
            ("served_overhead", "1g. its overhead over the critical path"),
        )
    if "batch" in wanted:
        out.append(
            Figure(
                "batch8",
                "2. fetch a batch of 8 pages, wall",
                "s",
                _log("batch of 8", scenarios.batch(bench, batch)),
            )
        )
    if "throughput" in wanted:
        series = _log("throughput", scenarios.throughput(bench, many))
        out.append(
            Figure(
                "throughput", f"3. throughput on {len(many)} URLs", "pages/s", series, higher_is_better=True
            )
        )
        out.append(
            Figure(
                "throughput_rss",
                "3b. peak RSS during the throughput run",
                "MB",
                series,
                "peak_rss_mb",
                "{:.0f}",
            )
        )
    if "cold" in wanted:
        out.append(
            Figure("cold_help", "4a. cold start, `--help`", "s", _log("--help", scenarios.cold_help(local)))
        )
        out.append(
            Figure(
                "cold_fetch",
                "4b. cold start, one local page",
                "s",
                _log("one page", scenarios.cold_fetch(local, pages[0])),
            )
        )
    searched = next((f.series for f in out if f.key == "search_verify"), None)
    helped = next((f.series for f in out if f.key == "cold_help"), None)
    if searched and helped:
        series = scenarios.net_overhead(searched, helped)
        out.insert(
            2, Figure("search_overhead_net", "1c. overhead, process start taken off", "fraction", series)
        )
    if "tokens" in wanted:
        out.append(
            Figure(
                "tokens",
                f"6. output tokens for the same {len(pages[:5])} pages",
                "tokens",
                _log("tokens", scenarios.output_tokens(local, pages[:5])),
                fmt="{:.0f}",
            )
        )
    return out


def _with_overhead(series: dict, wall: tuple[str, str], overhead: tuple[str, str]) -> list[Figure]:
    """A search figure's two rows: its wall time, and its overhead over the critical path."""
    return [Figure(*wall, "s", series), Figure(*overhead, "fraction", series, "overhead")]


def _log(label: str, series: dict) -> dict:
    parts = [
        f"{name}={s.median():.3g}" if s.median() is not None else f"{name}=-" for name, s in series.items()
    ]
    print(f"bench: {label}: " + " ".join(parts), file=sys.stderr, flush=True)
    return series


def extraction_table() -> str:
    """Figure 5 comes from bench/extraction.py; its table is included when it has been run."""
    table = RESULTS / "extraction.md"
    if table.is_file():
        return "### 5. Extraction quality and speed\n\n" + table.read_text()
    return "5. Extraction: run `uv run python bench/extraction.py` to produce bench/results/extraction.md."


def missing_input(args: argparse.Namespace) -> str | None:
    """What the run would fail on, found before it installs or measures anything, or None."""
    problem = corpus_problem() or unwritable(RESULTS)
    if problem or args.no_netns or netns.in_netns():
        return problem
    why = netns.unavailable()
    return (
        f"no private network namespace ({why}): run as root, or with --no-netns (127.0.0.1 ports)"
        if why
        else None
    )


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    problem = missing_input(args)
    if problem:
        print(f"bench: {problem}", file=sys.stderr)
        return 1
    if not args.no_install and not netns.in_netns():
        peers = peers_to_install(args)
        if peers:
            print(f"bench: peers: {install_peers(peers)}", file=sys.stderr)
        compile_bytecode(sys.executable, Path(__file__).resolve().parents[1] / "src" / "webferret")
    if not args.no_netns and not netns.in_netns():
        netns.reexec_in_netns([*argv, "--no-install"])
    if netns.in_netns():
        netns.bring_up_loopback()
    tools, missing = choose_tools(args.tools)
    figures = measure(args, tools)
    header = {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": machine(),
        "runs": args.runs,
        "netns": netns.in_netns(),
        "tools": [t.name for t in tools],
        "missing": missing,
    }
    path = write(RESULTS, figures, [t.name for t in tools], header, extraction_table())
    print(path.read_text())
    print(f"bench: results in {path} and {path.with_suffix('.json')}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
