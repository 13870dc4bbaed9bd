"""``meeplehall simulate``, ``replay`` and ``bench``."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterable
from pathlib import Path

import pytest
from rich.console import Console

from meeplehall.cli.main import main
from meeplehall.cli.simulate import seat_bots
from meeplehall.core.messages import log_lines
from meeplehall.core.record import GameRecord, replay
from meeplehall.core.testing import random_playout
from meeplehall.games import GAMES

GAME = GAMES["red-cathedral"]


def run(argv: list[str], answers: Iterable[str] = ()) -> tuple[int, str]:
    buf = io.StringIO()
    console = Console(file=buf, width=120)
    pending = list(answers)

    def input_fn(prompt: str) -> str:
        if not pending:
            raise EOFError
        return pending.pop(0)

    return main(argv, console=console, input_fn=input_fn), buf.getvalue()


@pytest.fixture(scope="module")
def record_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    _, record = random_playout(GAME, {"players": 2}, seed=21, chooser_seed=5)
    path = tmp_path_factory.mktemp("records") / "game.json"
    record.save(path)
    return path


def test_seats_rotate_so_each_bot_plays_each_seat() -> None:
    seen = {tuple(seat_bots(["greedy", "random", "random"], 3, g)) for g in range(3)}
    assert seen == {("greedy", "random", "random"), ("random", "random", "greedy"),
                    ("random", "greedy", "random")}


def test_simulate_three_games_prints_win_rates(tmp_path: Path) -> None:
    out_file = tmp_path / "sim.json"
    rc, out = run(["simulate", "red-cathedral", "--games", "3", "--players", "2",
                   "--bots", "greedy,random", "--seed", "4", "--option", "round_limit=20",
                   "--json", str(out_file)])
    assert rc == 0, out
    assert "win rate greedy:" in out and "win rate random:" in out
    assert "win rate seat 0:" in out and "win rate seat 1:" in out
    assert "Scores per seat" in out and "Scores per bot" in out and "Game length" in out
    data = json.loads(out_file.read_text())
    assert len(data["results"]) == 3
    assert [r["bots"] for r in data["results"]] == [["greedy", "random"],
                                                    ["random", "greedy"],
                                                    ["greedy", "random"]]
    assert data["summary"]["finished"] == 3
    rates = [data["summary"]["per_bot"][k]["win_rate"] for k in ("greedy", "random")]
    assert all(0.0 <= r <= 1.0 for r in rates)
    for r in data["results"]:  # the outcome's points per category, summing to the score
        assert [sum(b.values()) for b in r["breakdown"]] == r["scores"]
        assert all(b for b in r["breakdown"])
    per_bot = data["summary"]["breakdown_per_bot"]
    assert set(per_bot) == {"greedy", "random"}
    assert all(st["n"] == 3 for kind in per_bot.values() for st in kind.values())


def test_simulate_solo_reports_results_against_ivan() -> None:
    rc, out = run(["simulate", "--games", "2", "--players", "1", "--bots", "random",
                   "--seed", "1"])
    assert rc == 0, out
    assert re.search(r"solo: win rate vs Ivan \d+\.\d%", out)
    assert "Ivan's mean score" in out


def test_simulate_rejects_unknown_bots() -> None:
    rc, out = run(["simulate", "--bots", "greedy,oracle"])
    assert rc == 2
    assert "unknown bot 'oracle'" in out


def test_replay_to_k_print_shows_that_state(record_file: Path) -> None:
    record = GameRecord.load(record_file)
    rc, out = run(["replay", str(record_file), "--to", "7", "--print"])
    assert rc == 0, out
    assert f"Move 7/{len(record.actions)}:" in out
    state = replay(record, GAME, upto=7)
    assert log_lines(state.log)[-1] in out
    assert f"Next: {GAME.side_name(state, record.actions[7][0])}: {record.actions[7][1]}" in out


def test_replay_print_without_to_shows_the_end(record_file: Path) -> None:
    rc, out = run(["replay", str(record_file), "--print"])
    assert rc == 0
    assert "Final scores" in out


def test_replay_steps_back_and_jumps(record_file: Path) -> None:
    rc, out = run(["replay", str(record_file)], ["", "", "b", "5", "x", "99999", "q"])
    assert rc == 0
    assert "Start of the game" in out
    moves = re.findall(r"^Move (\d+)/", out, flags=re.M)
    assert moves == ["1", "2", "1", "5"]
    assert "Unknown command 'x'" in out
    assert "No move 99999" in out


@pytest.mark.parametrize("content, message", [
    ("{not json", "corrupt record: not valid JSON"),
    (json.dumps({"format": "meeplehall-record", "format_version": 1, "game": "go",
                 "rules_version": 1, "params": {}, "seed": 1, "actions": []}),
     "unknown game 'go'"),
])
def test_replay_of_a_bad_file_says_why(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    rc, out = run(["replay", str(path), "--print"])
    assert rc == 1
    assert message in out


def test_replay_to_out_of_range(record_file: Path) -> None:
    rc, out = run(["replay", str(record_file), "--to", "999999", "--print"])
    assert rc == 2
    assert "--to must be between 0 and" in out
    rc, out = run(["replay", str(record_file), "--seat", "5", "--print"])
    assert rc == 2
    assert "--seat must be between 0 and 1" in out


def test_replay_stops_at_a_move_that_does_not_replay(tmp_path: Path,
                                                     record_file: Path) -> None:
    record = GameRecord.load(record_file)
    record.actions = [*record.actions[:4], (record.actions[4][0], "claim 99 inventory")]
    path = tmp_path / "broken.json"
    record.save(path)
    rc, out = run(["replay", str(path), "--print"])
    assert rc == 1
    assert "Stopped: move 5 ('claim 99 inventory') does not replay" in out
    assert "Move 4/5:" in out


def test_bench_prints_twelve_figures() -> None:
    rc, out = run(["bench", "red-cathedral", "--seconds", "0.2"])
    assert rc == 0
    lines = out.strip().splitlines()
    assert len(lines) == 12, out
    pattern = re.compile(
        r"^red-cathedral players=([1-4]) (decisions_per_s|games_per_s|clone_us)=(\d+(\.\d+)?)$")
    seen = set()
    for line in lines:
        match = pattern.match(line)
        assert match, line
        assert float(match.group(3)) > 0
        seen.add((match.group(1), match.group(2)))
    assert len(seen) == 12
