"""Rules errors found by the four-rulebook audit (docs/praga-fidelity-audit.md, "Rule
errors fixed"): re-upgrading is not cumulative, the level IV "+1 mine or quarry, then
produce" order, tiles made takeable by their own wheel slot, and the Charles Bridge
bonus pieces in any orientation."""

from __future__ import annotations

from meeplehall.games.praga import GAME
from meeplehall.games.praga import decisions as D
from meeplehall.games.praga.components import GOLD, MINES, UNIV, VP, load
from tests.games.praga.fixtures import build, legal, play, slot_of

C = load()
GREEN_ZONE = C.crane.green_start + 1


def _place(s, pick: str):
    s = play(s, pick)
    return play(s, "orient 0") if "orient 0" in legal(s) else s


def test_P_UPG_5_P_UPG_7_re_upgrading_the_upgrade_action_pays_old_or_new_not_both():
    """P-UPG-5 ([DE] "allerdings rechnest du sie nicht zusammen ... ignoriere die
    vorige", [PL] "nie kumuluje", [PT] "não são cumulativas", [RU] "не складываются"),
    P-UPG-7, ruling agreed with the author and publisher (Yucata rules page, BGA
    amendment): an Upgrade performance that covers the Upgrade hex's tile (U03, 1
    University step) with a new one (U16, 2 stone) pays one bonus, chosen by the player:
    the old or the new."""
    spec = {"crane": (2, GREEN_ZONE, ("upgrade", "mines")),
            "rows": {"upgrade": ["U16", "U02", "U01", "U12"]},
            "p": {0: {"upg": {"upgrade": ["U03"]}, "stone": 0}}}
    s = play(build(spec), "take-tile 2", "perform upgrade")
    univ = s.univ[0]
    s = _place(s, "pick 0")
    assert isinstance(s.stack[-1], D.Choose) and legal(s) == ["choose 0", "choose 1"]
    assert s.stack[-1].options == (((UNIV, 1),), C.upgrades[C.upgrade_index("U16")].bonus)
    new = play(s, "choose 1")
    assert (new.stone[0], new.univ[0]) == (2, univ + 2)  # era II placement: 2 steps
    old = play(s, "choose 0")
    assert (old.stone[0], old.univ[0]) == (0, univ + 3)


def test_P_UPG_7_a_bonus_already_taken_for_the_old_tile_is_that_performances_bonus():
    """P-UPG-5/7, BGA amendment ("only one of them can be used per performance"): Manage
    Mines performed with U01 (1 gold) this turn, then the Mines hex re-upgraded with U07
    (2 VP) by the extra action: the earlier performance has had its bonus; the new tile's
    retroactive bonus is not added to it."""
    spec = {"crane": (2, GREEN_ZONE, ("mines", "wall")),
            "rows": {"upgrade": ["U07", "U02", "U03", "U12"]},
            "p": {0: {"upg": {"mines": ["U01"]}, "goldw": 2, "gold": 0}}}
    s = play(build(spec), "take-tile 2", "perform mines", "produce")
    gold, vp = s.gold[0], s.vp[0]
    s = _place(play(s, "buy-extra gold", "extra upgrade"), "pick 0")
    assert len(s.upg[0][MINES]) == 2
    assert (s.gold[0], s.vp[0]) == (gold, vp)
    assert not isinstance(s.stack[-1], D.Choose)


def test_P_UPG_7_a_later_performance_in_the_same_turn_chooses_old_or_new():
    """P-UPG-5/7, BGA amendment: after re-upgrading, both tiles are available for the rest
    of the turn, one per performance: Manage Mines performed after U07 covered U01 asks
    for 1 gold (old) or 2 VP (new)."""
    spec = {"crane": (2, GREEN_ZONE, ("upgrade", "wall")),
            "rows": {"upgrade": ["U07", "U02", "U03", "U12"]},
            "p": {0: {"upg": {"mines": ["U01"]}, "goldw": 2, "gold": 0}}}
    s = _place(play(build(spec), "take-tile 2", "perform upgrade"), "pick 0")
    s = play(s, "buy-extra gold", "extra mines")
    assert isinstance(s.stack[-1], D.Choose)
    assert s.stack[-1].options == (((GOLD, 1),), ((VP, 2),))
    vp = s.vp[0]
    s = play(s, "choose 1", "produce")
    assert s.vp[0] == vp + 2 and s.gold[0] == s.mine[0] - 1  # production only
    s = play(s, "end-turn")  # from the next turn only the top tile counts (P-UPG-5)
    assert s.covered == 0


