"""Walled sites: where a wall sent a page up the tier ladder lately, the site's next pages start higher.

A site behind an anti-bot wall (Cloudflare, DataDome...) walls every page, so each page of a crawl or
a batch climbed again: a plain request refused, then the impersonated one, before the tier that gets
through. `auto` remembers, for `WALL_MEMORY` seconds, the tier that got past a wall at a site (its
scheme, host and port, as the URL of the hop it stood at names them: a redirect may lead to another
site's wall), and the site's next pages start there; their `meta.trail` names the tiers skipped
(`skipped_tiers` on the first hop). A page of the site read by
plain HTTP (one begun before the wall was found) makes it forgotten; a JavaScript shell is the page's
own, and is not remembered. Once the time is up, the next page starts at `http` again, and learns.
"""

from __future__ import annotations

import time
from typing import Any
from urllib.parse import urlsplit

WALL_MEMORY = 600.0
"""Seconds a site is remembered as walled after a page of it got past its wall."""
SITES_REMEMBERED = 1000
"""At most this many walled sites (the one remembered longest ago is forgotten first)."""
_PORTS = {"http": 80, "https": 443}


class Walls:
    """The tier each walled site was last read at past its wall, and when (a fetcher's, for its life)."""

    def __init__(self, memory: float = WALL_MEMORY) -> None:
        self.memory = memory
        self._tiers: dict[str, tuple[str, float]] = {}

    def start(self, url: str) -> str | None:
        """The tier a page at `url` starts at in `auto` (None: the first, `http`)."""
        site = site_key(url)
        remembered = self._tiers.get(site) if site else None
        if remembered is None:
            return None
        tier, at = remembered
        if time.monotonic() - at > self.memory:
            del self._tiers[site]
            return None
        return tier

    def learn(self, url: str, trail: list[dict[str, Any]]) -> None:
        """Remember how the page at `url` was read: past a wall (a hop marked `blocked`, then a tier
        that read it), or plainly (the site is forgotten: its wall is gone, or was one page's). The
        wall is the site of the hop it stood at: a redirect's (`url` may lead to another site's wall)."""
        if not trail:
            return
        tier, last = trail[-1].get("via"), trail[-1]
        walls = [site_key(hop.get("url") or url) for hop in trail if hop.get("verdict") == "blocked"]
        # read past it: not refused there too (a bare 403 asked again, `fetch.ladder.BARE_403`, whose
        # answer is the same 403, was no wall: one forbidden page, and its site's every page skipped http)
        past = last.get("verdict") == "ok" and (last.get("status") or 200) < 400
        if walls and tier in ("impersonate", "browser") and past:
            for site in filter(None, dict.fromkeys(walls)):
                self._tiers.pop(site, None)  # put back last: the oldest goes first
                self._tiers[site] = (tier, time.monotonic())
            while len(self._tiers) > SITES_REMEMBERED:
                del self._tiers[next(iter(self._tiers))]
        elif not walls and tier == "http":
            self._tiers.pop(site_key(trail[-1].get("url") or url), None)
            self._tiers.pop(site_key(url), None)


def site_key(url: str) -> str:
    """The site of `url`: its scheme, host and port (`https://example.org:443`); "" for no web URL."""
    try:
        parts = urlsplit(url)
        host, port = (parts.hostname or "").lower(), parts.port
    except ValueError:
        return ""
    scheme = parts.scheme.lower()
    return f"{scheme}://{host}:{port or _PORTS.get(scheme)}" if host else ""
