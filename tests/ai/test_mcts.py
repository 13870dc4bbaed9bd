"""MCTS: plays from the view only, deterministic given its seed, reuses its tree, ranks
actions for hints, and finishes games with a tiny budget (STYLE.md section 9)."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import pytest

from meeplehall.ai import BOTS, analyse, make_bot
from meeplehall.ai.heuristics import red_cathedral as RH
from meeplehall.ai.heuristics.red_cathedral import RedCathedralEvaluator
from meeplehall.ai.ladder import PRAGA_TURNS, LevelBot, evaluator_for
from meeplehall.ai.mcts import LeafValue, MCTSBot, MCTSConfig, iterations_per_second
from meeplehall.ai.planner import CheckedPlannerBot, RolloutCheck
from meeplehall.core.protocol import Game
from meeplehall.core.rng import Rng
from meeplehall.games import GAMES

RC = GAMES["red-cathedral"]
PRAGA = GAMES["praga"]
TINY = MCTSConfig(iterations=40, pool=4)


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


def _decide(game: Game, state: Any, seed: int, config: MCTSConfig = TINY) -> Any:
    seat = game.current_player(state)
    return MCTSBot(seed, config).choose(game, game.player_view(state, seat),
                                        game.legal_actions(state))


def test_ladder_is_registered_weakest_first() -> None:
    assert list(BOTS) == ["random", "greedy", "planner", "mcts-easy", "mcts-medium",
                          "mcts-hard", "expert"]
    bot = make_bot("mcts-hard", 1)
    assert isinstance(bot, LevelBot) and bot.kind == "mcts-hard"


def test_praga_decision_ignores_hidden_stacks_and_rng() -> None:
    """Two Praga states that differ only in the hidden stacks' order and the PRNG state
    give the same MCTS decision with the same bot seed."""
    state = _advance(PRAGA, 2, seed=4, moves=25)
    other = state.clone()
    other.rng = Rng(987654321)
    other.tech_stacks = [tuple(reversed(s)) for s in other.tech_stacks]
    other.iv_stack = tuple(reversed(other.iv_stack))
    seat = PRAGA.current_player(state)
    assert PRAGA.player_view(state, seat) == PRAGA.player_view(other, seat)
    assert (state.rng, state.tech_stacks) != (other.rng, other.tech_stacks)
    for seed in (1, 2):
        assert _decide(PRAGA, state, seed) == _decide(PRAGA, other, seed)
    for kind in ("learned@40", "learned-hand@40"):  # the learned search too
        a, b = (make_bot(kind, 5).choose(PRAGA, PRAGA.player_view(s, seat),
                                         PRAGA.legal_actions(s)) for s in (state, other))
        assert a == b


def test_red_cathedral_decision_ignores_rng_and_unused_components() -> None:
    state = _advance(RC, 2, seed=6, moves=30)
    other = state.clone()
    other.rng = Rng(4242)
    other.unused = ((), (), ())
    assert _decide(RC, state, 3) == _decide(RC, other, 3)


def test_search_does_not_change_the_game_state() -> None:
    state = _advance(RC, 2, seed=2, moves=20)
    snapshot = state.clone()
    _decide(RC, state, 1)
    assert state == snapshot


def _play(game: Game, players: int, seed: int, config: MCTSConfig,
          others: str = "greedy") -> tuple[list[str], int]:
    state = game.initial_state({"players": players}, seed)
    bots: list[Any] = [MCTSBot(seed, config)] + [make_bot(others, seed + s)
                                                 for s in range(1, players)]
    moves, reused = [], 0
    while (seat := game.current_player(state)) is not None:
        legal = game.legal_actions(state)
        action = bots[seat].choose(game, game.player_view(state, seat), legal)
        if seat == 0 and len(legal) > 1 and bots[0].last_reused:
            reused += 1
        moves.append(str(action))
        state = game.apply(state, action)
    assert game.outcome(state) is not None
    return moves, reused


def test_tiny_mcts_finishes_a_solo_game_the_same_way_twice() -> None:
    first, _ = _play(RC, 1, seed=5, config=MCTSConfig(iterations=25, pool=4))
    again, _ = _play(RC, 1, seed=5, config=MCTSConfig(iterations=25, pool=4))
    assert first == again


def test_tiny_mcts_reuses_its_tree_between_decisions_of_one_turn() -> None:
    first, reused = _play(RC, 2, seed=5, config=MCTSConfig(iterations=25, pool=4))
    again, _ = _play(RC, 2, seed=5, config=MCTSConfig(iterations=25, pool=4))
    assert first == again
    assert reused > 0, "the tree was never reused between decisions of one turn"


def _level_bot(kind: str, game: Game, view: dict[str, Any]) -> MCTSBot:
    bot = LevelBot(kind, 0).bot(game, view)
    assert isinstance(bot, MCTSBot)
    return bot


def test_the_red_cathedral_searches_one_turn_deep_with_turn_rollouts() -> None:
    """The Red Cathedral's levels (``ai/ladder.py``): each action's turn played out
    greedily, a tree of depth 1, no reuse, a count of play-outs per level; with players
    mcts-easy keeps the full tree (one play-out plays below greedy)."""
    state = _advance(RC, 1, seed=9, moves=25)
    view, legal = RC.player_view(state, 0), RC.legal_actions(state)
    easy = _level_bot("mcts-easy", RC, view)
    easy.search(RC, view, legal)
    assert easy.last_iterations == 50 and not easy._reusing
    state = _advance(RC, 2, seed=9, moves=25)
    seat = RC.current_player(state)
    view, legal = RC.player_view(state, seat), RC.legal_actions(state)
    for kind, count in (("mcts-medium", 2), ("mcts-hard", 16)):
        level = _level_bot(kind, RC, view)
        root = level.search(RC, view, legal)
        assert level.last_iterations == count and not level._reusing
        assert all(child.visits == 0 or not child.children for child in root.children.values())
    easy = _level_bot("mcts-easy", RC, view)
    easy.search(RC, view, legal)
    assert easy.last_iterations == 4 and easy._reusing and easy.config.max_depth == 0


def test_tiny_mcts_finishes_a_praga_game() -> None:
    moves, _ = _play(PRAGA, 2, seed=3, config=MCTSConfig(iterations=8, pool=2),
                     others="random")
    assert moves


def test_time_budget_stops_the_search() -> None:
    state = _advance(RC, 2, seed=1, moves=10)
    seat = RC.current_player(state)
    bot = MCTSBot(0, MCTSConfig(iterations=10**9, seconds=0.05))
    bot.choose(RC, RC.player_view(state, seat), RC.legal_actions(state))
    assert 0 < bot.last_iterations < 10**6


def test_analyse_ranks_every_legal_action() -> None:
    state = _advance(RC, 2, seed=9, moves=15)
    seat = RC.current_player(state)
    view, legal = RC.player_view(state, seat), RC.legal_actions(state)
    rows = analyse(RC, view, legal, "mcts-easy", 4)
    assert sorted(map(str, (a for a, _ in rows))) == sorted(map(str, legal))
    shares = [s for _, s in rows]
    assert shares == sorted(shares, reverse=True)
    assert abs(sum(shares) - 1.0) < 1e-9
    assert rows == analyse(RC, view, legal, "mcts-easy", 4)
    # the mcts-easy bot plays the action the analysis ranks first
    assert make_bot("mcts-easy", 4).choose(RC, view, legal) == rows[0][0]
    greedy = analyse(RC, view, legal, "greedy", 4)
    assert [s for _, s in greedy] == sorted((s for _, s in greedy), reverse=True)
    assert len(analyse(RC, view, legal, "random", 4)) == len(legal)


def test_iterations_per_second_is_positive() -> None:
    assert iterations_per_second(RC, {"players": 2} | _defaults(RC), 0.05) > 0


def _defaults(game: Game) -> dict[str, Any]:
    return {o.name: o.default for o in game.options if o.name != "players"}


def test_terminal_hint_mcts_shows_visit_shares_and_plain_hint_stays_greedy() -> None:
    import io

    from rich.console import Console

    from meeplehall.cli.play import PlaySession
    from meeplehall.core.protocol import validate_params

    buf = io.StringIO()
    answers = iter(["hint mcts-easy", "hint", "hint chess", "quit"])
    params = validate_params(RC.options, {"players": 2})
    PlaySession(RC, params, 7, ["human", "greedy"], Console(file=buf, width=120),
                lambda _: next(answers)).run()
    out = buf.getvalue()
    assert "The mcts-easy bot would choose:" in out
    assert "(visits " in out
    assert "The greedy bot would choose:" in out and "(evaluation " in out
    assert "Usage: hint" in out


def test_leaf_values_rate_each_seat_from_its_own_side() -> None:
    """The value backed up for a seat rises with that seat's margin and falls with the
    other's, measured from the root (0.5 where nothing changed)."""
    state = _advance(RC, 2, seed=3, moves=20)
    value = LeafValue(RC, evaluator_for(RC), state, 2)
    assert value(state) == [0.5, 0.5]
    ahead = state.clone()
    ahead.score[1] += 12  # seat 1 gains Recognition
    v0, v1 = value(ahead)
    assert v1 > 0.5 > v0


