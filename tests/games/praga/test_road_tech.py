"""King's Road (§4.8), Charles Bridge (§4.9), technologies (§7, §17.9), the grids (§8)
and final scoring step 1 (§13)."""

from __future__ import annotations

import pytest

from meeplehall.games.praga import GAME
from meeplehall.games.praga import decisions as D
from meeplehall.games.praga.components import HUNGER_WALL, load
from meeplehall.games.praga.effects import ROW_BITS, gain
from tests.games.praga.fixtures import GREEN, RED, build, end_of_game, legal, play

C = load()
GREEN_ZONE = C.crane.green_start + 1


def _road(**player):
    return build({"crane": (2, GREEN_ZONE, ("road", "mines")), "p": {0: player}})


def test_P_ROAD_1_to_3_space_i_effects_pending_in_the_hub():
    """P-ROAD-1, P-ROAD-2, P-ROAD-3, GL-R2, GL-R3: entering space I: the free effect (pay
    1 gold for 4 VP, once) and the egg effect (1 gold window or 1 technology step) wait in
    the hub until used."""
    s = play(_road(eggs=1), "take-tile 2", "perform road")
    assert s.road[0] == 1 and {"road-free", "road-egg"} <= set(legal(s))
    s = play(s, "road-free")
    assert (s.gold[0], s.vp[0]) == (1, 4) and "road-free" not in legal(s)
    s = play(s, "road-egg")
    assert legal(s) == ["choose 0", "choose 1"]
    s = play(s, "choose 0")
    assert (s.eggs[0], s.goldw[0]) == (0, 1)


def test_GL_R5_and_GL_R4_space_ii():
    """GL-R5: 2 VP per silver window held (kept); resolved at the end of the turn if not
    earlier. GL-R4: pay 1 egg for 2 silver windows or +1 mine and +1 quarry."""
    s = play(_road(road=1, silver=2, eggs=1), "take-tile 2", "perform road", "road-egg",
             "choose 1")
    assert (s.mine[0], s.quarry[0]) == (C.gold_track.start + 1, C.quarry_track.start + 1)
    s = play(s, "end-turn")
    assert s.vp[1] == 0 and s.vp[0] == 4 and s.silver[0] == 2


def test_GL_R1_space_iii_and_the_sixth_effect():
    """GL-R1: 3 VP per era I upgrade tile owned (covered ones included); the egg effect of
    space III is a red or blue corner token (reconstructed sixth effect)."""
    s = play(_road(road=2, eggs=1, upg={"mines": ["U01", "U01"]}), "take-tile 2",
             "perform road", "road-free", "road-egg", "choose 1")
    assert s.vp[0] == 6 and s.blue[0] == 1


def test_P_ROAD_7_and_GL_RT1_RT2_RT3_road_tiles():
    """P-ROAD-7, P-VAR-2, GL-RT1, GL-RT3: with the King's Road tiles, the pawn on space I
    gives 2 VP and 1 gold or stone per Upgrade action; on III, 2 VP per Build Wall. GL-RT2:
    on II, 3 VP per building without the Cathedral symbol."""
    s = build({"options": {"road_tiles": True},
               "crane": (2, GREEN_ZONE, ("upgrade", "mines")), "p": {0: {"road": 1}}})
    s = play(s, "take-tile 2", "perform upgrade")
    # P-ACT-2: the trigger is answered first, then the Upgrade's tile choice
    assert s.vp[0] == 2 and isinstance(s.stack[-1], D.Choose) and isinstance(s.stack[-2], D.Pick)
    gold = s.gold[0]
    s = play(s, "choose 0")
    assert s.gold[0] == gold + 1 and isinstance(s.stack[-1], D.Pick)
    s = build({"options": {"road_tiles": True}, "p": {0: {"road": 3, "goldw": 2}}})
    s = play(s, "buy-extra gold", "extra wall")
    assert s.vp[0] == 2
    s = build({"options": {"road_tiles": True}, "p": {0: {"road": 2, "goldw": 2, "gold": 9}},
               "rows": {"building": ["B01", "B03", "B04", "B15"]}})
    s = play(s, "buy-extra gold", "extra building", "pick 0", "site S22")
    s = play(s, "orient 0") if "orient 0" in legal(s) else s
    assert s.vp[0] == 2 + 3  # B01's 2 VP and GL-RT2


def test_P_BRIDGE_2_iv_draw_three_keep_one():
    """P-BRIDGE-2, P-BRIDGE-1, P-ROAD-4, GL-B1, GL-B2, GL-B3: entering IV (1 egg): draw 3
    IV tiles, keep 1 (the others go under the stack), gain its bonus, lay it as a plank
    and gain the two fields."""
    s = play(_road(road=3, eggs=1), "take-tile 2", "perform road")
    assert s.eggs[0] == 0 and len(s.iv_stack) == 3
    drawn = [a.split()[1] for a in legal(s)]
    assert len(drawn) == 3
    s = play(s, f"bridge-tile {drawn[0]}")
    assert len(s.iv_stack) == 5 and len(legal(s)) == 5
    s = play(s, "plank 0")
    assert s.bridge[0] == C.bridge_tile_index(drawn[0])
    assert s.vp[0] >= 2 or s.tech[0] + s.univ[0] >= 3


