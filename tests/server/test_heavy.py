"""Heavy work in worker processes: the same answers as in the server's interpreter (bots'
moves and analyses), jobs queued round robin across keys, one analysis at a time per
client, and a job past its time limit answered at once, its worker ended and replaced."""

from __future__ import annotations

import asyncio
import pickle
import threading
import time
from typing import Any

import pytest

from meeplehall.ai.base import BOTS, make_bot
from meeplehall.core.record import GameRecord
from meeplehall.core.rng import Rng
from meeplehall.core.testing import random_playout
from meeplehall.games import GAMES
from meeplehall.server.errors import TooManyRequests, Unavailable
from meeplehall.server.heavy import HeavyPool, JobQueued, JobTimeout, bot_job, default_workers
from meeplehall.server.live_table import Packed, unpacked
from tests.server.conftest import make_client
from tests.server.helpers import (
    QUICK,
    bearer,
    hotseat,
    join,
    new_table,
    play_random,
    wait_finished,
)

GAME = GAMES["red-cathedral"]


def _job() -> tuple[dict[str, object], list[str]]:
    state = GAME.initial_state(dict(QUICK), 7)
    return GAME.player_view(state, 0), [str(a) for a in GAME.legal_actions(state)]


def test_the_pool_is_on_by_default_with_a_worker_per_spare_core() -> None:
    assert 1 <= default_workers() <= 8
    assert HeavyPool().workers == default_workers()
    assert HeavyPool(0, threads=3).slots == 3


def test_analysis_in_a_worker_process_is_the_analysis_in_a_thread(sqlite_url: str) -> None:
    answers = []
    for workers in (0, 1):
        with make_client(sqlite_url, heavy_workers=workers) as client:
            table, tokens = hotseat(client, seed=7)
            reply = client.get(f"/api/tables/{table}/analysis", headers=bearer(tokens[0]))
            assert reply.status_code == 200, reply.text
            answers.append(reply.json()["ranked"])
            assert client.app.state.heavy.done["analysis"] == 1  # type: ignore[attr-defined]
    assert answers[0] == answers[1] and answers[0]


def _positions(count: int) -> list[tuple[str, Any, dict[str, Any], list[str], int]]:
    """Decisions along random games of both games: (game, state, seat's view, legal as
    text, seed)."""
    rng = Rng.from_seed(3)
    found = []
    for name, game in sorted(GAMES.items()):
        state = game.initial_state({"players": 2}, 5)
        for step in range(count):
            legal = game.legal_actions(state)
            if not legal:
                break
            if step % 4 == 0:
                view = game.player_view(state, game.current_player(state))
                found.append((name, state, view, [str(a) for a in legal],
                              rng.randbelow(1 << 30)))
            state = game.apply(state, legal[rng.randbelow(len(legal))])
    return found


def test_a_bots_move_in_a_worker_is_its_move_in_process() -> None:
    """Determinism: given its seed and view, a bot chooses the same action in a worker
    process as in the server's interpreter, and as the bot itself does on the game's
    own actions."""
    kinds = ["random", "greedy", "planner", "mcts-easy"]
    cases = [(name, state, kind, seed, view, legal)
             for name, state, view, legal, seed in _positions(24) for kind in kinds]
    jobs = [(name, kind, seed, view, legal) for name, _, kind, seed, view, legal in cases]
    pool = HeavyPool(1)

    async def in_worker() -> list[int]:
        try:
            return [await pool.submit("bot", bot_job, job, key="t", time_limit=60.0)
                    for job in jobs]
        finally:
            await pool.close()

    answers = asyncio.run(in_worker())
    assert answers == [bot_job(*job) for job in jobs]
    assert min(answers) >= 0 and len(set(answers)) > 1
    for (name, state, kind, seed, view, legal), index in zip(cases, answers, strict=True):
        game = GAMES[name]
        chosen = make_bot(kind, seed).choose(game, view, game.legal_actions(state))
        assert str(chosen) == legal[index]


def test_bot_tables_play_the_same_game_in_workers_as_in_process(sqlite_url: str) -> None:
    records = []
    for workers in (0, 1):
        with make_client(sqlite_url, heavy_workers=workers, bot_think_time=30.0) as client:
            table = new_table(client, ["greedy", "planner"], seed=21,
                              options=dict(QUICK, round_limit=3))["id"]
            final = wait_finished(client, table, timeout=120)
            assert final["outcome"] is not None
            log = client.get(f"/api/tables/{table}/log").json()
            records.append(log["log"])
            heavy = client.app.state.heavy  # type: ignore[attr-defined]
            assert heavy.workers == workers and heavy.done["bot"] >= len(records[-1]) // 2
    assert records[0] == records[1] and len(records[0]) > 10


def test_jobs_are_served_round_robin_across_keys_not_first_come() -> None:
    """One worker: client a queues four jobs, then b and c one each; b's and c's run
    after a's second, not after all of a's."""
    order: list[str] = []
    gate = threading.Event()

    def job(name: str) -> str:
        gate.wait(10)
        order.append(name)
        return name

    pool = HeavyPool(0, threads=1)

    async def scenario() -> list[str]:
        try:
            jobs = [asyncio.ensure_future(pool.submit("test", job, (name,), key=key,
                                                      time_limit=30.0))
                    for key, name in (("a", "a1"), ("a", "a2"), ("a", "a3"), ("a", "a4"),
                                      ("b", "b1"), ("c", "c1"))]
            await asyncio.sleep(0.05)
            gate.set()
            return list(await asyncio.gather(*jobs))
        finally:
            await pool.close()

    assert asyncio.run(scenario()) == ["a1", "a2", "a3", "a4", "b1", "c1"]
    assert order == ["a1", "a2", "b1", "c1", "a3", "a4"]


