"""Claiming a Cathedral card and the advanced Workshop side (RC-CLAIM-1..7, RC-ADV-1..4)."""

from __future__ import annotations

from meeplehall.games.red_cathedral import GAME
from meeplehall.games.red_cathedral.components import WS_POSITIONS, load
from meeplehall.games.red_cathedral.decisions import PlaceTile
from meeplehall.games.red_cathedral.effects import free_space
from meeplehall.games.red_cathedral.state import BANNER, EMPTY
from tests.games.red_cathedral.fixtures import build, card, legal, play

C = load()
TILES = ["rp", "green", "purple", "brick", "wood", "stone", "gold", "rubles"]
DICE = {"yellow": (0, 3), "red": (1, 1), "blue": (2, 2), "green": (3, 4), "white": (7, 1)}


def one_tower(*cards, **extra):
    """A single tower (Base, Middle, Dome by default) with seat 0 to move."""
    tower = list(cards) or [card("B01", tile="W17"), card("M01", tile="W04"),
                            card("D01", tile="W13")]
    return build({"players": 2, "towers": [tower], "tiles": TILES, "dice": DICE,
                  "turn": 0, **extra})


def claims(s):
    return {a for a in legal(s) if a.startswith("claim")}


def test_claim_steps():
    """RC-CLAIM-1: take a Banner (from the Inventory: a space frees up), place it on an
    available card, take the card's tile and place it face up (paying the space's cost and
    gaining its benefit at once) or face down."""
    s = one_tower()
    room = free_space(s, 0)
    s = play(s, "claim 0 inventory")
    assert s.owner[0] == 0 and s.inv_banners[0] == 3 and free_space(s, 0) == room + 1
    assert s.stack[-1] == PlaceTile(0, C.tile_index("W17"))
    assert {"place-tile yellow up", "place-tile yellow down"} <= legal(s)
    s = play(s, "place-tile yellow up")  # W17: 2 Rubles, yellow costs 1
    assert s.rubles[0] == 3 - 1 + 2
    assert s.ws[0][0] == 2 * C.tile_index("W17") + 1
    assert s.ws_tile[0] == -1


def test_claim_face_down_is_free_and_never_activates():
    """RC-CLAIM-1 step 3: a face-down tile costs nothing and never gives anything."""
    s = play(one_tower(), "claim 0 outside", "place-tile yellow down")
    assert s.rubles[0] == 3 and s.out_banners[0] == 1
    s = build({"players": 2, "tiles": TILES, "dice": DICE, "turn": 0,
               "ws": {0: {"yellow": ("W17", "down")}}})
    s = play(s, "move-die yellow +0")
    assert "activate yellow" not in legal(s)


def test_available_cards():
    """RC-CLAIM-2: a card without a Banner that is a Base or has Banners on every card
    below it."""
    s = one_tower()
    assert claims(s) == {"claim 0 inventory", "claim 0 outside"}
    s = one_tower(card("B01", 1), "M01", "D01")
    assert claims(s) == {"claim 1 inventory", "claim 1 outside"}
    s = one_tower(card("B01", 1), card("M01", 1, done=True), "D01")
    assert claims(s) == {"claim 2 inventory", "claim 2 outside"}


def test_claim_needs_an_empty_workshop_position():
    """RC-CLAIM-3: a claim is legal only if a Workshop position is empty for the tile."""
    full = {p: (f"W0{i + 1}", "down") for i, p in enumerate(WS_POSITIONS)}
    s = one_tower(ws={0: full})
    assert not claims(s)
    almost = dict(full)
    almost["white-2"] = "empty"
    s = play(one_tower(ws={0: almost}), "claim 0 inventory")
    assert {a for a in legal(s) if a.startswith("place-tile")} == {
        "place-tile white up", "place-tile white down"}


def test_tile_colour_need_not_match_space():
    """RC-CLAIM-4: any tile may go on any empty space; a die tile's colour does not limit
    where it goes (the seed puts a white-die tile on blue)."""
    s = play(one_tower(card("B01", tile="W28"), "M01", "D01"), "claim 0 inventory")
    for colour in ("yellow", "red", "blue", "green", "white"):
        assert f"place-tile {colour} down" in legal(s)


