"""Reads fail fast on a frozen database: with every PostgreSQL process stopped (SIGSTOP:
connections open, nothing answers, so no server-side timeout fires), spectators' views of
the tables the process holds answer from memory, every other read gets 503 with
Retry-After at its deadline of a second, liveness answers and readiness says
unavailable; once PostgreSQL runs again every read and a move answer as before."""

from __future__ import annotations

import contextlib
import os
import signal
import statistics
import subprocess
import time
from pathlib import Path

import pytest
from tools.services import temp_postgres

from meeplehall.core.rng import Rng
from meeplehall.server.service import READ_DEADLINE
from tests.server.conftest import _postgres_missing, make_client
from tests.server.helpers import hotseat, random_move

FROZEN = 3.0  # seconds PostgreSQL stays stopped
FAST = 2.5  # no answer may take this long (the read deadline is 1 s; the machine is busy)


def _cluster_pids(root: Path) -> list[int]:
    """The postmaster of the cluster in ``root`` and its children (the backends)."""
    postmaster = int((root / "data" / "postmaster.pid").read_text().split()[0])
    children = subprocess.run(["ps", "-o", "pid=", "--ppid", str(postmaster)],
                              capture_output=True, text=True, check=False).stdout.split()
    return [postmaster, *map(int, children)]


def _signal(pids: list[int], sig: signal.Signals) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, sig)


def test_a_frozen_postgresql_gets_fast_answers() -> None:
    reason = _postgres_missing()
    if reason:
        pytest.skip(reason)
    rng = Rng.from_seed(4)
    with temp_postgres() as cluster, make_client(cluster.create_database(),
                                                 read_deadline=READ_DEADLINE) as client:
        games = [hotseat(client, seed=s) for s in (1, 2, 3)]
        for table, tokens in games:
            for _ in range(3):
                random_move(client, table, tokens, rng)
            assert client.get(f"/api/tables/{table}/view").status_code == 200
        pids = _cluster_pids(cluster.root)
        views: list[float] = []
        others: list[tuple[int, float]] = []
        _signal(pids, signal.SIGSTOP)
        try:
            stopped = time.monotonic()
            while time.monotonic() - stopped < FROZEN:
                for table, _ in games:
                    begin = time.monotonic()
                    reply = client.get(f"/api/tables/{table}/view")
                    views.append(time.monotonic() - begin)
                    assert reply.status_code == 200, reply.text
                    assert reply.headers["x-from-memory"] == "1"
                begin = time.monotonic()
                reply = client.get(f"/api/tables/{games[0][0]}")
                others.append((reply.status_code, time.monotonic() - begin))
                assert reply.status_code == 503, reply.text
                assert int(reply.headers["retry-after"]) >= 1
                assert "try again" in reply.json()["detail"]
            assert client.get("/api/health/live").status_code == 200
            begin = time.monotonic()
            ready = client.get("/api/health/ready")
            assert ready.status_code == 503 and time.monotonic() - begin < FAST, ready.text
        finally:
            _signal(pids, signal.SIGCONT)
        # Views from memory do not wait for the database (a wait of 0.1 s at most, then
        # none for a second); the 503s come at the deadline of a second, not later.
        assert statistics.median(views) < 0.1, sorted(views)
        assert max(views) < FAST and max(t for _, t in others) < FAST, (views, others)
        assert min(t for _, t in others) > 0.5  # it did wait for the database
        deadline = time.monotonic() + 20
        while True:
            reply = client.get(f"/api/tables/{games[0][0]}")
            if reply.status_code == 200 or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        assert reply.status_code == 200, reply.text
        time.sleep(1.1)  # past the spell of views from memory
        for table, tokens in games:
            reply = client.get(f"/api/tables/{table}/view")
            assert reply.status_code == 200 and "x-from-memory" not in reply.headers
            assert random_move(client, table, tokens, rng) is not None
