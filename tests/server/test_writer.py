"""Group commit: moves queued together share one transaction, and each keeps its own
answer (a lost seq race or a given-up seat refuses that move alone)."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest
from sqlalchemy import text

from meeplehall.server.db import ensure_schema, make_engine
from meeplehall.server.errors import Conflict, Unauthorized
from meeplehall.server.security import hash_token
from meeplehall.server.service import TableService
from meeplehall.server.writer import MoveWriter

TABLES = 6


async def _tables(service: TableService, count: int) -> list[int]:
    ids = []
    for i in range(count):
        live = await service.create("red-cathedral", {"players": 2}, i, ["human", "human"])
        ids.append(live.table_id)
    return ids


def _wait_until_taken(writer: MoveWriter) -> None:
    """Until the writer thread has taken what was queued (it then waits on the lock)."""
    deadline = time.monotonic() + 30
    while not writer._queue.empty():
        assert time.monotonic() < deadline, "the writer thread did not start"
        time.sleep(0.01)


def test_waiting_moves_share_a_transaction_and_keep_their_own_answers(db_url: str) -> None:
    engine = make_engine(db_url)
    ensure_schema(engine)
    gate = threading.Lock()
    writer = MoveWriter(engine, gate)

    async def scenario() -> list[object]:
        service = TableService(engine)
        ids = await _tables(service, TABLES)
        digest = hash_token("not a seat token")
        gate.acquire()  # hold the writer: what is queued meanwhile goes in together
        first = asyncio.ensure_future(writer.append(ids[0], 1, "move", 0, "a", None, (), False,
                                                    None))
        await asyncio.sleep(0)
        await asyncio.to_thread(_wait_until_taken, writer)
        calls = [writer.append(t, 1, "move", 0, f"m{t}", None, (), False, None)
                 for t in ids[1:]]
        calls.append(writer.append(ids[1], 1, "move", 0, "dup", None, (), False, None))
        calls.append(writer.append(ids[2], 2, "move", 1, "x", None, (), False, digest))
        pending = asyncio.gather(*calls, return_exceptions=True)
        await asyncio.sleep(0.05)
        gate.release()
        results = [await first, *await pending]
        writer.close()
        service.close()
        return results

    results = asyncio.run(scenario())
    try:
        assert results[:TABLES] == [None] * TABLES
        assert isinstance(results[TABLES], Conflict)  # same (table, seq): the second loses
        assert isinstance(results[TABLES + 1], Unauthorized)  # no seat holds that token
        # the first move alone, then the rest in one transaction (not one each)
        assert writer.moves == TABLES + 2 and writer.batches <= 2
        with engine.connect() as conn:
            rows = conn.execute(text("SELECT table_id, seq, action FROM moves "
                                     "ORDER BY table_id, seq")).all()
        assert [r[2] for r in rows] == ["a"] + [f"m{t}" for t in range(2, TABLES + 1)]
    finally:
        engine.dispose()


def test_a_closed_writer_has_written_everything_it_was_given(sqlite_url: str) -> None:
    engine = make_engine(sqlite_url)
    ensure_schema(engine)

    async def scenario() -> None:
        service = TableService(engine)
        ids = await _tables(service, 3)
        await asyncio.gather(*(service._moves.append(t, 1, "move", 0, "a", None, (), False,
                                                     None) for t in ids))
        service.close()
        with pytest.raises(Conflict):  # a fresh thread after close, same rules
            await service._moves.append(ids[0], 1, "move", 0, "b", None, (), False, None)
        service.close()

    asyncio.run(scenario())
    with engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM moves")).scalar() == 3
    engine.dispose()


def test_a_batch_of_plain_moves_keeps_each_answer_in_one_round_trip(db_url: str) -> None:
    """Distinct (table, seq), no undo, no game end: on PostgreSQL the batch goes in one
    message (``MoveWriter._one_trip``); a move whose seq is already taken, one with a
    token no seat holds and one with its seat's own token each keep their own answer,
    and text with quotes, backslashes and Unicode arrives as it was sent."""
    engine = make_engine(db_url)
    ensure_schema(engine)
    gate = threading.Lock()
    writer = MoveWriter(engine, gate)
    assert writer.one_trip == db_url.startswith("postgresql")

    async def scenario() -> list[object]:
        service = TableService(engine)
        ids = await _tables(service, 4)
        await writer.append(ids[0], 1, "move", 0, "first", None, (), False, None)
        token = await service.join(ids[3], 1)
        gate.acquire()
        calls = [
            writer.append(ids[0], 1, "move", 0, "late", None, (), False, None),
            writer.append(ids[1], 1, "move", 0, "it's \\ \"odd\" — ✓", "a 'note'", (), False,
                          None),
            writer.append(ids[2], 1, "move", 1, "x", None, (), False, hash_token("wrong")),
            writer.append(ids[3], 1, "move", 1, "mine", None, (), False, hash_token(token)),
        ]
        pending = asyncio.gather(*calls, return_exceptions=True)
        await asyncio.sleep(0.05)
        batches = writer.batches
        gate.release()
        results = await pending
        assert writer.batches == batches + 1  # all four in one transaction
        writer.close()
        service.close()
        return results

    try:
        results = asyncio.run(scenario())
        assert isinstance(results[0], Conflict)
        assert results[1] is None
        assert isinstance(results[2], Unauthorized)
        assert results[3] is None
        with engine.connect() as conn:
            rows = conn.execute(text("SELECT table_id, seq, kind, seat, action, note, undone "
                                     "FROM moves ORDER BY table_id, seq")).all()
        assert [tuple(r[2:]) for r in rows] == [
            ("move", 0, "first", None, False),
            ("move", 0, "it's \\ \"odd\" — ✓", "a 'note'", False),
            ("move", 1, "mine", None, False)]
    finally:
        engine.dispose()
