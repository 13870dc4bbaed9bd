"""MCTS: plays from the view only, deterministic given its seed, reuses its tree, ranks
actions for hints, and finishes games with a tiny budget (STYLE.md section 9)."""

from __future__ import annotations

import math
from typing import Any

import pytest

from meeplehall.ai import BOTS, analyse, make_bot
from meeplehall.ai.mcts import LEVELS, MCTSBot, MCTSConfig, iterations_per_second
from meeplehall.core.protocol import Game
from meeplehall.core.rng import Rng
from meeplehall.games import GAMES
from meeplehall.games.red_cathedral.state import DELIVER

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
                          "mcts-hard"]
    budgets = [LEVELS[k].iterations for k in ("mcts-easy", "mcts-medium", "mcts-hard")]
    assert budgets == sorted(budgets) and len(set(budgets)) == 3
    bot = make_bot("mcts-hard", 1)
    assert isinstance(bot, MCTSBot) and bot.kind == "mcts-hard"


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


def _full_tree(monkeypatch: pytest.MonkeyPatch) -> None:
    """The Red Cathedral with players searches over turn play-outs (``TURN_SEARCH``);
    the tree tests below use its full tree (UCT over every decision), with no
    overrides."""
    from meeplehall.ai.heuristics import red_cathedral as RH

    monkeypatch.setattr(RH, "search_settings", lambda view: {})


def test_tiny_mcts_reuses_its_tree_between_decisions_of_one_turn(
        monkeypatch: pytest.MonkeyPatch) -> None:
    _full_tree(monkeypatch)
    first, reused = _play(RC, 2, seed=5, config=MCTSConfig(iterations=25, pool=4))
    again, _ = _play(RC, 2, seed=5, config=MCTSConfig(iterations=25, pool=4))
    assert first == again
    assert reused > 0, "the tree was never reused between decisions of one turn"


def test_the_red_cathedral_searches_one_turn_deep_with_turn_rollouts() -> None:
    """The Red Cathedral's settings (``search_settings``): each action's turn played
    out greedily, a tree of depth 1, no reuse; in the solo game half of the level's
    iterations, with players a count per ladder level (``TURN_SEARCH``), and other
    configurations their own count."""
    from meeplehall.ai.heuristics import red_cathedral as RH

    state = _advance(RC, 1, seed=9, moves=25)
    bot = MCTSBot(3, MCTSConfig(iterations=40, pool=4))
    bot.search(RC, RC.player_view(state, 0), RC.legal_actions(state))
    assert bot.last_iterations == 20 and not bot._reusing
    state = _advance(RC, 2, seed=9, moves=25)
    seat = RC.current_player(state)
    view, legal = RC.player_view(state, seat), RC.legal_actions(state)
    bot.search(RC, view, legal)
    assert bot.last_iterations == 40 and not bot._reusing
    counts = RH.TURN_SEARCH["levels"]
    assert isinstance(counts, dict)
    assert counts["mcts-medium"] < counts["mcts-hard"]
    for kind in ("mcts-medium", "mcts-hard"):
        level = make_bot(kind, 0)
        assert isinstance(level, MCTSBot)
        root = level.search(RC, view, legal)
        assert level.last_iterations == counts[kind] and not level._reusing
        assert all(child.visits == 0 or not child.children for child in root.children.values())
    # mcts-easy has settings of its own: the full tree (one play-out plays below greedy)
    easy = make_bot("mcts-easy", 0)
    assert isinstance(easy, MCTSBot)
    easy.search(RC, view, legal)
    assert easy.last_iterations == counts["mcts-easy"]["iterations"] and easy._reusing
    assert easy._settings(RH, view).max_depth == 0


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
    from meeplehall.ai.mcts import LeafValue, heuristics_for

    state = _advance(RC, 2, seed=3, moves=20)
    value = LeafValue(RC, heuristics_for(RC), state, 2, 2.0)
    assert value(state) == [0.5, 0.5]
    ahead = state.clone()
    ahead.score[1] += 12  # seat 1 gains Recognition
    v0, v1 = value(ahead)
    assert v1 > 0.5 > v0


def test_leaf_values_with_one_seat_and_no_automaton() -> None:
    """Praga's solo game has one seat and no other side: the margin is the seat's own
    evaluation (nothing assumes two or more players)."""
    from meeplehall.ai.mcts import LeafValue, heuristics_for

    state = PRAGA.initial_state({"players": 1}, 2)
    value = LeafValue(PRAGA, heuristics_for(PRAGA), state, 1, 4.0)
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
    for kind in LEVELS:
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


