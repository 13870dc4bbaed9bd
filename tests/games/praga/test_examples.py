"""Appendix A worked examples T-01 .. T-20 as full-state scenarios.

Each test builds a state with ``fixtures.build``, plays the example through the engine
(``GAME.apply`` with the action texts a player would send) and checks what the example
states. Seats: 0 green, 1 red, 2 blue, 3 yellow (the rulebook examples use green, red and
blue). Example tiles are the data entries named in ``test_components``.
"""

from __future__ import annotations

import pytest

from meeplehall.core.rng import Rng
from meeplehall.games.praga import GAME, board
from meeplehall.games.praga import decisions as D
from meeplehall.games.praga.components import ACTIONS, CATHEDRAL, HUNGER_WALL, load
from meeplehall.games.praga.effects import ROW_BITS
from tests.games.praga.fixtures import BLUE, GREEN, RED, build, end_of_game, legal, play

C = load()
BLUE_2VP = C.crane.blue_start + 1  # the blue position worth 2 VP
GREEN_ZONE = C.crane.green_start + 1


def _final(s):
    s = end_of_game(s)
    s = play(s, "end-turn")
    out = GAME.outcome(s)
    assert out is not None
    return s, out


def test_T_01_manage_mines_produce_on_the_seventh_space():
    """T-01, P-MINE-1, P-MINE-2, P-MINE-4, P-PROD-2, GL-P1, GL-P2, GL-O3: cube on the 7th
    space, production token on the leftmost space: producing gives 6 gold, 2 VP and the
    token's bonus; the 9 cap applies (P-MINE-5)."""
    s = build({"crane": (2, GREEN_ZONE, ("mines", "wall")),
               "p": {0: {"mine": 7, "gold": 4, "ptoken": ("PT1", None)}}})
    s = play(s, "take-tile 2", "perform mines")
    assert legal(s) == ["expand", "produce"]
    s = play(s, "produce")
    assert s.gold[0] == 9  # 4 + 6 capped at 9
    assert s.vp[0] == 2 + 2 + 3  # 2 VP, PT1 2 VP, the 9-gold wealth bonus 3 VP
    assert s.wealth[0] == 1 | 4  # P-RES-4: the 6-gold and 9 bonuses, one cube each
    assert s.cubes[0] == C.supply_cubes + 2


def test_T_02_retroactive_bonus_of_the_upgrade_action():
    """T-02, P-UPG-1, P-UPG-2, P-UPG-3, P-UPG-7, P-EFR-2, P-ADJ-3, P-ADJ-8, GL-H10,
    GL-H11, GL-H12: no upgrades yet; the Upgrade action places the era II Upgrade upgrade
    (2 stone, red corner, silver-window edge): University +2, 2 stone at once, no corner
    or neighbour bonus."""
    s = build({"crane": (2, GREEN_ZONE, ("upgrade", "mines")),
               "rows": {"upgrade": ["U16", "U01", "U02", "U12"]}})
    s = play(s, "take-tile 2", "perform upgrade", "pick 0")
    assert legal(s) == [f"orient {o}" for o in range(6)]
    s = play(s, "orient 0")
    assert (s.univ[0], s.stone[0], s.red[0], s.silver[0]) == (2, 4, 0, 0)
    assert s.upg[0][2] == (C.upgrade_index("U16") * 6,)


def test_T_03_special_tile_only_with_the_special_bonus():
    """T-03, P-ROW-3, P-ROW-4, P-CRANE-8, GL-W2, P-EFR-4: a Build Building tile from an
    "S" slot may take the special building; a normal one instead gives the slot's VP."""
    spec = {"crane": (1, GREEN_ZONE, ("building", "mines")),
            "rows": {"building": ["B01", "B03", "B04", "B15"]}, "p": {0: {"gold": 5}}}
    s = play(build(spec), "take-tile 1", "perform building")
    assert "pick 3" in legal(s)
    normal = play(s, "pick 0")
    assert normal.vp[0] == C.crane.slots[0].vp
    special = play(s, "pick 3")
    assert special.vp[0] == 0
    # the extra action never reaches the special tile (P-XACT-4)
    s = build(spec | {"p": {0: {"gold": 5, "goldw": 2}}})
    s = play(s, "buy-extra gold", "extra building")
    assert "pick 3" not in legal(s)


def _market_example():
    return build({
        "players": 4, "crane": (1, GREEN_ZONE, ("building", "mines")),
        "rows": {"building": ["B01", "B03", "B04", "B15"]},
        "sites": {"S19": ("B14", RED, True), "S20": ("B13", BLUE, True)},
        "markets": {"M6": "K2"},
        "p": {GREEN: {"gold": 2}, RED: {"cubes": 1}, BLUE: {"cubes": 1}},
    })


