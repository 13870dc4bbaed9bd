"""Bot tables survive their process: SIGKILL the process driving a bots' game, and the
other process takes its lapsed lease over and finishes the game."""

from __future__ import annotations

import signal
import subprocess
import time

import httpx
from sqlalchemy import create_engine, text
from tools.services import TempPostgres

from meeplehall.core.record import GameRecord, replay
from meeplehall.games import GAMES
from tests.server.conftest import make_client
from tests.server.helpers import GAME, QUICK, new_table, wait_finished
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
