"""The ladder (``ai/ladder.py``): every game, mode and level is a ``Level``, bots are
built from it, docs/ai.md shows it, and each level plays the recorded moves."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from meeplehall.ai import BOTS, make_bot
from meeplehall.ai.greedy import GreedyBot
from meeplehall.ai.heuristics.praga import PragaEvaluator
from meeplehall.ai.heuristics.red_cathedral import RedCathedralEvaluator
from meeplehall.ai.ladder import (
    KINDS,
    LADDER,
    MODES,
    LevelBot,
    evaluator_for,
    ladder_table,
    level,
)
from meeplehall.ai.mcts import MCTSBot
from meeplehall.ai.planner import CheckedPlannerBot, PlannerBot, RolloutCheck
from meeplehall.ai.random_bot import RandomBot
from meeplehall.games import GAMES

ROOT = Path(__file__).resolve().parents[2]
RECORDED = Path(__file__).parent / "data" / "ladder_games.json"


def test_every_game_and_mode_has_every_level_weakest_first() -> None:
    assert set(LADDER) == set(GAMES)
    assert list(BOTS) == list(KINDS)
    for game, modes in LADDER.items():
        assert tuple(modes) == MODES or set(modes) == set(MODES), game
        for mode, levels in modes.items():
            assert tuple(levels) == KINDS, (game, mode)
            for kind, lv in levels.items():
                assert lv.summary, (game, mode, kind)
                assert (lv.search is not None) == (lv.policy == "search")
                assert (lv.check is not None) == (lv.policy == "checked planner")


def test_the_common_levels_are_the_same_everywhere_and_built_at_once() -> None:
    for kind, cls in (("random", RandomBot), ("greedy", GreedyBot), ("planner", PlannerBot)):
        assert len({modes[m][kind] for modes in LADDER.values() for m in MODES}) == 1
        assert type(make_bot(kind, 3)) is cls
    for kind in ("mcts-easy", "mcts-medium", "mcts-hard"):
        bot = make_bot(kind, 3)
        assert isinstance(bot, LevelBot) and bot.kind == kind
    with pytest.raises(ValueError, match="unknown bot 'chess'"):
        make_bot("chess")


def _view(game: str, players: int) -> tuple[Any, dict[str, Any]]:
    g = GAMES[game]
    return g, g.player_view(g.initial_state({"players": players}, 1), 0)


def test_a_level_bot_plays_the_ladders_bot_for_the_game_and_mode() -> None:
    """What the levels are today: Praga's search counts (2 / 4 / 50 iterations with
    players, 25 / 100 / 300 turn play-outs alone), The Red Cathedral's (4 full-tree
    iterations, 2 and 16 turn play-outs with players; 50 and 200 against Ivan, and
    mcts-hard the planner with a rollout check)."""
    expected = {
        ("praga", 2): (2, 4, 50), ("praga", 1): (25, 100, 300),
        ("red-cathedral", 2): (4, 2, 16), ("red-cathedral", 1): (50, 200, None),
    }
    for (name, players), counts in expected.items():
        game, view = _view(name, players)
        for kind, count in zip(("mcts-easy", "mcts-medium", "mcts-hard"), counts,
                               strict=True):
            bot = LevelBot(kind, 0).bot(game, view)
            if count is None:
                assert isinstance(bot, CheckedPlannerBot)
                assert bot.check == RolloutCheck(candidates=6, turns=8, samples=2)
                continue
            assert isinstance(bot, MCTSBot)
            assert bot.config.iterations == count, (name, players, kind)
            turns = players == 1 or (name == "red-cathedral" and kind != "mcts-easy")
            assert bool(bot.config.turn_rollout) == turns
            assert bot.config.max_depth == (1 if turns else 0)
            assert bot.config.fixed_chance == turns
    assert evaluator_for("praga").is_solo(_view("praga", 1)[1])
    assert not evaluator_for("red-cathedral").is_solo(_view("red-cathedral", 2)[1])
    assert level("praga", "solo", "mcts-hard").search is not None


def test_each_game_has_its_evaluator_and_profiles_are_named() -> None:
    assert isinstance(evaluator_for(GAMES["praga"]), PragaEvaluator)
    assert isinstance(evaluator_for("red-cathedral"), RedCathedralEvaluator)
    assert evaluator_for("praga") is evaluator_for("praga")
    assert evaluator_for("red-cathedral", "builder").weights is not None
    with pytest.raises(ValueError, match="unknown profile"):
        evaluator_for("praga", "turtle")
    with pytest.raises(ValueError, match="no evaluator"):
        evaluator_for("chess")


def test_docs_show_the_ladder_table() -> None:
    """docs/ai.md's ladder table is ``ladder_table()`` (regenerate it from there)."""
    assert ladder_table() in (ROOT / "docs" / "ai.md").read_text(encoding="utf-8")


def _play(key: str, moves: int) -> list[str]:
    name, players, kind = key.split("/")
    game = GAMES[name]
    state = game.initial_state({"players": int(players)}, 11)
    bots = [make_bot(kind, 100 + s) for s in range(int(players))]
    out: list[str] = []
    while (seat := game.current_player(state)) is not None and len(out) < moves:
        legal = game.legal_actions(state)
        action = bots[seat].choose(game, game.player_view(state, seat), legal)
        out.append(str(action))
        game.apply_unchecked(state, action)
    return out


RECORDS: dict[str, list[str]] = json.loads(RECORDED.read_text(encoding="utf-8"))


@pytest.mark.parametrize("key", sorted(RECORDS))
def test_every_level_plays_its_recorded_moves(key: str) -> None:
    """The first moves of a seeded game (game seed 11, bot seed 100 + seat, every seat
    the same level) per game, mode (1 or 2 players) and level, as the ladder played
    them before it became data (``tests/ai/data/ladder_games.json``). A change of a
    level's play shows here; regenerate with
    ``PYTHONPATH=src python tests/ai/test_ladder.py`` only when it is meant."""
    assert _play(key, len(RECORDS[key])) == RECORDS[key]


if __name__ == "__main__":
    fresh = {key: _play(key, len(moves)) for key, moves in RECORDS.items()}
    RECORDED.write_text(json.dumps(fresh, indent=1) + "\n", encoding="utf-8")
    sys.exit(0)
