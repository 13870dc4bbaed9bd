"""Scenario tests for rules that were guarded only by golden records and perft counts (a
bug in the same commit as a regeneration would be absorbed), or by a test that could not
see the rule: each fails on the rule's mutant (docs/praga-fidelity-audit.md)."""

from __future__ import annotations

from meeplehall.games.praga import GAME
from meeplehall.games.praga import decisions as D
from meeplehall.games.praga.components import HUNGER_WALL, load
from meeplehall.games.praga.effects import ROW_BITS
from tests.games.praga.fixtures import (
    BLUE,
    GREEN,
    RED,
    build,
    end_of_game,
    legal,
    play,
    slot_of,
)

C = load()
GREEN_ZONE = C.crane.green_start + 1


def test_P_GRID_10_a_sideways_move_earned_in_another_turn_is_made_at_once():
    """P-GRID-10, P-MKT-10, P-GRID-4: Green completes market M6 (tile K3: a sideways move
    | 3 gold) where Red is the sole claimant; Red's sideways move is made at once, by Red,
    on the grid Red chooses, and is not banked for Green's turn."""
    spec = {"players": 4, "crane": (2, GREEN_ZONE, ("building", "mines")),
            "rows": {"building": ["B01", "B03", "B04", "B15"]},
            "markets": {"M6": "K3"},
            "sites": {"S19": ("B14", RED, True), "S20": ("B13", RED, True)},
            "p": {GREEN: {"gold": 9}, RED: {"hw": (0, 3)}}}
    s = build(spec)
    gold = s.gold[RED]
    s = play(s, "take-tile 2", "perform building", "pick 2", "site S18")
    s = play(s, "orient 0") if "orient 0" in legal(s) else s
    assert isinstance(s.stack[-1], D.Choose) and s.stack[-1].seat == RED
    hw = s.hw[RED]
    s = play(s, "choose 0")  # the Hunger Wall
    g = C.grids[HUNGER_WALL]
    row, col = divmod(s.hw[RED], ROW_BITS)
    assert row == 0 and (col - 3) * g.direction > 0  # moved (landing arrows may chain)
    assert s.hw[RED] != hw and s.gold[RED] == gold + 3
    assert (s.moves_hw, s.moves_cat) == (0, 0)
    assert "side hunger-wall" not in legal(s) and s.vp[BLUE] == 0


def test_GL_S2_P_SCORE_6_the_stone_seal_spends_its_stone():
    """GL-S2, GL-S3, P-SCORE-6: each stone is spent once: with the stone seal (2 VP per
    stone) and the pair seal (3 VP per gold + stone pair), 5 gold and 5 stone score 15
    (pairs first; stone first gives 10), never 25."""
    s = build({"p": {GREEN: {"gold": 5, "stone": 5}},
               "set": {"seal_owner": [-1, GREEN, GREEN, -1, -1]}})
    assert (C.seals[1].effect, C.seals[2].effect) == (1, 2)  # GL-S2, GL-S3
    s = play(end_of_game(s), "end-turn")
    out = GAME.outcome(s)
    assert out is not None
    assert out.breakdown[GREEN]["abilities"] == 15
    alone = build({"p": {GREEN: {"gold": 5, "stone": 5}},
                   "set": {"seal_owner": [-1, GREEN, -1, -1, -1]}})
    alone = play(end_of_game(alone), "end-turn")
    out = GAME.outcome(alone)
    assert out is not None and out.breakdown[GREEN]["abilities"] == 10


def test_GL_T1_4_one_extra_vp_per_turn_with_two_vp_takes():
    """GL-T1-4, P-CRANE-5, P-ROW-3: a blue-zone tile on a special slot: taking it pays the
    zone's VP + 1; the unused special bonus later in the same turn pays the slot's VP
    without a second extra VP."""
    slot = slot_of("special", vp=2)
    board = C.crane.blue_start + 1
    zone_vp = C.crane.blue_vp[1]
    s = build({"crane": (slot, board, ("mines", "quarries")), "p": {GREEN: {"techs": ["T1f"]}}})
    s = play(s, f"take-tile {slot}")
    assert s.vp[GREEN] == zone_vp + 1
    s = play(s, "perform mines")  # the special bonus is unused: its 2 VP, no extra
    assert s.vp[GREEN] == zone_vp + 1 + 2


def test_P_EDGE_1_a_useless_tile_is_refused_while_a_useful_one_exists():
    """P-EDGE-1, P-ACT-3: a tile whose actions cannot be performed (Build Building / Build
    Wall with empty rows) may not be taken while another tile's action can be."""
    s = build({"crane": (2, GREEN_ZONE, ("building", "wall")),
               "rows": {"building": [None] * 4, "wall": [None] * 4}})
    takes = [a for a in legal(s) if a.startswith("take-tile")]
    assert "take-tile 2" not in takes and takes


def test_P_SCORE_3_the_multiplier_of_the_cubes_own_step():
    """P-SCORE-3, P-UNIV-3, GL-P8: academics = technology steps x the multiplier of the
    zone the University cube is in, read at the cube's own step: at every step where the
    zone changes, that step pays the new multiplier and the step below the old one."""
    mult = C.univ_multiplier
    changes = [k for k in range(1, len(mult)) if mult[k] != mult[k - 1]]
    assert changes and mult[-1] == 3 and mult[0] == 0
    for step in changes:
        for univ in (step - 1, step):
            s = build({"p": {GREEN: {"tech": 5, "univ": univ}}})
            s = play(end_of_game(s), "end-turn")
            out = GAME.outcome(s)
            assert out is not None
            assert out.breakdown[GREEN]["academics"] == 5 * mult[univ], (univ, mult)
