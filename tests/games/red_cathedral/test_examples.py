"""The worked examples of the rules reference, section 16 (RC-EX-1 .. RC-EX-11).

Each example is one test (or a few, where the example has branches), played through the
engine from a scenario fixture. Seats are coloured as in the seed: 0 yellow, 1 red,
2 blue, 3 green. Where an example needs specific component data, the real data is used:
the blue Workshop space costs 2 (RC-GAP-5), the Middle worth 4 RP + 2 Rubles is M02, the
"2 bricks" / "2 wood" / "2 Rubles" Resource tiles and Prestige spaces 14 and 18.
"""

from __future__ import annotations

from meeplehall.core.rng import Rng
from meeplehall.games.red_cathedral import GAME
from meeplehall.games.red_cathedral.components import WS_POSITIONS, load
from meeplehall.games.red_cathedral.final import final_scoring
from meeplehall.games.red_cathedral.scoring import tower_payout, track
from tests.games.red_cathedral.fixtures import (
    build,
    card,
    legal,
    market_turn,
    mats,
    play,
    pp,
    slot_of,
)

C = load()
T = track()
YELLOW, RED, BLUE, GREEN = 0, 1, 2, 3

# Market used by several examples: spaces 0..7 clockwise, quadrant = space // 2.
TILES = ["rp", "green", "purple", "brick", "wood", "stone", "gold", "rubles"]


def finish_turn(s, side):
    """Close the open steps of ``side``'s turn (deliveries, market, end of turn)."""
    while GAME.current_player(s) == side:
        acts = legal(s)
        for closer in ("finish-delivery", "finish-market", "done", "end-turn"):
            if closer in acts:
                s = play(s, closer)
                break
        else:
            raise AssertionError(f"cannot close the turn: {sorted(acts)}")
        if closer == "end-turn":
            break
    return s


# --- RC-EX-1 -----------------------------------------------------------------------------
def white_die_tile_on_offer():
    """Yellow may claim a Base whose Workshop tile shows the white die (W28); the white
    die stands beside the "2 Rubles" tile."""
    return build({
        "players": 4,
        "towers": [[card("B01", tile="W28"), "M01", "D01"]],
        "tiles": TILES,
        "dice": {"white": (7, 2), "yellow": (0, 3), "red": (1, 1), "blue": (2, 2),
                 "green": (3, 4)},
        "rubles": {YELLOW: 3},
        "turn": YELLOW,
    })


def test_RC_EX_1_claim_with_face_up_die_tile():
    """RC-EX-1: yellow claims a card whose tile shows the white die, pays 2 Rubles (the
    blue space's basic cost) to put it face up on the blue space and immediately gains
    the white die's Resource tile: 2 Rubles. Net effect -2 + 2."""
    s = white_die_tile_on_offer()
    s = play(s, "claim 0 outside")
    assert "place-tile blue up" in legal(s)
    assert C.basic_costs[WS_POSITIONS.index("blue")] == 2
    s = play(s, "place-tile blue up")
    assert s.rubles[YELLOW] == 3 - 2 + 2
    assert s.ws[YELLOW][WS_POSITIONS.index("blue")] == 2 * C.tile_index("W28") + 1
    assert s.owner[0] == YELLOW


def test_RC_EX_1_later_the_blue_die_collects_beside_the_white_die():
    """RC-EX-1 (continued), RC-CLAIM-4: activation follows the space colour (blue), the
    benefit follows the die on the tile (white)."""
    s = build({
        "players": 4, "tiles": TILES,
        "dice": {"white": (7, 2), "yellow": (0, 3), "red": (1, 1), "blue": (2, 1),
                 "green": (3, 4)},
        "ws": {YELLOW: {"blue": ("W28", "up")}},
        "rubles": {YELLOW: 0},
        "turn": YELLOW,
    })
    s = play(s, "move-die blue +0")
    assert "activate blue" in legal(s)
    s = play(s, "activate blue")
    assert s.rubles[YELLOW] == 2