def test_search_budget_is_scaled_per_game() -> None:
    """Praga's heuristic is dearer, so its module asks for a share of each level's
    iterations (``BUDGET``); the Red Cathedral uses the full count."""
    from meeplehall.ai.mcts import heuristics_for

    share = heuristics_for(PRAGA).BUDGET
    assert 0 < share < 1
    state = _advance(PRAGA, 2, seed=2, moves=12)
    seat = PRAGA.current_player(state)
    bot = MCTSBot(0, MCTSConfig(iterations=40, pool=2))
    bot.search(PRAGA, PRAGA.player_view(state, seat), PRAGA.legal_actions(state))
    assert bot.last_iterations == round(40 * share)
    state = _advance(RC, 2, seed=2, moves=12)
    seat = RC.current_player(state)
    bot.search(RC, RC.player_view(state, seat), RC.legal_actions(state))
    assert bot.last_iterations == 40


def test_a_reused_tree_keeps_the_margins_its_values_were_measured_from(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Leaf values are measured from the root's margins; a reused subtree holds values
    measured from an earlier root, so the search that reuses it keeps that baseline."""
    _full_tree(monkeypatch)
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


def test_rollout_turns_play_the_other_seats_turns_and_the_seats_next_one() -> None:
    """``rollout_turns`` 2: after the leaf's turn, the other seat's turn and the seat's
    next one are played greedily too, so the leaf is rated where that turn ends."""
    from meeplehall.ai.heuristics import red_cathedral as RH
    from meeplehall.ai.mcts import _finish_turn, _more_turns

    state = _advance(RC, 2, seed=6, moves=30)
    seat = RC.current_player(state)
    turn = state.turns
    _finish_turn(RC, state, RH.evaluate_play, 30)
    _more_turns(RC, state, RH.evaluate_play, 30, seat, 2)
    assert state.turns == turn + 3 and RC.current_player(state) != seat
    config = MCTSConfig(iterations=6, pool=2, turn_rollout=24, fixed_chance=True,
                        max_depth=1, rollout_turns=2)
    state = _advance(RC, 2, seed=6, moves=30)
    assert _decide(RC, state, 1, config) == _decide(RC, state, 1, config)


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
    from meeplehall.ai.heuristics import red_cathedral as RH
    from meeplehall.ai.mcts import LeafValue

    state = _advance(RC, 1, seed=4, moves=60)
    value = LeafValue(RC, RH, state, 1, 2.0)
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
    bot = MCTSBot(3, MCTSConfig(iterations=40, pool=2))
    legal = PRAGA.legal_actions(state)
    first = bot.choose(PRAGA, PRAGA.player_view(state, 0), legal)
    assert bot.last_iterations == 10 and not bot._reusing
    assert first == MCTSBot(3, MCTSConfig(iterations=40, pool=2)).choose(
        PRAGA, PRAGA.player_view(state, 0), legal)


class _Twin:
    """A game proxy whose root has one more action, "twin", played as the first one."""

    def __init__(self, game: Game, first: Any) -> None:
        self.game, self.first = game, first
        self.last: Any = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self.game, name)

    def apply_unchecked(self, state: Any, action: Any) -> None:
        self.last = action
        self.game.apply_unchecked(state, self.first if action == "twin" else action)


def _futures_of_root_actions(crn: bool) -> tuple[Any, dict[Any, list[int]]]:
    """For each root action, the future chance (the sample's next draw) of each visit."""
    import meeplehall.ai.mcts as mcts

    state = _advance(RC, 1, seed=9, moves=25)
    legal = RC.legal_actions(state)
    twin = _Twin(RC, legal[0])
    seen: dict[Any, list[int]] = {}
    finish = mcts._finish_turn

    def spy(game: Any, st: Any, *args: Any) -> None:
        seen.setdefault(twin.last, []).append(st.rng.clone().next_u64())
        finish(game, st, *args)

    config = MCTSConfig(iterations=120, pool=4, turn_rollout=16, fixed_chance=True,
                        max_depth=1, crn=crn)
    mcts._finish_turn = spy
    try:
        MCTSBot(5, config).search(twin, RC.player_view(state, 0), (*legal, "twin"))
    finally:
        mcts._finish_turn = finish
    seen.pop(None, None)  # the baseline's turns, played before the search
    return legal[0], seen


def test_common_random_numbers_rate_every_root_action_on_the_same_futures() -> None:
    """With ``crn`` (depth-1 searches with fixed chance, as in the solo games), the k-th
    visit of every root action plays on the k-th determinization, so two actions that
    lead to the same position are rated on the same futures; without it the visits take
    the pool's samples in the order the iterations come."""
    first, seen = _futures_of_root_actions(crn=True)
    a, b = seen[first], seen["twin"]
    n = min(len(a), len(b))
    assert n >= 4 and a[:n] == b[:n]
    assert len(set(a[:4])) == 4  # four different samples, one per visit
    first, seen = _futures_of_root_actions(crn=False)
    a, b = seen[first], seen["twin"]
    n = min(len(a), len(b))
    assert a[:n] != b[:n]


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
    search = MCTSBot(3, MCTSConfig(iterations=400, pool=2))
    root = search.search(PRAGA, PRAGA.player_view(last, 0), PRAGA.legal_actions(last))
    assert search._baseline is not None and 0 < search._baseline[0] < PH.FINAL_BONUS
    assert len({round(c.mean(0), 6) for c in root.children.values()}) > 1


def test_a_small_budget_examines_the_best_moves_by_a_one_step_look() -> None:
    """The root is ordered from its first visit: with k iterations the search rates the
    k best actions by the one-step evaluation (not the first k in legal order), so the
    ladder's small budgets play the moves a one-step look prefers."""
    from meeplehall.ai.mcts import heuristics_for

    evaluate = heuristics_for(RC).evaluate
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


def test_the_ladder_levels_use_each_games_measured_iteration_counts() -> None:
    """A game's heuristic module may set each level's iterations (``LEVEL_ITERATIONS``,
    measured so that the levels differ in strength); other configurations keep the
    level's count times the game's share."""
    from meeplehall.ai.mcts import heuristics_for

    counts = heuristics_for(PRAGA).LEVEL_ITERATIONS
    assert counts["mcts-easy"] < counts["mcts-medium"] < counts["mcts-hard"]
    state = _advance(PRAGA, 2, seed=2, moves=12)
    seat = PRAGA.current_player(state)
    view, legal = PRAGA.player_view(state, seat), PRAGA.legal_actions(state)
    for kind in ("mcts-easy", "mcts-medium"):
        bot = make_bot(kind, 0)
        assert isinstance(bot, MCTSBot)
        bot.search(PRAGA, view, legal)
        assert bot.last_iterations == counts[kind]
    custom = MCTSBot(0, MCTSConfig(iterations=40, pool=2))
    custom.search(PRAGA, view, legal)
    assert custom.last_iterations == round(40 * heuristics_for(PRAGA).BUDGET)


CHECKED = MCTSConfig(iterations=16, pool=2, check_candidates=3, check_turns=4)
PLANNED = MCTSConfig(planner_search=True, check_candidates=3, check_turns=4)


def test_mcts_hard_checks_the_planners_first_choice_of_a_turn_in_the_solo_game() -> None:
    """The Red Cathedral's solo settings (``SOLO_SEARCH``): mcts-hard plays the planner's
    choices and compares the planner's 4 best actions at the first decision of its turn
    by 4 rounds (8 turns) of the planner on 2 shared futures; the lower levels and games with players keep
    the search."""
    from meeplehall.ai.heuristics import red_cathedral as RH

    solo = RC.player_view(RC.initial_state({"players": 1}, 11), 0)
    duo = RC.player_view(RC.initial_state({"players": 2}, 11), 0)
    hard, medium = make_bot("mcts-hard", 0), make_bot("mcts-medium", 0)
    assert isinstance(hard, MCTSBot) and isinstance(medium, MCTSBot)
    cfg = hard._settings(RH, solo)
    assert cfg.planner_search
    assert (cfg.check_candidates, cfg.check_turns, cfg.check_samples) == (4, 8, 2)
    assert cfg.check_rating == "check_rating"  # the fitted odds of winning
    assert cfg.check_kinds == ()  # only the turn's first decision
    for other in (medium._settings(RH, solo), hard._settings(RH, duo)):
        assert other.check_turns == 0 and not other.planner_search


def test_the_rollout_check_with_a_rival_weight_rates_the_margin_over_ivan() -> None:
    """``check_rival``: an unfinished position is rated by the seat's evaluation less the
    weight times the best other side's (Ivan, side 1, in the solo game); a finished game
    by its result alone."""
    from meeplehall.ai.greedy import evaluator_for
    from meeplehall.ai.heuristics import red_cathedral as RH
    from meeplehall.ai.mcts import _less_rival

    state = RC.initial_state({"players": 1}, 11)
    while state.turns < 6:
        state = RC.apply(state, RC.legal_actions(state)[0])
    evaluate = evaluator_for(RC)
    ivan = RH.evaluate(state, 1)
    assert ivan > 0, "Ivan has a position worth rating"
    assert _less_rival(RC, evaluate, 1.0)(state, 0) == pytest.approx(
        evaluate(state, 0) - ivan)
    assert _less_rival(RC, evaluate, 0.5)(state, 0) == pytest.approx(
        evaluate(state, 0) - 0.5 * ivan)
    while RC.current_player(state) is not None:
        state = RC.apply(state, RC.legal_actions(state)[0])
    assert _less_rival(RC, evaluate, 1.0)(state, 0) == evaluate(state, 0)


@pytest.mark.parametrize("config", [CHECKED, PLANNED], ids=["search", "planner"])
def test_the_rollout_check_plays_the_planner_for_its_turns_once_per_turn(
        monkeypatch: pytest.MonkeyPatch, config: MCTSConfig) -> None:
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
    bot = MCTSBot(5, config)
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


def test_the_rollout_check_also_runs_at_the_first_decision_of_a_kind_in_a_turn(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``check_kinds``: besides the first decision of each of the seat's turns, the
    check runs at the first decision of a listed kind within the turn (The Red
    Cathedral: the first delivery of a Build, RC-BUILD-1) and at no later one of that
    kind in the same turn."""
    config = MCTSConfig(planner_search=True, check_candidates=3, check_turns=4,
                        check_kinds=(DELIVER,))
    checked: list[tuple[int, int]] = []

    def spy(self: MCTSBot, game: Game, view: dict[str, Any], candidates: list[Any]) -> Any:
        checked.append((view["state"]["turns"], view["state"]["stack"][-1][0]))
        return candidates[0]

    monkeypatch.setattr(MCTSBot, "_check", spy)
    bot = MCTSBot(5, config)
    state = RC.initial_state({"players": 1}, 11)
    seen: list[tuple[int, int]] = []  # (turn, kind) of each decision with a choice
    while RC.current_player(state) is not None and state.turns < 40:
        legal = RC.legal_actions(state)
        if len(legal) > 1:
            seen.append((state.turns, state.stack[-1][0]))
        state = RC.apply(state, bot.choose(RC, RC.player_view(state, 0), legal))
    expected = []
    for i, (turn, kind) in enumerate(seen):
        first_of_turn = i == 0 or seen[i - 1][0] != turn
        first_delivery = kind == DELIVER and (turn, DELIVER) not in seen[:i]
        if first_of_turn or first_delivery:
            expected.append((turn, kind))
    assert checked == expected
    deliveries = [k for _, k in seen].count(DELIVER)
    assert [k for _, k in checked].count(DELIVER) < deliveries, "no Build of two deliveries"
    assert any(k == DELIVER for _, k in checked), "no Build in the first 20 rounds"


@pytest.mark.parametrize("config", [CHECKED, PLANNED], ids=["search", "planner"])
def test_the_rollout_check_decides_from_the_view_only_and_the_same_way_twice(
        config: MCTSConfig) -> None:
    state = RC.initial_state({"players": 1}, 12)
    other = state.clone()
    other.rng = Rng(4242)
    other.unused = ((), (), ())
    first = _decide(RC, state, 3, config)
    assert first == _decide(RC, other, 3, config) == _decide(RC, state, 3, config)


def test_the_rollout_check_with_a_rating_uses_the_games_rating_for_unfinished_positions(
) -> None:
    """``check_rating``: an unfinished position is rated by the named function of the
    game's heuristic module (The Red Cathedral: ``check_rating``, the log-odds of winning
    the solo game), a finished game by its result (the planner's ``evaluate_play``)."""
    from meeplehall.ai.greedy import evaluator_for
    from meeplehall.ai.heuristics import red_cathedral as RH
    from meeplehall.ai.mcts import _rated

    state = RC.initial_state({"players": 1}, 11)
    while state.turns < 6:
        state = RC.apply(state, RC.legal_actions(state)[0])
    evaluate = evaluator_for(RC)
    rated = _rated(RC, evaluate, RH.check_rating)
    assert rated(state, 0) == RH.check_rating(state, 0) != evaluate(state, 0)
    while RC.current_player(state) is not None:
        state = RC.apply(state, RC.legal_actions(state)[0])
    assert rated(state, 0) == evaluate(state, 0)
    assert abs(rated(state, 0)) > RH.FINAL_RESULT / 2, "a result outranks any rating"


def test_the_check_calls_the_named_rating_for_every_candidate(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``check_rating`` set the check ranks its candidates by that rating: a rating
    that prefers the last candidate makes the check play it."""
    from meeplehall.ai.heuristics import red_cathedral as RH

    calls: list[int] = []

    def last_best(state: Any, seat: int) -> float:
        calls.append(seat)
        return float(len(calls))  # each later candidate rated higher

    monkeypatch.setattr(RH, "check_rating", last_best)
    state = RC.initial_state({"players": 1}, 11)
    legal = RC.legal_actions(state)
    bot = MCTSBot(5, MCTSConfig(planner_search=True, check_candidates=3, check_turns=4,
                                check_rating="check_rating"))
    view = RC.player_view(state, 0)
    candidates = list(legal[:3])
    assert bot._check(RC, view, candidates) == candidates[-1]
    assert calls == [0, 0, 0]