def test_T_04_market_completion_with_a_tie_broken_by_spending():
    """T-04, P-BLD-2, P-BLD-3, P-BLD-9, P-ADJ-9, P-MKT-5, P-MKT-6, P-MKT-7, P-MKT-8,
    GL-H4, GL-H9, GL-M2, P-MKT-12: Green's special building (2 gold; +1 technology, +1
    stone; blue corner against a printed one; no cube space) completes the market: Green
    -2 gold +1 technology +1 stone +1 blue token +3 VP; Blue (spent 4) takes both rewards,
    Red (spent 3) chooses 2 silver windows or 4 VP; the cubes go home."""
    s = play(_market_example(), "take-tile 1", "perform building", "pick 3", "site S18",
             "orient 0")
    assert (s.gold[GREEN], s.tech[GREEN], s.stone[GREEN]) == (0, 1, 3)
    assert (s.blue[GREEN], s.vp[GREEN]) == (1, 3)
    assert (s.silver[BLUE], s.vp[BLUE]) == (2, 4)
    assert GAME.current_player(s) == RED and legal(s) == ["choose 0", "choose 1"]
    s = play(s, "choose 1")
    assert (s.vp[RED], s.silver[RED]) == (4, 0)
    assert (s.cubes[RED], s.cubes[BLUE], s.cubes[GREEN]) == (2, 2, C.supply_cubes)
    assert s.market_done[C.market_index("M6")]


def test_P_MKT_9_spent_reading_printed():
    """P-MKT-9, P-EDGE-12: the tie-break can use printed costs instead (option)."""
    s = build({"players": 4, "options": {"spent": "printed"}})
    assert s.opts.spent == "printed"


def test_T_05_kings_road_onto_the_bridge():
    """T-05, P-ROAD-1, P-ROAD-5, P-ROAD-6, P-BRIDGE-1, P-BRIDGE-3, P-BRIDGE-4, P-EGG-2,
    GL-O4: pawn on IV, a plank already laid: pay 1 egg, choose a V tile from the bridge
    pile, lay it on the middle pair (+1 egg, +1 blue token), pawn on the tile; no more
    King's Road actions."""
    s = build({"crane": (2, GREEN_ZONE, ("road", "mines")),
               "p": {0: {"road": 4, "eggs": 1}}, "set": {"bridge": [0, -1, -1, -1, -1]}})
    s = play(s, "take-tile 2", "perform road")
    assert s.eggs[0] == 0 and s.road[0] == 5
    assert legal(s) == [f"bridge-tile {C.bridge_tiles[t].id}" for t in sorted(s.v_pile)]
    v = C.bridge_tiles[s.v_pile[0]]
    s = play(s, f"bridge-tile {v.id}")
    assert "plank 0" not in legal(s) and "plank 2" in legal(s)
    s = play(s, "plank 2")
    assert (s.eggs[0], s.blue[0], s.v_tile[0]) == (1, 1, s.bridge[2])
    assert s.vp[0] == v.now_vp
    s.eggs[0] = 3
    s.xact, s.goldw[0] = 0, 2
    assert "extra road" not in legal(play(s, "buy-extra gold"))


def _cathedral_example():
    return build({"crane": (5, GREEN_ZONE, ("building", "mines")),
                  "rows": {"building": ["B06", "B01", "B03", "B15"]},
                  "p": {0: {"gold": 5, "stone": 1}}})


def test_T_06_cathedral_up_arrow_before_the_sideways_move():
    """T-06, P-GRID-11, P-CRANE-6, P-GRID-4, P-GRID-5, P-GRID-6, P-BLD-7, GL-W1, GL-H5,
    GL-G1, GL-G3, GL-G6, P-EFR-1, P-TIMING-1, P-TIMING-3 (the building's move is kept for
    later in the turn): silver window from the wheel and from a New
    Town building (4 gold, Cathedral symbol); 2 silver windows up onto an up arrow; pay 1
    gold + 1 stone to follow it into tier II; then right onto 2 VP."""
    s = play(_cathedral_example(), "take-tile 5", "perform building", "pick 0", "site S22")
    assert s.moves_cat == 1 and s.silver[0] == 1
    s = play(s, "wheel-bonus")
    assert s.silver[0] == 2 and "up cathedral" in legal(s)
    s = play(s, "up cathedral")
    assert legal(s) == ["arrow-up", "arrow-stay"]
    s = play(s, "arrow-up", "side cathedral")
    assert (s.gold[0], s.stone[0], s.silver[0]) == (0, 0, 0)
    assert divmod(s.cat[0], ROW_BITS) == (2, 1) and s.vp[0] == 2