def test_P_BRIDGE_5_and_P_BRIDGE_7_complete_bridge():
    """P-BRIDGE-5, P-BRIDGE-7, P-EFR-7, LANG-8, P-BRIDGE-8: on a complete bridge IV and V
    tiles still give their own bonus, but no plank bonuses."""
    iv = [i for i, t in enumerate(C.bridge_tiles) if not t.is_v]
    s = _road(road=3, eggs=1)
    s.bridge = iv[:5]
    s.iv_stack = (iv[5],)
    s = play(s, "take-tile 2", "perform road", f"bridge-tile {C.bridge_tiles[iv[5]].id}")
    assert not [a for a in legal(s) if a.startswith("plank")]
    assert GAME.current_player(s) == 0 and s.stack[-1] == D.Turn(0)


def test_P_BRIDGE_6_empty_v_pile():
    """P-BRIDGE-6, LANG-10: with the V pile empty, moving onto V is allowed (egg paid, no
    tile) by default, forbidden with the option."""
    s = _road(road=4, eggs=1)
    s.v_pile = ()
    s = play(s, "take-tile 2", "perform road")
    assert s.road[0] == 5 and s.v_tile[0] == -1
    s = build({"options": {"empty_v_pile": "forbidden"},
               "crane": (2, GREEN_ZONE, ("road", "mines")), "p": {0: {"road": 4, "eggs": 1}},
               "set": {"v_pile": ()}})
    assert "perform road" not in legal(play(s, "take-tile 2"))


def test_P_TECH_2_draw_three_keep_one_and_P_TECH_4_not_this_turn():
    """P-TECH-1, P-TECH-2, P-TECH-4, P-TECH-5, P-EFR-5, GL-P7, GL-T1-3: reaching a level
    mark draws 3 and keeps 1 (others under the stack); a level I/II technology works from
    the end of that turn, automatically."""
    s = build({"crane": (2, GREEN_ZONE, ("mines", "wall")), "p": {0: {"silver": 4}}})
    gain(s, 0, 8, 1)  # one technology step
    assert isinstance(s.stack[-1], D.TechDraw) and len(s.stack[-1].drawn) == 3
    keep = "T1e"  # GL-T1-3: +2 VP per row up
    s.stack[-1] = D.TechDraw(0, (C.tech_index("T1e"), *s.stack[-1].drawn[1:]), 0)
    s = play(s, f"keep-tech {keep}")
    assert len(s.tech_stacks[0]) == 6 - 1
    s = play(s, "up cathedral")
    assert s.vp[0] == 0  # not in the turn it was gained
    s = play(s, legal(s)[-1]) if legal(s)[0].startswith("arrow") else s
    s.tech_ready[0] = 1
    s = play(s, "up hunger-wall")
    assert s.vp[0] == 2 + 1  # GL-T1-3 and the cell's 1 VP (GL-G1)


def test_P_TECH_6_level_iii_iv_usable_at_once_and_only_once():
    """P-TECH-6, P-EFR-6, P-EDGE-4, GL-T3-3: a level III technology gained in one's own turn
    can be used at once; then it is spent."""
    s = build({"p": {0: {"tech": 3}}})
    gain(s, 0, 8, 1)
    level3 = s.stack[-1].drawn
    s = play(s, f"keep-tech {C.technologies[level3[0]].id}")
    assert s.tech_ready[0] & 4
    t = C.tech_index("T3c")
    s.techs[0] = (t,)
    s = play(s, "use-tech T3c")
    assert s.univ[0] == 4 and "use-tech T3c" not in legal(s)


def test_P_TECH_3_at_most_four_and_P_EDGE_8():
    """P-TECH-3, P-EDGE-8: one technology per level; a short stack draws what is left."""
    s = build({})
    s.tech_stacks[0] = (0,)
    gain(s, 0, 8, 1)
    assert s.stack[-1].drawn == (0,)
    s = play(s, f"keep-tech {C.technologies[0].id}")
    assert s.tech_stacks[0] == () and len(s.techs[0]) == 1


@pytest.mark.parametrize(("tech", "gold", "vp"), [("T1a", 2 + 2, 1), ("T1b", 2 + 1, 0)])
def test_GL_T1_1_more_of_the_wheel_resource(tech, gold, vp):
    """GL-T1-1, LANG-18: the shown wheel resource (gold for T1a) gives 1 more and 1 VP;
    the stone version does nothing for a gold bonus."""
    s = build({"crane": (3, GREEN_ZONE, ("mines", "wall")), "p": {0: {"techs": [tech]}}})
    s = play(s, "take-tile 3", "wheel-bonus")
    assert (s.gold[0], s.vp[0]) == (gold, vp)


