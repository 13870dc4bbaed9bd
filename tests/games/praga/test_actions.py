"""The six actions (§4): mines and quarries with production tokens and seals, upgrades,
walls, buildings and markets; adjacency (§6); resources (§10); seals (§11)."""

from __future__ import annotations

from meeplehall.games.praga import board
from meeplehall.games.praga import decisions as D
from meeplehall.games.praga.city import SITE_CORNERS
from meeplehall.games.praga.components import MINES, UPGRADE, load
from tests.games.praga.fixtures import BLUE, GREEN, RED, build, legal, play

C = load()
GREEN_ZONE = C.crane.green_start + 1


def _mines(**player):
    return build({"crane": (2, GREEN_ZONE, ("mines", "quarries")), "p": {0: player}})


def test_P_MINE_2_expand_and_P_MINE_3_production_token_space():
    """P-MINE-2 (A), P-MINE-3, P-PROD-1, P-PROD-2, GL-P4, GL-O3: expanding gains 1 gold
    and moves the cube; reaching the token space lets the player take any token from the
    river for the leftmost space; producing then pays its bonus."""
    s = _mines(mine=C.gold_track.token_space - 1)
    s = play(s, "take-tile 2", "perform mines", "expand")
    assert s.gold[0] == 3 and s.mine[0] == C.gold_track.token_space
    assert s.stack[-1] == D.Token(0, 0)
    assert legal(s) == [f"token {C.production_tokens[t].id}" for t in sorted(s.river)]
    s = play(s, "token PT3")
    assert s.ptoken[0] == (C.production_tokens.index(
        next(t for t in C.production_tokens if t.id == "PT3")), -1)
    assert len(s.river) == 7


def test_P_MINE_1_mines_and_P_MINE_7_bonuses_every_production():
    """P-MINE-1, P-MINE-7, GL-P1, GL-P2, GL-P3: mines = the highest number left of the
    cube; production bonuses left of the cube pay every time (+1 technology at gold space
    8)."""
    s = _mines(mine=9, gold=0)
    s = play(s, "take-tile 2", "perform mines", "produce")
    assert s.gold[0] == 8 and s.tech[0] == 1


def test_P_MINE_6_no_expand_on_the_last_space_and_P_SEAL_1():
    """P-MINE-6, P-EDGE-2, P-SEAL-1, GL-P5, P-MINE-5: the last space is the seal space;
    reaching it gives a seal right; there the cube cannot move further."""
    s = _mines(mine=C.gold_track.spaces - 1)
    s = play(s, "take-tile 2", "perform mines", "expand")
    assert s.seal_rights[0] == 1 and s.mine[0] == C.gold_track.spaces
    s = _mines(mine=C.gold_track.spaces)
    s = play(s, "take-tile 2", "perform mines")
    assert legal(s) == ["produce"]


def test_P_QUAR_1_and_P_QUAR_2_quarries():
    """P-QUAR-1, P-QUAR-2: the same with stone, its own token and seal spaces."""
    s = _mines(quarry=C.quarry_track.token_space - 1)
    s = play(s, "take-tile 2", "perform quarries", "expand")
    assert s.stone[0] == 3 and s.stack[-1] == D.Token(0, 1)
    s = _mines(quarry=5, stone=0)
    s = play(s, "take-tile 2", "perform quarries", "produce")
    assert s.stone[0] == 4 and s.tech[0] == 1  # quarry space 4: +1 technology


def test_P_SEAL_2_to_4_claiming_a_seal():
    """P-SEAL-2, P-SEAL-3, P-SEAL-4, P-EDGE-9: a seal right is used in an own turn: pay the
    printed cost and put a cube from the supply on a free seal; without a cube, no claim;
    a claimed seal is nobody else's."""
    s = build({"p": {0: {"seal_rights": 1, "silver": 2}}})
    assert "claim-seal S1" in legal(s) and "claim-seal S4" in legal(s)
    s = play(s, "claim-seal S1")
    assert (s.silver[0], s.cubes[0], s.seal_rights[0], s.seal_owner[0]) == (
        0, C.supply_cubes - 1, 0, 0)
    s = build({"p": {0: {"seal_rights": 1, "cubes": 0}}})
    assert not [a for a in legal(s) if a.startswith("claim-seal")]
    s = build({"p": {0: {"seal_rights": 1}}, "set": {"seal_owner": [1, -1, -1, -1, -1]}})
    assert "claim-seal S1" not in legal(s)


def _upgrade_turn(**player):
    return build({"crane": (2, GREEN_ZONE, ("upgrade", "mines")),
                  "rows": {"upgrade": ["U01", "U02", "U03", "U12"]}, "p": {0: player}})


