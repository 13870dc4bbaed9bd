"""``meeplehall arena``: seatings, statistics, files, and the process and Ray backends."""

from __future__ import annotations

import csv
import io
import json
import math
import re
from pathlib import Path

import pytest
from rich.console import Console

from meeplehall.cli.arena import _chart, bradley_terry, pairwise, seatings, wilson
from meeplehall.cli.main import main

TINY = ["-o", "round_limit=2"]


def run(argv: list[str]) -> tuple[int, str]:
    buf = io.StringIO()
    return main(argv, console=Console(file=buf, width=140)), buf.getvalue()


def test_seatings_rotate_every_bot_over_every_seat() -> None:
    assert seatings(["a", "b"], 2) == [("a", "b"), ("b", "a")]
    assert seatings(["a", "b", "c"], 3) == [("a", "b", "c"), ("b", "c", "a"), ("c", "a", "b")]
    assert seatings(["a", "b"], 3) == [("a", "b", "a"), ("b", "a", "b")]
    assert seatings(["a"], 1) == [("a",)]


def test_wilson_interval() -> None:
    low, high = wilson(8, 10)
    assert math.isclose(low, 0.4902, abs_tol=1e-3) and math.isclose(high, 0.9433, abs_tol=1e-3)
    assert wilson(0, 0) == (0.0, 1.0)
    low, high = wilson(10, 10)
    assert math.isclose(high, 1.0) and 0.69 < low < 0.73
    # Every interval holds its observed rate, even where floating point rounding would
    # leave 4 of 4 at 0.9999999999999999 or 0 of 69 above 0.
    for n in range(1, 300):
        for wins in (0, n // 2, n):
            low, high = wilson(wins, n)
            assert low <= wins / n <= high


def test_the_chart_of_a_tournament_one_bot_won_every_time(tmp_path: Path) -> None:
    """A bot that wins every game (rate 1.0, the other 0.0) is drawn without error."""
    pytest.importorskip("matplotlib")
    summary = {"bots": {"greedy": {"win_rate": 1.0, "ci95": list(wilson(4, 4))},
                        "random": {"win_rate": 0.0, "ci95": list(wilson(0, 69))}},
               "ratings": {"greedy": 1900.0, "random": 1100.0}}
    # An interval that rounding put a hair inside its rate must not raise either.
    summary["bots"]["greedy"]["ci95"][1] = 0.9999999999999999
    summary["bots"]["random"]["ci95"][0] = 3.5e-18
    path = _chart(tmp_path / "chart.png", "red-cathedral", summary)
    assert path is not None and path.stat().st_size > 0


def test_bradley_terry_orders_players_and_centres_on_1500() -> None:
    wins = pairwise([
        {"finished": True, "seats": ["a", "b"], "ranks": [1, 2], "winners": [0]},
        {"finished": True, "seats": ["b", "a"], "ranks": [2, 1], "winners": [1]},
        {"finished": True, "seats": ["a", "c"], "ranks": [1, 1], "winners": [0, 1]},
        {"finished": True, "seats": ["c"], "ranks": [1], "winners": [],
         "automaton": {"name": "ivan"}},
    ])
    assert wins[("a", "b")] == 2.0 and wins[("a", "c")] == 0.5 and wins[("ivan", "c")] == 1
    ratings = bradley_terry(wins, ["a", "b", "c", "ivan"])
    assert ratings["a"] > ratings["b"]
    assert ratings["ivan"] > ratings["c"]
    assert math.isclose(sum(math.log10(10 ** ((r - 1500) / 400)) for r in ratings.values()),
                        0.0, abs_tol=1e-9)


def _check_outputs(out_dir: Path, games: int) -> dict[str, object]:
    report = json.loads((out_dir / "results.json").read_text())
    assert len(report["results"]) == games
    assert all(r["finished"] for r in report["results"])
    rows = list(csv.DictReader((out_dir / "games.csv").open()))
    assert len(rows) == 2 * games
    summary = list(csv.DictReader((out_dir / "summary.csv").open()))
    assert {r["bot"] for r in summary} == {"greedy", "random"}
    png = (out_dir / "chart.png").read_bytes()
    assert png.startswith(b"\x89PNG")
    return report


def test_process_backend_tiny_tournament(tmp_path: Path) -> None:
    rc, out = run(["arena", "red-cathedral", "--players", "2", "--bots", "greedy,random",
                   "--games", "4", "--seed", "3", "--workers", "2", "--out",
                   str(tmp_path / "p"), *TINY])
    assert rc == 0, out
    assert re.search(r"win rate greedy: \d\.\d{3} \(95% CI \d\.\d{3}-\d\.\d{3}, 4 games\)",
                     out)
    report = _check_outputs(tmp_path / "p", 4)
    results = report["results"]
    assert isinstance(results, list)
    assert [r["seats"] for r in results] == [["greedy", "random"], ["random", "greedy"]] * 2
    assert [r["seed"] for r in results] == [3, 3, 4, 4]
    # the same tournament in one process gives the same games
    rc, _ = run(["arena", "red-cathedral", "--bots", "greedy,random", "--games", "4",
                 "--seed", "3", "--workers", "1", "--out", str(tmp_path / "q"), *TINY])
    again = json.loads((tmp_path / "q" / "results.json").read_text())["results"]
    strip = ("seconds", "think_s")
    assert ([{k: v for k, v in r.items() if k not in strip} for r in results]
            == [{k: v for k, v in r.items() if k not in strip} for r in again])


def test_solo_tournament_rates_the_automaton(tmp_path: Path) -> None:
    rc, out = run(["arena", "red-cathedral", "--players", "1", "--bots", "greedy,random",
                   "--games", "2", "--workers", "1", "--out", str(tmp_path), *TINY])
    assert rc == 0, out
    report = json.loads((tmp_path / "results.json").read_text())
    assert "ivan" in report["summary"]["ratings"]
    assert "rating ivan:" in out
    assert re.search(r"game 1/2 \(#0, seed 0, greedy\): \d+, (won|lost), \d+ decisions", out)


def test_ray_backend_tiny_tournament_on_a_local_cluster(tmp_path: Path) -> None:
    pytest.importorskip("ray", reason="Ray is not installed (pip install -e '.[ai]')")
    rc, out = run(["arena", "red-cathedral", "--bots", "greedy,random", "--games", "2",
                   "--seed", "3", "--workers", "2", "--backend", "ray", "--out",
                   str(tmp_path), *TINY])
    assert rc == 0, out
    assert "(ray)" in out
    _check_outputs(tmp_path, 2)


def test_arena_usage_errors() -> None:
    rc, out = run(["arena", "red-cathedral", "--bots", "grandmaster"])
    assert rc == 2 and "unknown bot 'grandmaster'" in out
    rc, out = run(["arena", "red-cathedral", "--address", "ray://x:1"])
    assert rc == 2 and "--address needs --backend ray" in out


def test_bench_mcts_adds_one_line_per_player_count() -> None:
    rc, out = run(["bench", "red-cathedral", "--seconds", "0.05", "--players", "2",
                   "--mcts"])
    assert rc == 0
    lines = out.strip().splitlines()
    assert len(lines) == 6
    assert re.match(r"^red-cathedral players=2 mcts_iterations_per_s=\d+$", lines[3])
    assert re.match(r"^red-cathedral players=2 expert_iterations_per_s=\d+$", lines[4])
    assert re.match(r"^red-cathedral players=2 expert_value=(hand|learned)$", lines[5])


def _games_of(out_dir: Path) -> list[dict[str, object]]:
    results = json.loads((out_dir / "results.json").read_text())["results"]
    return [{k: v for k, v in r.items() if k not in ("seconds", "think_s")} for r in results]


def test_an_interrupted_tournament_resumes_with_the_same_games(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each finished game is appended to games.jsonl; ``--resume`` keeps those games
    (dropping a last line cut short), plays only the missing ones, and gives the results
    of an uninterrupted run. A larger ``--games`` extends a finished tournament."""
    import meeplehall.cli.arena as arena

    args = ["arena", "red-cathedral", "--bots", "greedy,random", "--games", "4", "--seed",
            "3", "--workers", "1", *TINY]
    rc, out = run([*args, "--out", str(tmp_path / "full")])
    assert rc == 0, out
    assert "game 1/4 (#0, seed 3, greedy vs random): " in out  # not a terminal: lines
    journal = (tmp_path / "full" / "games.jsonl").read_text().splitlines()
    assert len(journal) == 5 and json.loads(journal[0])["games"] == 4
    # an interruption during the third game's line
    cut = tmp_path / "cut"
    cut.mkdir()
    (cut / "games.jsonl").write_text("\n".join(journal[:3]) + "\n" + journal[3][:40])
    played: list[int] = []
    real = arena.play_task
    monkeypatch.setattr(arena, "play_task", lambda t: played.append(t["index"]) or real(t))
    rc, out = run([*args, "--out", str(cut), "--resume"])
    assert rc == 0, out
    assert "resuming: 2 of 4 games kept" in out and played == [2, 3]
    assert _games_of(cut) == _games_of(tmp_path / "full")
    # extending the finished tournament plays games 4 and 5 only
    played.clear()
    rc, out = run([*args[:5], "6", *args[6:], "--out", str(cut), "--resume"])
    assert rc == 0, out
    assert played == [4, 5] and len(_games_of(cut)) == 6


def test_a_kept_journal_is_not_overwritten_or_mixed_with_another_tournament(
        tmp_path: Path) -> None:
    args = ["arena", "red-cathedral", "--bots", "greedy,random", "--games", "4", "--seed",
            "3", "--workers", "1", "--out", str(tmp_path), *TINY]
    rc, out = run(args)
    assert rc == 0, out
    journal = tmp_path / "games.jsonl"
    lines = journal.read_text().splitlines()
    journal.write_text("\n".join(lines[:3]) + "\n")  # interrupted after two games
    before = journal.read_bytes()
    rc, out = run(args)
    assert rc == 2 and "holds an interrupted tournament (2 of 4 games)" in out
    assert "--resume" in out and journal.read_bytes() == before
    rc, out = run([*args[:7], "5", *args[8:], "--resume"])
    assert rc == 2 and "holds another tournament: seed 3 (now 5)" in out
    assert journal.read_bytes() == before
    journal.write_text("\n".join([*lines[:2], "{not json", *lines[3:]]) + "\n")
    rc, out = run([*args, "--resume"])
    assert rc == 2 and "line 3: not a game of this tournament" in out
    journal.write_text("hello\n")
    rc, out = run(args)
    assert rc == 2 and "is not an arena journal" in out