def test_leaf_values_with_one_seat_and_no_automaton() -> None:
    """Praga's solo game has one seat and no other side: the margin is the seat's own
    evaluation (nothing assumes two or more players)."""
    state = PRAGA.initial_state({"players": 1}, 2)
    value = LeafValue(PRAGA, evaluator_for(PRAGA), state, 1)
    assert value.sides == 1 and value(state) == [0.5]
    richer = state.clone()
    richer.vp[0] += 10
    assert value(richer)[0] > 0.5


def test_tiny_mcts_decides_in_a_praga_solo_game_the_same_way_twice() -> None:
    state = _advance(PRAGA, 1, seed=5, moves=6)
    config = MCTSConfig(iterations=24, pool=2)
    assert _decide(PRAGA, state, 1, config) == _decide(PRAGA, state, 1, config)


def test_every_level_decides_the_same_way_twice_given_its_seed() -> None:
    """Each level of the ladder is deterministic given its seed (iteration budgets, no
    clock), also when the game's own PRNG differs."""
    state = _advance(RC, 2, seed=11, moves=40)
    other = state.clone()
    other.rng = Rng(77)
    seat = RC.current_player(state)
    legal = RC.legal_actions(state)
    for kind in BOTS:
        kind = "expert@6" if kind == "expert" else kind  # the clocked expert is not
        a = make_bot(kind, 5).choose(RC, RC.player_view(state, seat), legal)
        b = make_bot(kind, 5).choose(RC, RC.player_view(other, seat), legal)
        assert a == b, kind


