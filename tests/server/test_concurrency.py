"""Many clients submit the same seq at once: exactly one wins, the log has no gaps."""

from __future__ import annotations

import asyncio
import threading

import httpx
from sqlalchemy import create_engine, text

from meeplehall.server.db import ensure_schema, make_engine
from meeplehall.server.errors import Conflict
from meeplehall.server.service import TableService
from tests.server.helpers import bearer, hotseat
from tests.server.procs import running_server

CLIENTS = 12
ROUNDS = 8


def _seqs(url: str, table: int) -> list[int]:
    engine = create_engine(url)
    with engine.connect() as conn:
        seqs = [r[0] for r in conn.execute(
            text("SELECT seq FROM moves WHERE table_id = :t ORDER BY seq"), {"t": table})]
    engine.dispose()
    return seqs


def test_exactly_one_of_many_concurrent_submissions_wins(db_url: str) -> None:
    with running_server(db_url) as base, httpx.Client(base_url=base, timeout=30) as client:
        table, tokens = hotseat(client)
        for _ in range(ROUNDS):
            state = client.get(f"/api/tables/{table}/view").json()
            token = tokens[state["to_move"]]
            legal = client.get(f"/api/tables/{table}/legal", headers=bearer(token)).json()
            body = {"action": legal["actions"][0]["text"], "seq": legal["seq"]}
            barrier = threading.Barrier(CLIENTS)
            codes: list[int] = []

            def submit(body: dict[str, object] = body, token: str = token,
                       barrier: threading.Barrier = barrier, codes: list[int] = codes) -> None:
                with httpx.Client(base_url=base, timeout=30) as mine:
                    barrier.wait()
                    reply = mine.post(f"/api/tables/{table}/actions", json=body,
                                      headers=bearer(token))
                    codes.append(reply.status_code)
                    if reply.status_code == 409:
                        assert reply.json()["seq"] == body["seq"] + 1  # type: ignore[operator]

            threads = [threading.Thread(target=submit) for _ in range(CLIENTS)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            assert sorted(codes) == [200] + [409] * (CLIENTS - 1), codes
    assert _seqs(db_url, table) == list(range(1, ROUNDS + 1))


def test_two_services_on_one_database_race_and_one_wins(db_url: str) -> None:
    """Two processes' worth of caches: the database constraint decides."""

    async def race() -> list[object]:
        engine_a, engine_b = make_engine(db_url), make_engine(db_url)
        ensure_schema(engine_a)
        a, b = TableService(engine_a), TableService(engine_b)
        live = await a.create("red-cathedral", {"players": 2}, 1, ["human", "human"])
        await b.get_live(live.table_id)
        moves = live.legal()
        results = await asyncio.gather(
            a.submit(live.table_id, 0, moves[0]["text"], 0),
            b.submit(live.table_id, 0, moves[1]["text"], 0), return_exceptions=True)
        loser = next(r for r in results if isinstance(r, Conflict))
        assert loser.extra["seq"] == 1
        fresh_a = await a.get_live(live.table_id)
        fresh_b = await b.get_live(live.table_id)
        assert fresh_a.entries == fresh_b.entries and len(fresh_a.entries) == 1
        engine_a.dispose()
        engine_b.dispose()
        return list(results)

    results = asyncio.run(race())
    assert sum(isinstance(r, Conflict) for r in results) == 1
