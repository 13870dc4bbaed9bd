"""Praga Caput Regni in the terminal: the board, ``play``, ``replay``, ``simulate``, ``bench``."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from tests.cli.scripts import FIRST, Script

from meeplehall.cli.main import main, player_range
from meeplehall.cli.play import PlaySession
from meeplehall.cli.render import BOARD_RENDERERS, render_board, side_name
from meeplehall.cli.render_praga import render_praga, status_praga
from meeplehall.core.messages import Message, english
from meeplehall.core.protocol import validate_params
from meeplehall.core.record import GameRecord, replay
from meeplehall.core.rng import Rng
from meeplehall.core.testing import random_playout
from meeplehall.games import GAMES

GAME = GAMES["praga"]
WIDTH = 160
MAX_ANSWERS = 3_000
SECTIONS = ("Praga Caput Regni", "Action crane", "City", "Hex-tile rows", "Hunger Wall",
            "Cathedral", "King's Road", "Charles Bridge", "Seals:", "Production tokens:",
            "Players", "Mine track", "Quarry track", "Technology", "University", "Windows",
            "Log (last")


def make_console() -> tuple[Console, io.StringIO]:
    buf = io.StringIO()
    return Console(file=buf, width=WIDTH), buf


def run(argv: list[str], answers: Iterable[str] = ()) -> tuple[int, str]:
    console, buf = make_console()
    pending = list(answers)

    def input_fn(prompt: str) -> str:
        if not pending:
            raise EOFError
        return pending.pop(0)

    return main(argv, console=console, input_fn=input_fn), buf.getvalue()



class HintFollower:
    """Answers every decision with 'hint', then the number the hint ranked first."""

    def __init__(self, buf: io.StringIO) -> None:
        self.buf = buf
        self.pending = False
        self.asked = 0

    def __call__(self, prompt: str) -> str:
        self.asked += 1
        assert self.asked <= MAX_ANSWERS, "the game did not end"
        if not self.pending:
            self.pending = True
            return "hint"
        self.pending = False
        text = self.buf.getvalue()
        tail = text[text.rindex("The greedy bot would choose:"):]
        match = re.search(r"^\s+(\d+)\. ", tail.splitlines()[1])
        assert match, tail
        return match.group(1)


def played(players: int, seed: int, moves: int, chooser: int = 1) -> Any:
    """The state after ``moves`` uniformly random moves (or the end)."""
    state = GAME.initial_state(validate_params(GAME.options, {"players": players}), seed)
    rng = Rng.from_seed(chooser)
    for _ in range(moves):
        if GAME.current_player(state) is None:
            break
        legal = GAME.legal_actions(state)
        state = GAME.apply(state, legal[rng.randbelow(len(legal))])
    return state


def draw(view: dict[str, Any]) -> str:
    console, buf = make_console()
    console.print(render_praga(view))
    return buf.getvalue()


@pytest.fixture(scope="module")
def record_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    _, record = random_playout(GAME, {"players": 2}, seed=4, chooser_seed=9)
    path = tmp_path_factory.mktemp("praga") / "praga.json"
    record.save(path)
    return path


# --- the board ---------------------------------------------------------------------------
def test_praga_has_its_own_board_renderer() -> None:
    assert "praga" in BOARD_RENDERERS
    console, buf = make_console()
    render_board(console, GAME, played(2, 1, 0), 0)
    assert "Crane:" in buf.getvalue()  # the compact table
    render_board(console, GAME, played(2, 1, 0), 0, full=True)
    assert "Action crane" in buf.getvalue()


@pytest.mark.parametrize("players, moves", [(2, 0), (3, 20), (4, 150), (3, 2_000)])
def test_board_shows_every_section_within_160_columns(players: int, moves: int) -> None:
    state = played(players, 1, moves)
    for seat in (None, *range(players)):
        out = draw(GAME.player_view(state, seat))
        for part in SECTIONS:
            assert part in out, (part, out)
        assert "cannot draw" not in out, out
        assert re.search(r"^(Final s|S)core: \w+ -?\d+ VP", out, flags=re.M)
        assert max(len(line) for line in out.splitlines()) <= WIDTH
        for colour in ("green", "red", "blue", "yellow")[:players]:
            assert colour in out
    if GAME.current_player(state) is None:
        assert "The game is over." in out and "Final score:" in out


def _english(line: dict[str, Any]) -> str:
    """A readable line of the view (a message) in English."""
    return english(Message.from_json(line))


def test_board_shows_cubes_owners_and_the_crane_from_the_view() -> None:
    state = played(3, 1, 20)
    view = GAME.player_view(state, 0)
    out = draw(view)
    # every action tile on the wheel, by id and its two actions
    for line in map(_english, view["crane"]):
        tile = re.search(r"\] (A\d+) (\w+)/(\w+)", line)
        if tile:
            assert re.search(rf"{tile.group(1)} {tile.group(2)}/{tile.group(3)}", out)
    assert "▣ box (arrow)" in out
    # each seat's cubes are on the grids' start cells (initials), the turn counter shows
    assert "GRB" in out
    assert f"turn {_english(view['turn'])}" in out
    # built sites show their building; the market tiles show both rewards
    for line in map(_english, view["markets"]):
        for site, building in re.findall(r"(S\d+) (B\d+)", line):
            assert f"{site}:{building}" in out


def test_board_falls_back_to_the_views_lines_when_a_section_cannot_be_drawn() -> None:
    view = GAME.player_view(played(2, 1, 10), 0)
    del view["board"]["crane"]["wheel"]
    out = draw(view)
    assert "cannot draw Action crane: KeyError" in out
    assert _english(view["crane"][0]).strip() in out  # the view's readable lines instead
    assert "Hunger Wall" in out and "Players" in out


def test_board_is_drawn_without_the_bot_only_state() -> None:
    """The terminal reads the view's designed sections only (views.py: ``state`` is for
    bots re-dealing hidden components)."""
    for params, seat in (((2, 1, 40), 0), ((4, 3, 90), None)):
        view = GAME.player_view(played(*params), seat)
        full = draw(view)
        del view["state"]
        assert draw(view) == full
        assert "cannot draw" not in full


def test_log_lines_name_seats_by_colour() -> None:
    out = draw(GAME.player_view(played(2, 1, 12), None))
    log = out[out.index("Log (last"):]
    assert "seat 0" not in log and "seat 1" not in log
    assert re.search(r"│ (green|red)[: ]", log)


def test_status_line_of_the_seat_to_decide() -> None:
    state = played(2, 1, 3)
    seat = GAME.current_player(state)
    assert seat is not None
    console, buf = make_console()
    console.print(status_praga(GAME.player_view(state, seat)))
    line = buf.getvalue()
    assert re.search(r"^\w+: \d+ VP, \d+ gold, \d+ stone, windows", line)


# --- play --------------------------------------------------------------------------------
def test_two_player_game_against_greedy_plays_to_the_end_answering_1() -> None:
    console, buf = make_console()
    rc = main(["play", "praga", "--players", "2", "--seats", "human,greedy", "--seed", "5"],
              console=console, input_fn=Script([], FIRST, buf))
    out = buf.getvalue()
    assert rc == 0
    assert "Praga Caput Regni: 2 player(s), seats human, greedy, seed given" in out
    assert "Game over" in out and "Final scores" in out
    assert "Seed 5: play this table again with --seed 5." in out[out.index("Game over"):]
    assert "Ranking:" in out and "Winner(s):" in out
    assert "Hunger wall" in out  # breakdown categories, readable
    assert re.search(r"red \(seat 2, greedy\): ", out)
    assert "Action crane" in out and "cannot draw" not in out


def test_two_player_game_against_random_plays_to_the_end_following_hints() -> None:
    console, buf = make_console()
    rc = main(["play", "praga", "--players", "2", "--seats", "random,human", "--seed", "8"],
              console=console, input_fn=HintFollower(buf))
    out = buf.getvalue()
    assert rc == 0
    assert "(evaluation " in out
    assert "Winner(s):" in out


def test_rules_and_board_commands() -> None:
    console, buf = make_console()
    params = validate_params(GAME.options, {"players": 2})
    play = PlaySession(GAME, params, 3, ["human", "greedy"], console,
                       Script(["rules", "board", "quit"]))
    play.run()
    out = buf.getvalue()
    assert "P-TURN-2/3" in out
    assert out.count("Crane:") == 2  # the compact table, then 'board'
    assert play.record.actions == []


def test_save_then_load_round_trips(tmp_path: Path) -> None:
    path = tmp_path / "praga.json"
    params = validate_params(GAME.options, {"players": 2})
    console, buf = make_console()
    first = PlaySession(GAME, params, 7, ["human", "greedy"], console,
                        Script([FIRST] * 12 + [f"save {path}"], buf=buf))
    first.run()
    assert "Saved" in buf.getvalue()
    assert len(first.record.actions) > 12  # the bot moved too
    record = GameRecord.load(path)
    assert record.game == "praga"
    assert record.actions == first.record.actions

    console2, buf2 = make_console()
    second = PlaySession(GAME, validate_params(GAME.options, {"players": 3}), 99,
                         ["human", "greedy", "greedy"], console2, Script([f"load {path}"]))
    second.run()
    assert "Loaded" in buf2.getvalue()
    assert "Seats now: human, greedy" in buf2.getvalue()
    assert second.state == first.state
    assert second.record.actions == first.record.actions
    assert second.record.seed == 7
    assert replay(second.record, GAME) == first.state


# --- replay, simulate, bench -------------------------------------------------------------
def test_replay_to_k_print_shows_that_state(record_file: Path) -> None:
    record = GameRecord.load(record_file)
    k = 30
    rc, out = run(["replay", str(record_file), "--to", str(k), "--print"])
    assert rc == 0, out
    assert f"Move {k}/{len(record.actions)}:" in out
    state = replay(record, GAME, upto=k)
    view = GAME.player_view(state, None)
    assert f"turn {_english(view['turn'])}" in out
    assert "Action crane" in out and "cannot draw" not in out
    seat, text = record.actions[k]
    assert seat is not None
    assert f"Next: {side_name(GAME, state, seat)}: {text}" in out


def test_replay_print_as_a_seat_and_to_the_end(record_file: Path) -> None:
    rc, out = run(["replay", str(record_file), "--seat", "1", "--print"])
    assert rc == 0, out
    assert "(you)" in out
    assert "Final scores" in out and "The game is over." in out


def test_simulate_two_games(tmp_path: Path) -> None:
    out_file = tmp_path / "sim.json"
    rc, out = run(["simulate", "praga", "--games", "2", "--players", "2", "--seed", "3",
                   "--json", str(out_file)])
    assert rc == 0, out
    assert "Games: 2, finished: 2, unfinished (decision cap): 0" in out
    assert "win rate greedy:" in out and "win rate random:" in out
    data = json.loads(out_file.read_text())
    assert data["game"] == "praga"
    assert [r["turns"] for r in data["results"]] == [32, 32]
    assert all(len(r["scores"]) == 2 for r in data["results"])


def test_bench_runs_players_one_to_four() -> None:
    assert player_range(GAME) == (1, 4)
    rc, out = run(["bench", "praga", "--seconds", "0.05"])
    assert rc == 0, out
    lines = out.strip().splitlines()
    pattern = re.compile(
        r"^praga players=([1-4]) (decisions_per_s|games_per_s|clone_us)=(\d+(\.\d+)?)$")
    seen = []
    for line in lines:
        match = pattern.match(line)
        assert match, line
        assert float(match.group(3)) > 0
        seen.append((match.group(1), match.group(2)))
    assert seen == [(str(n), figure) for n in (1, 2, 3, 4)
                    for figure in ("decisions_per_s", "games_per_s", "clone_us")]
