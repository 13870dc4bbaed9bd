"""Turn structure and free actions (RC-TURN-1..3, RC-FREE-1..3, RC-AMB-3/12/19)."""

from __future__ import annotations

from meeplehall.core.messages import log_lines
from meeplehall.core.testing import random_playout
from meeplehall.games.red_cathedral import GAME
from meeplehall.games.red_cathedral.decisions import Market
from tests.games.red_cathedral.fixtures import build, card, legal, market_turn, play

TILES = ["rp", "green", "purple", "brick", "wood", "stone", "gold", "rubles"]
DICE = {"yellow": (0, 3), "red": (1, 1), "blue": (2, 2), "green": (3, 4), "white": (4, 1)}


def prestigious(players=2, **options):
    """Seat 0 to move with its marker on space 14 (3 Prestige) and the market above."""
    return build({"players": players, "options": options, "tiles": TILES, "dice": DICE,
                  "score": {0: 14}, "turn": 0})


def option(name):
    return {o.name: o for o in GAME.options}[name]


def test_turns_go_clockwise():
    """RC-TURN-1: seat after seat, each turn finished before the next begins."""
    s = GAME.initial_state({"players": 3}, 2)
    order = []
    for _ in range(7):
        order.append(GAME.current_player(s))
        s = market_turn(s)
    assert order == [0, 1, 2, 0, 1, 2, 0]


def test_exactly_one_main_action():
    """RC-TURN-2: after the main action only free actions and ending the turn remain."""
    s = prestigious()
    s = play(s, "claim 0 inventory", "place-tile yellow down")
    acts = legal(s)
    assert "end-turn" in acts
    assert not {a for a in acts if a.split()[0] in ("claim", "build", "move-die", "pass")}
    assert "sell-prestige" in acts


def test_no_pass_unless_no_main_action_or_option():
    """RC-AMB-12: no voluntary pass (default); ``allow_pass`` offers one; a Build needs a
    delivery, a Market action moves a die."""
    assert option("allow_pass").default is False
    assert "pass" not in legal(prestigious())
    s = play(prestigious(allow_pass=True), "pass")
    assert s.main_done and "end-turn" in legal(s)
    s = build({"players": 2, "towers": [["B01", card("M01", 0), "D01"]],
               "inv": {0: {"stone": 1}}, "turn": 0})
    s = play(s, "build")
    assert "finish-delivery" not in legal(s)  # at least one delivery


def test_free_actions_before_between_and_after():
    """RC-TURN-3 / RC-AMB-19: free actions before, between the steps of and after the main
    action (default); with ``free_actions_between_steps`` false, not between steps."""
    assert option("free_actions_between_steps").default is True
    s = prestigious()
    assert "sell-prestige" in legal(s)
    s = play(s, "move-die red +0")
    assert isinstance(s.stack[-1], Market) and "sell-prestige" in legal(s)
    strict = play(prestigious(free_actions_between_steps=False), "move-die red +0")
    assert "sell-prestige" not in legal(strict)
    strict = play(strict, "finish-market")
    assert "sell-prestige" in legal(strict)  # after the main action again


def test_sell_prestige_repeatedly_for_two_rubles_each():
    """RC-FREE-1: lose 1 Prestige, take 2 Rubles, as often as wanted."""
    s = prestigious()
    s = play(s, "sell-prestige", "sell-prestige")
    assert s.score[0] == 5 and s.rubles[0] == 3 + 4
    assert "sell-prestige" not in legal(s)  # no Prestige space behind space 5


def test_sell_prestige_window_option():
    """RC-AMB-3: by default (the seed) Prestige may be sold at any moments of the turn;
    with ``sell_prestige_window='single'`` (the reference) all sales happen at one
    moment."""
    assert option("sell_prestige_window").default == "any"
    s = play(prestigious(), "sell-prestige", "move-die red +0")
    assert "sell-prestige" in legal(s)
    s = play(prestigious(sell_prestige_window="single"), "sell-prestige", "move-die red +0")
    assert "sell-prestige" not in legal(s)
    s = play(prestigious(sell_prestige_window="single"), "move-die red +0", "sell-prestige",
             "sell-prestige")
    assert s.score[0] == 5


def test_reroll_once_per_turn_for_one_prestige():
    """RC-FREE-2: lose 1 Prestige to reroll every die on one space, at most once per turn;
    empty spaces are not offered."""
    s = prestigious()
    offered = {a for a in legal(s) if a.startswith("reroll")}
    assert offered == {f"reroll {sp}" for sp in sorted(set(s.die_pos))}
    s = play(s, "reroll 2")
    assert s.score[0] == 10 and s.reroll_used
    assert not {a for a in legal(s) if a.startswith("reroll")}
    assert s.die_pos == build({"players": 2, "dice": DICE}).die_pos


def test_ivan_never_uses_free_actions():
    """RC-FREE-3: Ivan's turns contain no Prestige sales or rerolls."""
    for seed in range(5):
        state, _ = random_playout(GAME, {"players": 1, "ivan_choice": "leftmost"}, seed, seed)
        for line in log_lines(state.log):
            if line.startswith("Ivan"):
                assert "sells" not in line and "to reroll" not in line
