"""Bot tables survive their process: SIGKILL the process driving a bots' game, and the
other process takes its lapsed lease over and finishes the game."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import time
from datetime import timedelta
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, text
from tools.services import TempPostgres

from meeplehall.core.record import GameRecord, replay
from meeplehall.core.rng import Rng
from meeplehall.games import GAMES
from meeplehall.server import db as db_module
from meeplehall.server import service as service_module
from meeplehall.server.db import ensure_schema, make_engine
from meeplehall.server.service import TableService
from tests.server.conftest import make_client
from tests.server.helpers import GAME, QUICK, join, new_table, random_move, wait_finished
from tests.server.procs import running_server

LEASE = "3"  # seconds: the takeover comes within about this much after the kill


def _leases(db: str) -> list[tuple[int, str]]:
    engine = create_engine(db)
    with engine.connect() as conn:
        rows = [(r[0], r[1]) for r in conn.execute(
            text("SELECT table_id, holder FROM bot_leases ORDER BY table_id"))]
    engine.dispose()
    return rows


def test_a_bots_game_finishes_after_its_process_is_killed(pg: TempPostgres,
                                                          redis_url: str) -> None:
    db = pg.create_database()
    procs: list[subprocess.Popen[bytes]] = []
    extra = ("--redis", redis_url, "--bot-lease", LEASE, "--bot-think-time", "1")
    with running_server(db, *extra) as two, httpx.Client(base_url=two, timeout=30) as watcher:
        with running_server(db, *extra, procs=procs) as one, \
                httpx.Client(base_url=one, timeout=30) as client:
            table = new_table(client, ["random", "random"],
                              options=dict(QUICK, round_limit=30), seed=41)["id"]
            deadline = time.monotonic() + 30
            while watcher.get(f"/api/tables/{table}/view").json()["seq"] < 30:
                assert time.monotonic() < deadline, "the bots did not start"
                time.sleep(0.02)
            holders = _leases(db)
            assert [t for t, _ in holders] == [table]  # one driver: process one
            procs[0].send_signal(signal.SIGKILL)
            procs[0].wait()
            killed_at = watcher.get(f"/api/tables/{table}/view").json()
            assert not killed_at["finished"], "the game ended before the kill"
        final = wait_finished(watcher, table, timeout=120)
        assert final["seq"] > killed_at["seq"]
        after = _leases(db)
        assert all(holder != holders[0][1] for _, holder in after)
        record = GameRecord.from_dict(watcher.get(f"/api/tables/{table}/record").json())
    assert GAMES[GAME].player_view(replay(record), None) == final["view"]
    assert not [n for n in final["notes"] if "instead" in n["text"]]


def test_one_process_drops_its_lease_when_a_human_is_to_move(sqlite_url: str) -> None:
    with make_client(sqlite_url, bot_lease=2.0, bot_think_time=0.5) as client:
        bots = new_table(client, ["random", "random"], options=dict(QUICK, round_limit=3))["id"]
        mixed = new_table(client, ["human", "random"])["id"]
        wait_finished(client, bots)
        time.sleep(0.2)
        assert _leases(sqlite_url) == []  # the finished game and the human's turn hold none
        assert client.get(f"/api/tables/{mixed}/view").json()["to_move"] == 0


def _wait_moved(client: Any, table: int, seq: int, timeout: float = 30.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        view: dict[str, Any] = client.get(f"/api/tables/{table}/view").json()
        if view["seq"] > seq:
            return view
        assert time.monotonic() < deadline, "no other process took the bots over"
        time.sleep(0.05)


def test_no_moment_without_a_lease_when_a_bot_is_to_move(db_url: str) -> None:
    """A process that dies right after committing the change that hands a table to a bot
    (a person's move, or opening a table where a bot moves first), before its driver ran,
    leaves a lease behind: it was taken in the same transaction, so it lapses and another
    running process takes the table over. Here the dying process's driver never runs."""
    with make_client(db_url, bot_lease=2.0, bot_think_time=0.5) as other:
        with make_client(db_url, bot_lease=2.0, bot_think_time=0.5) as dying:
            dying.app.state.bots.kick = lambda _table_id: None  # type: ignore[attr-defined]
            first = new_table(dying, ["random", "human"])["id"]
            assert dying.get(f"/api/tables/{first}/view").json()["to_move"] == 0
            mixed = new_table(dying, ["human", "random"])["id"]
            token = join(dying, mixed, 0)
            rng = Rng.from_seed(5)
            while dying.get(f"/api/tables/{mixed}/view").json()["to_move"] == 0:
                random_move(dying, mixed, [token, ""], rng)
            handed = dying.get(f"/api/tables/{mixed}/view").json()
            assert handed["to_move"] == 1 and not handed["finished"]
            leases = _leases(db_url)
            assert [t for t, _ in leases] == [first, mixed]
            assert len({holder for _, holder in leases}) == 1
        # the dying process is gone; its leases lapse and the other one drives the bots
        _wait_moved(other, first, 0)
        _wait_moved(other, mixed, handed["seq"])
        assert all(holder != leases[0][1] for _, holder in _leases(db_url))


def test_a_clean_shutdown_gives_its_leases_up_and_a_restart_resumes_at_once(
        sqlite_url: str) -> None:
    """The process shuts down while a bot is to move at two tables (its driver never ran:
    the leases are the ones taken with the changes); the restarted process, with a lease
    time far longer than the test waits, moves those bots at once."""
    with make_client(sqlite_url, bot_lease=60.0, bot_think_time=0.5) as first:
        first.app.state.bots.kick = lambda _table_id: None  # type: ignore[attr-defined]
        opened = new_table(first, ["random", "human"])["id"]
        mixed = new_table(first, ["human", "random"])["id"]
        token = join(first, mixed, 0)
        rng = Rng.from_seed(9)
        while first.get(f"/api/tables/{mixed}/view").json()["to_move"] == 0:
            random_move(first, mixed, [token, ""], rng)
        handed = first.get(f"/api/tables/{mixed}/view").json()
        assert [t for t, _ in _leases(sqlite_url)] == [opened, mixed]
    engine = make_engine(sqlite_url)
    lapsed = asyncio.run(TableService(engine).lapsed_leases())
    engine.dispose()
    assert sorted(lapsed) == [opened, mixed]  # let lapse on the way out
    with make_client(sqlite_url, bot_lease=60.0, bot_think_time=0.5) as again:
        _wait_moved(again, opened, 0, timeout=10)
        _wait_moved(again, mixed, handed["seq"], timeout=10)


def test_a_skewed_host_clock_changes_nothing(db_url: str,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Leases expire on the database's clock: a process whose own clock runs two minutes
    ahead neither sees a running lease as lapsed nor takes it; one whose clock runs two
    minutes behind still sees a lapsed lease as lapsed."""
    engine = make_engine(db_url)
    ensure_schema(engine)
    service = TableService(engine)
    real = db_module.now

    async def scenario() -> None:
        table = (await service.create(GAME, dict(QUICK), 3, ["human", "human"])).table_id
        assert await service.take_lease(table, "live-process", 30.0)
        for skew in (120, -120):
            monkeypatch.setattr(service_module, "now", lambda s=skew: real() + timedelta(
                seconds=s))
            monkeypatch.setattr(db_module, "now", lambda s=skew: real() + timedelta(
                seconds=s))
            assert await service.lapsed_leases() == []
            assert not await service.take_lease(table, "skewed-process", 30.0)
        assert await service.take_lease(table, "live-process", 0.2)  # renewed, shortly
        await asyncio.sleep(0.5)
        monkeypatch.setattr(service_module, "now", lambda: real() - timedelta(seconds=120))
        assert await service.lapsed_leases() == [table]
        assert await service.take_lease(table, "skewed-process", 30.0)

    try:
        asyncio.run(scenario())
    finally:
        service.close()
        engine.dispose()
    assert _leases(db_url) == [(_leases(db_url)[0][0], "skewed-process")]