def test_cannot_pay_means_face_down():
    """RC-CLAIM-5: without the Rubles only face down is offered."""
    s = play(one_tower(rubles={0: 0}), "claim 0 inventory")
    assert not {a for a in legal(s) if a.endswith(" up")}
    s = play(one_tower(rubles={0: 2}), "claim 0 inventory")
    ups = {a.split()[1] for a in legal(s) if a.endswith(" up")}
    assert ups == {"yellow", "red", "blue"}  # costs 1, 2, 2; green and white cost 3


def test_claimed_card_belongs_to_the_banner_owner():
    """RC-CLAIM-6: only the owner delivers to a claimed card; the Banner stays after
    completion."""
    s = build({"players": 2, "towers": [[card("B01", 1, delivered={"wood": 2}), "M01", "D01"]],
               "inv": {0: {"brick": 1}, 1: {"brick": 1}}, "turn": 0})
    assert "build" not in legal(s)
    s = build({"players": 2, "towers": [[card("B01", 1, delivered={"wood": 2}), "M01", "D01"]],
               "inv": {1: {"brick": 1}}, "turn": 1})
    s = play(s, "build", "deliver brick 0")
    assert s.done[0] and s.owner[0] == 1


def test_no_banner_no_claim():
    """RC-CLAIM-7: with every Banner used, a player cannot claim (6 claims at most)."""
    s = one_tower(banners={0: (0, 0)})
    assert not claims(s)
    s = one_tower(banners={0: (1, 0)})
    assert claims(s) == {"claim 0 inventory"}


# --- advanced side ------------------------------------------------------------------------
def advanced(**extra):
    return one_tower(card("B01", tile="W17"), "M01", "D01",
                     options={"advanced_workshops": True}, **extra)


def test_advanced_setup():
    """RC-ADV-1: Ornamentations start on their Workshop spaces (locked); 4 Banners in the
    Inventory and 2 on the white positions."""
    s = advanced()
    assert s.orn_avail[0] == (0, 0, 0)
    assert s.ws[0] == (EMPTY,) * 4 + (BANNER, BANNER)
    assert s.inv_banners[0] == 4


def test_advanced_face_up_always_costs_three():
    """RC-ADV-2: placing face up costs 3 Rubles on any space."""
    s = play(advanced(rubles={0: 3}), "claim 0 inventory")
    assert {a.split()[1] for a in legal(s) if a.endswith(" up")} == {
        "yellow", "red", "blue", "green"}
    s = play(s, "place-tile red up")
    assert s.rubles[0] == 3 - 3 + 2
    s = play(advanced(rubles={0: 2}), "claim 0 inventory")
    assert not {a for a in legal(s) if a.endswith(" up")}


def test_advanced_paying_unlocks_the_ornamentation():
    """RC-ADV-3: a face-up tile on a space holding an Ornamentation unlocks it (the Arch
    on green); face down leaves it locked for good."""
    up = play(advanced(rubles={0: 3}), "claim 0 inventory", "place-tile green up")
    assert up.orn_avail[0] == (0, 1, 0)
    down = play(advanced(), "claim 0 inventory", "place-tile green down")
    assert down.orn_avail[0] == (0, 0, 0)


def test_advanced_white_banners():
    """RC-ADV-4: a white-position Banner may be claimed with; it frees no Inventory space;
    no tile goes on a white position holding a Banner; the same claim may use the freed
    position."""
    s = advanced()
    room = free_space(s, 0)
    assert "place-tile white down" not in legal(play(s, "claim 0 inventory"))
    s = play(s, "claim 0 outside")
    assert free_space(s, 0) == room
    assert s.ws[0][4] == EMPTY and s.ws[0][5] == BANNER
    s = play(s, "place-tile white down")
    assert s.ws[0][4] == 2 * C.tile_index("W17")


def test_claim_labels_name_where_the_banner_comes_from():
    """RC-CLAIM-1, RC-ADV-4: on the advanced side the Banner that is not in the Inventory
    comes from a white Workshop space, and the label says so; the action text stays
    ``claim N outside`` (records keep parsing); the basic side says "outside"."""
    s = advanced()
    labels = {str(a): GAME.action_label(s, a) for a in GAME.legal_actions(s)}
    assert labels["claim 0 outside"].endswith("(Banner from a white Workshop space)")
    assert labels["claim 0 inventory"].endswith("(Banner from Inventory)")
    basic = one_tower()
    labels = {str(a): GAME.action_label(basic, a) for a in GAME.legal_actions(basic)}
    assert labels["claim 0 outside"].endswith("(Banner from outside the Inventory)")
    assert GAME.parse_action("claim 0 outside") in GAME.legal_actions(s)