def test_P_UPG_7_the_first_upgrade_of_an_action_still_pays_retroactively():
    """P-UPG-7 ([ALL] example): a first tile on the Upgrade hex placed by the Upgrade
    action gives its bonus for that very performance (U16: 2 stone)."""
    spec = {"crane": (2, GREEN_ZONE, ("upgrade", "mines")),
            "rows": {"upgrade": ["U16", "U02", "U01", "U12"]}, "p": {0: {"stone": 0}}}
    s = _place(play(build(spec), "take-tile 2", "perform upgrade"), "pick 0")
    assert s.stone[0] == 2 and not isinstance(s.stack[-1], D.Choose)


def test_GL_T4_6_the_production_token_is_taken_before_producing():
    """GL-T4-6, P-PROD-1/2, [DE] p. 16: "+1 mine or quarry, then produce": the token the
    cube reaches is taken at once (P-PROD-1), and then ("Danach produzierst du") the
    production pays with it: PT3 (1 VP + 1 gold) counts."""
    space = C.gold_track.token_space
    s = build({"p": {0: {"techs": ["T4f"], "mine": space - 1, "gold": 0}}})
    s = play(s, "use-tech T4f", "grow mine gold")
    assert isinstance(s.stack[-1], D.Token) and (s.gold[0], s.vp[0]) == (0, 0)  # not produced yet
    s = play(s, "token PT3")
    track_vp = sum(dict(C.gold_track.produce_bonus[k - 1]).get(VP, 0) for k in range(1, space))
    assert (s.gold[0], s.vp[0]) == ((space - 1) + 1, track_vp + 1)


def _slot_tile(slot: int, pair: tuple[str, str], **p: object) -> dict:
    return {"crane": (slot, GREEN_ZONE, pair), "rows": {"upgrade": [None] * 4},
            "p": {0: p}}


def test_P_TURN_3_P_CRANE_6_the_slots_gold_makes_the_tile_takeable():
    """P-TURN-3, P-CRANE-6, P-ACT-3: the gold of a tile's own wheel slot counts when
    deciding whether its action can be performed: a Build Building tile in a "1 gold"
    slot is offered to a player 1 gold short of B01 (2 gold); the action is then
    mandatory, after the wheel bonus."""
    slot = slot_of("gain", gain="gold")
    spec = _slot_tile(slot, ("building", "upgrade"), gold=1) | {
        "rows": {"building": ["B01", "B04", "B06", "B18"], "upgrade": [None] * 4}}
    s = build(spec)
    assert f"take-tile {slot}" in legal(s)
    s = play(s, f"take-tile {slot}")
    assert "end-turn" not in legal(s) and "wheel-bonus" in legal(s)
    s = play(s, "wheel-bonus")
    assert "perform building" in legal(s)
    s = play(s, "perform building", "pick 0")
    s = play(s, legal(s)[0])  # a market
    s = play(s, legal(s)[0])  # a site there
    s = play(s, "orient 0") if "orient 0" in legal(s) else s
    assert s.gold[0] == 0 and C.building_index("B01") in s.site_tile


def test_P_CRANE_8_the_special_slot_makes_the_tile_takeable():
    """P-CRANE-8, P-ROW-3, P-TURN-3: on a special-tile slot the special building counts:
    a player who can afford only B15 (special, 2 gold) may take the Build Building tile
    there and build it."""
    slot = slot_of("special")
    spec = _slot_tile(slot, ("building", "upgrade"), gold=2) | {
        "rows": {"building": ["B04", "B06", "B09", "B15"], "upgrade": [None] * 4}}
    s = build(spec)
    assert f"take-tile {slot}" in legal(s)
    s = play(s, f"take-tile {slot}", "perform building")
    assert legal(s) == ["pick 3"]


