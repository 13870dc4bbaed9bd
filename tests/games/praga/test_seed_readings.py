"""Options for the two places where the seeds read stricter than the reference's
[INTERP] (docs/praga-fidelity-audit.md, seed-by-seed re-read, C1 and C2): a wheel bonus
gain and an earned sideways move are things the player "receives", so with these
options they must be taken before the turn may end (the player still chooses when)."""

from __future__ import annotations

import pytest

from meeplehall.games.praga import GAME
from meeplehall.games.praga.components import load
from meeplehall.games.praga.state import Options
from tests.games.praga.fixtures import GREEN, build, legal, play, slot_of

C = load()
GREEN_ZONE = C.crane.green_start + 1


def test_P_CRANE_6_granted_wheel_gain_must_be_taken_before_end_turn():
    """P-CRANE-6 with unused_wheel_gain='granted' ([DE] 'verleiht dir einen Bonus'): the
    gain may still wait until after the action, but end-turn is offered only once it is
    taken."""
    stone_slot = slot_of("gain", gain="stone")
    s = build({"crane": (stone_slot, GREEN_ZONE, ("mines", "wall")),
               "options": {"unused_wheel_gain": "granted"}})
    s = play(s, f"take-tile {stone_slot}", "perform mines", "produce")
    assert "wheel-bonus" in legal(s) and "end-turn" not in legal(s)
    taken = play(s, "wheel-bonus")
    assert taken.stone[GREEN] == s.stone[GREEN] + 1 and "end-turn" in legal(taken)


def test_P_CRANE_7_the_egg_purchase_stays_optional_when_gains_are_granted():
    """P-CRANE-7: buying the egg is a choice, so the option does not force it."""
    egg = slot_of("egg")
    s = build({"crane": (egg, GREEN_ZONE, ("mines", "quarries")),
               "options": {"unused_wheel_gain": "granted"},
               "p": {GREEN: {"gold": 5, "stone": 5}}})
    s = play(s, f"take-tile {egg}", "perform mines", "produce")
    assert "wheel-bonus" in legal(s) and "end-turn" in legal(s)


def test_P_GRID_4_applied_sideways_move_must_be_made_before_end_turn():
    """P-GRID-4 with unused_sideways='applied' ([DE] 'bewegst du deinen Würfel 1 Feld
    seitwärts'): the earned move is made at a moment the player chooses, but before the
    turn ends; the Cathedral cube moves right and the cell's effect applies."""
    s = build({"crane": (2, GREEN_ZONE, ("mines", "wall")), "set": {"moves_cat": 1},
               "options": {"unused_sideways": "applied"}})
    s = play(s, "take-tile 2", "perform mines", "produce")
    assert "side cathedral" in legal(s) and "end-turn" not in legal(s)
    s = play(s, "side cathedral")
    assert s.cat[GREEN] % 8 == 1 and s.moves_cat == 0 and "end-turn" in legal(s)


@pytest.mark.parametrize("name", ["unused_wheel_gain", "unused_sideways"])
def test_the_reference_reading_is_the_default_and_stays_out_of_saved_params(name):
    """Defaults keep the reference's reading (lost at the end of the turn), and a game
    at the defaults saves the same parameters as before the options existed."""
    s = GAME.initial_state({"players": 2}, 1)
    assert getattr(s.opts, name) == "lost"
    assert name not in s.opts.to_params()
    other = "granted" if name == "unused_wheel_gain" else "applied"
    changed = GAME.initial_state({"players": 2, name: other}, 1)
    assert changed.opts.to_params()[name] == other
    assert Options(**changed.opts.to_params()) == changed.opts
    with pytest.raises(ValueError, match=name):
        GAME.initial_state({"players": 2, name: "sometimes"}, 1)


@pytest.mark.parametrize("seed", range(6))
def test_games_with_both_options_play_to_the_end(seed):
    """Random games with both options end normally (no turn can get stuck: the owed
    gain and moves are always offered while owed)."""
    from meeplehall.core.rng import Rng

    s = GAME.initial_state({"players": 2 + seed % 3, "unused_wheel_gain": "granted",
                            "unused_sideways": "applied"}, seed)
    rng = Rng.from_seed(seed)
    while GAME.current_player(s) is not None:
        actions = GAME.legal_actions(s)
        assert actions
        GAME.apply_unchecked(s, actions[rng.randbelow(len(actions))])
    assert GAME.outcome(s) is not None