def test_P_UPG_5_stacking_only_the_top_tile_counts():
    """P-UPG-5, P-UPG-6, P-UPG-8, GL-B5, GL-R1: an upgrade on an upgraded action covers the
    old one; only the top bonus is paid; both count as owned tiles."""
    s = _upgrade_turn(upg={"mines": ["U01"]})
    s = play(s, "take-tile 2", "perform upgrade", "pick 0")
    s = play(s, legal(s)[0]) if legal(s)[0].startswith("orient") else s
    assert len(s.upg[0][MINES]) == 2 and board.owned_upgrades(s, 0) == 2
    assert board.owned_upgrades(s, 0, era=1) == 2


def test_P_UPG_7_retroactive_bonus_for_an_earlier_performance():
    """P-UPG-7, P-EFR-2: Manage Mines performed, then an upgrade for Manage Mines placed by
    the extra action: its bonus (1 gold) is taken at once."""
    s = build({"crane": (2, GREEN_ZONE, ("mines", "wall")),
               "rows": {"upgrade": ["U01", "U02", "U03", "U12"]},
               "p": {0: {"goldw": 2, "gold": 0}}})
    s = play(s, "take-tile 2", "perform mines", "produce")
    gold = s.gold[0]
    s = play(s, "buy-extra gold", "extra upgrade", "pick 0")
    s = play(s, "orient 0") if "orient 0" in legal(s) else s
    assert s.gold[0] == gold + 1


def test_P_ADJ_6_a_used_connection_does_not_pay_again():
    """P-ADJ-6, P-ADJ-5, LANG-12: each edge pays once per game, also under a stacked
    upgrade; P-ADJ-4: the University reminder is no symbol (upgrades list only edge
    symbols)."""
    s = build({})
    a = UPGRADE
    eid, e, q, eq = next(x for x in board.EDGES[a] if x[2] >= 6)
    s.edge_paid[0] |= 1 << eid
    w02 = C.wall_index("W02")
    board.place_wall(s, 0, w02, q - 6, eq)
    u = C.upgrade_index("U16")  # silver symbol on its edge 0
    board.place_upgrade(s, 0, u, e)
    assert s.silver[0] == 0 and s.tech[0] == 0


def test_P_ADJ_2_and_P_ADJ_7_tile_symbols():
    """P-ADJ-2, P-ADJ-7, GL-H7, GL-H8, GL-H1, GL-H2: walls and upgrades carry edge symbols
    and red corners; buildings only blue corners (no edge symbols)."""
    assert any(w.edges for w in C.walls) and any(u.red_corners for u in C.upgrades)
    assert not hasattr(C.buildings[0], "edges")
    assert all(b.gold + b.stone > 0 for b in C.buildings)


def test_P_ADJ_1_walls_touch_the_board_and_positions_are_used_once():
    """P-ADJ-1, P-WALL-4: 12 wall positions around the 7-hex board; each used once."""
    s = build({"p": {0: {"walls": {0: "W01"}}}})
    assert board.free_wall_positions(s, 0) == list(range(1, 12))


def _build_turn(site_spec=None, **player):
    spec = {"crane": (2, GREEN_ZONE, ("building", "mines")),
            "rows": {"building": ["B01", "B03", "B04", "B15"]}, "p": {0: player}}
    if site_spec:
        spec["sites"] = site_spec
    return spec


def test_P_BLD_2_and_P_BLD_3_old_town_surcharge_and_vp():
    """P-BLD-2, P-BLD-3, P-BLD-1, GL-H2, LANG-9: an Old Town site costs its printed extra
    gold and gives its printed VP; unaffordable sites are not offered."""
    s = play(build(_build_turn(gold=3)), "take-tile 2", "perform building", "pick 0")
    site = C.sites[C.site_index("S03")]
    at_m1 = play(s, "at-market M1")
    assert site.surcharge == 2 and "site S03" not in legal(at_m1)  # B01 2 gold + 2
    assert "site S01" in legal(at_m1)
    s = play(s, "site S01")
    s = play(s, "orient 0") if "orient 0" in legal(s) else s
    assert s.gold[0] == 0 and s.vp[0] >= C.sites[0].vp + 2


def test_P_BLD_4_and_P_BLD_5_sites_only():
    """P-BLD-4, P-BLD-5, GL-H3, P-MKT-3, P-BLD-8, P-BLD-10: only empty sites (no market
    hexes, no road); every site borders one market; a cube-space building takes a cube."""
    s = play(build(_build_turn(gold=9)), "take-tile 2", "perform building", "pick 0")
    markets = [a.split()[1] for a in legal(s)]
    offered = [a.split()[1] for m in markets for a in legal(play(s, f"at-market {m}"))]
    assert len(offered) == sum(1 for t in s.site_tile if t < 0)
    assert all(C.sites[C.site_index(x)].market == C.market_index(m)
               for m in markets for x in [a.split()[1]
                                          for a in legal(play(s, f"at-market {m}"))])
    s = play(s, "site S22")
    s = play(s, "orient 0") if "orient 0" in legal(s) else s
    k = C.site_index("S22")
    assert s.site_cube[k] and s.cubes[0] == C.supply_cubes - 1 and s.site_owner[k] == 0


