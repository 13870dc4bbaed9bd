"""Reads fail fast: while another PostgreSQL session holds a lock that table reads need,
spectators' views of the tables the process holds answer from memory, and every other
read gets 503 with Retry-After within about a second, never waiting for the lock; once
it is released every read answers again."""

from __future__ import annotations

import threading
import time

import pytest
from sqlalchemy import create_engine, text
from tools.services import TempPostgres

from meeplehall.server.service import READ_DEADLINE
from tests.server.conftest import make_client
from tests.server.helpers import hotseat

HOLD = 4.0  # seconds the other session holds its lock
FAST = 2.5  # no read may take this long (the deadline is 1 s; the test machine is busy)


@pytest.mark.parametrize("locked", ["moves", "seats"])
def test_reads_under_a_table_lock_fail_fast(pg: TempPostgres, locked: str) -> None:
    db = pg.create_database()
    other = create_engine(db)
    with make_client(db, read_deadline=READ_DEADLINE) as client:
        tables = [hotseat(client, seed=s)[0] for s in (1, 2, 3)]
        held, release = threading.Event(), threading.Event()

        def hold() -> None:
            with other.connect() as conn:
                conn.execute(text(f"LOCK TABLE {locked} IN ACCESS EXCLUSIVE MODE"))
                held.set()
                release.wait(30)
                conn.rollback()

        locker = threading.Thread(target=hold)
        locker.start()
        answers: list[tuple[int, float]] = []
        try:
            assert held.wait(10)
            started = time.monotonic()
            while time.monotonic() - started < HOLD - FAST:
                for table in tables:
                    for path in (f"/api/tables/{table}/view", f"/api/tables/{table}"):
                        begin = time.monotonic()
                        reply = client.get(path)
                        took = time.monotonic() - begin
                        if path.endswith("/view"):  # held here: from memory
                            assert reply.status_code == 200, reply.text
                            assert reply.headers["x-from-memory"] == "1"
                        assert reply.status_code in (200, 503), reply.text
                        if reply.status_code == 503:
                            assert int(reply.headers["retry-after"]) >= 1
                            assert "try again" in reply.json()["detail"]
                        answers.append((reply.status_code, took))
            assert not release.is_set()
        finally:
            release.set()
            locker.join(30)
        assert answers and max(took for _, took in answers) < FAST, answers
        assert any(code == 503 for code, _ in answers)  # the lock was in the way
        for table in tables:
            assert client.get(f"/api/tables/{table}/view").status_code == 200
    other.dispose()
