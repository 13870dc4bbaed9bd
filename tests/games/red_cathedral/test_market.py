"""The Market action, Workshop activation and the Inventory (RC-MARKET-1..7, RC-GAIN-1..3,
RC-INF-1/2, RC-WSACT-1..4, RC-INV-1..5, RC-ENG-3 and the options RC-AMB-2/15/17/20/21/22).
"""

from __future__ import annotations

from meeplehall.core.rng import Rng
from meeplehall.games.red_cathedral import GAME
from meeplehall.games.red_cathedral.components import COLOURS, load
from meeplehall.games.red_cathedral.decisions import Influence, Market, Turn
from meeplehall.games.red_cathedral.effects import free_space
from tests.games.red_cathedral.fixtures import build, card, legal, mats, play

C = load()
# Spaces 0..7: Recognition, green, purple, brick, wood, stone, gold, Rubles.
TILES = ["rp", "green", "purple", "brick", "wood", "stone", "gold", "rubles"]
DICE = {"yellow": (0, 3), "red": (1, 1), "blue": (2, 2), "green": (4, 4), "white": (7, 1)}
INFLUENCE_CARDS = ["CR1", "TM1", "MR1", "CL1"]  # quadrants 0..3


def market(dice=None, players=2, **extra):
    """Seat 0 (yellow) to move on the market above; ``dice`` overrides some dice."""
    spec = {"players": players, "tiles": TILES, "dice": DICE | (dice or {}),
            "influence": INFLUENCE_CARDS, "turn": 0}
    options = extra.pop("options", {})
    return build(spec | extra | {"options": options})


def moves(s):
    return {a for a in legal(s) if a.startswith("move-die")}


def option(name):
    return {o.name: o for o in GAME.options}[name]


def test_any_die_may_be_moved():
    """RC-MARKET-1: each of the 5 dice may be chosen."""
    assert {m.split()[1] for m in moves(market())} == set(COLOURS)


def test_die_moves_its_pips_clockwise():
    """RC-MARKET-2 / RC-MARKET-5: the die moves exactly its pips clockwise (wrapping
    past space 7) and stays where it stops."""
    s = play(market({"green": (6, 4)}), "move-die green +0")
    assert s.die_pos[3] == 2 and s.dest == 2
    s = play(s, "finish-market")
    assert s.die_pos[3] == 2


def test_extra_steps_only_for_white_and_own_colour():
    """RC-MARKET-3: white and one's own die may go further at 1 Ruble per space, without
    an upper limit on the total; other dice may not."""
    s = market(rubles={0: 3})
    extras = {(m.split()[1], int(m.split()[2][1:])) for m in moves(s)}
    assert {e for (c, e) in extras if c == "white"} == {0, 1, 2, 3}
    assert {e for (c, e) in extras if c == "yellow"} == {0, 1, 2, 3}
    assert {e for (c, e) in extras if c in ("red", "blue", "green")} == {0}
    s = play(market({"white": (7, 6)}, rubles={0: 3}), "move-die white +3")
    assert s.rubles[0] == 0 and s.die_pos[4] == (7 + 9) % 8


def test_no_space_holds_more_than_three_dice():
    """RC-MARKET-4: a die may not stop on a space already holding three others; the
    spaces passed over do not matter."""
    crowded = {"red": (3, 1), "blue": (3, 2), "green": (3, 4), "yellow": (0, 3)}
    s = market(crowded, rubles={0: 1})
    assert "move-die yellow +0" not in moves(s)
    assert "move-die yellow +1" in moves(s)
    s = market(crowded | {"white": (2, 1)}, rubles={0: 0})
    assert "move-die white +0" not in moves(s)
    assert "move-die red +0" in moves(s)  # leaving the crowded space is fine


def test_a_space_with_two_dice_takes_a_third():
    """RC-MARKET-4, the accepting side: a space holding two dice takes a third, and a die
    that comes back to its own space (8 steps) does not count itself."""
    two = {"red": (3, 1), "blue": (3, 2), "yellow": (0, 3)}
    s = market(two, rubles={0: 0})
    assert "move-die yellow +0" in moves(s)
    s = play(s, "move-die yellow +0")
    assert s.die_pos.count(3) == 3
    home = market({"red": (3, 1), "blue": (3, 2), "white": (3, 6)}, rubles={0: 2})
    assert "move-die white +2" in moves(home)  # back onto its own space: 2 others there


