"""Focused scenarios for rules whose earlier citing tests named them without asserting
their effect: crane edge cases, the era switch as the engine plays it, market majority
and the spending tie-break, seals, the grids' arrows and final scoring order.

Each test builds a state with ``fixtures.build``, plays it through ``GAME.apply`` and
checks the rule's effect on the state.
"""

from __future__ import annotations

from meeplehall.core.messages import log_lines
from meeplehall.games.praga import GAME
from meeplehall.games.praga import crane as K
from meeplehall.games.praga import decisions as D
from meeplehall.games.praga.components import CATHEDRAL, HUNGER_WALL, load
from meeplehall.games.praga.effects import ROW_BITS
from meeplehall.games.praga.turn import reset_turn
from tests.games.praga.fixtures import (
    BLUE,
    GREEN,
    RED,
    build,
    end_of_game,
    legal,
    play,
)

C = load()
CR = C.crane
GREEN_ZONE = CR.green_start + 1


# --- crane (§3) ----------------------------------------------------------------------------
def test_P_CRANE_12_the_5_vp_token_replaces_blue_vp():
    """P-CRANE-12 [INTERP]: a tile carrying the 5-VP token that drifted into blue is worth
    5 VP, not 5 plus the blue position's VP."""
    blue = CR.blue_start + 1
    assert K.zone_vp(CR, blue) > 0
    s = build({"crane": (2, blue, ("mines", "wall")), "set": {"five_vp": 0}})
    s = play(s, "take-tile 2")
    assert s.vp[GREEN] == 5 and s.five_vp == -1


def test_P_CRANE_12_the_5_vp_token_in_red_still_pays_the_red_cost():
    """P-CRANE-12 [INTERP], P-CRANE-4: in the red zone the 5-VP tile still costs its gold;
    without that gold it cannot be taken."""
    s = build({"crane": (2, 0, ("mines", "wall")), "set": {"five_vp": 0},
               "p": {GREEN: {"gold": CR.red_costs[0]}}})
    s = play(s, "take-tile 2")
    assert (s.gold[GREEN], s.vp[GREEN]) == (0, 5)
    poor = build({"crane": (2, 0, ("mines", "wall")), "set": {"five_vp": 0},
                  "p": {GREEN: {"gold": CR.red_costs[0] - 1}}})
    assert "take-tile 2" not in legal(poor)


def test_P_CRANE_9_step_order_tile_returns_after_the_double_rotation():
    """P-CRANE-9 steps 2-3, P-CRANE-10, P-CRANE-11 with the printed wheel: the arrow on
    the double-rotation mark turns the wheel 2 steps, and the returned tile sits at the
    start of the red zone (not the box)."""
    s = build({"crane": (2, GREEN_ZONE, ("mines", "wall"))})
    s.rotation = CR.double_rotation_mark  # the box (arrow) over the mark
    slots = list(s.slots)
    w = next(w for w in range(1, CR.positions) if slots[w] == 0)
    s.slots = tuple(slots)
    s = play(s, f"take-tile {w}", "perform mines", "produce", "end-turn")
    assert s.rotation == (CR.double_rotation_mark + 2) % CR.positions
    back = s.slots.index(0)
    assert K.board_position(CR, back, s.rotation) == 0
    assert K.box_position(CR, s.rotation) != 0


# --- clock and era switch (§3.5) ------------------------------------------------------------
def _end_turn_with_box_at(s, box):
    """Seat on turn takes tile 0 (already done) and ends the turn with the box over board
    position ``box`` before the rotation."""
    s.rotation = box
    slots = [t if t != 0 else -1 for t in s.slots]
    s.slots = tuple(slots)
    s.taken, s.taken_slot, s.action_done = 0, 1, True
    return play(s, "end-turn")