# --- RC-EX-2 / RC-EX-3 ----------------------------------------------------------------------
def cumulative_tsar_tower():
    """RC-EX-2's tower, bottom to top: Blue-A (unfinished), Red, Blue-B (unfinished),
    Yellow; Red and Yellow each lack one Material. Red is to move."""
    return build({
        "players": 3,
        "towers": [[
            card("B01", BLUE, delivered={"wood": 1}),
            card("M01", RED, delivered={"brick": 1, "stone": 1}),  # lacks 1 stone
            card("M03", BLUE),
            card("D01", YELLOW, delivered={"gold": 2}),  # lacks 1 stone
        ]],
        "inv": {RED: {"stone": 1}, YELLOW: {"stone": 1}},
        "score": {BLUE: 20, RED: 10, YELLOW: 10},
        "turn": RED,
    })


def test_RC_EX_2_tsar_penalty_cumulative():
    """RC-EX-2, RC-TSAR-3: Red completes, Blue loses 1 RP (Blue-A below it); later Yellow
    completes the Dome, Blue loses 1 (Blue-B) + 2 (Blue-A: Red and Yellow) = 3 RP."""
    s = cumulative_tsar_tower()
    s = play(s, "build", "deliver stone 1")
    assert s.done[1]
    assert s.score[RED] == 10 + C.cards[C.card_index("M01")].rp
    assert s.score[BLUE] == 20 - 1
    s = finish_turn(s, RED)
    s = market_turn(s)  # Blue's turn
    assert GAME.current_player(s) == YELLOW
    blue_before = s.score[BLUE]
    s = play(s, "build", "deliver stone 3")
    assert s.done[3]
    assert s.score[BLUE] == blue_before - 3


def own_cards_tsar_tower():
    """RC-EX-3's tower, bottom to top: Blue-A (unfinished), Red (completed), Blue-B (one
    stone short), Yellow (one stone short). Blue is to move."""
    return build({
        "players": 3,
        "towers": [[
            card("B01", BLUE, delivered={"wood": 1}),
            card("M01", RED, done=True),
            card("M03", BLUE, delivered={"wood": 1, "brick": 1, "stone": 1}),
            card("D01", YELLOW, delivered={"gold": 2}),
        ]],
        "inv": {BLUE: {"stone": 1}, YELLOW: {"stone": 1}},
        "score": {BLUE: 20, YELLOW: 10},
        "turn": BLUE,
    })


def test_RC_EX_3_tsar_penalty_ignores_own_cards():
    """RC-EX-3, RC-TSAR-2: Blue completes Blue-B and loses 1 RP for Blue-A (Red counts,
    Blue-B is Blue's own); a later Yellow completion above costs Blue 2 RP."""
    s = own_cards_tsar_tower()
    s = play(s, "build", "deliver stone 2")
    assert s.done[2]
    assert s.score[BLUE] == 20 + C.cards[C.card_index("M03")].rp - 1
    s = finish_turn(s, BLUE)
    assert GAME.current_player(s) == YELLOW
    blue_before = s.score[BLUE]
    s = play(s, "build", "deliver stone 3")
    assert s.score[BLUE] == blue_before - 2


# --- RC-EX-4 -------------------------------------------------------------------------------
def completed_base_and_dome(inventory):
    """A tower whose Base and Dome are completed (by red); yellow holds ``inventory``."""
    return build({
        "players": 4,
        "towers": [[card("B01", RED, done=True), card("M01", RED),
                    card("D01", RED, done=True)]],
        "inv": {YELLOW: inventory},
        "turn": YELLOW,
    })


