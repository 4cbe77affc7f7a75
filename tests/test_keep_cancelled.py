"""A page whose store write is under way when the call is cancelled (Ctrl-C) is still answered."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import pytest
from simweb import SimWeb

from webferret.ferret import Ferret
from webferret.models import Page
from webferret.store.pages import PageStore


async def test_a_page_stored_as_the_call_is_cancelled_is_still_answered(
    simweb: SimWeb, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = PageStore.put
    writing = threading.Event()

    def slow_put(self: PageStore, *args: Any, **kwargs: Any) -> Page:
        writing.set()
        time.sleep(0.3)  # the write is in its thread when the call is cancelled
        return real(self, *args, **kwargs)

    monkeypatch.setattr(PageStore, "put", slow_put)
    url = simweb.url("/article")
    finished: dict[str, Page] = {}
    async with Ferret(allow_hosts=["127.0.0.1"]) as ferret:
        call = asyncio.create_task(ferret.fetch_all([url], on_page=finished.__setitem__))
        assert await asyncio.to_thread(writing.wait, 10)
        call.cancel()
        with pytest.raises(asyncio.CancelledError):
            await call
        handle = finished[url].handle if url in finished else None
        stored = await ferret.stored(handle) if handle else None
    assert list(finished) == [url] and finished[url].ok and handle
    assert stored is not None and stored.page.title == finished[url].title  # the page shown is the one kept