def test_P_CLOCK_4_the_drop_onto_the_line_switches_the_era_at_once():
    """P-CLOCK-2, P-CLOCK-4, P-ROW-6 (4 players): the drop that moves the platform cube
    onto the era line removes the face-up era I tiles of all three rows from the game and
    deals era II rows; the next seat starts its turn in era II."""
    s = build({"players": 4})
    s.platform = CR.era_line[4] - 1
    before = [tuple(r) for r in s.rows]
    s = _end_turn_with_box_at(s, CR.hole - 1)
    assert s.platform == CR.era_line[4] and s.era == 2
    families = (C.buildings, C.walls, C.upgrades)
    for row, tiles in enumerate(s.rows):
        assert all(families[row][t].era == 2 for t in tiles if t >= 0)
    for row, tiles in enumerate(before):  # removed from the game, not under a stack
        in_stacks = {t for k in (row * 2, row * 2 + 1, 6 + row * 2, 7 + row * 2)
                     for t in s.stacks[k]}
        assert not any(t in in_stacks for t in tiles if t >= 0)
    assert "era II begins" in log_lines(s.log)


def test_P_CLOCK_5_two_players_the_line_arms_the_star_and_the_star_switches():
    """P-CLOCK-5 (2 players): crossing the line does not change the era; it changes at the
    end of a later turn whose rotation brings the arrow to the star."""
    s = build({"players": 2})
    s.platform = CR.era_line[2] - 1
    s = _end_turn_with_box_at(s, CR.hole - 1)
    assert s.platform == CR.era_line[2] and s.era == 1 and s.star_armed
    s = _end_turn_with_box_at(s, CR.star - 2 if CR.star >= 2 else CR.star + 10)
    assert s.era == 1  # the arrow has not reached the star yet
    s = _end_turn_with_box_at(s, (CR.star - 1) % CR.positions)
    assert s.era == 2


def test_P_CLOCK_5_the_star_before_the_crossing_does_nothing():
    """P-CLOCK-5: the arrow passing the star before the line is crossed keeps era I."""
    s = build({"players": 2})
    s = _end_turn_with_box_at(s, (CR.star - 1) % CR.positions)
    assert s.era == 1 and not s.star_armed


# --- markets (§4.7) ------------------------------------------------------------------------
def _m2(sites, **green):
    return build({
        "players": 4, "crane": (2, GREEN_ZONE, ("building", "mines")),
        "rows": {"building": ["B15", "B03", "B04", "B01"]},
        "markets": {"M2": "K2"}, "sites": sites,
        "p": {GREEN: {"gold": 9, **green}}})


def test_P_MKT_6_more_cubes_beat_more_spending():
    """P-MKT-6 steps 2-4: the majority is counted in cubes first; spending only breaks a
    tie in cubes. Red (2 cubes, spent 2) takes both rewards; Blue (1 cube, spent 9)
    chooses one; Green completes without a cube and gets only P-MKT-5's VP."""
    s = _m2({"S04": ("B14", RED, True), "S05": ("B14", RED, True),
             "S06": ("B13", BLUE, True)})
    for site, spent in (("S04", 1), ("S05", 1), ("S06", 9)):
        s.site_spent[C.site_index(site)] = spent
    s = play(s, "take-tile 2", "perform building", "pick 0", "site S07")
    s = play(s, "orient 0") if "orient 0" in legal(s) else s
    assert (s.silver[RED], s.vp[RED]) == (2, 4)
    assert isinstance(s.stack[-1], D.Choose) and s.stack[-1].seat == BLUE
    assert s.vp[GREEN] == C.sites[C.site_index("S07")].vp + 4  # 4 buildings around M2
    s = play(s, "choose 1")
    assert (s.silver[BLUE], s.vp[BLUE]) == (0, 4)
    assert all(not s.site_cube[C.site_index(x)] for x in ("S04", "S05", "S06"))
    assert (s.cubes[RED], s.cubes[BLUE]) == (C.supply_cubes + 2, C.supply_cubes + 1)


