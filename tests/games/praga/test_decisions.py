"""The decision objects (decisions.py): one frozen dataclass per kind, each with its
legal actions, apply, prompt, rule text, masking and held tiles; their saved form."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from meeplehall.games.praga import GAME
from meeplehall.games.praga import actions as A
from meeplehall.games.praga import decisions as D
from meeplehall.games.praga.components import load
from meeplehall.games.praga.effects import GOLD_TRACK, QUARRY_TRACK
from meeplehall.games.praga.state import (
    BUILDING_ROW,
    UPGRADE_ROW,
    WALL_ROW,
    Decision,
    decision_from_plain,
)
from tests.games.praga.fixtures import build, legal, play

C = load()

# One value of every kind, with fields as the engine pushes them.
EXAMPLES: tuple[Decision, ...] = (
    D.Turn(1), D.Mine(0, QUARRY_TRACK), D.Pick(1, UPGRADE_ROW, 2, 0), D.WallAt(0, 5),
    D.Site(1, 3, 2, -1), D.Orient(0, WALL_ROW, 4, 9, 0), D.Refresh(1, 0),
    D.Choose(0, (((0, 1),), ((1, 2), (2, 1))), "market M1"),
    D.TechDraw(1, (2, 5, 7), 1), D.Token(0, GOLD_TRACK), D.Token(0, QUARRY_TRACK, 0),
    D.BridgeTile(1, (1, 2, 3), 0), D.BridgeTile(0, (10, 12), 1), D.Plank(0, 3),
    D.Arrow(1, 0), D.CatTile(0), D.Discard(1), D.AnyAction(0), D.TechGrid(0),
    D.MarketPick(1), D.Grow(0), D.ParlerPawn(0, 1), D.ParlerSite(0, 0, 7),
    D.ParlerOrient(0, 1, 7, 30),
)


def test_every_kind_has_its_code_name_and_rule() -> None:
    """Codes are the saved form's first item (0, 1, ...), names are unique, and every
    kind says which rule it asks under (a rule ID, or the reward choice)."""
    assert [k.code for k in D.KINDS] == list(range(len(D.KINDS)))
    assert len(set(D.NAMES)) == len(D.KINDS) == 22
    assert {type(d) for d in EXAMPLES} == set(D.KINDS)
    for kind in D.KINDS:
        assert kind.rule.startswith(("P-", "GL-", "Parler P.")) or kind is D.Choose, kind


def test_decisions_are_frozen_and_slotted() -> None:
    for d in EXAMPLES:
        with pytest.raises(dataclasses.FrozenInstanceError):
            d.seat = 3  # type: ignore[misc]
        assert not hasattr(d, "__dict__"), type(d)
        assert hash(d) == hash(dataclasses.replace(d))


def test_the_saved_form_is_code_seat_fields_and_reads_back() -> None:
    """``[code, seat, *fields]`` as JSON, the form states were always saved in (a token
    that owes no production has no fourth item)."""
    for d in EXAMPLES:
        plain = json.loads(json.dumps(d.to_plain()))
        assert plain[:2] == [d.code, d.seat]
        assert decision_from_plain(plain) == d
    assert D.Token(0, 1).to_plain() == [9, 0, 1]
    assert D.Token(0, 1, 0).to_plain() == [9, 0, 1, 0]
    assert D.Site(1, 3, 2, -1).to_plain() == [4, 1, 3, 2, -1]
    assert decision_from_plain([7, 2, [[[0, 1]], [[3, 1]]], "sideways move"]) == D.Choose(
        2, (((0, 1),), ((3, 1),)), "sideways move")
    with pytest.raises(ValueError, match="unknown decision code 99"):
        decision_from_plain([99, 0])


def test_old_saved_states_load() -> None:
    """A state saved with the stack as ``[code, seat, ...]`` lists loads, and saves back
    to the same JSON."""
    s = GAME.initial_state({"players": 2}, 3)
    data = GAME.to_json(s)
    data["stack"] = [[0, 0], [2, 0, 0, 0, 0], [9, 0, 1, 1]]
    loaded = GAME.from_json(json.loads(json.dumps(data)))
    assert loaded.stack == [D.Turn(0), D.Pick(0, BUILDING_ROW, 0, 0), D.Token(0, 1, 1)]
    assert GAME.to_json(loaded)["stack"] == data["stack"]


def test_P_TECH_2_P_BRIDGE_2_drawn_tiles_are_masked_for_the_other_seats() -> None:
    """Only the drawing seat sees the technologies or bridge tiles it chooses among."""
    for d in EXAMPLES:
        for viewer in (0, 1, None):
            shown = d.masked(viewer)
            if d.hides and viewer != d.seat:
                assert shown != d and type(shown) is type(d) and shown.seat == d.seat
                plain = shown.to_plain()
                assert set(plain[2]) == {-1} and len(plain[2]) == len(d.to_plain()[2])
            else:
                assert shown is d
    assert {type(d) for d in EXAMPLES if d.hides} == {D.TechDraw, D.BridgeTile}


def test_held_tiles_are_the_taken_row_tiles_not_yet_placed() -> None:
    """What re-dealing must not deal again (views.sample_hidden)."""
    held = {type(d): d.held_tiles() for d in EXAMPLES}
    assert held[D.Site] == ((BUILDING_ROW, 3),)
    assert held[D.WallAt] == ((WALL_ROW, 5),)
    assert held[D.Orient] == ((WALL_ROW, 4),)
    assert held[D.ParlerSite] == held[D.ParlerOrient] == ((BUILDING_ROW, 7),)
    assert all(not v for k, v in held.items()
               if k not in (D.Site, D.WallAt, D.Orient, D.ParlerSite, D.ParlerOrient))


def test_P_MINE_6_the_decision_lists_and_applies_its_own_actions() -> None:
    """P-MINE-2/6: expand or produce; a cube on the last space can only produce."""
    s = build({"p": {0: {"mine": C.gold_track.spaces}}})
    assert D.Mine(0, GOLD_TRACK).legal(s) == [A.PRODUCE]
    s = build({"p": {0: {"mine": 2, "gold": 0}}})
    s.stack.append(D.Mine(0, GOLD_TRACK))
    assert GAME.legal_actions(s) == (A.EXPAND, A.PRODUCE)
    gold = s.gold[0]
    D.Mine(0, GOLD_TRACK).apply(s, A.EXPAND)
    assert s.mine[0] == 3 and s.gold[0] == gold + 1
    assert s.stack == [D.Turn(0)]


def test_P_BLD_4_the_site_decision_replaces_itself_with_the_chosen_market() -> None:
    """P-BLD-4/5: a market first (the decision is replaced, not pushed), then a site."""
    s = build({"crane": (2, C.crane.green_start + 1, ("building", "mines")),
               "p": {0: {"gold": 9, "stone": 9}},
               "rows": {"building": ("B05", "B01", "B02", "B15")}})
    s = play(s, "take-tile 2", "perform building", "pick 0")
    top = s.stack[-1]
    assert isinstance(top, D.Site) and top.market < 0
    first = legal(s)[0]
    depth = len(s.stack)
    s = play(s, first)
    assert len(s.stack) == depth and isinstance(s.stack[-1], D.Site)
    assert s.stack[-1].market >= 0 and all(a.startswith("site ") for a in legal(s))


def test_prompts_and_rule_texts_come_from_the_decision() -> None:
    s = GAME.initial_state({"players": 2}, 1)
    assert str(GAME.decision_message(s)) == "green: turn 1 of 16, take an action tile"
    assert GAME.rules_text(s) == D.Turn.rule
    s.stack.append(D.Discard(0))
    assert str(GAME.decision_message(s)) == (
        "green: keep at most 2 windows at the end of your turn.")
    assert GAME.rules_text(s).startswith("P-WIN-2")
    s.stack[-1] = D.Choose(0, (((0, 1),),), "market M3")
    assert str(GAME.decision_message(s)) == "green: choose a reward (market M3)"


def test_parler_choices_are_decisions_of_the_human_naming_the_bot() -> None:
    """P.2 step 3: each bot's pawn plaza is asked of seat 0, naming the bot."""
    s = GAME.initial_state({"players": 1, "solo_opponent": "parler", "parler_bots": 2}, 5)
    top = s.stack[-1]
    assert isinstance(top, D.ParlerPawn) and top.seat == 0 and top.bot == 0
    assert GAME.current_player(s) == 0
    name = D.side_label(s, s.players + top.bot)
    assert str(GAME.decision_message(s)) == f"green: choose the plaza where {name} starts"
    assert all(isinstance(a, A.AtMarket) for a in GAME.legal_actions(s))


def test_every_pushed_decision_is_a_typed_value() -> None:
    """In random games of every mode, every decision on the stack is one of the kinds,
    its legal actions are what the game lists, and it survives a JSON round trip."""
    modes = ({"players": 3}, {"players": 1}, {"players": 2, "road_tiles": True},
             {"players": 1, "solo_opponent": "parler", "parler_bots": 3})
    seen: set[type[Decision]] = set()
    for i, params in enumerate(modes):
        s = GAME.initial_state(params, 40 + i)
        rng = random.Random(i)
        while GAME.current_player(s) is not None:
            for d in s.stack:
                assert type(d) in D.KINDS
                assert decision_from_plain(json.loads(json.dumps(d.to_plain()))) == d
            seen.add(type(s.stack[-1]))
            actions = GAME.legal_actions(s)
            assert set(actions) <= set(s.stack[-1].legal(s))
            GAME.apply_unchecked(s, rng.choice(actions))
    assert {D.Turn, D.Pick, D.Site, D.Orient, D.Mine, D.ParlerPawn} <= seen
