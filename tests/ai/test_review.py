"""The game review (``meeplehall.ai.review``, ``meeplehall review``): chances of winning
over a finished game and each person's costliest moves, for a known record."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rich.console import Console

from meeplehall.ai.ladder import make_bot
from meeplehall.ai.review import (
    BUCKETS,
    Calibration,
    ReviewError,
    load_calibrations,
    review,
    softmax_chances,
)
from meeplehall.cli.main import main
from meeplehall.core.record import GameRecord
from meeplehall.games import GAMES


def played(game_name: str, seed: int, kinds: list[str], upto: int | None = None) -> GameRecord:
    """A record of ``kinds`` playing ``game_name`` (stopped after ``upto`` moves)."""
    game = GAMES[game_name]
    params = {"players": len(kinds)}
    state = game.initial_state(params, seed)
    record = GameRecord(game_name, game.rules_version, params, seed)
    bots = [make_bot(kind, seed=10 + i) for i, kind in enumerate(kinds)]
    while (seat := game.current_player(state)) is not None:
        if upto is not None and len(record.actions) >= upto:
            break
        action = bots[seat].choose(game, game.player_view(state, seat),
                                   tuple(game.legal_actions(state)))
        record.append(seat, action)
        state = game.apply(state, action)
    return record


@pytest.fixture(scope="module")
def known() -> GameRecord:
    """The Red Cathedral, greedy (seat 0) against random play (seat 1), seed 5."""
    return played("red-cathedral", 5, ["greedy", "random"])


def test_the_chances_follow_the_game_to_its_result(known: GameRecord) -> None:
    result = review(known)
    assert result.unit == "chance" and result.sides == ("yellow", "red")
    moves = [m for m, _c in result.curve]
    assert moves[0] == 0 and moves[-1] == len(known.actions) and moves == sorted(moves)
    for _m, chances in result.curve:
        assert len(chances) == 2 and abs(sum(chances) - 1) < 1e-9
    assert result.curve[-1][1] == (1.0, 0.0)  # greedy won: its chance ends at 1
    # greedy is ahead of random play from early on
    assert sum(c[0] for _m, c in result.curve) / len(result.curve) > 0.7


def test_the_costly_moves_are_the_random_players_where_the_expert_disagrees(
        known: GameRecord) -> None:
    result = review(known, seats=[1])
    assert set(result.costly) == {1}
    moves = result.costly[1]
    assert 1 <= len(moves) <= 3
    losses = [m.loss for m in moves]
    assert losses == sorted(losses, reverse=True) and min(losses) > 0
    for m in moves:
        assert m.seat == 1 and known.actions[m.move - 1] == (1, m.played.text)
        assert m.suggested.text != m.played.text
        assert m.suggested.chance - m.played.chance == pytest.approx(m.loss)
        assert m.played.label["key"] and m.suggested.label["key"]


def test_a_review_is_deterministic_and_its_json_is_the_clis(known: GameRecord,
                                                            tmp_path: Path) -> None:
    first, again = review(known).to_dict(), review(known).to_dict()
    assert first == again
    path = tmp_path / "game.json"
    known.save(path)
    console = Console(record=True, width=400)
    assert main(["review", str(path), "--json"], console=console) == 0
    assert json.loads(console.export_text()) == first
    console = Console(record=True, width=100)
    assert main(["review", str(path)], console=console) == 0
    text = console.export_text()
    assert "Chance of winning over the game" in text and "the moves that cost the most" in text


def test_an_unfinished_or_broken_record_is_refused(tmp_path: Path) -> None:
    short = played("red-cathedral", 6, ["greedy", "greedy"], upto=10)
    with pytest.raises(ReviewError, match="not over"):
        review(short)
    path = tmp_path / "short.json"
    short.save(path)
    console = Console(record=True, width=200)
    assert main(["review", str(path)], console=console) == 1
    assert "not over" in console.export_text()
    path.write_text("{not json")
    assert main(["review", str(path)], console=console) == 1
    assert "not valid JSON" in console.export_text()


def test_the_shipped_calibration_loads_and_is_for_this_rules_version() -> None:
    held = load_calibrations()
    assert ("red-cathedral", 2) in held
    for (name, _players), cal in held.items():
        assert cal.rules_version == GAMES[name].rules_version
        assert len(cal.temperatures) == BUCKETS and cal.provenance["command"]
        assert cal.provenance["cross_validated_log_loss"] < \
            cal.provenance["cross_validated_constant_log_loss"]


def test_a_calibration_for_other_rules_is_not_used(known: GameRecord) -> None:
    stale = Calibration("red-cathedral", 2, (0.01,) * BUCKETS, (0.0,) * BUCKETS,
                        rules_version=GAMES["red-cathedral"].rules_version + 1)
    result = review(known, calibrations={("red-cathedral", 2): stale})
    assert not result.calibrated


def test_chances_from_evaluations() -> None:
    assert softmax_chances([10.0, 10.0], 0.1, 0.0) == [0.5, 0.5]
    ahead = softmax_chances([12.0, 8.0, 8.0], 0.1, 0.0)
    assert ahead[0] > 0.9 and ahead[1] == ahead[2]
    assert softmax_chances([150.0], 10.0, 140.0)[0] == pytest.approx(0.731, abs=1e-3)