def test_a_job_past_its_limit_ends_its_worker_and_a_new_one_takes_the_next() -> None:
    view, legal = _job()
    pool = HeavyPool(1)

    async def scenario() -> None:
        try:
            first = await pool.submit("bot", bot_job, (GAME.name, "greedy", 1, view, legal),
                                      key="t1", time_limit=60.0)  # the worker has started
            worker = next(iter(pool._live)).process.pid
            started = time.monotonic()
            with pytest.raises(JobTimeout):
                await pool.submit("test", time.sleep, (30,), key="t1", time_limit=0.3)
            assert time.monotonic() - started < 3  # answered at its limit, not at its end
            assert pool.ended == 1
            # Queued behind the sleeper, and waiting for its replacement to start.
            again = await pool.submit("bot", bot_job, (GAME.name, "greedy", 1, view, legal),
                                      key="t2", time_limit=60.0)
            assert again == first
            assert next(iter(pool._live)).process.pid != worker
            with pytest.raises(JobQueued):  # no worker free within its wait limit
                await asyncio.gather(
                    pool.submit("test", time.sleep, (1,), key="t3", time_limit=5.0),
                    pool.submit("test", time.sleep, (0,), key="t4", time_limit=5.0,
                                wait_limit=0.2))
        finally:
            await pool.close()
        assert not pool._live

    asyncio.run(scenario())


def test_one_analysis_per_client_and_one_over_its_limit_is_503() -> None:
    slow = "expert" if "expert" in BOTS else sorted(BOTS)[-1]
    view, legal = _job()
    pool = HeavyPool(1, time_limit=0.5)

    async def scenario() -> None:
        try:
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
        finally:
            await pool.close()

    asyncio.run(scenario())


def test_an_import_checks_its_record_in_a_worker(sqlite_url: str) -> None:
    """An import's replay check runs in the pool: a good record opens a table, one with
    a move that does not replay is refused with the move named, in a worker as in a
    thread."""
    for workers in (0, 1):
        with make_client(sqlite_url, heavy_workers=workers) as client:
            table, tokens = hotseat(client, seed=4)
            play_random(client, table, tokens, Rng.from_seed(4))
            good = client.get(f"/api/tables/{table}/record").json()
            made = client.post("/api/tables/import", json={"record": good})
            assert made.status_code == 201, made.text
            bad = {**good, "actions": [*good["actions"][:3], [0, "fly"]]}
            refused = client.post("/api/tables/import", json={"record": bad})
            assert refused.status_code == 422 and "4" in refused.json()["detail"], refused.text
            assert client.app.state.heavy.done["import"] == 2  # type: ignore[attr-defined]


def test_an_import_built_in_a_worker_is_the_table_a_thread_builds(sqlite_url: str) -> None:
    """The import's rebuild of its table runs in the worker too, its snapshots sent packed
    (unpickled when used): the view, past views at and around the snapshots, and a move
    and its undo after the import are the same as those of the table built in a thread
    of the server."""
    game = GAMES["red-cathedral"]
    _, whole = random_playout(game, {"players": 2}, 7, chooser_seed=3)
    cut = GameRecord(whole.game, whole.rules_version, whole.params, whole.seed,
                     whole.actions[:150], {}).to_dict()
    seen = []
    for workers in (0, 1):
        with make_client(sqlite_url, heavy_workers=workers) as client:
            made = client.post("/api/tables/import",
                               json={"record": cut, "seats": ["human", "human"]})
            assert made.status_code == 201, made.text
            table = made.json()["id"]
            tokens = [join(client, table, 0), join(client, table, 1)]
            view = client.get(f"/api/tables/{table}/view").json()
            out: list[Any] = [view]
            for k in (0, 1, 31, 32, 33, 64, 100, 149, 150):
                got = client.get(f"/api/tables/{table}/replay/{k}")
                out.append((got.status_code, got.json()))
            token = tokens[view["to_move"]]
            legal = client.get(f"/api/tables/{table}/legal", headers=bearer(token)).json()
            moved = client.post(f"/api/tables/{table}/actions", headers=bearer(token),
                                json={"action": legal["actions"][0]["text"],
                                      "seq": legal["seq"]})
            undone = client.post(f"/api/tables/{table}/undo", headers=bearer(token),
                                 json={"seq": moved.json()["seq"]})
            out += [moved.status_code, undone.status_code,
                    client.get(f"/api/tables/{table}/me", headers=bearer(token)).json()]
            assert client.app.state.heavy.done["import"] == 1  # type: ignore[attr-defined]
        seen.append(_without_table_id(out))
    assert seen[0] == seen[1]


def _without_table_id(value: Any) -> Any:
    """``value`` with every ``table_id`` key left out (the two imports are two tables)."""
    if isinstance(value, dict):
        return {k: _without_table_id(v) for k, v in value.items() if k != "table_id"}
    if isinstance(value, (list, tuple)):
        return [_without_table_id(v) for v in value]
    return value


def test_a_packed_state_is_unpickled_once_when_used() -> None:
    """``Packed`` keeps a snapshot as bytes until a rebuild needs it, then the state."""
    game = GAMES["red-cathedral"]
    state = game.initial_state({"players": 2}, 5)
    box = pickle.loads(pickle.dumps(Packed(state)))
    first = unpacked(box)
    assert first is unpacked(box)
    assert game.player_view(first, 0) == game.player_view(state, 0)
    assert game.player_view(pickle.loads(pickle.dumps(box)).state(), 0) == \
        game.player_view(state, 0)