def test_full_circle_option():
    """RC-AMB-17: a die moved 8 paid steps back onto its own space is allowed (default);
    ``allow_full_circle`` false forbids it."""
    assert option("allow_full_circle").default is True
    s = market({"white": (7, 6)}, rubles={0: 5})
    assert "move-die white +2" in moves(s)
    s = play(s, "move-die white +2")
    assert s.dest == 7
    strict = market({"white": (7, 6)}, rubles={0: 5}, options={"allow_full_circle": False})
    assert "move-die white +2" not in moves(strict) and "move-die white +3" in moves(strict)


def test_market_actions_once_each_in_any_order_optional():
    """RC-MARKET-6: obtain, influence and activation each at most once, in any order, all
    optional."""
    board = {"ws": {0: {"red": ("W17", "up")}}, "rubles": {0: 0}}
    s = play(market(**board), "move-die red +0")  # red 1 -> space 2 (purple), quadrant 1
    acts = legal(s)
    assert {"obtain 1", "use-influence 0", "activate red", "finish-market"} <= acts
    s = play(s, "activate red")
    assert "activate red" not in legal(s) and s.rubles[0] == 2
    s = play(s, "use-influence 0", "perform")  # TM1: gain 1 Ruble (once)
    assert s.rubles[0] == 3 and not {a for a in legal(s) if a.startswith("use-influence")}
    s = play(s, "obtain 1")
    assert s.inv[0] == mats(purple=1)
    assert isinstance(s.stack[-1], Turn)  # nothing left: the market step closed itself
    skip = play(market(**board), "move-die red +0", "finish-market")
    assert skip.inv[0] == mats() and skip.rubles[0] == 0


def test_mandatory_reroll_of_the_destination():
    """RC-MARKET-7: finishing the market rerolls every die on the destination, no other."""
    s = play(market({"blue": (3, 2)}), "move-die yellow +0")  # yellow 3 -> space 3
    rng = Rng(s.rng.state)
    expected = [rng.randbelow(6) + 1, rng.randbelow(6) + 1]
    before = list(s.die_val)
    s = play(s, "finish-market")
    assert [s.die_val[0], s.die_val[2]] == expected
    assert [s.die_val[i] for i in (1, 3, 4)] == [before[i] for i in (1, 3, 4)]


def test_obtain_amount_times_dice_or_less():
    """RC-GAIN-1: the tile times the dice there (1-3) is a maximum; any smaller amount may
    be taken; Rubles and Recognition tiles work alike."""
    s = play(market({"blue": (3, 2), "red": (3, 1)}), "move-die yellow +0")
    assert {a for a in legal(s) if a.startswith("obtain")} == {
        f"obtain {n}" for n in range(1, 7)}
    s = play(s, "obtain 5")
    assert s.inv[0] == mats(brick=5)
    s = play(market({"white": (6, 1)}), "move-die white +0", "obtain 2")
    assert s.rubles[0] == 3 + 2
    s = play(market({"red": (6, 2)}), "move-die red +0", "obtain 2")
    assert s.score[0] == 2 + 2


def test_supply_limits_materials():
    """RC-GAIN-2: only the tokens left in the supply can be taken; none left, none given."""
    s = play(market({"blue": (3, 2)}, supply={"brick": 1, "wood": 20}), "move-die yellow +0")
    assert {a for a in legal(s) if a.startswith("obtain")} == {"obtain 1"}
    s = play(market({"blue": (3, 2)}, supply={"wood": 20}), "move-die yellow +0")
    assert not {a for a in legal(s) if a.startswith("obtain")}


def test_gains_must_fit_the_inventory():
    """RC-GAIN-3 / RC-INV-3: what does not fit is not taken; nothing is discarded."""
    s = play(market({"blue": (3, 2)}, inv={0: {"wood": 5}}), "move-die yellow +0")
    assert {a for a in legal(s) if a.startswith("obtain")} == {"obtain 1"}
    assert not {a for a in legal(s) if a.startswith("discard")}


