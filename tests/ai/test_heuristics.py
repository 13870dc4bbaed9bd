"""Per-game evaluations (ai/heuristics): terms that steer the bots."""

from __future__ import annotations

from meeplehall.ai.heuristics import praga as PH
from meeplehall.ai.heuristics import red_cathedral as RH
from meeplehall.games import GAMES
from meeplehall.games.praga.components import load
from meeplehall.games.praga.scoring import egg_points

PRAGA = GAMES["praga"]
RC = GAMES["red-cathedral"]


def test_praga_eggs_count_as_a_resource_early_and_the_step_table_late() -> None:
    """P-SCORE-7 pays 10 VP for 4 eggs at the end; early in the game the evaluation
    values an egg at ``EGG_EARLY`` (what it buys on the road, P-EGG-*), so that the
    one-ply bot no longer hoards eggs for the step table."""
    state = PRAGA.initial_state({"players": 2}, 1)
    state.eggs[0] = 0
    base = PH.evaluate(state, 0)
    state.eggs[0] = 4
    early = PH.evaluate(state, 0) - base
    assert abs(early - 4 * PH.EGG_EARLY) < 1e-9
    late = state.clone()
    late.played[0] = load().turns_per_player  # the seat's last turn is played
    late.eggs[0] = 0
    late_base = PH.evaluate(late, 0)
    late.eggs[0] = 4
    assert abs(PH.evaluate(late, 0) - late_base - egg_points(4)) < 1e-9
    assert 0.0 <= PH.progress(state, 0) < PH.progress(late, 0) == 1.0


def test_praga_evaluation_with_one_seat() -> None:
    state = PRAGA.initial_state({"players": 1}, 3)
    assert isinstance(PH.evaluate(state, 0), float)


def test_red_cathedral_track_value_is_monotone_in_recognition() -> None:
    values = [RH._track_value(t) for t in range(0, 80)]
    assert values == sorted(values)
    assert RH._track_value(0) == 0.0


def test_red_cathedral_sides_count_ivan_in_the_solo_game() -> None:
    """RC-SOLO-*: Ivan is a side of his own; the search compares the seat with him."""
    solo = RC.initial_state({"players": 1}, 2)
    assert RH.sides(solo) == 2
    assert RH.sides(RC.initial_state({"players": 3}, 2)) == 3


def test_red_cathedral_towers_pay_the_majority_holder() -> None:
    """RC-TOWER-1/2 and RC-2P-1: a completed card alone in its tower pays the tower's
    value to its owner, and the evaluation counts ``TOWER`` times that payout."""
    state = RC.initial_state({"players": 2}, 4)
    slots = state.towers[0]
    slot = slots[0]
    assert RH._towers(state, 0) == 0
    state.owner[slot] = 0
    state.done[slot] = True
    assert RH._towers(state, 0) == 2 and RH._towers(state, 1) == 0


def test_red_cathedral_solo_weights_completed_cards_higher() -> None:
    """Against Ivan (RC-SOLO-8: his sixth card ends the game) a completed card and the
    towers weigh more than with two or more players."""
    assert RH.DONE[1] > RH.DONE[0] and RH.TOWER[1] > RH.TOWER[0] == 0.0
    for players, weight in ((2, RH.DONE[0]), (1, RH.DONE[1])):
        state = RC.initial_state({"players": players}, 6)
        slot = state.towers[0][0]
        before = RH.evaluate(state, 0)
        state.owner[slot] = 0
        state.done[slot] = True
        gain = RH.evaluate(state, 0) - before
        towers = RH.TOWER[1 if players == 1 else 0] * RH._towers(state, 0)
        assert abs(gain - weight - towers) < 1e-9