def test_P_MKT_4_no_cube_in_supply_and_P_MKT_11_empty_market():
    """P-MKT-4: with an empty supply the building is built without a cube. P-MKT-11: on an
    empty market no cube is placed."""
    s = play(build(_build_turn(gold=9, cubes=0)), "take-tile 2", "perform building",
             "pick 0", "site S22")
    s = play(s, "orient 0") if "orient 0" in legal(s) else s
    assert not s.site_cube[C.site_index("S22")]
    spec = _build_turn(gold=9) | {"players": 2, "markets": {"M7": None}}
    s = play(build(spec), "take-tile 2", "perform building", "pick 0", "site S22")
    s = play(s, "orient 0") if "orient 0" in legal(s) else s
    assert not s.site_cube[C.site_index("S22")] and s.cubes[0] == C.supply_cubes


def test_P_MKT_5_vp_per_building_and_GL_H4():
    """P-MKT-5, GL-H4, P-BLD-6: a building without a cube space gives 1 VP per building
    around its market, itself included."""
    spec = _build_turn(gold=9) | {"players": 4, "sites": {"S21": ("B01", 1, False)}}
    s = play(build(spec), "take-tile 2", "perform building", "pick 2")  # B04: no cube
    s = play(s, "site S22")
    s = play(s, "orient 0") if "orient 0" in legal(s) else s
    assert s.vp[0] == 3 + 2  # B04's 3 VP reward + 2 buildings around M7


def test_P_MKT_6_sole_claimant_and_P_MKT_10_rewards_on_another_turn():
    """P-MKT-6, P-MKT-2, P-MKT-10, P-GRID-10: a sole claimant takes both rewards, during
    another player's turn; the completer without a cube gets nothing."""
    spec = _build_turn(gold=9) | {
        "players": 4, "markets": {"M6": "K2"},
        "sites": {"S19": ("B14", RED, True), "S20": ("B13", RED, True)}}
    s = play(build(spec), "take-tile 2", "perform building", "pick 2", "site S18")
    s = play(s, "orient 0") if "orient 0" in legal(s) else s
    assert (s.silver[RED], s.vp[RED]) == (2, 4) and s.vp[BLUE] == 0
    assert s.vp[GREEN] == 3 + 3


def test_P_ADJ_9_blue_corners_meet_printed_corners_and_buildings():
    """P-ADJ-9, P-ADJ-10, GL-H9: a building's blue corner on a printed blue corner gives 1
    blue token; on another building's blue corner (any owner) 1 more; only the placer
    gains."""
    from meeplehall.games.praga.city import place_building

    k = C.site_index("S18")
    printed, _ = SITE_CORNERS[k][0]
    assert printed
    b01 = C.building_index("B01")  # blue corner 0
    s = build({"players": 4, "p": {0: {"gold": 9}, 1: {"gold": 9}}})
    place_building(s, 0, b01, k, 0, 0)
    assert s.blue[0] == 1
    # two sites meeting at a vertex without a printed corner
    site, c, other, oc = next((x, c, o, oc) for x in range(len(C.sites)) for c in range(6)
                              for o, oc in SITE_CORNERS[x][c][1]
                              if not SITE_CORNERS[x][c][0])
    s = build({"players": 4, "p": {0: {"gold": 9}, 1: {"gold": 9}}})
    place_building(s, 1, b01, other, oc % 6, 0)
    assert s.blue[1] == 0
    place_building(s, 0, b01, site, c % 6, 0)
    assert s.blue[0] == 1 and s.blue[1] == 0


def test_P_RES_5_and_P_TOK_1_no_caps_on_tokens():
    """P-RES-5, P-TOK-1, P-TOK-2, P-EGG-5: eggs, windows and tokens have no cap apart from
    the 2-window limit at the end of one's turn."""
    from meeplehall.games.praga.effects import gain

    s = build({"p": {0: {"eggs": 20, "red": 40, "silver": 9}}})
    gain(s, 0, 5, 1)  # EGG
    gain(s, 0, 6, 3)  # RED_TOKEN
    gain(s, 0, 3, 1)  # SILVER
    assert (s.eggs[0], s.red[0], s.silver[0]) == (21, 43, 10)
