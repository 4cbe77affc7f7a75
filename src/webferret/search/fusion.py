"""Merge hits by canonical URL and rank them by weighted reciprocal rank fusion (k = 60).

Engines that draw from one upstream index form a correlation group: a group adds one term, at its
best rank, so DuckDuckGo (a Bing reseller) and a SearXNG instance federating Bing do not count twice.
Agreement between distinct groups earns a consensus bonus. A SearXNG hit carries the groups of its
upstream engines (`extra["groups"]`); every other hit belongs to its engine's group.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from webferret.models import Hit, Source
from webferret.net.canonical import canonical_url, dedup_key, strip_tracking
from webferret.net.redirects import unwrap_redirect
from webferret.net.urltext import web_url

RRF_K = 60
CONSENSUS_BONUS = 0.1
"""each distinct group beyond the first multiplies the score by (1 + CONSENSUS_BONUS)"""


@dataclass
class _Merged:
    hit: Hit
    sources: list[Source] = field(default_factory=list)
    group_ranks: dict[str, int] = field(default_factory=dict)
    weights: dict[str, float] = field(default_factory=dict)


def hit_groups(hit: Hit, engine_group: str) -> list[str]:
    groups = hit.extra.get("groups")
    if isinstance(groups, list) and groups:
        return [str(group) for group in groups]
    return [engine_group]


def rrf_score(group_ranks: Mapping[str, int], weights: Mapping[str, float], k: int = RRF_K) -> float:
    """Σ over groups of weight / (k + best rank), times the consensus bonus for distinct groups."""
    base = sum(weights.get(group, 1.0) / (k + rank) for group, rank in group_ranks.items())
    return base * (1.0 + CONSENSUS_BONUS * max(0, len(group_ranks) - 1))


def spelling_rank(url: str) -> tuple[bool, bool]:
    """How well `url` names its page, of the spellings the merge reads as one: the page's own
    address first (not a mobile or AMP edition's, nor old Reddit's: the merge key reads nothing away
    from it), then https before http, as SearXNG lists a page an engine found both ways."""
    canonical = canonical_url(url)
    own = canonical.partition("://")[2] == dedup_key(url)
    return own, canonical.startswith("https://")


def _absorb(merged: _Merged, hit: Hit) -> None:
    """Fill fields the first sighting lacked (a title, a snippet, a date, an engine's own fields such
    as GitHub's stars or SearXNG's upstream engines) from a later one, and list the page by the
    later one's URL when that spells it better (`spelling_rank`)."""
    current = merged.hit
    update: dict[str, object] = {}
    if spelling_rank(hit.url) > spelling_rank(current.url):
        update["url"] = hit.url
    if not current.title and hit.title:
        update["title"] = hit.title
    if not current.snippet and hit.snippet:
        update["snippet"] = hit.snippet
    if not current.published and hit.published:
        update["published"] = hit.published
    lists = {
        key: sorted({*current.extra[key], *hit.extra[key]})
        for key in ("engines", "groups")
        if isinstance(current.extra.get(key), list) and isinstance(hit.extra.get(key), list)
    }
    extra = {**hit.extra, **current.extra, **lists}
    if extra != current.extra:
        update["extra"] = extra
    if update:
        merged.hit = current.model_copy(update=update)


def fuse(
    answers: Sequence[tuple[str, str, Sequence[Hit]]],
    weights: Mapping[str, float] | None = None,
) -> list[Hit]:
    """Fuse per-engine answers `(engine name, engine group, hits in rank order)` into one ranking.

    Ties keep the order of first sighting (engine order, then rank), so the output is deterministic.
    A page is listed without its tracking parameters (`utm_*`, `fbclid`: `net.canonical`), as
    SearXNG's tracker remover lists it, and a click-tracking redirect an engine listed
    (`google.com/url?q=...`, `net.redirects`) as the page it leads to, which it merges with. A hit
    whose URL is not a web address (`javascript:`, `ftp:`, a bare word) is left out: no engine ranks
    such a result on purpose, and nothing can read it. An engine's ranks count the pages kept:
    neither a hit left out nor a page it lists again moves the
    ones after it down.
    """
    weights = weights or {}
    merged: dict[str, _Merged] = {}
    for engine, group, hits in answers:
        ranks: dict[str, int] = {}  # the engine's rank of each page, among the pages kept
        for hit in hits:
            if (target := unwrap_redirect(hit.url)) != hit.url:
                hit = hit.model_copy(update={"url": target})
            if not web_url(hit.url.strip()):
                continue
            key = dedup_key(hit.url)
            rank = ranks.setdefault(key, len(ranks) + 1)  # a page listed again keeps its first rank
            entry = merged.get(key)
            if entry is None:
                entry = merged[key] = _Merged(hit=hit)
            else:
                _absorb(entry, hit)
            if all(source.engine != engine for source in entry.sources):  # an engine's best rank only
                entry.sources.append(Source(engine=engine, rank=rank))
            weight = weights.get(engine, 1.0)
            for name in hit_groups(hit, group) if weight else ():  # weight 0: listed, without a vote
                entry.group_ranks[name] = min(rank, entry.group_ranks.get(name, rank))
                entry.weights[name] = max(weight, entry.weights.get(name, 0.0))
    fused = [
        entry.hit.model_copy(
            update={
                "url": strip_tracking(entry.hit.url),  # listed, read and stored without `utm_*` & co
                "sources": entry.sources,
                "score": round(rrf_score(entry.group_ranks, entry.weights), 6),
            }
        )
        for entry in merged.values()
    ]
    order = {id(hit): index for index, hit in enumerate(fused)}
    return sorted(fused, key=lambda hit: (-hit.score, order[id(hit)]))
