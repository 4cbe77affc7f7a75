"""The catalogue of simulated sites: who serves which pages, how fast, and which links are broken.

Everything is derived from a seed, so two runs of the benchmark see the same internet.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from bench.simweb.corpus import Doc

KIB = 1024


@dataclass
class Site:
    """One host on the simulated internet."""

    name: str
    ip: str
    port: int
    kind: str  # "normal" | "slow" | "dead"
    latency_ms: float
    bandwidth: int  # bytes per second per connection
    docs: dict[str, Doc] = field(default_factory=dict)

    def base_url(self, by_name: bool) -> str:
        host = self.name if by_name else self.ip
        return f"http://{host}" if self.port == 80 else f"http://{host}:{self.port}"


@dataclass(frozen=True)
class Profile:
    """How the internet behaves: latency range, jitter, bandwidth caps and how many slow hosts."""

    latency_ms: tuple[float, float] = (50.0, 400.0)
    jitter: float = 0.25
    bandwidth: int = 1024 * KIB
    slow_hosts: int = 3
    slow_latency_ms: tuple[float, float] = (1200.0, 2000.0)
    slow_bandwidth: int = 128 * KIB
    searx_latency_ms: float = 250.0

    @classmethod
    def instant(cls) -> Profile:
        """No latency and no caps: for the smoke test, which checks the harness, not speed."""
        return cls((0.0, 0.0), 0.0, 1 << 40, 0, (0.0, 0.0), 1 << 40, 0.0)


def site_name(index: int) -> str:
    words = ("news", "blog", "docs", "wiki", "forum", "shop", "dev", "lab", "press", "notes")
    return f"{words[index % len(words)]}{index:02d}.example.com"


def build_sites(docs: list[Doc], count: int, profile: Profile, seed: int, netns: bool) -> list[Site]:
    """`count` live sites sharing the pages round-robin, the last `slow_hosts` of them slow,
    plus one dead host (its name resolves, nothing listens)."""
    rng = random.Random(seed)
    sites: list[Site] = []
    for index in range(count):
        slow = index >= count - profile.slow_hosts
        low, high = profile.slow_latency_ms if slow else profile.latency_ms
        sites.append(
            Site(
                name=site_name(index),
                ip=f"127.0.1.{index + 1}" if netns else "127.0.0.1",
                port=80 if netns else 0,
                kind="slow" if slow else "normal",
                latency_ms=rng.uniform(low, high),
                bandwidth=profile.slow_bandwidth if slow else profile.bandwidth,
            )
        )
    for position, doc in enumerate(docs):
        sites[position % count].docs[doc.slug] = doc
    dead = Site("gone.example.com", "127.0.1.250" if netns else "127.0.0.1", 80 if netns else 0, "dead", 0, 0)
    return [*sites, dead]