def test_RC_EX_4a_cross_with_two_different_jewels():
    """RC-EX-4a, RC-ORN-4/6: gold + green + purple (3 deliveries) make a Cross on a
    completed Dome: +3 PP."""
    s = completed_base_and_dome({"gold": 1, "green": 1, "purple": 1})
    before = pp(s, YELLOW)
    s = play(s, "build", "decorate 2", "jewels green+purple")
    assert pp(s, YELLOW) == before + 3
    assert s.orn[2] == YELLOW
    assert s.inv[YELLOW] == mats()


def test_RC_EX_4b_door_with_jewel_and_plain_cross():
    """RC-EX-4b, RC-ORN-8: wood + 1 jewel make a Door (+1 PP), gold makes a Cross with no
    jewel (+0 PP), all in one Build of 3 deliveries."""
    s = completed_base_and_dome({"wood": 1, "purple": 1, "gold": 1})
    before = pp(s, YELLOW)
    s = play(s, "build", "decorate 0", "jewels purple")
    assert pp(s, YELLOW) == before + 1
    assert legal(s) >= {"decorate 2"}
    s = play(s, "decorate 2", "jewels none")
    assert pp(s, YELLOW) == before + 1
    assert s.orn[0] == s.orn[2] == YELLOW
    assert s.orn_placed[YELLOW] == 2


def test_RC_EX_4c_complete_then_decorate_in_one_build():
    """RC-EX-4c, RC-BUILD-4: yellow delivers the missing gold to M02 (4 RP + 2 Rubles);
    green, with an unfinished card below, loses 1 RP; the two remaining deliveries (stone
    + 1 jewel) make an Arch on the card just completed: +1 PP."""
    s = build({
        "players": 4,
        "towers": [[card("B01", GREEN, delivered={"wood": 1}),
                    card("M02", YELLOW, delivered={"brick": 1, "stone": 1}),
                    "D01"]],
        "inv": {YELLOW: {"gold": 1, "stone": 1, "green": 1}},
        "rubles": {YELLOW: 0},
        "score": {GREEN: 12},
        "turn": YELLOW,
    })
    m02 = slot_of(s, "M02")
    assert (C.cards[C.card_index("M02")].rp, C.cards[C.card_index("M02")].rubles) == (4, 2)
    before = s.score[YELLOW]
    s = play(s, "build", f"deliver gold {m02}")
    assert s.done[m02]
    assert s.score[YELLOW] == before + 4
    assert s.rubles[YELLOW] == 2
    assert s.score[GREEN] == 12 - 1
    s = play(s, f"decorate {m02}", "jewels green")
    assert s.score[YELLOW] == T.next_prestige(before + 4)
    assert pp(s, YELLOW) == T.pp(before + 4) + 1
    assert s.orn[m02] == YELLOW


# --- RC-EX-5 -------------------------------------------------------------------------------
def yellow_die_showing_three():
    """The yellow die shows 3 on space 0; space 3 ("2 bricks") holds the blue die, space 4
    ("2 wood") the red die. The Merchants' Guild (MR1) lies in space 3's quadrant."""
    return build({
        "players": 4,
        "tiles": TILES,
        "dice": {"yellow": (0, 3), "blue": (3, 5), "red": (4, 2), "green": (6, 1),
                 "white": (7, 1)},
        "influence": ["CR1", "MR1", "TM1", "CL1"],
        "rubles": {YELLOW: 3},
        "turn": YELLOW,
    })


def test_RC_EX_5_market_move_obtain_exchange_reroll():
    """RC-EX-5: the yellow die moves 3 onto the blue die's space; "2 bricks" x 2 dice = 4
    bricks; the Merchants' Guild turns 2 bricks into 1 green jewel (MR-1); both dice on the
    destination are rerolled."""
    s = yellow_die_showing_three()
    s = play(s, "move-die yellow +0")
    assert s.die_pos[0] == 3 and s.dice_on(3) == 2
    assert "obtain 4" in legal(s) and "obtain 5" not in legal(s)
    s = play(s, "obtain 4")
    assert s.inv[YELLOW] == mats(brick=4)
    s = play(s, "use-influence 1")
    rng = Rng(s.rng.state)
    expected = [rng.randbelow(6) + 1, rng.randbelow(6) + 1]  # yellow, then blue
    s = play(s, "exchange brick+brick green")
    assert s.inv[YELLOW] == mats(brick=2, green=1)
    # Nothing is left to choose, so the market step closes itself with the reroll.
    s = finish_turn(s, YELLOW)
    assert [s.die_val[0], s.die_val[2]] == expected
    assert s.die_pos[0] == s.die_pos[2] == 3


