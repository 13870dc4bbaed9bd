"""Praga's actions as values (STYLE.md section 3): one frozen dataclass per verb with named
fields; the text form is context-free and parses back to the same value; the label names
what the action takes."""

from __future__ import annotations

import dataclasses
import re

import pytest

from meeplehall.core.protocol import IllegalActionError
from meeplehall.games.praga import GAME
from meeplehall.games.praga import actions as A
from meeplehall.games.praga.components import load
from meeplehall.rl.encoders.praga import catalogue
from tests.games.praga.fixtures import build, play

C = load()
GREEN_ZONE = C.crane.green_start + 1


def test_every_action_text_parses_back_to_the_same_value():
    """Every value the engine can produce (the RL catalogue) writes a text that starts with
    its class's verb, has one word per field, and parses back to the very same (interned)
    value, so records written with the text form replay."""
    actions = catalogue(2)
    assert {type(a) for a in actions} == set(A.CLASSES)
    for action in actions:
        text = str(action)
        words = text.split()
        assert words[0] == type(action).verb
        assert len(words) == 1 + len(type(action).args) == 1 + len(
            dataclasses.fields(action))
        assert A.parse_action(text) is action, text
    assert len({str(a) for a in actions}) == len(actions)


def test_actions_are_values_usable_as_dict_keys():
    """Equal fields and class: equal and the same hash; the same number under another
    verb is another action; no field can be changed."""
    assert A.Perform(0) == A.parse_action("perform mines") == A.perform(0)
    assert hash(A.Perform(0)) == hash(A.parse_action("perform mines"))
    assert A.Perform(0) != A.Extra(0) and A.Perform(0) != A.AnyAction(0)
    assert A.AtMarket(0) != A.MarketTile(0) and A.KeepTech(3) != A.UseTech(3)
    assert A.EndTurn() == A.END_TURN and A.EndTurn() != A.Expand()
    assert A.parse_action("buy-extra silver") is A.buy_extra(True)
    assert A.parse_action("buy-extra gold") == A.BuyExtra(silver=False)
    table = {A.Refresh(row=1, resource=0): "wall/gold"}
    assert table[A.parse_action("refresh wall gold")] == "wall/gold"
    assert A.parse_action("refresh wall stone") not in table
    with pytest.raises(dataclasses.FrozenInstanceError):
        A.Pick(1).position = 2  # type: ignore[misc]


@pytest.mark.parametrize(("text", "message"), [
    ("fly 3", "unknown action 'fly'"),
    ("", "empty action"),
    ("perform", "'perform' takes 1 argument(s)"),
    ("end-turn now", "'end-turn' takes 0 argument(s)"),
    ("perform mining", "unknown action 'mining'"),
    ("site S99", "unknown site 'S99'"),
    ("pick x", "'x' is not a number"),
    ("orient 100", "100 is out of range 0..99"),
])
def test_bad_texts_say_what_is_wrong(text, message):
    with pytest.raises(IllegalActionError, match=re.escape(message)):
        A.parse_action(text)


def _labels(s):
    return {str(a): GAME.action_label(s, a) for a in GAME.legal_actions(s)}


def test_labels_name_what_the_action_takes():
    """The English labels of the hub (P-TURN-2/3) and of choices inside actions."""
    s = build({"crane": (2, GREEN_ZONE, ("mines", "building")),
               "p": {0: {"goldw": 2, "silver": 3, "gold": 2, "stone": 1, "seal_rights": 1}},
               "set": {"moves_hw": 1}})
    labels = _labels(s)
    assert labels["take-tile 2"] == "Take action tile A1 (mines / building) from slot 2"
    assert labels["buy-extra gold"] == "Buy the extra action with 2 gold windows"
    assert labels["buy-extra silver"] == "Buy the extra action with 1 gold + 1 silver window"
    assert labels["refresh wall stone"] == "Pay 1 stone to refresh the wall row"
    assert labels["up cathedral"] == "Pay 2 silver windows to move up on the cathedral"
    assert labels["side hunger-wall"] == "Move sideways on the hunger-wall"
    assert labels["claim-seal S4"] == "Claim seal S4 (flat, 6)"
    s = play(s, "take-tile 2")
    labels = _labels(play(s, "buy-extra silver"))
    assert labels["perform building"] == "Perform building"
    assert labels["extra road"] == "Perform road as your extra action"
    assert labels["wheel-bonus"] == "Take the wheel bonus (1 stone)"
    assert _labels(play(s, "perform mines")) == {
        "expand": "Expand: +1 and move the cube right", "produce": "Produce"}
    assert _labels(play(s, "perform building")) == {
        "pick 1": "Take B01 (2 gold -> 2 VP; cube, blue corner)"}
    assert _labels(play(s, "refresh wall gold"))["remove 1 3"] == (
        "Remove the tiles at positions 2 and 4")  # counted from 1, as on the board


def test_labels_of_technology_choices():
    """GL-T4-5, GL-T4-6, P-GRID-7."""
    s = play(build({"p": {0: {"techs": ["T4e"]}}, "markets": {"M1": "K2"}}), "use-tech T4e")
    assert _labels(s)["market-tile M1"] == (
        "Take both rewards of market M1: 2 silver windows and 4 VP")
    s = play(build({"p": {0: {"techs": ["T4f"], "stone": 0}}}), "use-tech T4f")
    assert _labels(s)["grow quarry gold"] == "+1 quarry, then produce gold"
    s = play(build({"p": {0: {"silver": 2, "cat": (3, 0), "gold": 3, "stone": 3}}}),
             "up cathedral")
    assert _labels(s)["cathedral-tile V4"] == "Take bridge tile V4 (mines)"


def test_the_same_verb_is_labelled_by_the_decision_it_answers():
    """``at-market`` chooses where to build (P-BLD-5) or where a Parler bot's pawn starts
    (Parler P.2 step 3)."""
    s = GAME.initial_state({"players": 1, "solo_opponent": "parler"}, 3)
    assert _labels(s)["at-market M1"] == "Put Peter Parler's pawn on market M1"
    s = build({"p": {0: {"gold": 9, "stone": 9}},
               "rows": {"building": ["B01", "B02", "B03", "B15"]},
               "crane": (2, GREEN_ZONE, ("building", "mines"))})
    s = play(s, "take-tile 2", "perform building", "pick 0")
    labels = _labels(s)
    assert labels and all(label.startswith("Build next to market M")
                          for label in labels.values())