def test_forced_decisions_spend_no_search() -> None:
    state = _advance(RC, 2, seed=4, moves=10)
    seat = RC.current_player(state)
    bot = MCTSBot(0, TINY)
    view = RC.player_view(state, seat)
    legal = RC.legal_actions(state)
    assert bot.choose(RC, view, legal[:1]) == legal[0]
    assert bot.last_iterations == 0


def test_a_configs_iterations_are_spent_as_given_in_every_game() -> None:
    state = _advance(PRAGA, 2, seed=2, moves=12)
    seat = PRAGA.current_player(state)
    bot = MCTSBot(0, MCTSConfig(iterations=12, pool=2))
    bot.search(PRAGA, PRAGA.player_view(state, seat), PRAGA.legal_actions(state))
    assert bot.last_iterations == 12
    state = _advance(RC, 2, seed=2, moves=12)
    seat = RC.current_player(state)
    bot.search(RC, RC.player_view(state, seat), RC.legal_actions(state))
    assert bot.last_iterations == 12


def test_an_injected_evaluator_rates_the_search() -> None:
    """The search asks the ``Evaluator`` it is given, not the game's module: an
    evaluator that rates every position alike leaves every root action at 0.5."""

    class Flat(RedCathedralEvaluator):
        calls = 0

        def evaluate(self, state: Any, seat: int) -> float:
            Flat.calls += 1
            return 0.0

    state = _advance(RC, 2, seed=3, moves=20)
    seat = RC.current_player(state)
    root = MCTSBot(1, MCTSConfig(iterations=12, pool=2), Flat()).search(
        RC, RC.player_view(state, seat), RC.legal_actions(state))
    assert Flat.calls > 0
    assert {round(c.mean(seat), 9) for c in root.children.values() if c.visits} == {0.5}


def test_a_reused_tree_keeps_the_margins_its_values_were_measured_from() -> None:
    """Leaf values are measured from the root's margins; a reused subtree holds values
    measured from an earlier root, so the search that reuses it keeps that baseline."""
    state = RC.initial_state({"players": 2}, 5)
    bot = MCTSBot(5, MCTSConfig(iterations=25, pool=4))
    other = make_bot("greedy", 6)
    kept = fresh = 0
    while (seat := RC.current_player(state)) is not None and kept < 3:
        legal = RC.legal_actions(state)
        if seat == 1:
            state = RC.apply(state, other.choose(RC, RC.player_view(state, 1), legal))
            continue
        before = bot._baseline
        action = bot.choose(RC, RC.player_view(state, seat), legal)
        if len(legal) > 1:
            if bot.last_reused:
                assert bot._baseline == before
                kept += 1
            else:
                fresh += 1
        state = RC.apply(state, action)
    assert kept == 3 and fresh > 0


