"""The pinned transport pools its connections per origin: reused within one, closed when idle."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import httpx
import pytest
from simweb import SimWeb

from webferret.net.policy import UrlPolicy
from webferret.net.transport import OriginPools, PinnedTransport

POLICY = UrlPolicy(allow_private_hosts=True)


@pytest.fixture
async def other_web() -> AsyncIterator[SimWeb]:
    """A second server: another port, so another origin."""
    web = SimWeb().start()
    try:
        yield web
    finally:
        web.stop()


async def _get(client: httpx.AsyncClient, transport: PinnedTransport, url: str) -> None:
    transport.pin(await POLICY.vet(url))
    response = await client.get(url)
    assert response.status_code == 200


def _pools(transport: PinnedTransport) -> OriginPools:
    pools = transport._pool
    assert isinstance(pools, OriginPools)
    return pools


async def test_an_origin_reuses_its_connection_and_another_has_its_own(
    simweb: SimWeb, other_web: SimWeb
) -> None:
    transport = PinnedTransport()
    async with httpx.AsyncClient(transport=transport, trust_env=False) as client:
        await _get(client, transport, simweb.url("/article"))
        await _get(client, transport, simweb.url("/article"))
        assert len(_pools(transport).connections) == 1
        await _get(client, transport, other_web.url("/article"))
        assert len(_pools(transport).connections) == 2


async def test_an_idle_origin_is_closed_once_its_keepalive_has_expired(
    simweb: SimWeb, other_web: SimWeb
) -> None:
    transport = PinnedTransport(limits=httpx.Limits(max_keepalive_connections=5, keepalive_expiry=0.05))
    async with httpx.AsyncClient(transport=transport, trust_env=False) as client:
        await _get(client, transport, simweb.url("/article"))
        await asyncio.sleep(0.1)
        await _get(client, transport, other_web.url("/article"))
        connections = _pools(transport).connections
        assert len(connections) == 1 and f":{other_web.port}" in connections[0].info()


async def test_past_the_most_origins_the_oldest_idle_one_is_closed(simweb: SimWeb, other_web: SimWeb) -> None:
    transport = PinnedTransport()
    pools = _pools(transport)
    pools._most = 1
    async with httpx.AsyncClient(transport=transport, trust_env=False) as client:
        await _get(client, transport, simweb.url("/article"))
        await _get(client, transport, other_web.url("/article"))
        assert len(pools.connections) == 1
        await _get(client, transport, simweb.url("/article"))  # made again
        assert len(pools.connections) == 1
    assert pools.connections == []  # the client's close closes every pool
