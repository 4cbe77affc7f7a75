"""How each tool is run on the simulated internet: one adapter per tool, all as processes.

Each adapter says how to show `--help`, fetch a batch of URLs, and search (and whether its search
already verifies results by fetching them). Where a tool cannot do a job on a loopback web, the
adapter answers the reason instead of a command, and the report prints that reason.
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.measure import Command, Sample
from bench.peers import peer_bin

REPO = Path(__file__).resolve().parents[1]
Unsupported = str


def _urls_in_json(text: str, limit: int) -> list[str]:
    """Every "url" value in a JSON document, in order, without repeats."""
    try:
        data = json.loads(text)
    except ValueError:
        return []
    found: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            url = node.get("url")
            if isinstance(url, str) and url.startswith("http") and url not in found:
                found.append(url)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(data)
    return found[:limit]


@dataclass
class Tool:
    """Base adapter: a tool that cannot search and cannot fetch."""

    name: str
    search_verifies: bool = False

    def missing(self) -> str | None:
        """Why this tool cannot run at all here, or None."""
        return None

    def help(self) -> Command:
        raise NotImplementedError

    def fetch(self, urls: list[str], home: Path) -> Command | Unsupported:
        return f"{self.name} has no fetch"

    def fetch_text(self, url: str, home: Path) -> Command | Unsupported:
        """One page in the tool's default agent-facing text output (for the token figure)."""
        return self.fetch([url], home)

    def search(self, query: str, searx: str, home: Path) -> Command | Unsupported:
        return f"{self.name} has no search"

    def resident_search(self, queries: list[str], searx: str, home: Path) -> Command | Unsupported:
        """One long-lived session answering `queries` in turn, timed per call by a driver that
        prints one JSON line per call (see bench/mcp_search_client.py)."""
        return f"{self.name} has no long-lived search session to drive"

    def serve(self, socket: str, home: Path) -> Command | Unsupported:
        """A resident server, listening on `socket`, that the CLI hands its calls to (figure 1f)."""
        return f"{self.name} has no resident server for its command line"

    def served_search(self, query: str, searx: str, home: Path, socket: str) -> Command:
        """`search` as a CLI call while `serve(socket)` runs."""
        raise NotImplementedError

    def search_urls(self, stdout: str) -> list[str]:
        return _urls_in_json(stdout, 10)

    def ok_pages(self, sample: Sample, urls: list[str]) -> int | None:
        """Pages read, when the tool's output tells; None when it does not."""
        return None


@dataclass
class WebFerret(Tool):
    search_verifies: bool = True

    def _bin(self) -> str:
        return str(Path(sys.executable).parent / "webferret")

    def _env(self, home: Path, **extra: str) -> dict[str, str]:
        return {
            "WEBFERRET_HOME": str(home),
            "WEBFERRET_ALLOW_PRIVATE_HOSTS": "true",
            "WEBFERRET_MAX_URLS": "1000",
            **extra,
        }

    def help(self) -> Command:
        return Command([self._bin(), "--help"])

    def fetch(self, urls: list[str], home: Path) -> Command:
        return Command([self._bin(), "fetch", *urls, "--json"], self._env(home))

    def fetch_text(self, url: str, home: Path) -> Command:
        return Command([self._bin(), "fetch", url], self._env(home))

    def ok_pages(self, sample: Sample, urls: list[str]) -> int | None:
        try:
            pages = json.loads(sample.stdout)["data"]["pages"]
        except (ValueError, KeyError, TypeError):
            return 0
        return sum(bool(page.get("ok")) for page in pages)

    def search(self, query: str, searx: str, home: Path) -> Command:
        return Command([self._bin(), "search", query, "--json", "-n", "10"], self._search_env(home, searx))

    def resident_search(self, queries: list[str], searx: str, home: Path) -> Command:
        argv = [sys.executable, "-m", "bench.mcp_search_client", *queries, "--", self._bin(), "mcp"]
        return Command(argv, self._search_env(home, searx), cwd=str(REPO))

    def serve(self, socket: str, home: Path) -> Command:
        argv = [self._bin(), "serve", "--socket", socket, "--idle-timeout", "0"]
        return Command(argv, self._env(home))

    def served_search(self, query: str, searx: str, home: Path, socket: str) -> Command:
        command = self.search(query, searx, home)
        return Command(command.argv, {**command.env, "WEBFERRET_SERVE": socket})

    def _search_env(self, home: Path, searx: str) -> dict[str, str]:
        return self._env(
            home, WEBFERRET_SEARXNG_URL=searx, WEBFERRET_ENGINES="searxng", WEBFERRET_ENGINE_MIN_INTERVAL="0"
        )