def test_T_06_moving_right_first_forfeits_the_arrow():
    """T-06, LANG-11: moving sideways first lands off the arrow's column."""
    s = play(_cathedral_example(), "take-tile 5", "perform building", "pick 0", "site S22",
             "wheel-bonus", "side cathedral", "up cathedral")
    assert divmod(s.cat[0], ROW_BITS)[0] == 1
    assert GAME.current_player(s) == 0 and "arrow-up" not in legal(s)


def _search(s, prefixes, check):
    """The first state reached by choosing, in turn, one action starting with each of
    ``prefixes`` (skipping a prefix no legal action has) for which ``check`` holds."""
    if not prefixes:
        return s if check(s) else None
    options = [a for a in GAME.legal_actions(s) if str(a).startswith(prefixes[0])]
    if not options:
        return _search(s, prefixes[1:], check)
    for action in options:
        found = _search(GAME.apply(s, action), prefixes[1:], check)
        if found is not None:
            return found
    return None


def test_T_07_neighbour_pairs_extra_action_and_red_corner():
    """T-07, P-UPG-3, P-UPG-4, P-UPG-6, P-ADJ-1, P-ADJ-3, P-ADJ-5, P-ADJ-8, P-ADJ-10,
    P-XACT-1, P-XACT-2, P-WALL-1, P-WALL-2, P-WALL-3, P-WALL-4, P-WALL-5, P-WALL-8,
    P-EFR-3, GL-H7, GL-H8, P-ACT-4: the Upgrade action (its upgrade gives 1 gold window)
    places the era II Build Wall upgrade forming a technology + silver window pair; the
    extra action bought with 1 gold + 1 silver window builds the 4-stone 6-VP wall whose
    red corner meets a red corner."""
    # a wall with a silver symbol next to the Build Wall hex, and the red corner of the
    # Upgrade upgrade U09 at a free wall position's corner
    _, _, q, eq = next(x for x in board.EDGES[ACTIONS.index("wall")] if x[2] >= 6)
    orient = eq % 6  # W02 shows silver on its own edge 0
    s = build({"crane": (2, GREEN_ZONE, ("upgrade", "mines")),
               "rows": {"upgrade": ["U17", "U01", "U02", "U12"],
                        "wall": ["W01", "W03", "W04", "W15"]},
               "p": {0: {"upg": {"upgrade": ["U09"]}, "walls": {q - 6: ("W02", orient)},
                         "stone": 4}}})
    s = play(s, "take-tile 2", "perform upgrade")
    s = play(s, "pick 0")
    s = _search(s, ["orient"], lambda t: t.tech[0] == 1 and t.silver[0] == 1)
    assert s is not None and s.univ[0] == 2
    assert s.goldw[0] == 1  # U09's bonus (P-UPG-6), paid once the tile is placed
    s = play(s, legal(s)[0])  # the technology step reached level I: keep one (P-TECH-2)
    s = play(s, "buy-extra silver")
    assert (s.goldw[0], s.silver[0]) == (0, 0)
    s = play(s, "extra wall")
    assert s.vp[0] == 1  # U17's bonus
    s = play(s, "pick 0")
    assert (s.stone[0], s.vp[0]) == (0, 7)
    s = _search(s, ["wall-at", "orient"], lambda t: t.red[0] == 1)
    assert s is not None
    assert (s.goldw[0], s.silver[0], s.tech[0], s.univ[0], s.vp[0], s.stone[0]) == (
        0, 0, 1, 2, 7, 0)


def test_T_07_red_corners_pay_one_token_per_corner_already_there():
    """T-07, P-ADJ-8, P-ADJ-10, P-EDGE-5: a red corner meeting one red corner pays 1
    token; meeting two pays 2."""
    # a red-cornered wall at a vertex shared with two red corners (walls or upgrades)
    w01 = C.wall_index("W01")
    pos, c, others = next((p, c, o) for p in range(6, 18) for c in range(6)
                          if len(o := board.CORNERS[p][c]) == 2)
    upg: dict[str, list[tuple[str, int]]] = {}
    walls: dict[int, tuple[str, int]] = {}
    for _, q, cq in others:
        if q >= 6:
            walls[q - 6] = ("W01", cq % 6)
        else:
            u = next(u for u in C.upgrades if u.action == q and u.red_corners)
            upg[ACTIONS[q]] = [(u.id, (cq - u.red_corners[0]) % 6)]
    s = build({"p": {0: {"walls": walls, "upg": upg}}})
    board.place_wall(s, 0, w01, pos - 6, c % 6)
    assert s.red[0] == 2


