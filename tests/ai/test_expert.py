"""The expert search (``ai/expert.py``): deterministic given its seed with an iteration
budget, decides from the view only, plays legal full games of both titles with a small
budget, keeps to its think time by the clock, and says how sure its hints are."""

from __future__ import annotations

import io
import re
import time
from typing import Any

import pytest
from rich.console import Console

from meeplehall.ai import analyse, make_bot
from meeplehall.ai.expert import DEFAULT_THINK, ExpertBot, ExpertConfig, play_on
from meeplehall.ai.ladder import check_kind, evaluator_for, expert_config, ladder_table, level
from meeplehall.cli.main import main
from meeplehall.cli.play import PlaySession
from meeplehall.core.protocol import Game, validate_params
from meeplehall.core.rng import Rng
from meeplehall.games import GAMES

RC = GAMES["red-cathedral"]
PRAGA = GAMES["praga"]


def _advance(game: Game, players: int, seed: int, moves: int) -> Any:
    """A position after ``moves`` random actions where the seat has a real choice."""
    state = game.initial_state({"players": players}, seed)
    rng = Rng.from_seed(seed)
    for _ in range(moves):
        legal = game.legal_actions(state)
        game.apply_unchecked(state, legal[rng.randbelow(len(legal))])
    while len(game.legal_actions(state)) < 3:
        legal = game.legal_actions(state)
        game.apply_unchecked(state, legal[rng.randbelow(len(legal))])
    return state


def _choose(bot: Any, game: Game, state: Any) -> Any:
    seat = game.current_player(state)
    return bot.choose(game, game.player_view(state, seat), game.legal_actions(state))


@pytest.mark.parametrize(("name", "players"), [("praga", 2), ("red-cathedral", 2),
                                               ("red-cathedral", 1), ("praga", 1),
                                               ("praga", 4), ("red-cathedral", 3)])
def test_the_expert_decides_the_same_way_from_the_view_given_its_seed(
        name: str, players: int) -> None:
    """Same bot seed, same view: the same choice, also where the game's own generator
    (future dice, draws, Ivan's tiles) differs; the budget is spent as given."""
    game = GAMES[name]
    state = _advance(game, players, seed=5, moves=25)
    other = state.clone()
    other.rng = Rng(4242)
    first = ExpertBot(3, ExpertConfig(iterations=10))
    a = _choose(first, game, state)
    assert first.last_iterations == 10
    assert a == _choose(ExpertBot(3, ExpertConfig(iterations=10)), game, other)
    assert a in game.legal_actions(state)


def _play(name: str, kinds: list[str], seed: int, moves: int) -> Any:
    """A game of ``kinds`` (at most ``moves`` decisions); every choice is legal."""
    game = GAMES[name]
    state = game.initial_state({"players": len(kinds)}, seed)
    bots = [make_bot(kind, seed * 16 + s) for s, kind in enumerate(kinds)]
    for _ in range(moves):
        seat = game.current_player(state)
        if seat is None:
            break
        legal = game.legal_actions(state)
        action = bots[seat].choose(game, game.player_view(state, seat), legal)
        assert action in legal
        game.apply_unchecked(state, action)
    return state


@pytest.mark.parametrize(("name", "kinds"), [
    ("red-cathedral", ["expert@1", "greedy"]),
    ("praga", ["greedy", "expert@1"]),
])
def test_the_expert_plays_legal_full_games_of_both_titles(name: str, kinds: list[str]) -> None:
    state = _play(name, kinds, seed=2, moves=5000)
    outcome = GAMES[name].outcome(state)
    assert outcome is not None and len(outcome.scores) == len(kinds)


@pytest.mark.parametrize("name", ["red-cathedral", "praga"])
def test_the_expert_plays_solo_games(name: str) -> None:
    """Alone (against Ivan, against the dummy) the expert plays legal moves through
    several turns of the automaton."""
    state = _play(name, ["expert@1"], seed=8, moves=60)
    assert state.turns >= 4


class FakeClock:
    """A clock that moves on ``step`` seconds whenever it is read."""

    def __init__(self, step: float) -> None:
        self.step = step
        self.readings = [100.0]

    def __call__(self) -> float:
        self.readings.append(self.readings[-1] + self.step)
        return self.readings[-1]


def test_the_think_time_is_kept_by_the_clock() -> None:
    """The search reads its clock before every iteration and every step of a play-out,
    and stops at the first reading past its think time."""
    state = _advance(RC, 2, seed=6, moves=20)
    clock = FakeClock(0.001)
    bot = ExpertBot(1, ExpertConfig(think=1.0), clock=clock)
    assert _choose(bot, RC, state) in RC.legal_actions(state)
    start = clock.readings[1]
    assert clock.readings[-1] - start >= 1.0 > clock.readings[-2] - start
    assert bot.last_iterations >= 2
    # where the clock runs out before the first iteration, the planner's choice
    late = ExpertBot(1, ExpertConfig(think=0.05), clock=FakeClock(1.0))
    assert _choose(late, RC, state) in RC.legal_actions(state)
    assert late.last_iterations == 0


def test_a_real_think_time_is_kept_within_three_times_over() -> None:
    state = _advance(RC, 2, seed=6, moves=20)
    bot = make_bot("expert", 1, think=0.3)
    assert isinstance(bot, ExpertBot)
    start = time.perf_counter()
    _choose(bot, RC, state)
    assert time.perf_counter() - start < 0.9
    assert bot.last_iterations >= 1