def test_P_MKT_6_tie_in_cubes_and_spending_gives_both_rewards_to_all_tied():
    """P-MKT-6 step 3: still tied after the spending tie-break, every tied claimant takes
    both rewards; nobody is asked to choose."""
    s = _m2({"S04": ("B14", RED, True), "S05": ("B03", -1, False),
             "S06": ("B14", BLUE, True)})
    s = play(s, "take-tile 2", "perform building", "pick 0", "site S07")
    s = play(s, "orient 0") if "orient 0" in legal(s) else s
    assert (s.silver[RED], s.vp[RED]) == (2, 4)
    assert (s.silver[BLUE], s.vp[BLUE]) == (2, 4)
    assert not any(isinstance(d, D.Choose) for d in s.stack)


def test_P_MKT_6_spending_counts_only_buildings_carrying_the_claimants_cube():
    """P-MKT-6 step 3: a building of Red's without Red's cube does not add to Red's
    spending: Blue (one cube on a 4-resource building) beats Red (cube on 3, plus a
    9-resource building with no cube)."""
    s = _m2({"S04": ("B14", RED, True), "S05": ("B13", RED, False),
             "S06": ("B13", BLUE, True)})
    s.site_spent[C.site_index("S05")] = 9
    s = play(s, "take-tile 2", "perform building", "pick 0", "site S07")
    s = play(s, "orient 0") if "orient 0" in legal(s) else s
    assert (s.silver[BLUE], s.vp[BLUE]) == (2, 4)
    assert isinstance(s.stack[-1], D.Choose) and s.stack[-1].seat == RED


# --- seals (§11) ---------------------------------------------------------------------------
def test_P_SEAL_1_the_quarry_track_gives_the_second_seal_right():
    """P-SEAL-1: the last space of the quarry track gives a seal right too (2 at most)."""
    s = build({"crane": (2, GREEN_ZONE, ("quarries", "mines")),
               "p": {GREEN: {"quarry": C.quarry_track.spaces - 1, "seal_rights": 1,
                             "mine": C.gold_track.spaces}}})
    s = play(s, "take-tile 2", "perform quarries", "expand")
    assert s.seal_rights[GREEN] == 2 and s.quarry[GREEN] == C.quarry_track.spaces


def test_P_SEAL_2_a_right_waits_for_a_later_turn_and_P_SEAL_3_pays_the_cost():
    """P-SEAL-2: a right not used in the turn it was earned can be used in a later own
    turn; P-SEAL-3: its cost is paid and a supply cube marks it."""
    s = build({"crane": (2, GREEN_ZONE, ("mines", "wall")),
               "p": {GREEN: {"seal_rights": 1, "silver": 0}}})
    s = play(s, "take-tile 2", "perform mines", "produce", "end-turn")
    assert s.seal_rights[GREEN] == 1
    assert not any(a.startswith("claim-seal") for a in legal(s))  # Red's turn
    s.seat, s.stack = GREEN, [D.Turn(GREEN)]  # Green's next turn
    reset_turn(s)
    s.silver[GREEN] = 2
    cost = C.seals[0].cost
    s = play(s, "claim-seal S1")
    assert s.silver[GREEN] == 2 - cost[2] and s.seal_owner[0] == GREEN
    assert s.cubes[GREEN] == C.supply_cubes - 1


# --- grids (§8) ----------------------------------------------------------------------------
def test_P_GRID_5_up_pays_windows_then_P_GRID_6_arrow_pays_the_tier_and_P_GRID_9_vp():
    """P-GRID-5: 2 silver windows for 1 row up; P-GRID-6: landing on an upward arrow
    offers a free move up that still pays the tier cost (here tier I -> II); P-GRID-9 /
    GL-T1-3: each row up, the arrow's included, gives 2 VP."""
    g = C.grids[CATHEDRAL]
    assert g.tiers["standard"]  # the standard Cathedral: row 1 column 0 is an up arrow
    s = build({"p": {GREEN: {"silver": 2, "gold": 1, "stone": 1, "techs": ["T1e"]}}})
    s = play(s, "up cathedral")
    assert (s.silver[GREEN], s.cat[GREEN], s.vp[GREEN]) == (0, 1 * ROW_BITS, 2)
    assert legal(s) == ["arrow-up", "arrow-stay"]
    s = play(s, "arrow-up")
    assert (s.gold[GREEN], s.stone[GREEN], s.cat[GREEN]) == (0, 0, 2 * ROW_BITS)
    assert s.vp[GREEN] == 4


