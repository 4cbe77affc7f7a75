"""The pinned transport opens its TCP connections itself: to the pinned address, with httpcore's errors,
and never leaves a socket open when a connection fails, times out or is cancelled."""

from __future__ import annotations

import asyncio
import socket
from typing import Any

import httpx
import pytest
from simweb import SimWeb

from webferret.net import transport
from webferret.net.policy import UrlPolicy
from webferret.net.transport import PinnedTransport

POLICY = UrlPolicy(allow_private_hosts=True)


async def _get(url: str, timeout: float = 5.0) -> httpx.Response:
    pinned = PinnedTransport()
    async with httpx.AsyncClient(transport=pinned, trust_env=False, timeout=timeout) as client:
        pinned.pin(await POLICY.vet(url))
        return await client.get(url)


@pytest.fixture
def stalled_connects(monkeypatch: pytest.MonkeyPatch) -> list[socket.socket]:
    """Every connect the event loop starts hangs; the sockets it was given are collected."""
    sockets: list[socket.socket] = []

    async def never(self: Any, sock: socket.socket, address: Any) -> None:
        sockets.append(sock)
        await asyncio.Event().wait()

    monkeypatch.setattr(asyncio.selector_events.BaseSelectorEventLoop, "sock_connect", never)
    return sockets


@pytest.mark.parametrize("direct", [True, False], ids=["direct", "through-anyio"])
async def test_a_page_is_read_over_a_connection_to_the_pinned_address(
    simweb: SimWeb, monkeypatch: pytest.MonkeyPatch, direct: bool
) -> None:
    assert transport.DIRECT  # the versions locked have what the direct connection needs
    monkeypatch.setattr(transport, "DIRECT", direct)
    response = await _get(simweb.own("/pinned", "/article"))
    assert response.status_code == 200 and b"<html" in response.content.lower()
    assert simweb.served("/pinned") == 1


async def test_a_refused_connection_is_a_connect_error_that_says_so(closed_port: int) -> None:
    with pytest.raises(httpx.ConnectError, match="Connection refused"):
        await _get(f"http://127.0.0.1:{closed_port}/")


async def test_a_connection_that_does_not_open_in_time_times_out_and_is_closed(
    stalled_connects: list[socket.socket], closed_port: int
) -> None:
    with pytest.raises(httpx.ConnectTimeout, match=f"127.0.0.1:{closed_port}"):
        await _get(f"http://127.0.0.1:{closed_port}/", timeout=0.05)
    assert len(stalled_connects) == 1 and stalled_connects[0].fileno() == -1


async def test_a_cancelled_connect_closes_its_socket(
    stalled_connects: list[socket.socket], closed_port: int
) -> None:
    task = asyncio.create_task(_get(f"http://127.0.0.1:{closed_port}/"))
    while not stalled_connects:
        await asyncio.sleep(0.01)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert stalled_connects[0].fileno() == -1


async def test_an_ipv6_address_is_reached_over_ipv6() -> None:
    try:
        server = await asyncio.start_server(_answer, "::1", 0)
    except OSError:
        pytest.skip("no IPv6 loopback here")
    async with server:
        port = server.sockets[0].getsockname()[1]
        response = await _get(f"http://[::1]:{port}/")
    assert response.text == "ok"


async def _answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    await reader.readuntil(b"\r\n\r\n")
    writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")
    await writer.drain()
    writer.close()
