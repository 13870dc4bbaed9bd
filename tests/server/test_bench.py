"""``bench server``: open-loop pacing, and one short run through the public API."""

from __future__ import annotations

import pytest
from tools.bench_server import Pacer, Stats, percentile, report, run
from tools.services import TempPostgres, find_redis

from meeplehall.core.rng import Rng


def test_fixed_arrivals_keep_their_schedule_whatever_the_server_does() -> None:
    pacer = Pacer(4.0, False, Rng.from_seed(1), 100.0)
    first = pacer.next_due(100.0)
    assert 100.0 <= first < 100.25  # each table at its own phase within one interval
    pacer.advance()
    # the seat was ready late (the server was slow): the move is still due on schedule,
    # so its latency counts from then (no coordinated omission)
    assert pacer.next_due(107.0) == pytest.approx(first + 0.25)


def test_poisson_arrivals_have_the_asked_mean_rate() -> None:
    pacer = Pacer(2.5, True, Rng.from_seed(2), 0.0)
    for _ in range(4000):
        pacer.advance()
    assert pacer.due / 4001 == pytest.approx(1 / 2.5, rel=0.06)


def test_unpaced_moves_are_due_when_the_seat_is_ready() -> None:
    pacer = Pacer(0.0, True, Rng.from_seed(3), 5.0)
    assert pacer.next_due(9.5) == 9.5
    pacer.advance()
    assert pacer.next_due(11.0) == 11.0


def test_report_counts_moves_in_the_window_only() -> None:
    stats = Stats(accepted=30, late=10, latencies=[0.01] * 30, service=[0.005] * 30,
                  window=2.0)
    line = report(stats, 2.5)
    assert line.startswith("20 moves accepted in 2.0 s: 10 moves/s; latency p50 10.0 ms")
    assert "from sending: p50 5.0" in line and "load average" in line
    assert percentile([3.0, 1.0, 2.0], 0.5) == 2.0


def test_a_short_paced_run_on_sqlite(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(tables=2, seconds=1.5, databases=["sqlite"], pg_url=None,
               game="red-cathedral", rate=6.0, arrivals="fixed") == 0
    out = capsys.readouterr().out
    assert "paced: 6 moves/s in all (3 per table, fixed arrivals" in out
    line = next(x for x in out.splitlines() if x.startswith("sqlite"))
    assert "moves accepted" in line and "409s 0, other errors 0" in line


def test_a_crowded_table_reports_its_spectators(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(tables=1, seconds=1.5, databases=["sqlite"], pg_url=None,
               game="red-cathedral", rate=4.0, arrivals="fixed", spectators=6,
               crowded_rate=4.0) == 0
    out = capsys.readouterr().out
    assert "one crowded table watched by 6 spectator sockets, played at 4 moves/s" in out
    line = next(x for x in out.splitlines() if "crowded table, 6 spectators" in x)
    moves = int(line.split(": ")[1].split(" moves")[0])
    updates = int(line.split("; ")[1].split(" updates")[0])
    assert moves > 0 and updates > 0 and "; errors 0; " in line
    assert "arrival p50" in line and "the spectators' reader used" in line
    # every spectator (read by a process of its own) received updates, the last move too
    low = int(line.split("per spectator min ")[1].split(",")[0])
    assert 0 < low <= moves and updates >= 6 * low
    assert "6 of 6 received the last move" in line


def test_bad_bench_arguments_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(tables=0, seconds=1, databases=["sqlite"], pg_url=None,
               game="red-cathedral") == 2
    assert "--tables and --processes must be at least 1" in capsys.readouterr().err


def test_two_server_processes_share_the_tables(pg: TempPostgres,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    if find_redis() is None:
        pytest.skip("redis-server is not installed; .ci/run installs it")
    assert run(tables=2, seconds=1.5, databases=["postgresql"], pg_url=pg.create_database(),
               game="red-cathedral", rate=6.0, processes=2) == 0
    line = next(x for x in capsys.readouterr().out.splitlines()
                if x.startswith("postgresql x2"))
    assert "moves accepted" in line and "409s 0, other errors 0" in line


def test_a_hostile_neighbour_runs_every_limited_path(capsys: pytest.CaptureFixture[str]) -> None:
    """The server keeps its default limits; the hostile address is refused (429) where it
    goes beyond them, and the measured tables, each from an address of its own, are not."""
    assert run(tables=2, seconds=3, databases=["sqlite"], pg_url=None,
               game="red-cathedral", rate=4.0, hostile=True, hostile_bot="random") == 0
    out = capsys.readouterr().out.splitlines()
    line = next(x for x in out if x.startswith("sqlite"))
    assert "moves accepted" in line and "409s 0, other errors 0" in line
    tail = next(x for x in out if "the other tables beside the hostile neighbour" in x)
    assert "p95" in tail and "load average" in tail
    hostile = next(x for x in out if "hostile neighbour (10.66.6.6)" in x)
    for kind in ("view", "log", "replay", "ws+sync", "analysis", "import", "create", "undo",
                 "sockets held"):
        assert f"{kind} " in hostile, kind
    assert "429" in hostile  # it went beyond a limit somewhere (the bursts of creates)