def test_T_08_countdown_with_three_players():
    """T-08, P-CLOCK-2, P-CLOCK-6, P-CLOCK-7, P-TURN-1: the platform cube reaches the last
    space at the end of the start player's turn; the start player then has 3 turns left,
    the others 4; the game ends with 16 turns each."""
    s = GAME.initial_state({"players": 3}, 5)
    rng = Rng.from_seed(5)
    seen = None
    while GAME.current_player(s) is not None:
        before = s.platform
        actions = GAME.legal_actions(s)
        GAME.apply_unchecked(s, actions[rng.randbelow(len(actions))])
        if s.platform == C.crane.platform_spaces - 1 and before != s.platform:
            seen = [16 - n for n in s.played]
    assert seen == [3, 4, 4]
    assert s.played == [16, 16, 16] and s.turns == 48


def test_T_09_cathedral_top_row_and_red_tokens():
    """T-09, P-SCORE-4, P-GRID-7, P-GRID-8, GL-G4, GL-G5, GL-O1, P-ADJ-11: Green on the
    Cathedral's top row (13 VP), column value 3, 3 red tokens: 22 VP in step 3."""
    s = build({"p": {0: {"cat": (5, 3), "red": 3}}})
    _, out = _final(s)
    assert out.breakdown[0]["cathedral"] == 22


def test_T_10_academics():
    """T-10, P-SCORE-3, P-UNIV-3, P-UNIV-5, P-TECH-9, GL-P8: 7 technology steps score 21
    VP with the University cube at the top and 0 VP at the bottom."""
    _, out = _final(build({"p": {0: {"tech": 7, "univ": 8}, 1: {"tech": 7}}}))
    assert (out.breakdown[0]["academics"], out.breakdown[1]["academics"]) == (21, 0)


def test_T_11_pair_seal():
    """T-11, GL-S3, P-SEAL-5, P-SCORE-6: 5 gold and 8 stone buy 5 pairs = 15 VP."""
    s = build({"p": {0: {"gold": 5, "stone": 8}}, "set": {"seal_owner": [-1, -1, 0, -1, -1]}})
    _, out = _final(s)
    assert out.breakdown[0]["abilities"] == 15


def test_GL_S1_GL_S2_seals_in_the_best_order():
    """GL-S1, GL-S2, GL-S3, P-SCORE-6: two spending seals use each gold/stone once, in
    the order that scores most."""
    s = build({"p": {0: {"gold": 5, "stone": 3}}, "set": {"seal_owner": [0, -1, 0, -1, -1]}})
    _, out = _final(s)
    assert out.breakdown[0]["abilities"] == max(2 * 5 + 0, 3 * 3 + 2 * 2)


def test_T_12_rows_v_tile():
    """T-12, GL-B9, GL-G7: Hunger Wall row 3 and Cathedral row 2: 2 x (3 + 2) = 10 VP."""
    s = build({"p": {0: {"v_tile": "V6", "hw": (2, 5), "cat": (1, 0)}}})
    _, out = _final(s)
    hw_row_value = out.breakdown[0]["hunger_wall"]
    assert out.breakdown[0]["abilities"] == 10 and hw_row_value >= 0


@pytest.mark.parametrize(("tile", "field", "value", "vp"),
                         [("V1", "univ", 8, 8), ("V4", "mine", 9, 8), ("V5", "quarry", 8, 7)])
def test_T_13_v_tiles_at_the_top(tile, field, value, vp):
    """T-13, GL-B4, GL-B7, GL-B8, P-GRID-7, GL-G8: University top = 8, rightmost gold
    space = 8, rightmost quarry space = 7 (P-UNIV-4: 8 University steps); these tiles
    give 3 VP when taken (here from the Cathedral pile)."""
    s = build({"p": {0: {field: value}},
               "set": {"cat_pile": (C.bridge_tile_index(tile),),
                       "stack": [D.Turn(0), D.CatTile(0)]}})
    s = play(s, f"cathedral-tile {tile}")
    assert s.vp[0] == 3
    _, out = _final(s)
    assert out.breakdown[0]["abilities"] == vp


@pytest.mark.parametrize(("walls", "vp"), [(2, 0), (3, 4), (4, 10), (5, 10), (6, 18),
                                           (9, 18)])