def test_turn_rollout_finishes_the_turn_of_the_seat_at_the_leaf() -> None:
    """``turn_rollout`` plays the rest of the leaf's turn greedily, so a leaf is rated
    where the turn ends (as the planner rates its actions)."""
    from meeplehall.ai.heuristics import red_cathedral as RH
    from meeplehall.ai.mcts import _finish_turn

    state = _advance(RC, 2, seed=6, moves=30)
    seat = RC.current_player(state)
    turn = state.turns
    _finish_turn(RC, state, RH.evaluate_play, 30)
    assert state.turns == turn + 1 and RC.current_player(state) != seat


def test_search_with_turn_rollouts_and_fixed_chance_is_deterministic() -> None:
    config = MCTSConfig(iterations=30, pool=4, turn_rollout=16, fixed_chance=True)
    state = _advance(RC, 1, seed=9, moves=25)
    other = state.clone()
    other.rng = Rng(123)  # the game's own future chance is never read
    assert _decide(RC, state, 2, config) == _decide(RC, other, 2, config)
    state = _advance(PRAGA, 2, seed=3, moves=10)
    assert _decide(PRAGA, state, 2, config) == _decide(PRAGA, state, 2, config)


def test_a_finished_game_is_measured_from_the_final_scoring_the_root_would_get() -> None:
    """RC-FINAL-*: a finished game's margin is compared with the margin the root would
    have if it were scored now (``final_margins``), not with the heuristic's margin,
    which counts unfinished cards and income and made every lost ending worth 0."""
    state = _advance(RC, 1, seed=4, moves=60)
    value = LeafValue(RC, evaluator_for(RC), state, 1)
    assert value.final_root == RH.final_margins(state)[:1]
    done = state.clone()
    bot = make_bot("greedy", 2)
    while RC.current_player(done) is not None:
        legal = RC.legal_actions(done)
        done = RC.apply(done, bot.choose(RC, RC.player_view(done, 0), legal))
    margin = done.final[0][0] - done.final[0][1]
    expected = (0.7 * (1.0 if 0 in RC.outcome(done).winners else 0.0)
                + 0.3 / (1.0 + math.exp(-(margin - value.final_root[0]) / 2.0)))
    assert abs(value(done)[0] - expected) < 1e-9


def test_praga_solo_searches_one_turn_deep_with_turn_rollouts() -> None:
    state = _advance(PRAGA, 1, seed=4, moves=8)
    view, legal = PRAGA.player_view(state, 0), PRAGA.legal_actions(state)
    bot = _level_bot("mcts-easy", PRAGA, view)
    first = bot.choose(PRAGA, view, legal)
    assert bot.last_iterations == 25 and not bot._reusing
    assert first == _level_bot("mcts-easy", PRAGA, view).choose(PRAGA, view, legal)


def test_a_search_in_the_last_turn_tells_the_endings_apart_by_final_score() -> None:
    """In the last turn of Praga's solo game the greedy turn that sets the search's
    baseline ends the game: the baseline is its final score, not the evaluation with
    ``FINAL_BONUS``, against which every ending looked equally bad (all root actions
    valued alike, and the search chose among endings worth up to 17 VP apart at random)."""
    from meeplehall.ai.heuristics import praga as PH

    state = PRAGA.initial_state({"players": 1}, 4)
    bot = make_bot("greedy", 1)
    decisions = []
    while PRAGA.current_player(state) is not None:
        legal = PRAGA.legal_actions(state)
        if len(legal) > 1:
            decisions.append(state.clone())
        state = PRAGA.apply(state, bot.choose(PRAGA, PRAGA.player_view(state, 0), legal))
    last = next(s for s in decisions if s.turns == decisions[-1].turns)
    search = MCTSBot(3, replace(PRAGA_TURNS, iterations=100, pool=2))
    root = search.search(PRAGA, PRAGA.player_view(last, 0), PRAGA.legal_actions(last))
    assert search._baseline is not None and 0 < search._baseline[0] < PH.FINAL_BONUS
    assert len({round(c.mean(0), 6) for c in root.children.values()}) > 1