@dataclass
class Peer(Tool):
    """A tool installed under bench/.peers/<venv>/ whose main program is `program`."""

    venv: str = ""
    program: str = ""

    def missing(self) -> str | None:
        path = peer_bin(self.venv, self.program)
        return (
            None
            if path.exists()
            else f"{path} is missing (install it: `python -m bench` without --no-install)"
        )

    def _bin(self) -> str:
        return str(peer_bin(self.venv, self.program))

    def _home(self, home: Path) -> dict[str, str]:
        return {
            "HOME": str(home),
            "XDG_CACHE_HOME": str(home / "cache"),
            "XDG_DATA_HOME": str(home / "data"),
            "XDG_CONFIG_HOME": str(home / "config"),
            "XDG_STATE_HOME": str(home / "state"),
        }

    def help(self) -> Command:
        return Command([self._bin(), "--help"])


@dataclass
class WebsearchSkill(Peer):
    def fetch(self, urls: list[str], home: Path) -> Command:
        return Command([self._bin(), "open", *urls, "--allow-private-hosts"], self._home(home))

    def fetch_text(self, url: str, home: Path) -> Command:
        return Command([self._bin(), "fetch", url, "--allow-private-hosts"], self._home(home))

    def search(self, query: str, searx: str, home: Path) -> Command:
        argv = [
            self._bin(),
            "search",
            query,
            "--engines",
            "searxng",
            "--no-ddgs",
            "--searxng-url",
            searx,
            "--max-results",
            "10",
            "--json",
        ]
        return Command(argv, self._home(home))


@dataclass
class McpServerFetch(Peer):
    def fetch(self, urls: list[str], home: Path) -> Command:
        home.mkdir(parents=True, exist_ok=True)
        listing = home / "urls.txt"
        listing.write_text("\n".join(urls) + "\n")
        argv = [
            sys.executable,
            "-m",
            "bench.mcp_fetch_client",
            "--concurrency",
            "8",
            str(listing),
            "--",
            self._bin(),
            "--allow-private-ips",
        ]
        return Command(argv, self._home(home), cwd=str(REPO))

    def ok_pages(self, sample: Sample, urls: list[str]) -> int | None:
        found = re.search(r"ok=(\d+)", sample.stderr)
        return int(found.group(1)) if found else 0


@dataclass
class Trafilatura(Peer):
    def _config(self, home: Path) -> str:
        """Its own settings file with its switch `SSRF_PROTECTION = off` (its allow-private switch)."""
        home.mkdir(parents=True, exist_ok=True)
        found = sorted(
            (peer_bin(self.venv, "python").parents[1] / "lib").glob(
                "python*/site-packages/trafilatura/settings.cfg"
            )
        )
        text = found[0].read_text() if found else "[DEFAULT]\n"
        lines = [line for line in text.splitlines() if not line.startswith("SSRF_PROTECTION")]
        config = home / "trafilatura.cfg"
        config.write_text("\n".join(lines).replace("[DEFAULT]", "[DEFAULT]\nSSRF_PROTECTION = off", 1) + "\n")
        return str(config)

    def fetch(self, urls: list[str], home: Path) -> Command:
        config = self._config(home)
        listing = home / "urls.txt"
        listing.write_text("\n".join(urls) + "\n")
        argv = [self._bin(), "-i", str(listing), "--markdown", "--config-file", config]
        return Command(argv, self._home(home))

    def fetch_text(self, url: str, home: Path) -> Command:
        argv = [self._bin(), "-u", url, "--markdown", "--config-file", self._config(home)]
        return Command(argv, self._home(home))

    def ok_pages(self, sample: Sample, urls: list[str]) -> int | None:
        return max(0, len(urls) - sample.stderr.count("No result for URL"))


WEBSIFT_NO_LOOPBACK = (
    "websift refuses every non-global address before connecting and has no switch to allow private "
    "ones, so it cannot fetch from a loopback web"
)


@dataclass
class Websift(Peer):
    def fetch(self, urls: list[str], home: Path) -> Unsupported:
        return WEBSIFT_NO_LOOPBACK

    def search(self, query: str, searx: str, home: Path) -> Command:
        env = {
            **self._home(home),
            "SEARCH_PROVIDER": "searxng",
            "SEARXNG_BASE_URL": searx,
            "PROVIDER_ALLOW_HTTP": "true",
        }
        return Command([self._bin(), "search", query, "-n", "10", "--json"], env)


def all_tools() -> list[Tool]:
    return [
        WebFerret("webferret"),
        WebsearchSkill("websearch-skill", venv="websearch-skill", program="websearch"),
        McpServerFetch("mcp-server-fetch", venv="mcp-server-fetch", program="mcp-server-fetch"),
        Trafilatura("trafilatura", venv="trafilatura", program="trafilatura"),
        Websift("websift", venv="websift", program="websift"),
    ]