def test_T_14_wall_points(walls, vp):
    """T-14, P-SCORE-5, P-WALL-7, GL-B6: 2/3/4/5/6/9 walls score 0/4/10/10/18/18."""
    s = build({"p": {0: {"walls": {k: "W01" for k in range(walls)}}}})
    _, out = _final(s)
    assert out.breakdown[0]["walls"] == vp


def test_P_SCORE_5_wall_points_is_callable_on_its_own():
    """P-SCORE-5: ``scoring.wall_points`` works without a game state."""
    from meeplehall.games.praga.scoring import wall_points

    assert [wall_points(n) for n in (0, 3, 4, 5, 6, 12)] == [0, 4, 10, 10, 18, 18]


@pytest.mark.parametrize(("eggs", "vp"), [(4, 10), (5, 10), (3, 6), (2, 3)])
def test_T_15_egg_points(eggs, vp):
    """T-15, P-SCORE-7, P-EGG-4: 4 or 5 eggs 10 VP, 3 eggs 6, 2 eggs 3."""
    _, out = _final(build({"p": {0: {"eggs": eggs}}}))
    assert out.breakdown[0]["eggs"] == vp


def test_T_16_one_gain_triggers_two_wealth_bonuses_once():
    """T-16, P-RES-1, P-RES-2, P-RES-4, GL-P6, P-COMP-3: 5 gold + 5 gold = 9 (1 lost);
    the 6-gold and the 9 bonus both trigger, once."""
    s = build({"crane": (2, GREEN_ZONE, ("mines", "wall")), "p": {0: {"mine": 6, "gold": 5}}})
    s = play(s, "take-tile 2", "perform mines", "produce")
    assert s.gold[0] == 9 and s.wealth[0] == 5
    assert s.goldw[0] == 1 and s.vp[0] == 2 + 3 and s.tech[0] == 1
    cubes = s.cubes[0]
    s.gold[0] = 0
    from meeplehall.games.praga.effects import add_resource

    add_resource(s, 0, 1, 9)
    assert s.cubes[0] == cubes and s.goldw[0] == 1


def test_T_17_steps_at_the_top_of_the_tracks_give_2_vp():
    """T-17, P-UNIV-2, P-TECH-8, P-UNIV-1: University on top: an era II upgrade's 2 steps
    give 4 VP; technology on top: 2 steps give 4 VP."""
    s = build({"crane": (2, GREEN_ZONE, ("upgrade", "mines")),
               "rows": {"upgrade": ["U17", "U01", "U02", "U12"]}, "p": {0: {"univ": 8}}})
    s = play(s, "take-tile 2", "perform upgrade", "pick 0", "orient 0")
    assert s.univ[0] == 8 and s.vp[0] == 4
    s = build({"p": {0: {"tech": C.tech_top}}, "markets": {"M1": "K4"},
               "set": {"stack": [D.Turn(0), D.MarketPick(0)]}})
    s = play(s, "market-tile M1")
    assert s.tech[0] == C.tech_top and s.vp[0] == 4 + 3


def test_T_18_ties_go_to_the_later_seat():
    """T-18, P-SCORE-9: two players tie; seats 1 and 3 (indices 0 and 2): seat 3 wins."""
    s = build({"players": 3, "p": {0: {"vp": 50}, 1: {"vp": 40}, 2: {"vp": 50}}})
    _, out = _final(s)
    assert out.scores[0] == out.scores[2] and out.winners == (2,)


def test_T_19_level_i_technology_adds_1_vp_once():
    """T-19, GL-T1-4, P-CRANE-5, GL-W6: a blue-zone tile worth 2 VP gives 3."""
    s = build({"crane": (2, BLUE_2VP, ("mines", "wall")), "p": {0: {"techs": ["T1f"]}}})
    s = play(s, "take-tile 2")
    assert s.vp[0] == 3


def test_T_20_kings_road_needs_an_egg_for_space_iv():
    """T-20, P-ROAD-4, P-ACT-3: pawn on III without eggs: King's Road is not possible."""
    s = build({"crane": (2, GREEN_ZONE, ("road", "mines")), "p": {0: {"road": 3}}})
    s = play(s, "take-tile 2")
    assert "perform road" not in legal(s) and "perform mines" in legal(s)


def test_cathedral_and_hunger_wall_start_cells():
    """P-SETUP-21, P-GRID-2: bottom-right on the Hunger Wall, bottom-left on the
    Cathedral."""
    s = GAME.initial_state({"players": 2}, 1)
    assert divmod(s.hw[0], ROW_BITS) == (0, C.grids[HUNGER_WALL].columns - 1)
    assert divmod(s.cat[0], ROW_BITS) == (0, 0)
    assert C.grids[CATHEDRAL].direction == 1
