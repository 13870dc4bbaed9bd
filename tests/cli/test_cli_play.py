"""The interactive terminal game, driven by scripted input (``meeplehall play``)."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from tests.cli.scripts import FIRST, MAX_ANSWERS, Script

from meeplehall.cli.main import main
from meeplehall.cli.play import PlaySession
from meeplehall.core.protocol import validate_params
from meeplehall.core.record import GameRecord, replay
from meeplehall.games import GAMES

GAME = GAMES["red-cathedral"]


def make_console() -> tuple[Console, io.StringIO]:
    buf = io.StringIO()
    return Console(file=buf, width=120), buf



def session(seats: list[str], seed: int, answers: Iterable[str],
            default: str | None = None, **options: Any) -> tuple[PlaySession, io.StringIO]:
    console, buf = make_console()
    params = validate_params(GAME.options, {"players": len(seats), **options})
    return (PlaySession(GAME, params, seed, seats, console, Script(answers, default, buf)),
            buf)


def test_solo_game_plays_to_the_end_answering_1() -> None:
    console, buf = make_console()
    script = Script([], FIRST, buf)
    rc = main(["play", "red-cathedral", "--players", "1", "--seed", "3"],
              console=console, input_fn=script)
    out = buf.getvalue()
    assert rc == 0
    assert "Game over" in out
    assert "Final scores" in out
    assert "Solo result:" in out
    assert re.search(r"Ivan\s+.*automaton", out)


def test_two_player_game_against_greedy_plays_to_the_end_answering_1() -> None:
    console, buf = make_console()
    rc = main(["play", "--players", "2", "--seats", "human,greedy", "--seed", "5",
               "--option", "round_limit=15"], console=console, input_fn=Script([], FIRST, buf))
    out = buf.getvalue()
    assert rc == 0
    assert "Game over" in out
    assert "Ranking:" in out and "Winner(s):" in out
    # the bot's moves are announced with their labels
    assert re.search(r"red \(seat 2, greedy\): ", out)


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


def test_solo_game_plays_to_the_end_following_hints() -> None:
    console, buf = make_console()
    rc = main(["play", "--players", "1", "--seed", "11"], console=console,
              input_fn=HintFollower(buf))
    out = buf.getvalue()
    assert rc == 0
    assert "Solo result:" in out
    assert "(evaluation " in out
    # The seed is shown once the game is over, never before (it reveals every die).
    end = out.index("Game over")
    assert "Seed 11: play this table again with --seed 11" in out[end:]
    assert "seed 11" not in out[:end].lower()


def test_no_arguments_start_a_two_player_game_without_showing_its_seed() -> None:
    console, buf = make_console()
    rc = main([], console=console, input_fn=Script(["quit"]))
    out = buf.getvalue()
    assert rc == 0
    assert "2 player(s), seats human, greedy, seed random (shown at the end)" in out
    assert not re.search(r"seed \d", out)
    assert "Game left" in out


def test_a_seed_a_browser_cannot_hold_exactly_is_refused() -> None:
    console, buf = make_console()
    rc = main(["play", "--seed", str(2**53)], console=console, input_fn=Script(["quit"]))
    assert rc != 0
    assert "--seed: seed 9007199254740992 is out of range" in buf.getvalue()
    for command in ("simulate", "arena"):
        console, buf = make_console()
        last = 2**53 - 1
        rc = main([command, "--games", "2", "--seed", str(last)], console=console,
                  input_fn=Script([]))
        assert rc != 0
        assert f"--seed: seed {last + 1} is out of range" in buf.getvalue()


def test_undo_restores_the_previous_state_and_record() -> None:
    play, buf = session(["human", "greedy"], 3,
                        ["claim 0 outside", "undo", "claim 3 inventory", "undo", "undo"])
    initial = GAME.initial_state(play.record.params, 3)
    play.run()
    out = buf.getvalue()
    assert play.state == initial
    assert play.record.actions == []
    assert out.count("Undone.") == 2
    assert "Nothing to undo" in out  # nothing before the start


def test_undo_takes_back_several_steps_of_one_turn() -> None:
    answers = ["move-die white +0", "obtain 2", "undo", "undo"]
    play2, buf = session(["human", "greedy"], 3, answers)
    play2.run()
    assert play2.state == GAME.initial_state(play2.record.params, 3)
    assert play2.record.actions == []
    assert buf.getvalue().count("Undone.") == 2


def test_undo_stops_at_a_dice_roll() -> None:
    # Solo: finishing the market rerolls dice and Ivan plays, then yellow decides again.
    initial = GAME.initial_state(validate_params(GAME.options, {"players": 1}), 3)
    move = next(str(a) for a in GAME.legal_actions(initial) if str(a).startswith("move-die"))
    play, buf = session(["human"], 3, [move, "finish-market"])
    play.run()
    assert GAME.current_player(play.state) == 0
    assert play.state.rng.state != initial.rng.state
    before_undo = play.state.clone()
    recorded = list(play.record.actions)
    play.input_fn = Script(["undo"])
    play.run()
    assert "Nothing to undo: something hidden was shown" in buf.getvalue()
    assert play.state == before_undo
    assert play.record.actions == recorded


def test_undo_stops_at_another_seats_move() -> None:
    # Claim and place a tile ends yellow's turn without chance; then red (human) moves.
    play, buf = session(["human", "human"], 3,
                        ["claim 0 outside", "place-tile yellow down", "claim 3 outside",
                         "undo", "undo"])
    play.run()
    out = buf.getvalue()
    assert out.count("Undone.") == 1
    assert "Nothing to undo" in out
    assert [a for _, a in play.record.actions] == ["claim 0 outside", "place-tile yellow down"]


def test_save_then_load_round_trips(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    first, buf = session(["human", "greedy"], 7, [FIRST] * 5 + [f"save {path}"])
    first.run()
    assert "Saved" in buf.getvalue()
    saved_text = path.read_text()
    record = GameRecord.load(path)
    assert record.actions == first.record.actions
    assert record.game == "red-cathedral"

    second, buf2 = session(["human", "greedy"], 99, [f"load {path}"])
    second.run()
    assert "Loaded" in buf2.getvalue()
    assert second.state == first.state
    assert second.record.actions == first.record.actions
    assert second.record.seed == 7
    assert path.read_text() == saved_text
    assert replay(second.record, GAME) == first.state


def test_load_of_a_game_with_another_player_count_changes_the_seats(tmp_path: Path) -> None:
    path = tmp_path / "solo.json"
    first, _ = session(["human"], 4, [FIRST, f"save {path}"])
    first.run()
    second, buf = session(["human", "greedy"], 1, [f"load {path}"])
    second.run()
    assert "Seats now: human" in buf.getvalue()
    assert second.seats == ["human"]
    assert second.state == first.state


def _bad_records(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    good = GameRecord("red-cathedral", GAME.rules_version, {"players": 2}, 1).to_dict()
    files = {}
    corrupt = tmp_path / "corrupt.json"
    corrupt.write_text('{"format": "meeplehall-record", "actions": [')
    files["corrupt"] = (corrupt, "corrupt record: not valid JSON")
    other = tmp_path / "other.json"
    other.write_text(json.dumps(good | {"game": "praga"}))
    files["other game"] = (other, "is a game of 'praga', not 'red-cathedral'")
    version = tmp_path / "version.json"
    version.write_text(json.dumps(good | {"rules_version": GAME.rules_version + 98}))
    files["rules version"] = (version, f"rules version {GAME.rules_version + 98}")
    fields = tmp_path / "fields.json"
    fields.write_text(json.dumps(good | {"actions": [[0, "claim 99 inventory"]]}))
    files["bad move"] = (fields, "move 1 ('claim 99 inventory') does not replay")
    missing = tmp_path / "missing.json"
    files["missing"] = (missing, "no such file")
    return files


@pytest.mark.parametrize("kind", ["corrupt", "other game", "rules version", "bad move",
                                  "missing"])
def test_failed_load_keeps_the_game_and_the_file(tmp_path: Path, kind: str) -> None:
    path, message = _bad_records(tmp_path)[kind]
    before = path.read_bytes() if path.exists() else None
    play, buf = session(["human", "greedy"], 3, ["claim 0 outside"])
    play.run()
    state = play.state.clone()
    actions = list(play.record.actions)
    play.input_fn = Script([f"load {path}"])
    play.run()
    out = buf.getvalue()
    errors = [line for line in out.splitlines() if "Cannot load" in line]
    assert len(errors) == 1, out
    assert message in errors[0]
    assert "The current game goes on" in errors[0]
    assert play.state == state
    assert play.record.actions == actions
    assert (path.read_bytes() if path.exists() else None) == before


def test_failed_save_creates_and_overwrites_nothing(tmp_path: Path) -> None:
    directory = tmp_path / "dir"
    directory.mkdir()
    (directory / "keep.txt").write_text("keep")
    play, buf = session(["human", "greedy"], 3,
                        ["1", f"save {directory}", f"save {tmp_path / 'nope' / 'x.json'}"])
    play.run()
    out = buf.getvalue()
    assert f"Cannot save: {directory} is a directory." in out
    assert "Cannot save to" in out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dir"]
    assert [p.name for p in directory.iterdir()] == ["keep.txt"]
    assert (directory / "keep.txt").read_text() == "keep"


def test_illegal_input_asks_again() -> None:
    answers = ["foo", "99", "0", "", "claim 99 inventory", "place-tile red up", "quit"]
    script = Script(answers)
    console, buf = make_console()
    params = validate_params(GAME.options, {"players": 2})
    play = PlaySession(GAME, params, 3, ["human", "greedy"], console, script)
    play.run()
    out = buf.getvalue()
    assert script.asked == len(answers)
    assert "Unknown command or action" in out
    assert "Choice 99 does not exist" in out
    assert "Choice 0 does not exist" in out
    assert "Please choose a number from the list" in out
    assert "there is no slot 99" in out
    assert "place-tile red up is not legal now" in out
    assert play.record.actions == []
    assert play.state == GAME.initial_state(params, 3)


def test_rules_help_board_and_hint_commands() -> None:
    play, buf = session(["human", "greedy"], 3, ["rules", "help", "board", "hint", "quit"])
    play.run()
    out = buf.getvalue()
    assert "RC-TURN-2" in out
    assert "save FILE" in out
    assert out.count("Cathedral (plan") == 2  # the compact table, then 'board'
    hint = out[out.index("The greedy bot would choose:"):].splitlines()[1:4]
    assert all(re.match(r"\s+\d+\. .*\(evaluation -?\d+\.\d\d\)", line) for line in hint)
    assert play.record.actions == []


def test_board_shows_market_cathedral_players_and_log() -> None:
    play, buf = session(["human"], 3, ["quit"], advanced_workshops=True)
    play.full_board = True
    play.run()
    out = buf.getvalue()
    for part in ("Market", "Quadrant", "Cathedral (Building Plan", "Tower 1", "Players",
                 "Workshop", "Ivan's row:", "Score track:", "Log (last", "locked"):
        assert part in out, part


@pytest.mark.parametrize("argv, message", [
    (["play", "--players", "3", "--seats", "human,greedy"], "--seats lists 2 seat(s)"),
    (["play", "--seats", "human,robot"], "unknown seat 'robot'"),
    (["play", "--option", "colour=red"], "unknown option 'colour'"),
    (["play", "--option", "players"], "--option needs key=value"),
    (["play", "--players", "9"], "must be <= 4"),
    (["play", "chess"], "unknown game 'chess'"),
])
def test_bad_command_lines_give_one_clear_error(argv: list[str], message: str) -> None:
    console, buf = make_console()
    assert main(argv, console=console, input_fn=Script([])) == 2
    out = buf.getvalue()
    assert message in out
    assert out.count("meeplehall: error:") == 1


def test_advanced_flag_sets_the_option() -> None:
    console, buf = make_console()
    seen: dict[str, Any] = {}

    def capture(prompt: str) -> str:
        seen["done"] = True
        return "quit"

    rc = main(["play", "--advanced", "--seed", "2"], console=console, input_fn=capture)
    assert rc == 0 and seen
    assert "locked" in buf.getvalue()


def test_play_help_lists_the_game_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--help"]) == 0
    out = capsys.readouterr().out
    for option in GAME.options:
        assert f"  {option.name} (default " in out