def test_RC_EX_5_alternative_paid_extra_step():
    """RC-EX-5 (alternative): yellow pays 1 Ruble for one more step onto the red die's
    space, "2 wood" x 2 dice = 4 wood."""
    s = yellow_die_showing_three()
    assert "move-die yellow +1" in legal(s)
    assert "move-die blue +1" not in legal(s)  # only white and one's own colour go extra
    s = play(s, "move-die yellow +1")
    assert s.rubles[YELLOW] == 2
    s = play(s, "obtain 4")
    assert s.inv[YELLOW] == mats(wood=4)


# --- RC-EX-6 -------------------------------------------------------------------------------
def test_RC_EX_6_workshop_activation():
    """RC-EX-6: the blue space holds a tile showing the red die; moving the blue die gains
    what lies beside the red die (2 wood), once. The yellow space holds a tile giving 1
    unit of a resource; moving the yellow die yields that 1 unit."""
    board = {"blue": ("W25", "up"), "yellow": ("W20", "up")}  # red die; 1 Recognition
    s = build({
        "players": 3, "tiles": TILES,
        "dice": {"red": (4, 2), "blue": (1, 1), "yellow": (5, 2), "green": (6, 1),
                 "white": (7, 1)},
        "ws": {YELLOW: board},
        "turn": YELLOW,
    })
    s = play(s, "move-die blue +0")
    assert legal(s) & {"activate blue", "activate yellow"} == {"activate blue"}
    s = play(s, "activate blue")
    assert s.inv[YELLOW] == mats(wood=2)
    assert "activate blue" not in legal(s)

    s = build({
        "players": 3, "tiles": TILES,
        "dice": {"red": (4, 2), "blue": (1, 1), "yellow": (5, 2), "green": (6, 1),
                 "white": (7, 1)},
        "ws": {YELLOW: board},
        "turn": YELLOW,
    })
    before = s.score[YELLOW]
    s = play(s, "move-die yellow +0", "activate yellow")
    assert s.score[YELLOW] == before + 1


# --- RC-EX-7 -------------------------------------------------------------------------------
def test_RC_EX_7_final_round_down():
    """RC-EX-7, RC-FINAL-1: yellow, between Prestige spaces, moves back to space 14; green,
    already on Prestige space 18, stays."""
    assert T.on_prestige(14) and T.on_prestige(18) and not T.on_prestige(16)
    assert T.round_down(16) == 14 and T.round_down(18) == 18
    s = build({"players": 2, "score": [16, 18], "rubles": [0, 0]})
    final_scoring(s)
    assert s.score == [14, 18]
    assert GAME.outcome(s).scores == (T.pp(14), T.pp(18))


# --- RC-EX-8 -------------------------------------------------------------------------------
RC_EX_8_TABLE = [
    # value, presence (yellow, red, blue, green), payout
    (7, {GREEN: 2, YELLOW: 1, RED: 1}, {GREEN: 7, YELLOW: 2, RED: 2}),
    (5, {BLUE: 2, YELLOW: 1}, {BLUE: 5, YELLOW: 2}),
    (12, {BLUE: 3, YELLOW: 2, GREEN: 1, RED: 1}, {BLUE: 12, YELLOW: 6, GREEN: 2, RED: 2}),
    (10, {GREEN: 3, RED: 2, YELLOW: 1}, {GREEN: 10, RED: 5, YELLOW: 2}),
    (9, {BLUE: 2, YELLOW: 1, RED: 1, GREEN: 1}, {BLUE: 9, YELLOW: 2, RED: 2, GREEN: 2}),
    (9, {RED: 3, GREEN: 2, BLUE: 1}, {RED: 9, GREEN: 4, BLUE: 2}),
]


