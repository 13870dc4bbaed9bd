"""Appendix A worked examples that need no game state yet: the final-scoring arithmetic
(§13, §17.3, §17.5). When the forward model exists these move to full-state scenarios
built with a fixture; until then they pin the scoring functions the final-scoring step
will call (docs/praga-status.md)."""

from __future__ import annotations

import pytest

from meeplehall.games.praga import scoring
from meeplehall.games.praga.components import CATHEDRAL, HUNGER_WALL, load

C = load()


def test_T_09_cathedral_top_row_and_column_with_red_tokens():
    """T-09, P-SCORE-4, P-GRID-8: top row of the Cathedral = 13 VP; column value 3 with
    3 red tokens = 9 VP; 22 in all."""
    cat = C.grids[CATHEDRAL]
    column = cat.column_values.index(3)
    assert scoring.row_value(cat, "standard", 5) == 13
    assert scoring.grid_points(CATHEDRAL, "standard", 5, column, 3) == 22


def test_T_10_academics_seven_steps():
    """T-10, P-SCORE-3, P-UNIV-3, P-UNIV-5, P-TECH-9: 7 technology steps score 21 VP with
    the University cube at the top and 0 VP at the bottom."""
    assert scoring.academics_points(7, C.univ_top) == 21
    assert scoring.academics_points(7, 0) == 0


def test_T_11_pair_seal():
    """T-11, GL-S3, P-SEAL-5: 5 gold and 8 stone buy 5 pairs = 15 VP; 3 stone remain."""
    vp, gold, stone = scoring.seal_points("vp-per-pair", 3, 5, 8)
    assert (vp, 5 - gold, 8 - stone) == (15, 0, 3)


def test_GL_S1_and_GL_S2_resource_seals():
    """GL-S1/GL-S2: 2 VP per gold / stone spent, at most 18."""
    assert scoring.seal_points("vp-per-gold", 2, 9, 4) == (18, 9, 0)
    assert scoring.seal_points("vp-per-stone", 2, 9, 4) == (8, 0, 4)


def test_T_12_rows_v_tile():
    """T-12, GL-B9: Hunger Wall row 3 and Cathedral row 2 give 2 x (3 + 2) = 10 VP; the
    Hunger Wall row 3 alone contributes 6."""
    assert scoring.v_tile_points("rows", hw_row=2, cathedral_row=1) == 10
    assert scoring.v_tile_points("rows", hw_row=2, cathedral_row=-1) == 6


def test_T_13_v_tiles_at_the_top():
    """T-13, GL-B4/B7/B8: University top = 8, rightmost gold space = 8 mines, rightmost
    quarry space = 7 quarries; these tiles also give 3 VP when taken."""
    assert scoring.v_tile_points("univ-position", univ=C.univ_top) == 8
    assert scoring.v_tile_points("mines", mines=C.gold_track.spaces - 1) == 8
    assert scoring.v_tile_points("quarries", quarries=C.quarry_track.spaces - 1) == 7
    now = {t.id: t.now_vp for t in C.bridge_tiles if t.is_v}
    assert now == {"V1": 3, "V2": 0, "V3": 0, "V4": 3, "V5": 3, "V6": 0}


def test_GL_B5_and_GL_B6_per_upgrade_and_per_wall():
    """GL-B5: 3 VP per upgrade tile (both tiles of a double upgrade); GL-B6: 2 per wall."""
    assert scoring.v_tile_points("per-upgrade", upgrades=7) == 21
    assert scoring.v_tile_points("per-wall", walls=5) == 10


@pytest.mark.parametrize(("walls", "vp"), [(0, 0), (2, 0), (3, 4), (4, 10), (5, 10),
                                           (6, 18), (9, 18), (12, 18)])
def test_T_14_wall_points(walls, vp):
    """T-14, P-SCORE-5: 0-2 walls 0 VP, 3 walls 4, 4-5 walls 10, 6+ walls 18;
    ``scoring.wall_points`` is callable on its own."""
    assert scoring.wall_points(walls) == vp


@pytest.mark.parametrize(("eggs", "vp"), [(0, 0), (1, 1), (2, 3), (3, 6), (4, 10), (5, 10)])
def test_T_15_egg_points(eggs, vp):
    """T-15, P-SCORE-7, P-EGG-4: 4+ eggs 10 VP, 3 eggs 6, 2 eggs 3 (player aid), 1 egg 1
    (reconstructed, GAP-14)."""
    assert scoring.egg_points(eggs) == vp


def test_T_18_ties_go_to_the_later_seat():
    """T-18, P-SCORE-9: two players tie, seats 1 and 3: seat 3 (index 2) wins."""
    assert scoring.tie_break_order([80, 60, 80])[0] == [2]


def test_hunger_wall_columns_multiply_blue_tokens():
    """P-SCORE-4, P-GRID-8: the Hunger Wall column multiplies blue tokens; the start
    column is worth nothing."""
    hw = C.grids[HUNGER_WALL]
    assert hw.column_values[hw.start_column] == 0
    assert scoring.grid_points(HUNGER_WALL, "standard", 0, 2, 4) == hw.column_values[2] * 4


def test_negative_counts_are_rejected():
    with pytest.raises(ValueError):
        scoring.wall_points(-1)
    with pytest.raises(ValueError):
        scoring.egg_points(-1)
