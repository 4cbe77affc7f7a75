"""`SearchOptions.refuse` (the agent faces' domain lists): refused results are dropped before
verification, so none is fetched and spares take their places."""

from __future__ import annotations

from pathlib import Path

from simweb import SimWeb
from test_search_router import answer, fake_engine

from webferret.ferret import Ferret
from webferret.search.service import run_search
from webferret.search.types import EngineQuery, SearchOptions


def _blocked(url: str) -> str | None:
    return (
        f"{url} is on a blocked domain (127.0.0.2, setting blocked_domains)" if "127.0.0.2" in url else None
    )


async def test_refused_results_are_never_fetched_and_spares_fill_in(tmp_path: Path, simweb: SimWeb) -> None:
    refused = ["http://127.0.0.2:9/secret", "http://127.0.0.2:9/other"]
    urls = [refused[0], simweb.url("/article"), refused[1], simweb.url("/text"), simweb.url("/json")]
    calls: list[EngineQuery] = []
    engine = fake_engine("fake", answer(*urls), calls)
    options = SearchOptions(engines=("fake",), results=2, engine_min_interval=0, refuse=_blocked)
    # 127.0.0.2 is let past the SSRF guard: only the refusal keeps the search from fetching it
    async with Ferret(home=tmp_path, allow_hosts=["127.0.0.1", "127.0.0.2"]) as ferret:
        result = await run_search(ferret, "ferrets", options, engines={"fake": engine})
    assert [hit.url for hit in result.results] == [simweb.url("/article"), simweb.url("/text")]
    assert result.unreachable == [] and result.candidates == 3
    assert result.warnings == [f"dropped before verification: {_blocked(refused[0])} (and 1 more)"]
