"""One search call end to end: route to engines, fuse, verify, shape the `SearchResult`."""

from __future__ import annotations

import threading
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any

from webferret.models import ErrorCode
from webferret.net.dns import warm_soon
from webferret.net.policy import UrlPolicy
from webferret.search.engines import registry
from webferret.search.pacing import pacer_at
from webferret.search.router import Router
from webferret.search.runner import EngineRunner
from webferret.search.types import Engine, SearchOptions, SearchResult
from webferret.search.verify import verify_hits

if TYPE_CHECKING:
    from webferret.ferret import Ferret
    from webferret.models import Hit

PACING_FILE = "search-pacing.sqlite"


def spare_candidates(results: int) -> int:
    """How many candidates to verify for `results` answers, so a few dead ones can be replaced."""
    return results + max(2, results // 2)


_prepared: list[threading.Thread] = []


def _import_fetch_layer() -> None:
    import lxml.html  # noqa: F401  (the block verdicts parse each page)

    import webferret.fetch.fetcher
    import webferret.present.dedup
    import webferret.search.unreachable
    import webferret.store.pages  # noqa: F401


def _warming(ferret: Ferret, pages: int) -> Callable[[str, dict[str, Any]], Awaitable[None]]:
    """An engine request's trace callback: once the request has left, the extractor and the
    verifying fetch's own modules get ready while it is answered.

    Not before it has left: importing holds the GIL, and a request whose sending waits for a
    thread's imports leaves tens of milliseconds later. So the work starts on the request's
    `http11.send_request_body.complete` trace event (HTTP/1.1, as engines are asked)."""

    def prepare() -> None:
        ferret.extractor.warm(pages, spare_core=False)
        if not _prepared:
            _prepared.append(threading.Thread(target=_import_fetch_layer, daemon=True))
            _prepared[0].start()
        ferret.open_store_soon()  # the candidates' look-ups find it open
        warm_soon(pages)  # and the resolver's threads running

    async def trace(event: str, info: dict[str, Any]) -> None:
        if event == "http11.send_request_body.complete":
            prepare()

    return trace


def _listable(hits: list[Hit], refuse: Callable[[str], str | None] | None, warnings: list[str]) -> list[Hit]:
    """`hits` less those `refuse` names a reason for; one warning counts them and names the first."""
    if refuse is None:
        return hits
    reasons = [refuse(hit.url) for hit in hits]
    dropped = [reason for reason in reasons if reason]
    if dropped:
        more = f" (and {len(dropped) - 1} more)" if len(dropped) > 1 else ""
        warnings.append(f"dropped before verification: {dropped[0]}{more}")
    return [hit for hit, reason in zip(hits, reasons, strict=True) if not reason]


async def run_search(
    ferret: Ferret,
    query: str,
    options: SearchOptions,
    engines: Mapping[str, Engine] | None = None,
) -> SearchResult:
    """Search, fuse, and (when `options.verify`) verify; engine failures are reports, not exceptions."""
    settings = ferret.settings
    pacer = pacer_at(settings.home / PACING_FILE)
    pages = spare_candidates(options.results)
    if options.verify:  # workers forked now import the extractor while the engines are asked
        ferret.extractor.warm(pages, threads=False, spare_core=False)
    trace = _warming(ferret, pages) if options.verify else None
    policy = UrlPolicy(settings.allow_private_hosts, settings.allow_hosts)  # an engine's redirects
    client, route = ferret.engine_client, ferret.engine_route
    runner = EngineRunner(client, pacer, options.engine_min_interval, trace, policy, route)
    router = Router(engines if engines is not None else registry(), runner)
    outcome = await router.search(query, options)
    result = SearchResult(query=query, engines=outcome.reports, warnings=outcome.warnings)
    hits = _listable(outcome.hits, options.refuse, result.warnings)
    if not options.verify:
        result.results = hits[: options.results]
        result.candidates = len(hits)
        return _short(result, options.results, len(hits))
    candidates = hits[: spare_candidates(options.results)]  # asked at once; more if these fall short
    result.candidates = len(candidates)
    result.verified = True  # also with no candidate: nothing listed was left unverified
    if candidates:
        try:
            verified = await verify_hits(
                ferret,
                hits,
                options.results,
                options.verify_timeout,
                first=len(candidates),
                admit=options.admit,
                fresh=options.fresh,
                remember=options.unreachable_seconds,
            )
        except ModuleNotFoundError as exc:  # a build without the fetch layer
            result.warnings.append(f"results not verified: the fetcher is unavailable ({exc})")
            result.results = candidates[: options.results]
            result.verified = False
            return result
        result.results = verified.kept
        result.candidates = verified.asked
        result.unreachable = verified.unreachable
        result.dropped_duplicates = verified.dropped
        result.not_needed = verified.not_needed
        if verified.asked >= len(hits):  # every candidate decided: the engines had no more
            _short(result, options.results, len(hits))
        _proxy_failed(result)
    return result


def _proxy_failed(result: SearchResult) -> None:
    """A warning when the proxy (setting `proxy`) kept candidates from being read: they are listed
    unreachable, yet the pages may be fine, so the answer says whose failure it was (a proxy down
    or refusing its credentials read as `0 results of 3 candidates (3 unreachable)`, every link
    seemingly dead)."""
    failed = [
        item.error for item in result.unreachable if item.error and item.error.code is ErrorCode.PROXY_ERROR
    ]
    if failed:
        result.warnings.append(
            f"{len(failed)} of the candidates could not be read through the proxy: {failed[0].message}"
        )


def _short(result: SearchResult, wanted: int, listed: int) -> SearchResult:
    """`result`, with a warning when it lists fewer results than `wanted` because the engines listed
    no more pages: each engine is asked for its first page of results (an agent asking for more then
    knows to search another way, not to ask again)."""
    if 0 < len(result.results) < wanted and result.answered:
        from webferret.present.pages import counted

        result.warnings.append(
            f"{counted(len(result.results), 'result')} of the {wanted} asked: the engines listed "
            f"{counted(listed, 'page')} (each is asked for its first page of results)"
        )
    return result
