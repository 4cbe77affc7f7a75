"""Pacing: minimum interval between calls and suspensions, shared through a SQLite file."""

from __future__ import annotations

from pathlib import Path

import pytest

from webferret.models import ErrorCode, FerretError
from webferret.search.pacing import (
    DEFAULT_SUSPENSION,
    MAX_SUSPENSION,
    MIN_SUSPENSION,
    Pacer,
    next_slot,
    suspension_seconds,
)


class Clock:
    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def test_next_slot() -> None:
    assert next_slot(last_request=0, now=100, min_interval=1) == 100
    assert next_slot(last_request=99.5, now=100, min_interval=1) == 100.5


def test_suspension_seconds() -> None:
    assert suspension_seconds(None) == DEFAULT_SUSPENSION
    assert suspension_seconds(30) == 30
    assert suspension_seconds(10**9) == MAX_SUSPENSION
    assert suspension_seconds(0) == MIN_SUSPENSION  # "retry now": a few seconds, not minutes


def test_reserve_spaces_calls(tmp_path: Path) -> None:
    clock = Clock()
    pacer = Pacer(tmp_path / "p.sqlite", clock=clock)
    assert pacer.reserve("ddg", 2.0) == 0
    assert pacer.reserve("ddg", 2.0) == pytest.approx(2.0)
    assert pacer.reserve("ddg", 2.0) == pytest.approx(4.0)
    assert pacer.reserve("brave", 2.0) == 0  # engines pace independently


def test_state_is_shared_across_instances(tmp_path: Path) -> None:
    """A second process (here: a second Pacer on the same file) sees the first one's reservations."""
    clock = Clock()
    Pacer(tmp_path / "p.sqlite", clock=clock).reserve("ddg", 5.0)
    assert Pacer(tmp_path / "p.sqlite", clock=clock).reserve("ddg", 5.0) == pytest.approx(5.0)


def test_suspension_refuses_until_it_ends(tmp_path: Path) -> None:
    clock = Clock()
    pacer = Pacer(tmp_path / "p.sqlite", clock=clock)
    assert pacer.suspend("ddg", 30, "HTTP 429") == 30
    with pytest.raises(FerretError) as caught:
        Pacer(tmp_path / "p.sqlite", clock=clock).reserve("ddg", 1.0)
    assert caught.value.code == ErrorCode.RATE_LIMITED
    assert caught.value.retry_after == 30
    assert "HTTP 429" in caught.value.message
    clock.now += 31
    assert pacer.suspension("ddg") is None
    assert pacer.reserve("ddg", 1.0) == 0


def test_a_suspended_engine_leaves_no_transaction_open(tmp_path: Path) -> None:
    """The refusal rolls its transaction back: the kept connection writes again at once."""
    clock = Clock()
    pacer = Pacer(tmp_path / "p.sqlite", clock=clock)
    pacer.suspend("ddg", 30, "HTTP 429")
    with pytest.raises(FerretError):
        pacer.reserve("ddg", 1.0)
    assert pacer.reserve("brave", 1.0) == 0
    assert Pacer(tmp_path / "p.sqlite", clock=clock).reserve("wiki", 1.0) == 0  # no lock left behind


async def test_one_pacer_a_file_keeps_its_connection_for_any_thread(tmp_path: Path) -> None:
    import asyncio

    from webferret.search.pacing import pacer_at

    pacer = pacer_at(tmp_path / "p.sqlite")
    assert pacer_at(tmp_path / "p.sqlite") is pacer
    await asyncio.gather(*(pacer.wait_turn(f"engine{n}", 0.0) for n in range(4)))  # worker threads
    first = pacer._connection.conn
    await asyncio.to_thread(pacer.reserve, "engine0", 0.0)
    assert first is not None and pacer._connection.conn is first


def test_a_forked_child_opens_its_own_connection(tmp_path: Path) -> None:
    import os

    pacer = Pacer(tmp_path / "p.sqlite")
    pacer.reserve("ddg", 0.0)
    parent_conn = pacer._connection.conn
    child = os.fork()
    if child == 0:  # the child: a new connection, and the reservation is made
        code = 0 if pacer.reserve("brave", 0.0) == 0 and pacer._connection.conn is not parent_conn else 1
        os._exit(code)
    _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert pacer._connection.conn is parent_conn
    assert Pacer(tmp_path / "p.sqlite").suspension("brave") is None
    assert pacer.reserve("brave", 60.0) > 0  # the child's reservation is in the file
