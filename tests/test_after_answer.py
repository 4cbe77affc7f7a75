"""Work a served call's child keeps until its client has the answer (`webferret.after_answer`): the
page store's close, with its WAL checkpoint, and the end of the command's event loop. Everywhere
else it runs at once."""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from webferret import after_answer
from webferret.after_answer import hold, later, run_held
from webferret.cli.common import run_command
from webferret.ferret import Ferret
from webferret.models import Page
from webferret.store.pages import STORE_FILE


@pytest.fixture(autouse=True)
def _not_held() -> Iterator[None]:
    yield
    after_answer._held = None  # a failed test leaves no holding process behind


def test_actions_run_at_once_unless_held() -> None:
    done: list[str] = []
    later(lambda: done.append("now"))
    assert done == ["now"]
    hold()
    later(lambda: done.append("first"))
    later(lambda: 1 / 0)
    later(lambda: done.append("second"))
    assert done == ["now"]
    errors = run_held()
    assert done == ["now", "first", "second"]  # in order, past the one that failed
    assert [type(error) for error in errors] == [ZeroDivisionError]
    later(lambda: done.append("again at once"))
    assert done[-1] == "again at once"


async def _kept_page(home: Path) -> Path:
    async with Ferret(home=home) as ferret:
        ferret.store.put(Page(url="https://a.example/ferrets", ok=True, content="Ferrets sleep."))
    return home / f"{STORE_FILE}-wal"


async def test_a_held_session_closes_its_store_after_the_answer(tmp_path: Path) -> None:
    hold()
    wal = await _kept_page(tmp_path)
    assert wal.exists(), "the store is still open: its write-ahead log is not checkpointed yet"
    assert run_held() == []
    assert not wal.exists(), "closed: the last connection checkpointed and removed the log"
    async with Ferret(home=tmp_path) as ferret:
        assert (await ferret.find("sleep"))[0].url == "https://a.example/ferrets"


async def test_an_unheld_session_closes_its_store_with_the_session(tmp_path: Path) -> None:
    wal = await _kept_page(tmp_path)
    assert not wal.exists()


def test_a_held_command_ends_its_event_loop_after_the_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    loops: list[asyncio.AbstractEventLoop] = []

    async def command(_args: argparse.Namespace) -> int:
        loops.append(asyncio.get_running_loop())
        asyncio.get_running_loop().create_task(asyncio.sleep(60))  # a task left running
        return 3

    hold()
    assert run_command(argparse.Namespace(run=command)) == 3
    assert not loops[0].is_closed()
    assert run_held() == []
    assert loops[0].is_closed()  # its task cancelled, its threads joined
    assert run_command(argparse.Namespace(run=command)) == 3
    assert loops[1].is_closed()  # unheld: at once, as asyncio.run