def test_P_GRID_6_sideways_arrow_chains_and_VP_cells_pay():
    """P-GRID-6, GL-G2: on the Hunger Wall a sideways move landing on a sideways arrow
    moves on; the cell reached pays its VP."""
    # bottom row of the standard Hunger Wall: (2, 0, side, 1, 0, 0), moves go left
    s = build({"p": {GREEN: {"hw": (0, 3)}}, "set": {"moves_hw": 1}})
    s = play(s, "side hunger-wall")
    assert s.hw[GREEN] == 0 * ROW_BITS + 1  # col 2 is an arrow: on to col 1 (0 VP)
    s = build({"p": {GREEN: {"hw": (0, 4)}}, "set": {"moves_hw": 1}})
    s = play(s, "side hunger-wall")
    assert (s.hw[GREEN], s.vp[GREEN]) == (3, 1)


def test_P_GRID_4_an_unused_sideways_move_is_lost_at_the_end_of_the_turn():
    """P-GRID-4 [INTERP]: an earned sideways move not made by the end of the turn is
    lost; the cube stays."""
    s = build({"crane": (2, GREEN_ZONE, ("mines", "wall")), "set": {"moves_cat": 1}})
    s = play(s, "take-tile 2", "perform mines", "produce", "end-turn")
    assert s.cat[GREEN] == 0 and s.moves_cat == 0


def test_P_GRID_8_columns_multiply_the_matching_tokens_only():
    """P-GRID-8, P-SCORE-4: the Hunger Wall column multiplies blue tokens, the Cathedral
    column red tokens; the other colour does not count there."""
    s = build({"p": {GREEN: {"hw": (0, 0), "cat": (0, 5), "blue": 2, "red": 3}}})
    s = play(end_of_game(s), "end-turn")
    out = GAME.outcome(s)
    assert out is not None
    hw, cat = C.grids[HUNGER_WALL], C.grids[CATHEDRAL]
    assert out.breakdown[GREEN]["hunger_wall"] == hw.column_values[0] * 2
    assert out.breakdown[GREEN]["cathedral"] == cat.column_values[5] * 3


# --- final scoring order (§13) -------------------------------------------------------------
def test_P_SCORE_1_step_1_technology_counts_in_step_2_academics():
    """P-SCORE-1 order: the lower reward of an unscored market (K1: 1 technology step) is
    received in step 1 and multiplied in step 2 (academics)."""
    s = build({"players": 4, "markets": {"M2": "K1"},
               "sites": {"S04": ("B14", GREEN, True)},
               "p": {GREEN: {"tech": 2, "univ": C.univ_top}}})
    s = play(end_of_game(s), "end-turn")
    out = GAME.outcome(s)
    assert out is not None
    assert out.breakdown[GREEN]["academics"] == 3 * C.univ_multiplier[C.univ_top]


def test_P_SCORE_6_step_1_gold_is_spent_by_a_gold_seal_in_step_5():
    """P-SCORE-1, P-SCORE-2 [INTERP], P-SCORE-6, GL-S1: gold received in step 1 (K3's
    lower reward, 3 gold) is spent on the gold seal in step 5."""
    s = build({"players": 4, "markets": {"M2": "K3"},
               "sites": {"S04": ("B14", GREEN, True)},
               "p": {GREEN: {"gold": 2}},
               "set": {"seal_owner": [GREEN, -1, -1, -1, -1]}})
    s = play(end_of_game(s), "end-turn")
    out = GAME.outcome(s)
    assert out is not None
    assert out.breakdown[GREEN]["abilities"] == C.seals[0].vp * (2 + 3)


