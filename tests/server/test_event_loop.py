"""Nothing blocks the event loop: while another PostgreSQL session holds locks, the
requests that do not need them answer within 100 ms (the median; none takes anything
like the time the locks are held, as every request would on a stalled loop), and those
that do get 503 with Retry-After after PostgreSQL's lock timeout, before the lock ends."""

from __future__ import annotations

import threading
import time
from typing import Any

import httpx
from sqlalchemy import create_engine, text
from tools.services import TempPostgres

from meeplehall.core.rng import Rng
from tests.server.helpers import bearer, hotseat
from tests.server.procs import running_server

HOLD = 2.0  # seconds the other session holds its locks
QUICK_ENOUGH = 0.1  # the median answer while locks are held
# No answer may take this long: a stalled event loop would hold every request for about
# HOLD; a loaded test machine alone may delay a few by a few tenths of a second.
NEVER_STALLED = HOLD / 2


def _check(times: list[float]) -> None:
    ordered = sorted(times)
    assert ordered[len(ordered) // 2] < QUICK_ENOUGH, ordered
    assert ordered[-1] < NEVER_STALLED, ordered[-5:]


def _timed(client: httpx.Client, method: str, url: str, **kwargs: Any) -> tuple[float,
                                                                               httpx.Response]:
    start = time.perf_counter()
    reply = client.request(method, url, **kwargs)
    return time.perf_counter() - start, reply


def _move(client: httpx.Client, table: int, tokens: list[str], rng: Rng,
          times: list[float]) -> None:
    """One random legal move at ``table``, each of its three requests timed."""
    took, state = _timed(client, "GET", f"/api/tables/{table}/view")
    times.append(took)
    token = tokens[state.json()["to_move"]]
    took, legal = _timed(client, "GET", f"/api/tables/{table}/legal", headers=bearer(token))
    times.append(took)
    actions = legal.json()["actions"]
    took, reply = _timed(client, "POST", f"/api/tables/{table}/actions", headers=bearer(token),
                         json={"action": actions[rng.randbelow(len(actions))]["text"],
                               "seq": legal.json()["seq"]})
    assert reply.status_code == 200, reply.text
    times.append(took)


def _in_thread(fn: Any) -> tuple[threading.Thread, dict[str, Any]]:
    out: dict[str, Any] = {}

    def run() -> None:
        start = time.perf_counter()
        out["reply"] = fn()
        out["took"] = time.perf_counter() - start

    thread = threading.Thread(target=run)
    thread.start()
    return thread, out


def test_locks_held_elsewhere_stall_neither_other_tables_nor_health(pg: TempPostgres) -> None:
    db = pg.create_database()
    other_session = create_engine(db)
    rng = Rng.from_seed(3)
    with running_server(db) as base, httpx.Client(base_url=base, timeout=30) as client, \
            httpx.Client(base_url=base, timeout=30) as waiting_client:
        locked, locked_tokens = hotseat(client, seed=3)
        # whole games (no round limit), so that the moves made while the locks are held
        # never reach a game's end, however fast the machine
        others = [hotseat(client, seed=s, options={"players": 2}) for s in (4, 5)]
        for table, tokens in others:
            _move(client, table, tokens, rng, [])
        legal = client.get(f"/api/tables/{locked}/legal",
                           headers=bearer(locked_tokens[0])).json()

        # 1. Another session locks one table's rows: a move there waits for the lock, up
        # to the lock timeout (about a second), and then gets 503.
        times: list[float] = []
        health: list[float] = []
        with other_session.connect() as conn:
            conn.execute(text("SELECT id FROM game_tables WHERE id = :t FOR UPDATE"),
                         {"t": locked})
            conn.execute(text("SELECT seat FROM seats WHERE table_id = :t FOR UPDATE"),
                         {"t": locked})
            locked_at = time.perf_counter()
            waiting, result = _in_thread(lambda: waiting_client.post(
                f"/api/tables/{locked}/actions", headers=bearer(locked_tokens[0]),
                json={"action": legal["actions"][0]["text"], "seq": legal["seq"]}))
            time.sleep(0.2)
            while time.perf_counter() - locked_at < HOLD:
                for table, tokens in others:
                    _move(client, table, tokens, rng, times)
                took, reply = _timed(client, "GET", "/api/health")
                assert reply.status_code == 200
                health.append(took)
            assert "reply" in result  # it did not wait for the whole lock
            conn.rollback()
        waiting.join(30)
        assert result["reply"].status_code == 503, result["reply"].text
        assert int(result["reply"].headers["retry-after"]) >= 1
        assert 0.5 <= result["took"] < HOLD, result["took"]
        assert client.post(f"/api/tables/{locked}/actions", headers=bearer(locked_tokens[0]),
                           json={"action": legal["actions"][0]["text"],
                                 "seq": legal["seq"]}).status_code == 200
        assert len(times) >= 12
        _check(times)
        _check(health)

        # 2. Another session locks a whole SQL table that every table read needs: a read
        # waits for it, in a thread, for about a second and then gets 503; the event
        # loop goes on answering.
        with other_session.connect() as conn:
            conn.execute(text("LOCK TABLE seats IN ACCESS EXCLUSIVE MODE"))
            locked_at = time.perf_counter()
            waiting, result = _in_thread(lambda: waiting_client.get(
                f"/api/tables/{locked}"))
            time.sleep(0.2)
            answers = []
            # The spectator's view of a table this process holds comes from memory.
            took, reply = _timed(client, "GET", f"/api/tables/{locked}/view")
            assert reply.status_code == 200 and reply.headers["x-from-memory"] == "1"
            answers.append(took)
            while time.perf_counter() - locked_at < HOLD:
                for path in ("/api/health", "/api/games"):
                    took, reply = _timed(client, "GET", path)
                    assert reply.status_code == 200, reply.text
                    answers.append(took)
                time.sleep(0.02)
            assert "reply" in result
            conn.rollback()
        waiting.join(30)
        assert result["reply"].status_code == 503, result["reply"].text
        assert int(result["reply"].headers["retry-after"]) >= 1
        assert 0.5 <= result["took"] < HOLD, result["took"]
        assert waiting_client.get(f"/api/tables/{locked}").status_code == 200
        assert len(answers) >= 10
        _check(answers)
    other_session.dispose()
