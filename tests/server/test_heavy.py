"""Analyses in worker processes: the same answers as in a thread, one job at a time per
client, and a job over its time limit ended with its worker."""

from __future__ import annotations

import asyncio
import time

import pytest

from meeplehall.ai.base import BOTS
from meeplehall.games import GAMES
from meeplehall.server.errors import TooManyRequests, Unavailable
from meeplehall.server.heavy import HeavyPool
from tests.server.conftest import make_client
from tests.server.helpers import QUICK, bearer, hotseat

GAME = GAMES["red-cathedral"]


def _job() -> tuple[dict[str, object], list[str]]:
    state = GAME.initial_state(dict(QUICK), 7)
    return GAME.player_view(state, 0), [str(a) for a in GAME.legal_actions(state)]


def test_analysis_in_a_worker_process_is_the_analysis_in_a_thread(sqlite_url: str) -> None:
    answers = []
    for workers in (0, 1):
        with make_client(sqlite_url, heavy_workers=workers) as client:
            table, tokens = hotseat(client, seed=7)
            reply = client.get(f"/api/tables/{table}/analysis", headers=bearer(tokens[0]))
            assert reply.status_code == 200, reply.text
            answers.append(reply.json()["ranked"])
    assert answers[0] == answers[1] and answers[0]


def test_one_job_per_client_and_a_job_over_its_limit_is_ended() -> None:
    slow = "expert" if "expert" in BOTS else sorted(BOTS)[-1]
    view, legal = _job()
    pool = HeavyPool(1, time_limit=0.5)

    async def scenario() -> None:
        # warm: the worker process starts (spawn) and imports the games
        pool.time_limit = 60.0
        quick = await pool.analyse("a", GAME.name, view, legal, "greedy", 1)
        assert sorted(t for t, _ in quick) == sorted(legal)
        pool.time_limit = 0.5
        first = asyncio.ensure_future(pool.analyse("a", GAME.name, view, legal, slow, 1,
                                                   30.0))
        await asyncio.sleep(0)
        with pytest.raises(TooManyRequests):  # the same client, while its job runs
            await pool.analyse("a", GAME.name, view, legal, "greedy", 1)
        started = time.monotonic()
        with pytest.raises(Unavailable):
            await first
        assert time.monotonic() - started < 5
        assert pool.ended == 1
        pool.time_limit = 60.0  # a new worker takes the next job
        again = await pool.analyse("b", GAME.name, view, legal, "greedy", 1)
        assert again == quick

    try:
        asyncio.run(scenario())
    finally:
        pool.close()