def test_GL_T1_2_track_steps_give_2_vp():
    """GL-T1-2, LANG-17: each step on the shown track gives 2 VP, also at the top."""
    s = build({"p": {0: {"techs": ["T1c"], "univ": 8}}})
    gain(s, 0, 9, 1)
    assert s.vp[0] == 4


def test_GL_T2_1_GL_T2_3_GL_T2_5_building_and_wall_technologies():
    """GL-T2-1, GL-T2-3, GL-T2-5, GL-H5, GL-H6, P-WALL-6: buildings with / without the
    Cathedral symbol and Hunger Wall walls give the shown resource and 1 VP."""
    s = build({"p": {0: {"techs": ["T2d"], "goldw": 2, "gold": 9}},
               "rows": {"building": ["B01", "B03", "B04", "B15"]}})
    s = play(s, "buy-extra gold", "extra building", "pick 0", "site S22")
    s = play(s, "orient 0") if "orient 0" in legal(s) else s
    assert s.vp[0] == 2 + 1  # B01's reward and GL-T2-3
    s = build({"p": {0: {"techs": ["T2f"], "goldw": 2, "stone": 9}},
               "rows": {"wall": ["W02", "W03", "W04", "W15"]}})
    s = play(s, "buy-extra gold", "extra wall", "pick 0")
    assert s.moves_hw == 1 and s.vp[0] == 3 + 1


def test_GL_T2_2_once_per_turn_token_bonus():
    """GL-T2-2: once per turn, gaining the shown token gives 1 VP and the resource."""
    s = build({"p": {0: {"techs": ["T2b"]}}})
    gain(s, 0, 6, 1)
    gain(s, 0, 6, 1)
    assert s.vp[0] == 1 and s.stone[0] == 3


def test_GL_T3_1_GL_T3_2_GL_T3_4_to_T3_6():
    """GL-T3-1 (egg + King's Road), GL-T3-2 (free row up, no tier cost), GL-T3-4 (Upgrade
    + 3 VP), GL-T3-5 / GL-T3-6 (produce without upgrade bonus + 2 of the other)."""
    s = play(build({"p": {0: {"techs": ["T3a"]}}}), "use-tech T3a")
    assert s.road[0] == 1 and s.eggs[0] == 1
    s = play(build({"p": {0: {"techs": ["T3b"], "cat": (1, 0), "gold": 0}}}), "use-tech T3b",
             "tech-grid cathedral")
    assert s.cat[0] // ROW_BITS == 2 and s.gold[0] == 0
    s = play(build({"p": {0: {"techs": ["T3d"]}}}), "use-tech T3d")
    assert s.vp[0] == 3 and isinstance(s.stack[-1], D.Pick)  # the upgrade row choice
    s = play(build({"p": {0: {"techs": ["T3e"], "upg": {"mines": ["U01"]}}}}),
             "use-tech T3e")
    assert (s.gold[0], s.stone[0]) == (2 + 3, 4)
    s = play(build({"p": {0: {"techs": ["T3f"]}}}), "use-tech T3f")
    assert (s.gold[0], s.stone[0]) == (4, 2 + 2)


def test_GL_T4_1_GL_T4_2_discounts_and_P_EDGE_11():
    """GL-T4-1, GL-T4-2, P-EDGE-11, P-WALL-2: the level IV Build Building / Build Wall
    reduce the gold (buildings) / stone (walls) part by 2."""
    s = play(build({"p": {0: {"techs": ["T4a"], "gold": 0}},
                    "rows": {"building": ["B01", "B03", "B04", "B15"]}}), "use-tech T4a",
             "pick 0", "site S22")
    assert s.gold[0] == 0
    s = play(build({"p": {0: {"techs": ["T4b"], "stone": 2}},
                    "rows": {"wall": ["W01", "W03", "W04", "W15"]}}), "use-tech T4b",
             "pick 0")
    assert s.stone[0] == 0


def test_GL_T4_4_GL_T4_5_GL_T4_6():
    """GL-T4-4 (Upgrade + gold window), GL-T4-5 (both rewards of a placed market tile),
    GL-T4-6 (+1 mine or quarry, then produce either)."""
    s = play(build({"p": {0: {"techs": ["T4d"]}}}), "use-tech T4d")
    assert s.goldw[0] == 1
    s = play(build({"p": {0: {"techs": ["T4e"]}}, "markets": {"M1": "K2"}}), "use-tech T4e",
             "market-tile M1")
    assert (s.silver[0], s.vp[0]) == (2, 4)
    s = play(build({"p": {0: {"techs": ["T4f"], "stone": 0}}}), "use-tech T4f")
    assert len(legal(s)) == 4
    s = play(s, "grow mine stone")
    assert s.mine[0] == C.gold_track.start + 1 and s.stone[0] == C.quarry_track.start - 1