def test_a_turns_later_decisions_reuse_its_tree() -> None:
    """The chosen child's subtree is the next decision's root within the same turn."""
    game = PRAGA
    state = _advance(game, 2, seed=3, moves=6)
    seat = game.current_player(state)
    bot = ExpertBot(2, ExpertConfig(iterations=12))
    turn = state.turns
    state = game.apply(state, _choose(bot, game, state))
    while game.current_player(state) == seat and state.turns == turn and \
            len(game.legal_actions(state)) == 1:
        state = game.apply(state, game.legal_actions(state)[0])
    assert game.current_player(state) == seat and state.turns == turn
    kept = bot._prev
    assert kept is not None and kept[2].visits > 0
    root, _ = bot.search(game, game.player_view(state, seat), game.legal_actions(state))
    assert root is kept[2] and root.visits > 12


def test_play_on_stops_where_the_seats_next_turn_begins() -> None:
    state = _advance(RC, 2, seed=9, moves=15)
    seat = RC.current_player(state)
    turn = state.turns
    play_on(RC, state, seat, evaluator_for(RC).evaluate_play, 1, 40)
    assert RC.current_player(state) in (seat, None)
    assert state.turns > turn


def test_expert_kinds_budgets_and_think_times() -> None:
    assert check_kind("expert") == "expert" and check_kind("expert@64") == "expert@64"
    assert expert_config("expert") == ExpertConfig(think=DEFAULT_THINK)
    assert expert_config("expert", 2.5) == ExpertConfig(think=2.5)
    assert expert_config("expert@64") == ExpertConfig(iterations=64)
    assert expert_config("greedy") is None
    for bad in ("expert@", "expert@0", "expert@x", "expert@-3"):
        with pytest.raises(ValueError, match="whole number of iterations"):
            check_kind(bad)
    with pytest.raises(ValueError, match=r"unknown bot 'grandmaster'.*expert@N"):
        make_bot("grandmaster")
    for bad_think in (0, -1.0, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="think time"):
            make_bot("expert", 1, think=bad_think)
    with pytest.raises(ValueError, match="iterations"):
        ExpertConfig(iterations=-1)
    assert level("praga", "solo", "expert").expert == ExpertConfig()
    assert "| `expert` | information-set MCTS" in ladder_table()


def test_the_cli_takes_think_and_expert_budgets() -> None:
    out = io.StringIO()
    console = Console(file=out, width=120)
    assert main(["arena", "red-cathedral", "--think", "0", "--bots", "expert,greedy"],
                console=console) == 2
    assert "--think must be a positive number" in out.getvalue()
    assert main(["arena", "red-cathedral", "--bots", "expert@zero,greedy"],
                console=console) == 2
    assert "whole number of iterations" in out.getvalue()
    assert main(["play", "red-cathedral", "--seats", "human,expert@x"],
                console=console) == 2
    assert "unknown seat 'expert@x'" in out.getvalue()


def test_the_expert_hint_says_how_sure_it_is() -> None:
    state = _advance(RC, 2, seed=6, moves=20)
    seat = RC.current_player(state)
    legal = RC.legal_actions(state)
    rows = analyse(RC, RC.player_view(state, seat), legal, "expert@16", 4)
    assert {a for a, _ in rows} == set(legal)
    assert sum(share for _, share in rows) == pytest.approx(1.0)
    assert rows[0][1] == max(share for _, share in rows)
    out = io.StringIO()
    params = validate_params(RC.options, {"players": 2})
    answers = iter(["hint expert", "quit"])
    play = PlaySession(RC, params, 3, ["human", "greedy"], Console(file=out, width=120),
                       lambda prompt: next(answers), think=0.5)
    play.run()
    text = out.getvalue()
    assert re.search(r"The expert search \(32 iterations\) would choose, "
                     r"(sure|fairly sure|unsure) \(\d+% of its visits on the best move\):",
                     text)
    assert re.search(r"\s+\d+\. .*\(visits \d+%\)", text)


def test_the_scaling_table_counts_the_larger_budgets_wins(tmp_path: Any) -> None:
    """``tools/scaling.py`` reads each pair's arena journal (a cut-short last line
    dropped) and gives the larger budget's wins with a Wilson interval."""
    import json

    from tools import scaling

    path = scaling.folder(tmp_path, "praga", 8, 4)
    path.mkdir()
    games = []
    for i, (seats, winners) in enumerate([(["expert@8", "expert@4"], [0]),
                                          (["expert@4", "expert@8"], [1]),
                                          (["expert@8", "expert@4"], [0, 1]),
                                          (["expert@4", "expert@8"], [0])]):
        games.append({"index": i, "seed": i // 2, "seats": seats, "finished": True,
                      "decisions": 100, "choices": [50, 50],
                      "think_s": [5.0 if s == "expert@8" else 2.5 for s in seats],
                      "seconds": 8.0, "scores": [100, 90], "winners": winners,
                      "ranks": [0 if 0 in winners else 1, 0 if 1 in winners else 1]})
    lines = [json.dumps({"arena": {}, "games": 4})] + [json.dumps(g) for g in games]
    (path / "games.jsonl").write_text("\n".join(lines) + "\n{\"index\": 9, \"se")
    rows = [scaling.row("praga", 8, 4, scaling.played(path))]
    assert rows[0]["games"] == 4 and rows[0]["wins"] == 2.5
    assert rows[0]["s_hi"] == pytest.approx(0.1) and rows[0]["s_lo"] == pytest.approx(0.05)
    assert "| Praga | 8 vs 4 | 4 | 2.5 (62%) | 0.22-0.91 | 0.100, 0.050 |" in \
        scaling.table(rows)