def test_RC_EX_8_four_player_tower_payouts():
    """RC-EX-8, RC-TOWER-3: the six towers of the seed's 4-player example."""
    for value, presence, payout in RC_EX_8_TABLE:
        assert tower_payout(value, presence, 4) == payout


def rc_ex_8_site():
    """The seed's 4-player Construction Site (6 towers worth 7, 5, 12, 10, 9, 9), with
    every marker on 0 and no leftovers, so final Prestige is the tower points alone."""
    y, r, b, g = YELLOW, RED, BLUE, GREEN
    return build({
        "players": 4,
        "towers": [
            [card("B01", g, done=True, orn=g), card("M01", y, done=True),
             card("D01", r, done=True)],
            [card("B02", b, done=True, orn=b), card("D02", y, done=True)],
            [card("B03", b, done=True), card("M02", b, done=True, orn=b),
             card("M03", y, done=True, orn=y), card("M04", g, done=True),
             card("D03", r, done=True)],
            [card("B04", g, done=True), card("M05", g, done=True, orn=g),
             card("M06", r, done=True, orn=r), card("D04", y, done=True)],
            [card("B05", b, done=True), card("M07", y, done=True), card("M08", r, done=True),
             card("D05", g, done=True, orn=b)],
            [card("B06", r, done=True, orn=r), card("M09", b, done=True, orn=r),
             card("M10", y), card("D06", g, done=True, orn=g)],
        ],
        "score": [0, 0, 0, 0],
        "rubles": [0, 0, 0, 0],
    })


def test_RC_EX_8_four_player_final_scoring_of_built_site():
    """RC-EX-8 through final scoring: tower values and payouts as in the seed; yellow 14,
    red 20, blue 28, green 25 Prestige."""
    s = rc_ex_8_site()
    final_scoring(s)
    out = GAME.outcome(s)
    towers = out.details["towers"]
    assert [t["value"] for t in towers] == [7, 5, 12, 10, 9, 9]
    for got, (_value, presence, payout) in zip(towers, RC_EX_8_TABLE, strict=True):
        assert got["presence"] == presence
        assert got["payout"] == payout
    assert out.scores == (14, 20, 28, 25)
    assert [b["towers"] for b in out.breakdown] == [14, 20, 28, 25]
    assert out.winners == (BLUE,)


# --- RC-EX-9 -------------------------------------------------------------------------------
def test_RC_EX_9_two_player_tower_payouts():
    """RC-EX-9, RC-2P-1: the second player gets floor(value / 3)."""
    yellow, green = 0, 1
    assert tower_payout(8, {green: 5}, 2) == {green: 8}
    assert tower_payout(6, {yellow: 2, green: 1}, 2) == {yellow: 6, green: 2}
    assert tower_payout(8, {yellow: 3, green: 1}, 2) == {yellow: 8, green: 2}
    assert tower_payout(5, {green: 2, yellow: 1}, 2) == {green: 5, yellow: 1}