def test_a_small_budget_examines_the_best_moves_by_a_one_step_look() -> None:
    """The root is ordered from its first visit: with k iterations the search rates the
    k best actions by the one-step evaluation (not the first k in legal order), so the
    ladder's small budgets play the moves a one-step look prefers."""
    evaluate = RH.evaluate
    for seed in range(20):
        state = _advance(RC, 2, seed=seed, moves=20)
        legal = RC.legal_actions(state)
        if len(legal) > 8:
            break
    seat = RC.current_player(state)
    ranked = []
    for i, action in enumerate(legal):
        child = state.clone()
        RC.apply_unchecked(child, action)
        ranked.append((-evaluate(child, seat), i, action))
    best = [a for _, _, a in sorted(ranked, key=lambda t: (t[0], t[1]))]
    bot = MCTSBot(0, MCTSConfig(iterations=4, pool=1, reuse=False))
    root = bot.search(RC, RC.player_view(state, seat), legal)
    assert set(root.children) == set(best[:4])
    assert set(root.children) != set(legal[:4]), "the position does not tell the orders apart"


PLANNED = RolloutCheck(candidates=3, turns=4)


def test_the_rollout_check_plays_the_planner_for_its_turns_once_per_turn(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The check plays each candidate on with the planner until the turn counter has
    advanced by ``check_turns`` (the seat's turns 0 and 2, Ivan's inside ``apply``), and
    only at the first decision of the seat's turn."""
    from meeplehall.ai import planner

    seen: list[int] = []
    choose = planner.PlannerBot.choose

    def spy(self: Any, game: Game, view: dict[str, Any], legal: tuple[Any, ...]) -> Any:
        seen.append(view["state"]["turns"])
        return choose(self, game, view, legal)

    monkeypatch.setattr(planner.PlannerBot, "choose", spy)
    state = RC.initial_state({"players": 1}, 11)
    bot = CheckedPlannerBot(5, PLANNED)
    action = bot.choose(RC, RC.player_view(state, 0), RC.legal_actions(state))
    assert set(seen) == {0, 2}, seen
    calls = len(seen)
    state = RC.apply(state, action)
    while state.turns == 0 and len(RC.legal_actions(state)) == 1:
        state = RC.apply(state, RC.legal_actions(state)[0])
    assert state.turns == 0 and RC.current_player(state) == 0, "the turn ended at once"
    legal = RC.legal_actions(state)
    assert bot.choose(RC, RC.player_view(state, 0), legal) in legal
    assert len(seen) == calls, "the check ran again within the same turn"


def test_the_rollout_check_decides_from_the_view_only_and_the_same_way_twice() -> None:
    state = RC.initial_state({"players": 1}, 12)
    other = state.clone()
    other.rng = Rng(4242)
    other.unused = ((), (), ())

    def decide(st: Any) -> Any:
        return CheckedPlannerBot(3, PLANNED).choose(RC, RC.player_view(st, 0),
                                                    RC.legal_actions(st))

    first = decide(state)
    assert first == decide(other) == decide(state)


def test_the_red_cathedral_rates_the_check_by_its_odds_of_winning() -> None:
    """The check rates an unfinished position by the evaluator's ``check_rating`` (The
    Red Cathedral: the log-odds of winning the solo game), a finished one by its result
    (``evaluate_play``), which outranks any rating."""
    evaluator = evaluator_for(RC)
    state = RC.initial_state({"players": 1}, 11)
    while state.turns < 6:
        state = RC.apply(state, RC.legal_actions(state)[0])
    assert evaluator.check_rating(state, 0) == RH.check_rating(state, 0)
    assert evaluator.check_rating(state, 0) != evaluator.evaluate_play(state, 0)
    while RC.current_player(state) is not None:
        state = RC.apply(state, RC.legal_actions(state)[0])
    assert abs(evaluator.evaluate_play(state, 0)) > RH.FINAL_RESULT / 2


def test_the_check_plays_the_candidate_its_evaluator_rates_best() -> None:
    """The check ranks its candidates by the injected evaluator's ``check_rating``: a
    rating that prefers the last candidate makes the check play it."""
    calls: list[int] = []

    class LastBest(RedCathedralEvaluator):
        def check_rating(self, state: Any, seat: int) -> float:
            calls.append(seat)
            return float(len(calls))  # each later candidate rated higher

    state = RC.initial_state({"players": 1}, 11)
    legal = RC.legal_actions(state)
    bot = CheckedPlannerBot(5, PLANNED, LastBest())
    candidates = list(legal[:3])
    assert bot._check(RC, RC.player_view(state, 0), candidates) == candidates[-1]
    assert calls == [0, 0, 0]