def test_P_SCORE_2_windows_paid_in_final_step_1_are_kept_without_a_discard():
    """P-SCORE-2, P-RES-4, P-WIN-2: the last turn ends with 2 windows; final step 1 then
    pays K3's 3 gold, which reaches 6 gold and its wealth bonus, a gold window. The game
    is over: the third window is kept, nobody is asked to discard, and it scores
    nothing."""
    s = build({"players": 4, "markets": {"M2": "K3"},
               "sites": {"S04": ("B14", GREEN, True)},
               "p": {GREEN: {"gold": 3, "silver": 2}}})
    s = play(end_of_game(s), "end-turn")
    assert GAME.current_player(s) is None and s.stack == []
    assert s.gold[GREEN] == 6 and s.wealth[GREEN] & 1
    assert (s.silver[GREEN], s.goldw[GREEN]) == (2, 1)
    out = GAME.outcome(s)
    assert out is not None
    assert sum(out.breakdown[GREEN].values()) == out.scores[GREEN]


def test_P_SCORE_6_two_spending_seals_share_the_resources_in_the_best_order():
    """P-SCORE-6, GL-S1, GL-S3: each gold/stone is spent once; the order that scores most
    is used: 4 gold 4 stone with the gold seal (2/gold) and the pair seal (3/pair): pairs
    first gives 12, gold first gives 8 -> 12."""
    s = build({"p": {GREEN: {"gold": 4, "stone": 4}},
               "set": {"seal_owner": [GREEN, -1, GREEN, -1, -1]}})
    s = play(end_of_game(s), "end-turn")
    out = GAME.outcome(s)
    assert out is not None
    assert out.breakdown[GREEN]["abilities"] == 12


# --- extra action (§9) ---------------------------------------------------------------------
def test_P_XACT_4_the_extra_action_never_uses_the_special_tile_bonus():
    """P-XACT-4: with the special-tile wheel bonus pending, the extra action's row choice
    still excludes the special (rightmost) tile, while the tile's own action may take it;
    upgrade bonuses apply to the extra action (P-UPG-6)."""
    from tests.games.praga.fixtures import slot_of

    special = slot_of("special")
    spec = {"crane": (special, GREEN_ZONE, ("wall", "mines")),
            "p": {GREEN: {"gold": 9, "stone": 9, "goldw": 2, "upg": {"mines": ["U01"]}}}}
    s = play(build(spec), f"take-tile {special}", "buy-extra gold", "extra wall")
    assert "pick 3" not in legal(s) and "pick 0" in legal(s)
    tile = play(build(spec), f"take-tile {special}", "perform wall")
    assert "pick 3" in legal(tile)
    s = play(build(spec), f"take-tile {special}", "buy-extra gold")
    gold = s.gold[GREEN] = 0
    s = play(s, "extra mines")
    assert C.upgrades[C.upgrade_index("U01")].bonus == ((1, 1),)  # 1 gold per performance
    assert s.gold[GREEN] == gold + 1


# --- adjacency (§6) ------------------------------------------------------------------------
def test_P_ADJ_3_a_pair_pays_both_symbols_once_and_P_ADJ_6_not_again_when_stacked():
    """P-ADJ-3: an upgrade's silver-window symbol against a wall's silver-window symbol
    pays both (2 silver windows); P-ADJ-6: an upgrade stacked on it with the same symbol
    on the same edge does not pay that connection again (University still counts)."""
    from meeplehall.games.praga import board
    from meeplehall.games.praga.components import UPGRADE

    w02, u16 = C.wall_index("W02"), C.upgrade_index("U16")
    assert C.walls[w02].edges == ((0, 0),) and C.upgrades[u16].edges == ((0, 0),)
    assert C.upgrades[u16].action == UPGRADE
    s = build({})
    _, edge, q, q_edge = next(x for x in board.EDGES[UPGRADE] if x[2] >= 6)
    board.place_wall(s, GREEN, w02, q - 6, q_edge)
    assert s.silver[GREEN] == 0  # its symbol faces a bare action hex
    board.place_upgrade(s, GREEN, u16, edge)
    assert (s.silver[GREEN], s.univ[GREEN]) == (2, 2)
    board.place_upgrade(s, GREEN, u16, edge)
    assert (s.silver[GREEN], s.univ[GREEN]) == (2, 4)