def test_P_GRID_4_sideways_moves_and_P_EDGE_3():
    """P-GRID-4, P-GRID-1, P-GRID-3, P-EDGE-3, GL-G2, GL-H6, P-COMP-2 (the engine models
    the grids only): Hunger Wall moves go left, a move off the grid is lost; several
    cubes may share a cell."""
    s = build({"p": {0: {"hw": (0, 0)}, 1: {"hw": (0, 0)}}, "set": {"moves_hw": 1}})
    s = play(s, "side hunger-wall")
    assert s.hw[0] == s.hw[1] == 0
    s = build({"set": {"moves_hw": 1}})
    s = play(s, "side hunger-wall")
    assert s.hw[0] % ROW_BITS == C.grids[HUNGER_WALL].columns - 2


def test_P_GRID_5_up_needs_two_silver_windows_and_the_tier_cost():
    """P-GRID-5, P-GRID-6, P-GRID-9: up costs 2 silver windows (gold windows do not
    count) plus the tier cost when crossing."""
    s = build({"p": {0: {"goldw": 2, "silver": 1}}})
    assert "up cathedral" not in legal(s)
    s = build({"p": {0: {"silver": 2, "cat": (1, 1), "gold": 0}}})
    assert "up cathedral" not in legal(s)


def test_P_GRID_7_cathedral_top_tier_tile():
    """P-GRID-7, GL-G8: reaching the Cathedral's tier III offers one of its 3 tiles."""
    s = build({"p": {0: {"silver": 2, "cat": (3, 0), "gold": 3, "stone": 3}}})
    s = play(s, "up cathedral")
    assert legal(s)[0].startswith("cathedral-tile")


def test_P_SCORE_2_unscored_markets_pay_the_lower_reward():
    """P-SCORE-1, P-SCORE-2, P-SCORE-8, P-SCORE-6: each claimant of an unscored market
    gets its lower reward once, before the other steps; leftovers score nothing."""
    s = build({"players": 4, "markets": {"M6": "K2"},
               "sites": {"S19": ("B14", RED, True), "S20": ("B13", GREEN, True)},
               "p": {0: {"gold": 5, "stone": 5, "silver": 2}}})
    s = play(end_of_game(s), "end-turn")
    out = GAME.outcome(s)
    assert out is not None
    assert out.breakdown[RED]["markets"] == 4 and out.breakdown[GREEN]["markets"] == 4
    assert sum(out.breakdown[GREEN].values()) == out.scores[GREEN]


def test_GL_M1_sideways_move_market_tile():
    """GL-M1, LANG-14: the upper reward is one sideways move on either grid (receiver
    chooses); both rewards add 3 gold, still one move."""
    s = build({"p": {0: {"techs": ["T4e"], "gold": 0}}, "markets": {"M2": "K3"}})
    s = play(s, "use-tech T4e", "market-tile M2")
    assert s.gold[0] == 3 and legal(s) == ["choose 0", "choose 1"]
    s = play(s, "choose 1")
    assert s.moves_cat == 1 and s.moves_hw == 0


def test_GL_W4_track_wheel_bonus(monkeypatch):
    """GL-W4: a wheel slot showing a track advances 1 on it (not on the printed wheel,
    supported for data edits)."""
    import dataclasses

    from meeplehall.games.praga import turn

    crane = turn.C.crane
    slots = list(crane.slots)
    slots[1] = dataclasses.replace(slots[1], kind=3, gain=(), track=1)
    monkeypatch.setattr(turn, "C", dataclasses.replace(
        turn.C, crane=dataclasses.replace(crane, slots=tuple(slots))))
    s = play(build({"crane": (2, GREEN_ZONE, ("mines", "wall"))}), "take-tile 2",
             "wheel-bonus")
    assert s.univ[0] == 1


def test_P_ACT_1_six_actions_on_every_board():
    """P-ACT-1: six actions, each on one hex of every player's action board."""
    from meeplehall.games.praga.components import ACTIONS

    assert len(ACTIONS) == 6 and len(set(C.board_actions)) == 6
    s = build({"players": 4})
    assert all(len(u) == 6 for u in s.upg)


def test_projected_scores_do_not_change_the_state():
    """``final.projected_scores``: final scoring on a copy (for heuristics)."""
    from meeplehall.games.praga.final import projected_scores

    s = build({"p": {0: {"eggs": 4, "vp": 3}}})
    before = GAME.to_json(s)
    assert projected_scores(s)[0] == 3 + 10
    assert GAME.to_json(s) == before