def test_P_CRANE_7_the_slots_egg_makes_the_road_takeable():
    """P-CRANE-7, P-ROAD-4, P-ACT-3: the egg a slot sells counts too: a King's Road tile on
    the egg slot is offered to a player on space III without an egg who can buy one."""
    slot = slot_of("egg")
    gold, stone, _, _ = C.crane.slots[slot - 1].price
    spec = _slot_tile(slot, ("road", "upgrade"), road=3, eggs=0, gold=gold, stone=stone)
    s = build(spec)
    assert f"take-tile {slot}" in legal(s)
    s = play(s, f"take-tile {slot}")
    assert "end-turn" not in legal(s)
    s = play(s, "wheel-bonus")
    assert s.eggs[0] == 1 and "perform road" in legal(s)


def test_P_BRIDGE_1_bonus_pieces_lie_in_any_orientation():
    """P-SETUP-2, P-BRIDGE-1, ruling agreed with the author and publisher (Yucata rules
    page: "in beliebiger Orientierung"): with ``bridge_layout = "random"`` every piece is
    found with either side up and either end first, so every orientation is playable;
    the fixed layout is one of them."""
    seen: set[tuple[object, ...]] = set()
    for seed in range(200):
        s = GAME.initial_state({"players": 2, "bridge_layout": "random"}, seed)
        seen.update(s.planks)
    wanted = set()
    for piece in C.bridge_pieces:
        for side in (piece.side_a, piece.side_b):
            wanted.add(tuple(side))
            wanted.add(tuple(reversed(side)))
    assert wanted <= seen
    fixed = GAME.initial_state({"players": 2}, 1)
    assert fixed.planks == tuple(tuple(p.side_a) for p in C.bridge_pieces)


def test_P_CRANE_7_every_egg_is_bought_with_gold_and_the_art_reading_is_an_option():
    """P-CRANE-7 ([DE], [PL], [PT], [RU]: the egg is paid in gold): both egg slots sell
    for gold; ``egg_price = "art"`` reads the slot whose small crane art seems to show a
    stone price (crane.toml ``art_price``)."""
    eggs = [slot for slot in C.crane.slots if slot.kind == 2]
    assert len(eggs) == 2 and all(slot.price[1:] == (0, 0, 0) for slot in eggs)
    last = eggs[-1].wheel
    spec = {"crane": (last, GREEN_ZONE, ("mines", "quarries")), "p": {0: {"gold": 1, "stone": 0}}}
    s = play(build(spec), f"take-tile {last}", "wheel-bonus")
    assert (s.gold[0], s.eggs[0]) == (0, 1)
    art = build(spec | {"options": {"egg_price": "art"}, "p": {0: {"gold": 0, "stone": 1}}})
    art = play(art, f"take-tile {last}", "wheel-bonus")
    assert (art.stone[0], art.eggs[0]) == (0, 1)


def test_P_CRANE_5_the_last_five_of_twelve_positions_give_vp():
    """P-CRANE-1/4/5 with the public page (spielkultisten.de: the first four positions cost
    gold, the last five of twelve give VP), P-CRANE-12: blue ends at the last position,
    worth 5 VP; a tile carried past it (towards the start of red) overflows to green with
    the 5-VP token; the clock (P-CLOCK-3) does not depend on the zones."""
    from meeplehall.games.praga import crane as K

    cr = C.crane
    assert [K.zone_cost(cr, b) > 0 for b in range(12)] == [True] * 4 + [False] * 8
    assert [K.zone_vp(cr, b) > 0 for b in range(12)] == [False] * 7 + [True] * 5
    assert K.zone_vp(cr, 11) == 5 and cr.beyond == cr.positions
    rot = 5  # the box at board 5: one step
    slots = [K.EMPTY] * 12
    slots[K.wheel_at(cr, 11, rot)] = 4
    slots[K.wheel_at(cr, 10, rot)] = 3
    res = K.end_turn(cr, rot, tuple(slots), 0)
    assert res.overflowed == (4,)
    assert K.board_position(cr, res.slots.index(3), res.rotation) == 11  # still blue
    assert K.schedule(3).drops == (4, 15, 26, 37, 48)
