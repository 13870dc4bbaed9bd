"""Fidelity review: scenario tests for rules whose earlier tests were nominal, and for
the discrepancies fixed in the review (docs/praga-seed-notes.md, "Fidelity review")."""

from __future__ import annotations

from meeplehall.games.praga import GAME
from meeplehall.games.praga import decisions as D
from meeplehall.games.praga.components import load
from tests.games.praga.fixtures import build, legal, play, slot_of

C = load()
GREEN_ZONE = C.crane.green_start + 1
SILVER_SLOT = slot_of("gain", gain="silver")  # its bonus pays for no building (P-TURN-3)


def _building_or_blocked_road(**p: int) -> dict:
    """Seat 0 takes a Building / King's Road tile: the road is blocked (space III, no
    egg), the only affordable building is B01 (2 gold), and seat 0 has exactly 2 gold."""
    return {"crane": (SILVER_SLOT, GREEN_ZONE, ("building", "road")),
            "rows": {"building": ["B01", "B04", "B06", "B15"]},
            "p": {0: {"gold": 2, "stone": 1, "road": 3, "eggs": 0, **p}}}


def test_P_TURN_2_the_tile_action_cannot_be_given_up_by_spending_first():
    """P-TURN-2 step 2 (mandatory), P-ACT-3, P-EDGE-1, [DE] p. 5 "Du beginnst deinen Zug,
    indem du deine gewünschte Aktion wählst": after taking a tile whose action can be
    performed, nothing may be done that makes it impossible. Refreshing with the last
    gold would leave no payable building; refreshing with stone is fine."""
    s = play(build(_building_or_blocked_road()), f"take-tile {SILVER_SLOT}")
    acts = legal(s)
    assert "perform building" in acts and "end-turn" not in acts
    assert not any(a.startswith("refresh") and a.endswith("gold") for a in acts)
    assert "refresh building stone" in acts


def test_P_TURN_2_an_extra_action_may_not_spend_what_the_tile_action_needs():
    """P-TURN-2, P-XACT-3, P-TIMING-1: the extra action may come first, but its building
    may not use what the tile's (only performable) Building action needs: with 2 gold and
    2 stone, B05 (2 gold 2 stone) would leave nothing for the tile action, B01 (2 gold)
    and B03 (2 stone) leave the other one payable."""
    spec = _building_or_blocked_road(goldw=2, stone=2)
    spec["rows"] = {"building": ["B01", "B03", "B05", None]}
    s = build(spec)
    s.stacks[0] = ()  # no refills: the row is exactly what is shown
    s = play(s, f"take-tile {SILVER_SLOT}", "buy-extra gold", "extra building")
    assert legal(s) == ["pick 0", "pick 1"]
    s = play(s, "pick 0")
    assert all(a.startswith("at-market") for a in legal(s))
    s = play(s, legal(s)[0])
    s = play(s, legal(s)[0])
    while not isinstance(s.stack[-1], D.Turn):  # orientation etc.
        s = play(s, legal(s)[0])
    assert "perform building" in legal(s) and "end-turn" not in legal(s)


def test_P_TURN_2_an_extra_action_that_would_block_the_tile_action_is_not_offered():
    """P-TURN-2: with only B05 and B01 left and 2 gold, 2 stone, any extra building makes
    the tile's Building impossible, so the extra Building is not offered."""
    spec = _building_or_blocked_road(goldw=2, stone=2)
    spec["rows"] = {"building": ["B01", "B05", None, None]}
    s = build(spec)
    s.stacks[0] = ()
    s = play(s, f"take-tile {SILVER_SLOT}", "buy-extra gold")
    assert "extra building" not in legal(s) and "extra mines" in legal(s)


def test_P_EDGE_1_no_filter_when_the_action_was_impossible_anyway():
    """P-EDGE-1: a taken tile whose actions cannot be performed may be forfeited; then
    spending is not restricted."""
    s = build(_building_or_blocked_road(gold=0))  # no slot's gold makes 2 gold for B01
    s.pairs = tuple(s.pairs[0] for _ in s.pairs)
    s = play(s, f"take-tile {SILVER_SLOT}")
    acts = legal(s)
    assert "end-turn" in acts and "refresh building stone" in acts
    assert GAME.legal_actions(s)


def _at_final(s):
    s.turns = C.turns_per_player * s.players
    return s


def test_P_GRID_6_LANG_11_upward_arrow_in_final_scoring_is_still_optional():
    """P-GRID-6, LANG-11 (optional arrow), P-SCORE-2, P-SCORE-6: a sideways move made in
    final step 1 that lands on an upward arrow below a tier boundary (1 gold + 1 stone)
    does not force the paid move: with seal S3 (3 VP per gold+stone pair) and 1 gold,
    1 stone, climbing gains 2 row points but loses 3 seal points, so the cube stays;
    without the seal it climbs."""
    from meeplehall.games.praga.components import CATHEDRAL
    from meeplehall.games.praga.effects import sideways
    from meeplehall.games.praga.final import remaining_points

    def scenario(gold: int, stone: int, seal: bool = True):
        s = build({"p": {0: {"cat": (1, 2), "gold": gold, "stone": stone}}})
        if seal:
            s.seal_owner[2] = 0
        return _at_final(s)

    s = scenario(1, 1)
    sideways(s, 0, CATHEDRAL)
    assert (s.cat[0] // 8, s.cat[0] % 8, s.gold[0], s.stone[0]) == (1, 3, 1, 1)
    assert remaining_points(s, 0) >= 2 + 3 * 1
    s = scenario(3, 3, seal=False)
    sideways(s, 0, CATHEDRAL)
    assert (s.cat[0] // 8, s.gold[0], s.stone[0]) == (2, 2, 2)


def test_GL_M1_final_sideways_move_goes_where_the_receiver_scores_most():
    """GL-M1, P-SCORE-2, P-GRID-8: a sideways-move reward received in final step 1 is
    not asked; the engine takes the grid that scores most for the receiver: 3 blue tokens
    and no red token make the Hunger Wall column worth more."""
    from meeplehall.games.praga.components import SIDE_MOVE
    from meeplehall.games.praga.effects import gain

    s = _at_final(build({"p": {0: {"blue": 3, "red": 0}}}))
    hw, cat = s.hw[0], s.cat[0]
    gain(s, 0, SIDE_MOVE, 1)
    assert s.hw[0] != hw and s.cat[0] == cat
    s = _at_final(build({"p": {0: {"blue": 0, "red": 3}}}))
    hw, cat = s.hw[0], s.cat[0]
    gain(s, 0, SIDE_MOVE, 1)
    assert s.hw[0] == hw and s.cat[0] != cat


def test_P_TURN_2_explain_illegal_names_the_mandatory_action():
    """P-TURN-2: the refusal of a filtered option says why."""
    import pytest

    from meeplehall.core.protocol import IllegalActionError

    s = play(build(_building_or_blocked_road()), f"take-tile {SILVER_SLOT}")
    with pytest.raises(IllegalActionError, match="P-TURN-2"):
        GAME.apply(s, "refresh building gold")