def test_RC_EX_9_two_player_final_scoring_of_built_site():
    """RC-EX-9 through final scoring of a built 2-player site (seat 1 plays green), laid
    out as Building Plan P2-A (12 cards, Middles 1, 0, 2, 1): green 8 + 2 + 2 + 5 = 17,
    yellow 6 + 8 + 1 = 15."""
    y, g = 0, 1
    s = build({
        "players": 2,
        "towers": [
            [card("B01", g, done=True, orn=g), card("M01", g, done=True, orn=g),
             card("D01", g, done=True)],
            [card("B02", y, done=True, orn=y), card("D02", g, done=True, orn=y)],
            [card("B03", y, done=True), card("M04", y, done=True), card("M05", y, done=True),
             card("D03", g, done=True)],
            [card("B04", g, done=True), card("M06", y, done=True, orn=g), card("D04", y)],
        ],
        "score": [0, 0], "rubles": [0, 0],
    })
    final_scoring(s)
    out = GAME.outcome(s)
    assert [t["payout"] for t in out.details["towers"]] == [
        {g: 8}, {y: 6, g: 2}, {y: 8, g: 2}, {g: 5, y: 1}]
    assert [len(t) for t in s.towers] == [2 + m for m in C.plans[0].middles]
    assert out.scores == (15, 17)


# --- RC-EX-10 ------------------------------------------------------------------------------
def test_RC_EX_10_third_place_below_a_tie():
    """RC-EX-10: in a tower worth 11 the positions are worth 11, 5, 2, 1; the third player
    gets 2 whether or not the first two tie."""
    assert tower_payout(11, {0: 3, 1: 3, 2: 1}, 3) == {0: 8, 1: 8, 2: 2}
    assert tower_payout(11, {0: 3, 1: 2, 2: 1}, 3) == {0: 11, 1: 5, 2: 2}
    assert tower_payout(11, {0: 4, 1: 3, 2: 2, 3: 1}, 4) == {0: 11, 1: 5, 2: 2, 3: 1}


def test_RC_EX_10_through_final_scoring():
    """RC-EX-10 through final scoring: 4 completed cards + 3 Ornamentations = 11; seats 0
    and 1 tie on presence 3 and share 11 + 5; seat 2 gets 2."""
    s = build({
        "players": 3,
        "towers": [[card("B01", 0, done=True, orn=1), card("M01", 0, done=True, orn=1),
                    card("M02", 1, done=True, orn=0), card("D01", 2, done=True)]],
        "score": [0, 0, 0], "rubles": [0, 0, 0],
    })
    final_scoring(s)
    out = GAME.outcome(s)
    assert out.details["towers"][0]["value"] == 11
    assert out.scores == (8, 8, 2)


# --- RC-EX-11 ------------------------------------------------------------------------------
def blue_one_gem_from_a_sixth_card():
    """4 players; blue (seat 2) has 5 completed cards and a Dome (D02) lacking a green
    jewel, which blue holds. Blue is to move."""
    b = BLUE
    return build({
        "players": 4,
        "towers": [
            [card("B01", b, done=True), card("M01", b, done=True), card("D01", b, done=True)],
            [card("B02", b, done=True), card("M03", b, done=True),
             card("D02", b, delivered={"brick": 1, "gold": 1})],
            ["B03", "M04", "D03"],
        ],
        "inv": {b: {"green": 1}},
        "score": {b: 30},
        "turn": b,
    })


def test_RC_EX_11_end_trigger_and_last_turns():
    """RC-EX-11, RC-END-1/2: seat 2 completes its 6th card and gains its Recognition, then
    +3 PP; it finishes its turn; seats 3, 0 and 1 take one more turn each; then final
    scoring follows."""
    s = blue_one_gem_from_a_sixth_card()
    d02 = slot_of(s, "D02")
    rp = C.cards[C.card_index("D02")].rp
    s = play(s, "build", f"deliver green {d02}")
    assert s.completed[BLUE] == 6 and s.end_trigger == BLUE
    assert s.score[BLUE] == T.gain_pp(30 + rp, 3)
    assert pp(s, BLUE) == T.pp(30 + rp) + 3
    assert GAME.current_player(s) == BLUE  # the turn goes on (free actions, deliveries)
    s = finish_turn(s, BLUE)
    seen = []
    while GAME.current_player(s) is not None:
        seen.append(GAME.current_player(s))
        s = market_turn(s)
    assert seen == [3, 0, 1]
    assert s.final is not None and GAME.outcome(s) is not None