def test_influence_card_of_the_destination_quadrant():
    """RC-INF-1: the card in the quadrant holding the destination."""
    for die, dest in (("red", 2), ("yellow", 3), ("blue", 4), ("green", 0)):
        s = play(market({"green": (4, 4)}, inv={0: {"wood": 1}}, rubles={0: 5}),
                 f"move-die {die} +0")
        assert s.dest == dest
        if "use-influence 0" in legal(s):
            s = play(s, "use-influence 0")
            assert isinstance(s.stack[-1], Influence)
            assert C.influence[s.influence[dest // 2]].id == INFLUENCE_CARDS[dest // 2]


def test_lightning_once_infinity_repeatable():
    """RC-INF-2: one of the two actions; lightning once, infinity as often as wanted,
    paying each time."""
    s = play(market({"green": (4, 4)}, inv={0: {"wood": 2, "stone": 1}}),
             "move-die green +0")  # green 4 -> space 0, quadrant 0: CR1
    s = play(s, "use-influence 0", "sell wood", "sell wood", "sell stone")
    assert s.rubles[0] == 3 + 3 and s.inv[0] == mats()
    s = play(market(rubles={0: 0}), "move-die red +0", "use-influence 0", "perform")  # TM-2
    assert s.rubles[0] == 1 and not isinstance(s.stack[-1], Influence)


def test_activation_follows_the_moved_die():
    """RC-WSACT-1: the space of the moved die's colour, if its tile is face up."""
    board = {"ws": {0: {"red": ("W17", "up"), "blue": ("W18", "down")}}}
    s = play(market(**board), "move-die red +0")
    assert "activate red" in legal(s)
    s = play(market(**board), "move-die blue +0")
    assert not {a for a in legal(s) if a.startswith("activate")}
    s = play(market(**board), "move-die yellow +0")
    assert not {a for a in legal(s) if a.startswith("activate")}


def test_white_space_uses_only_one_of_its_tiles():
    """RC-WSACT-2: moving the white die with two face-up white tiles, only one is used."""
    board = {"ws": {0: {"white-1": ("W17", "up"), "white-2": ("W20", "up")}}}
    s = play(market(**board), "move-die white +0")
    assert {"activate white-1", "activate white-2"} <= legal(s)
    s = play(s, "activate white-2")
    assert not {a for a in legal(s) if a.startswith("activate")}
    assert s.score[0] == 3


def test_die_tile_gains_the_tile_beside_that_die_once():
    """RC-WSACT-3: a die tile gives the Resource tile where that die stands, once, not
    multiplied by the dice there."""
    board = {"ws": {0: {"yellow": ("W25", "up")}}}  # the red die's tile
    s = play(market({"red": (4, 2), "green": (4, 1)}, **board), "move-die yellow +0",
             "activate yellow")
    assert s.inv[0] == mats(wood=2)


def test_same_benefit_for_claims_and_merchants():
    """RC-WSACT-4: the benefit rules also apply to the immediate gain of a claim and to
    the Merchants' activation (MR-4)."""
    board = {"ws": {0: {"blue": ("W25", "up")}}}
    s = play(market({"red": (4, 2), "blue": (2, 2)}, **board), "move-die blue +0")
    assert s.dest == 4 and C.influence[s.influence[2]].id == "MR1"
    s = play(s, "use-influence 0", "activate blue")
    assert s.inv[0] == mats(wood=2)
    s = build({"players": 2, "tiles": TILES, "dice": DICE | {"red": (4, 2)},
               "towers": [[card("B01", tile="W25"), "M01", "D01"]], "turn": 0})
    s = play(s, "claim 0 inventory", "place-tile yellow up")
    assert s.inv[0] == mats(wood=2)


def test_materials_take_space_rubles_and_recognition_do_not():
    """RC-INV-1: one Material per space; Rubles and Recognition need none."""
    s = market({"white": (6, 1)}, inv={0: {"wood": 6}})
    assert free_space(s, 0) == 0
    s = play(s, "move-die white +0", "obtain 2")
    assert s.rubles[0] == 5


def test_inventory_grows_with_banners_taken_from_it():
    """RC-INV-2: 6 free spaces plus one per Banner taken out of the Inventory, up to 10;
    Banners from outside add nothing."""
    s = market()
    assert free_space(s, 0) == 6
    s = play(s, "claim 0 outside", "place-tile yellow down")
    assert free_space(s, 0) == 6
    assert free_space(market(banners={0: (0, 2)}), 0) == 10


def test_ways_to_free_inventory_space():
    """RC-INV-4: delivering, selling and exchanging free space (banner removal: above)."""
    s = play(market({"green": (4, 4)}, inv={0: {"wood": 6}}), "move-die green +0",
             "use-influence 0", "sell wood")
    assert free_space(s, 0) == 1
    s = build({"players": 2, "towers": [[card("B01", 0), "M01", "D01"]],
               "inv": {0: {"wood": 6}}, "turn": 0})
    s = play(s, "build", "deliver wood 0")
    assert free_space(s, 0) == 1


def test_exchange_inputs_leave_first():
    """RC-INV-5 / RC-AMB-20: an exchange works with a full Inventory (default); with
    ``exchange_needs_room`` it needs room for the outputs first."""
    assert option("exchange_needs_room").default is False
    dice = {"blue": (2, 2)}  # blue 2 -> space 4, quadrant 2: MR1
    s = play(market(dice, inv={0: {"wood": 6}}), "move-die blue +0", "use-influence 1")
    assert "exchange wood+wood gold" in legal(s)
    s = play(s, "exchange wood+wood gold")
    assert s.inv[0] == mats(wood=4, gold=1)
    strict = play(market(dice, inv={0: {"wood": 6}}, options={"exchange_needs_room": True}),
                  "move-die blue +0")
    assert "use-influence 1" not in legal(strict)


def test_legal_moves_match_the_definition():
    """RC-ENG-3: a move is legal iff base pips (plus k paid steps for white or the own
    colour, k <= Rubles) end on a space with fewer than 3 other dice."""
    for seed in range(20):
        s = GAME.initial_state({"players": 4}, seed)
        for side in range(4):
            s.stack = [Turn(side)]
            s.side = side
            s.rubles[side] = seed % 5
            expected = set()
            for die in range(5):
                top = s.rubles[side] if die in (4, side) else 0
                for k in range(min(top, 7) + 1):
                    dest = (s.die_pos[die] + s.die_val[die] + k) % 8
                    others = sum(1 for d in range(5) if d != die and s.die_pos[d] == dest)
                    if others < 3:
                        expected.add(f"move-die {COLOURS[die]} +{k}")
            assert moves(s) == expected


def test_ruble_limit_option():
    """RC-AMB-2: Rubles are unlimited by default; ``ruble_limit`` caps Rubles in hands."""
    s = play(market({"white": (6, 1)}), "move-die white +0")
    assert "obtain 2" in legal(s)
    capped = play(market({"white": (6, 1)}, options={"ruble_limit": 8}), "move-die white +0")
    assert {a for a in legal(capped) if a.startswith("obtain")} == {"obtain 1"}


def test_teamsters_deliveries_on_a_market_turn():
    """RC-AMB-15: Teamsters' deliveries are not a Build and not capped by its 3; an
    Ornamentation made with them is finished within that one use (TM-1: no jewel)."""
    s = build({"players": 2, "tiles": TILES, "dice": DICE, "influence": INFLUENCE_CARDS,
               "towers": [[card("B01", 1, done=True), card("M01", 0), "D01"]],
               "inv": {0: {"wood": 1, "stone": 1, "green": 1}}, "turn": 0})
    s = play(s, "move-die red +0", "use-influence 1", "hire-teamsters")
    assert s.rubles[0] == 2
    assert {"deliver stone 1", "decorate 0"} <= legal(s)
    s = play(s, "decorate 0")
    assert legal(s) == {"jewels none"}
    s = play(s, "jewels none")
    assert s.orn[0] == 0 and isinstance(s.stack[-1], Market)


def test_swap_tiles_option():
    """RC-AMB-21: Teamsters' swap exchanges the tiles, the dice stay (default); with
    ``swap_moves_dice`` the dice travel with their tiles."""
    assert option("swap_moves_dice").default is False
    teamsters = ["CR1", "TM3", "MR1", "CL1"]
    s = play(market(influence=teamsters), "move-die red +0", "use-influence 1",
             "swap-tiles 0 7")
    assert s.tiles[0] == C.resource_tiles.index(
        next(t for t in C.resource_tiles if t.id == "RT-rubles"))
    assert s.die_pos[4] == 7 and s.rubles[0] == 1
    s = play(market(influence=teamsters, options={"swap_moves_dice": True}),
             "move-die red +0", "use-influence 1", "swap-tiles 0 7")
    assert s.die_pos[4] == 0 and s.die_pos[0] == 7
    # Swapping the destination's own tile: the moved die (red, with blue) goes along, and
    # the destination follows it: it can still Obtain there and is rerolled there.
    s = play(market(influence=teamsters, options={"swap_moves_dice": True}),
             "move-die red +0", "use-influence 1", "swap-tiles 2 5")
    assert s.die_pos[1] == s.die_pos[2] == 5 and s.dest == 5
    assert "obtain 2" in legal(s)
    rng = Rng(s.rng.state)
    expected = [rng.randbelow(6) + 1, rng.randbelow(6) + 1]
    s = play(s, "finish-market")
    assert [s.die_val[1], s.die_val[2]] == expected


def test_merchants_activate_option():
    """RC-AMB-22: Merchants' activation takes any face-up tile, even one already fired
    this turn (default); 'unused-this-turn' excludes those."""
    assert option("merchants_activate").default == "any"
    board = {"ws": {0: {"blue": ("W17", "up")}}}
    s = play(market({"blue": (2, 2)}, **board), "move-die blue +0", "activate blue",
             "use-influence 0")
    assert "activate blue" in legal(s)
    s = play(s, "activate blue")
    assert s.rubles[0] == 3 + 4
    strict = play(market({"blue": (2, 2)}, options={"merchants_activate": "unused-this-turn"},
                         **board), "move-die blue +0", "activate blue")
    assert "use-influence 0" not in legal(strict)
