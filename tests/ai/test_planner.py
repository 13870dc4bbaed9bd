"""The planner bot (pilot method over its own turn) and the balance-study driver."""

from __future__ import annotations

import pytest
from tools.study import by_cards, seatings, summarise

from meeplehall.ai.heuristics.praga import PROFILES as PRAGA_PROFILES
from meeplehall.ai.heuristics.red_cathedral import PROFILES as RC_PROFILES
from meeplehall.ai.heuristics.red_cathedral import evaluate_play
from meeplehall.ai.ladder import evaluator_for
from meeplehall.ai.planner import PlannerBot
from meeplehall.core.rng import Rng
from meeplehall.games import GAMES

PRAGA = GAMES["praga"]


def _advance(game, state, moves: int, seed: int):
    rng = Rng.from_seed(seed)
    for _ in range(moves):
        legal = game.legal_actions(state)
        state = game.apply(state, legal[rng.randbelow(len(legal))])
    return state


def test_planner_ignores_hidden_information_in_praga() -> None:
    """Two Praga states that differ only in the face-down stacks and the PRNG give the
    same decision with the same bot seed (the planner plays from the view)."""
    state = _advance(PRAGA, PRAGA.initial_state({"players": 2}, 4), 30, 3)
    other = state.clone()
    other.rng = Rng(987654321)
    other.stacks = [tuple(reversed(stack)) for stack in other.stacks]
    seat = PRAGA.current_player(state)
    assert PRAGA.player_view(state, seat) == PRAGA.player_view(other, seat)
    a = PlannerBot(5).choose(PRAGA, PRAGA.player_view(state, seat), PRAGA.legal_actions(state))
    b = PlannerBot(5).choose(PRAGA, PRAGA.player_view(other, seat), PRAGA.legal_actions(other))
    assert a == b


@pytest.mark.parametrize("game_name", ["praga", "red-cathedral"])
def test_planner_is_deterministic_and_legal(game_name: str) -> None:
    game = GAMES[game_name]
    state = _advance(game, game.initial_state({"players": 2}, 9), 12, 1)
    seat = game.current_player(state)
    legal = game.legal_actions(state)
    first = PlannerBot(3).choose(game, game.player_view(state, seat), legal)
    assert first in legal
    assert first == PlannerBot(3).choose(game, game.player_view(state, seat), legal)


def test_planner_values_a_turn_beyond_its_first_step() -> None:
    """The pilot rates an action by the end of the turn it starts: the value it gives the
    best action is at least the one-ply value of that action's child position. (Not a law:
    in positions where only a forced end of turn follows, e.g. after ``expand`` with the
    wheel bonus taken, the rating drops at ``end-turn``; seed 20 is a position with a
    real choice.)"""
    state = _advance(PRAGA, PRAGA.initial_state({"players": 2}, 20), 8, 2)
    seat = PRAGA.current_player(state)
    view = PRAGA.player_view(state, seat)
    ranked = PlannerBot(1).rank(PRAGA, view, PRAGA.legal_actions(state))
    evaluate = evaluator_for(PRAGA).evaluate_play
    best_value, best = ranked[0]
    child = state.clone()
    PRAGA.apply_unchecked(child, best)
    assert best_value >= evaluate(child, seat) - 1e-9
    assert [v for v, _ in ranked] == sorted((v for v, _ in ranked), reverse=True)


def test_unknown_profiles_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown profile 'turtle'"):
        evaluator_for(PRAGA, "turtle")
    with pytest.raises(ValueError, match="unknown profile 'turtle'"):
        evaluator_for("red-cathedral", "turtle")
    with pytest.raises(ValueError, match="unknown profile 'walls'"):
        evaluator_for("red-cathedral", "walls")
    assert set(RC_PROFILES) == {"balanced", "builder", "farmer", "workshop", "decorator"}


def test_red_cathedral_profiles_add_their_weights_to_the_heuristic() -> None:
    """The balanced profile is the heuristic itself; the builder adds its weight per
    completed card, the farmer takes its weight off per claimed, unfinished card and adds
    one per Recognition space; a finished game is rated by its result alone."""
    from tests.games.red_cathedral.fixtures import build, card

    s = build({"players": 2, "score": [20, 2],
               "towers": [[card("B01", 0, done=True), card("M01", 0), "D01"]]})
    base = evaluate_play(s, 0)
    def rate(profile: str) -> float:
        return evaluator_for("red-cathedral", profile).evaluate_play(s, 0)

    assert rate("balanced") == base
    assert rate("builder") == pytest.approx(base + RC_PROFILES["builder"]["done"])
    farmer = RC_PROFILES["farmer"]
    assert rate("farmer") == pytest.approx(
        base + farmer["claim"] + 20 * farmer["track"] + s.rubles[0] * farmer["rubles"])


def test_study_seatings_cover_every_pair_in_both_orders() -> None:
    lineups = seatings(["a", "b", "c"], 2, 2)
    assert sorted(lineups) == sorted([("a", "b"), ("b", "a"), ("a", "c"), ("c", "a"),
                                      ("b", "c"), ("c", "b")])
    four = seatings(list(PRAGA_PROFILES), 4, 1)
    assert len(four) == len(PRAGA_PROFILES) and all(len(set(x)) == 4 for x in four)
    table = summarise([{"lineup": ("a", "b"), "scores": [10, 20], "winners": [1],
                        "breakdown": [{"play": 10}, {"play": 20}]}])
    assert table["b"]["wins"] == 1 and table["a"]["mean"] == 10
    assert seatings(["a", "b"], 1, 2) == [("a",), ("a",), ("b",), ("b",)]


def test_red_cathedral_study_summary_counts_cards_turns_and_free_sales() -> None:
    """The Red Cathedral rows: cards completed, turns per player, Prestige sales and the
    share of them that cost no Prestige (RC-AMB-4), Ivan's score, wins without a card."""
    games = [{"lineup": ("farmer",), "scores": [30], "winners": [0], "completed": [0],
              "turns": 30.0, "sales": [4], "free_sales": [3], "ivan": 25,
              "breakdown": [{"track": 30}]},
             {"lineup": ("farmer",), "scores": [20], "winners": [], "completed": [2],
              "turns": 34.0, "sales": [0], "free_sales": [0], "ivan": 35,
              "breakdown": [{"track": 20}]}]
    row = summarise(games)["farmer"]
    assert row["completed"] == 1 and row["turns"] == 32 and row["max_turns"] == 34
    assert row["sales"] == 2 and row["free_share"] == 0.75
    assert row["won_no_card"] == 1 and row["ivan"] == 30
    assert by_cards(games) == {0: (1, 1, 30), 2: (1, 0, 20)}


def test_planner_averaging_determinizations_ignores_the_games_own_chance() -> None:
    """``samples`` > 1: each action is rated on several sampled futures of the bot's own
    (RC-SOLO-6: Ivan's turns inside them), never on the game's PRNG."""

    game = GAMES["red-cathedral"]
    state = game.initial_state({"players": 1}, 4)
    for _ in range(12):
        legal = game.legal_actions(state)
        state = game.apply(state, legal[len(legal) // 2])
    other = state.clone()
    other.rng = Rng(99)
    legal = game.legal_actions(state)
    picks = [PlannerBot(7, samples=3).choose(game, game.player_view(s, 0), legal)
             for s in (state, other)]
    assert picks[0] == picks[1] and picks[0] in legal
