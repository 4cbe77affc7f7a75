"""Views of a `SearchResult`: the human listing and the `--json` data object."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, Field

from webferret.models import Hit
from webferret.search.types import DroppedDuplicate, EngineReport, SearchResult, Unreachable
from webferret.store.types import OpenedPage


class SearchData(BaseModel):
    """The `data` of `search --json` (and of the HTTP API's `/search`): the result's listing; its
    counts (candidates, not needed, verified) are the envelope's `meta`."""

    query: str
    results: list[Hit]
    engines: list[EngineReport]
    unreachable: list[Unreachable]
    warnings: list[str]
    dropped_duplicates: list[DroppedDuplicate]
    read: list[OpenedPage] | None = Field(
        default=None, description="with --read N: the first N results' text, each its first page"
    )


def header(result: SearchResult) -> str:
    """`N results of M candidates (K unreachable, J not needed) for "query" · engines: a 10, b failed`."""
    from webferret.present.agent import counted

    shown = counted(len(result.results), "result")
    if result.verified:
        dead = "unreachable" + (f" ({why})" if (why := _why_unreachable(result)) else "")
        dropped = len(result.dropped_duplicates)
        fates = [(len(result.unreachable), dead), (dropped, "duplicate" if dropped == 1 else "duplicates")]
        fates.append((result.not_needed, "not needed"))
        said = ", ".join(f"{n} {fate}" for n, fate in fates if n)
        count = f"{shown} of {counted(result.candidates, 'candidate')}" + (f" ({said})" if said else "")
    else:
        count = f"{shown} (not verified)"
    engines = ", ".join(
        f"{report.name} {report.count}" if report.ok else f"{report.name} failed" for report in result.engines
    )
    return f'{count} for "{result.query}" · engines: {engines or "none"}'


def _why_unreachable(result: SearchResult) -> str:
    """What kept the unreachable candidates out, counted by error code, and how many of them an
    earlier search had seen fail: `2 http_error, 1 timeout; 1 remembered, not asked again`."""
    from collections import Counter

    codes = Counter(item.error.code.value for item in result.unreachable if item.error is not None)
    said = ", ".join(f"{n} {code}" for code, n in codes.most_common())
    remembered = sum(item.remembered_at is not None for item in result.unreachable)
    return "; ".join(
        part for part in (said, remembered and f"{remembered} remembered, not asked again") if part
    )


def hit_lines(hit: Hit) -> list[str]:
    """A hit: URL, title, (token count · handle to read it from the store), date, snippet."""
    about = [f"{hit.tokens} tokens"] if hit.tokens is not None else []
    about += [hit.handle] if hit.handle else []
    lines = [f"* {hit.url} — {hit.title or '(no title)'}" + (f" ({' · '.join(about)})" if about else "")]
    if hit.published:
        lines.append(f"  {hit.published[:10]}")
    if hit.snippet:
        lines.append(f"  {hit.snippet}")
    return lines


def engine_failures(result: SearchResult) -> list[str]:
    return [f"  {report.failure}" for report in result.engines if report.failure]


def render_result(result: SearchResult) -> str:
    """The human view; when no engine answered, why each one failed."""
    if not result.answered:
        return "\n".join(["webferret: error: no engine answered:", *engine_failures(result)])
    lines = [header(result), ""]
    for hit in result.results:
        lines.extend([*hit_lines(hit), ""])
    failures = engine_failures(result)
    if failures:
        lines.extend(["engines that failed:", *failures])
    lines.extend(f"warning: {warning}" for warning in result.warnings)
    return "\n".join(lines).rstrip("\n")


def result_data(result: SearchResult, read: Sequence[OpenedPage] | None = None) -> dict[str, Any]:
    """`data` of the `--json` envelope (`SearchData`; `read` only when `--read` asked for it)."""
    data = SearchData(
        query=result.query,
        results=result.results,
        engines=result.engines,
        unreachable=result.unreachable,
        warnings=list(result.warnings),
        dropped_duplicates=result.dropped_duplicates,
        read=None if read is None else list(read),
    )
    return data.model_dump(mode="json", exclude=None if read is not None else {"read"})
