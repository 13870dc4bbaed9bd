"""Influence actions, one deck at a time (RC-INFL-CRAFT, -TEAM, -MERCH, -CLERGY, -EXAMPLE).

Each test puts one card in quadrant 0 and moves the green die (4 pips) from space 4 to
space 0, so the card is the one to influence (RC-INF-1).
"""

from __future__ import annotations

from meeplehall.games.red_cathedral.components import load
from meeplehall.games.red_cathedral.decisions import Deliver, Influence
from meeplehall.games.red_cathedral.scoring import track
from tests.games.red_cathedral.fixtures import build, card, legal, mats, play, pp

T = track()
C = load()
TILES = ["rp", "green", "purple", "brick", "wood", "stone", "gold", "rubles"]
DICE = {"yellow": (1, 3), "red": (2, 1), "blue": (3, 2), "green": (4, 4), "white": (7, 1)}


def at_market(card_id, inv=None, rubles=3, **extra):
    """Seat 0 has moved the green die to space 0, whose quadrant holds ``card_id``."""
    s = build({"players": 2, "tiles": TILES, "dice": DICE,
               "influence": [card_id, "TM1", "MR1", "CL1"] if card_id != "TM1" else
               [card_id, "CR1", "MR1", "CL1"],
               "inv": {0: inv or {}}, "rubles": {0: rubles}, "turn": 0, **extra})
    return play(s, "move-die green +0")


def influence(card_id, index, inv=None, rubles=3, **extra):
    """As ``at_market``, then action ``index`` of the card is chosen."""
    return play(at_market(card_id, inv, rubles, **extra), f"use-influence {index}")


def uses(s):
    return legal(s) - {"done"} - {a for a in legal(s) if a.startswith(("reroll", "sell-p"))}


def test_craftsmen_guild():
    """RC-INFL-CRAFT: CR-1 sell any for 1; CR-2 buy an indicated one for 1; CR-3 sell an
    indicated one for 1; CR-4 buy any for 2; CR-5 sell an indicated one for 2; CR-6 buy an
    indicated one for 2 (indicated Materials and marks are card data)."""
    s = influence("CR1", 0, {"wood": 1, "purple": 1})
    assert uses(s) == {"sell wood", "sell purple"}
    s = play(s, "sell purple", "sell wood")
    assert s.rubles[0] == 5 and s.inv[0] == mats()
    s = influence("CR1", 1)
    assert uses(s) == {"buy wood", "buy brick"}
    s = play(s, "buy brick", "buy brick")
    assert s.rubles[0] == 1 and s.inv[0] == mats(brick=2)
    s = influence("CR2", 0, {"wood": 1, "gold": 1, "stone": 1})
    assert uses(s) == {"sell stone", "sell gold"}
    s = influence("CR2", 1)
    assert uses(s) == {f"buy {m}" for m in ("wood", "brick", "stone", "gold", "green",
                                             "purple")}
    s = play(s, "buy purple")
    assert s.rubles[0] == 1 and not isinstance(s.stack[-1], Influence)  # lightning: once
    s = influence("CR3", 0, {"green": 1, "gold": 1})
    assert uses(s) == {"sell green"}
    s = play(s, "sell green")
    assert s.rubles[0] == 5
    assert "use-influence 1" not in legal(at_market("CR3", rubles=1))  # 2 Rubles needed


def test_teamsters_guild():
    """RC-INFL-TEAM: TM-1 pay 1 to deliver 1; TM-2 gain 1 Ruble; TM-3 pay 3 to deliver 2;
    TM-4 pay 2 to swap two Resource tiles."""
    towers = [[card("B01", 0, delivered={"wood": 1}), "M01", "D01"]]
    s = influence("TM1", 1, {"wood": 1, "brick": 1}, towers=towers)
    s = play(s, "hire-teamsters")
    assert s.rubles[0] == 2 and s.stack[-1] == Deliver(0, 1, 0, True)
    s = play(s, "deliver wood 0")
    assert s.delivered[0] == mats(wood=2)
    s = play(influence("TM1", 0), "perform")
    assert s.rubles[0] == 4
    s = influence("TM2", 1, {"wood": 1, "brick": 1}, towers=towers)
    s = play(s, "hire-teamsters", "deliver wood 0", "deliver brick 0")
    assert s.rubles[0] == 0 and s.done[0]
    s = influence("TM3", 1)
    assert len([a for a in uses(s) if a.startswith("swap-tiles")]) == 28
    before = list(s.tiles)
    s = play(s, "swap-tiles 1 2")
    assert s.rubles[0] == 1 and s.tiles[1:3] == [before[2], before[1]]


def test_merchants_guild():
    """RC-INFL-MERCH: MR-1 two identical for any one; MR-2 a Ruble and a Material for
    another type; MR-3 four identical for any two; MR-4 activate any face-up tile."""
    s = influence("MR1", 1, {"stone": 2})
    assert len([a for a in uses(s) if a.startswith("exchange stone+stone ")]) == 6
    s = play(s, "exchange stone+stone gold")
    assert s.inv[0] == mats(gold=1)
    s = influence("MR2", 1, {"wood": 2})
    assert uses(s) == {f"upgrade wood {m}" for m in ("brick", "stone", "gold", "green",
                                                     "purple")}
    s = play(s, "upgrade wood gold", "upgrade wood green")
    assert s.inv[0] == mats(gold=1, green=1) and s.rubles[0] == 1
    s = influence("MR3", 1, {"brick": 4})
    s = play(s, "exchange brick+brick+brick+brick gold+purple")
    assert s.inv[0] == mats(gold=1, purple=1)
    s = influence("MR1", 0, ws={0: {"green": ("W21", "up")}})
    assert uses(s) == {"activate green"}
    s = play(s, "activate green")
    assert s.score[0] == 2 + C.tiles[C.tile_index("W21")].amount


def test_clergy():
    """RC-INFL-CLERGY: CL-1 gain 1 (Recognition); CL-2 pay 3 Rubles for 1 (Prestige);
    CL-3 discard 3 different Materials for 1 (Prestige); CL-4 with a completed Base,
    Middle and Dome gain 2 (Prestige). The units are the data's best guesses."""
    s = play(influence("CL1", 0), "perform")
    assert s.score[0] == 3
    s = play(influence("CL1", 1, rubles=7), "perform")
    assert s.rubles[0] == 4 and pp(s, 0) == 1
    assert "perform" not in legal(s)  # CL-2 is once per turn in the data
    s = influence("CL2", 1, {"wood": 1, "brick": 1, "stone": 1, "gold": 1})
    assert len(uses(s)) == 4  # 4 choose 3
    s = play(s, "discard wood+brick+gold")
    assert s.inv[0] == mats(stone=1) and pp(s, 0) == 1
    assert "use-influence 1" not in legal(at_market("CL3"))
    full_set = [[card("B01", 0, done=True), card("M01", 0, done=True),
                 card("D01", 0, done=True)]]
    s = play(influence("CL3", 1, towers=full_set), "perform")
    assert pp(s, 0) == 2


def test_seed_influence_example():
    """RC-INFL-EXAMPLE: after taking 4 bricks, exchange 2 of them for 1 green jewel via
    the Merchants' Guild (MR-1); also played in full as RC-EX-5."""
    s = influence("MR1", 1, {"brick": 4})
    s = play(s, "exchange brick+brick green")
    assert s.inv[0] == mats(brick=2, green=1)
