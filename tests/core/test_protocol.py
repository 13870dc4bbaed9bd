"""Options, parameter validation, outcomes and the checked ``apply`` (core/protocol.py),
exercised through The Red Cathedral."""

from __future__ import annotations

import pytest

from meeplehall.core.protocol import (
    IllegalActionError,
    Option,
    Outcome,
    rank_groups,
    validate_params,
)
from meeplehall.core.rng import Rng
from meeplehall.games.red_cathedral import GAME

OPTS = (
    Option("players", "int", 2, "seats", minimum=1, maximum=4),
    Option("fast", "bool", False, "hurry"),
    Option("colour", "choice", "red", "paint", choices=("red", "blue")),
)


def test_defaults_and_normalisation():
    assert validate_params(OPTS, {}) == {"players": 2, "fast": False, "colour": "red"}
    assert validate_params(OPTS, {"players": "3", "fast": "yes"}) == {
        "players": 3, "fast": True, "colour": "red"}


@pytest.mark.parametrize(("params", "message"), [
    ({"speed": 1}, "unknown option 'speed'; known options: players, fast, colour"),
    ({"players": 9}, "option 'players' must be <= 4, got 9"),
    ({"players": 0}, "option 'players' must be >= 1, got 0"),
    ({"players": "many"}, "option 'players' must be an integer, got 'many'"),
    ({"players": True}, "option 'players' must be an integer"),
    ({"players": 2.5}, "option 'players' must be an integer"),
    ({"fast": "maybe"}, "option 'fast' must be true or false, got 'maybe'"),
    ({"colour": "green"}, "option 'colour' must be one of 'red', 'blue'; got 'green'"),
])
def test_validation_errors_name_the_option(params, message):
    with pytest.raises(ValueError) as info:
        validate_params(OPTS, params)
    assert message in str(info.value)


def test_params_must_be_a_mapping():
    with pytest.raises(ValueError, match="params must be a mapping"):
        validate_params(OPTS, [("players", 2)])


@pytest.mark.parametrize(("params", "seed", "message"), [
    ({"colour": "red"}, 0, "unknown option 'colour'"),
    ({"players": 5}, 0, "option 'players' must be <= 4, got 5"),
    ({"players": 0}, 0, "option 'players' must be >= 1, got 0"),
    ({"players": "two"}, 0, "option 'players' must be an integer"),
    ({"players": 2, "end_bonus_unit": "gold"}, 0, "option 'end_bonus_unit' must be one of"),
    ({"players": 2}, "7", "seed must be an integer"),
    ({"players": 2}, True, "seed must be an integer"),
])
def test_initial_state_rejects_bad_params(params, seed, message):
    with pytest.raises(ValueError) as info:
        GAME.initial_state(params, seed)
    assert message in str(info.value)


def test_rank_groups_and_outcome():
    assert rank_groups([(5, 1), (7, 0), (5, 1)]) == ((1,), (0, 2))
    out = Outcome((3, 9, 3), ((1,), (0, 2)), (1,))
    assert [out.rank_of(s) for s in range(3)] == [2, 1, 2]
    with pytest.raises(ValueError, match="seat 5"):
        out.rank_of(5)
    assert out.to_dict()["ranking"] == [[1], [0, 2]]


def test_illegal_action_names_the_reason_and_leaves_the_state():
    state = GAME.initial_state({"players": 3}, 4)
    before = state.clone()
    with pytest.raises(IllegalActionError) as info:
        GAME.apply(state, "build")
    assert "build is not legal now" in str(info.value)
    assert "Legal actions:" in str(info.value)
    assert state == before


def test_illegal_action_reasons_from_the_game():
    state = GAME.initial_state({"players": 2}, 4)
    with pytest.raises(IllegalActionError, match="there is no slot 60"):
        GAME.apply(state, "claim 60 inventory")
    state.score[0] = 14  # on a Prestige space: free actions keep the turn open
    state = GAME.apply(state, "claim 0 inventory")
    state = GAME.apply(state, "place-tile yellow down")
    assert GAME.current_player(state) == 0
    before = state.clone()
    with pytest.raises(IllegalActionError, match="already taken your main action"):
        GAME.apply(state, "claim 1 inventory")
    assert state == before


def test_no_action_after_the_game_is_over():
    state = GAME.initial_state({"players": 2}, 1)
    rng = Rng.from_seed(1)
    while GAME.current_player(state) is not None:
        actions = GAME.legal_actions(state)
        GAME.apply_unchecked(state, actions[rng.randbelow(len(actions))])
    with pytest.raises(IllegalActionError, match="the game is over"):
        GAME.apply(state, "end-turn")
    assert GAME.legal_actions(state) == ()


def test_parse_action_round_trips_every_legal_action():
    for players in (1, 2, 3, 4):
        state = GAME.initial_state({"players": players, "advanced_workshops": players == 3},
                                   players)
        rng = Rng.from_seed(players)
        seen = set()
        while GAME.current_player(state) is not None:
            actions = GAME.legal_actions(state)
            for action in actions:
                text = str(action)
                assert GAME.parse_action(text) == action, text
                seen.add(text.split()[0])
            GAME.apply_unchecked(state, actions[rng.randbelow(len(actions))])
        assert {"claim", "place-tile", "move-die", "build", "deliver"} <= seen


@pytest.mark.parametrize(("text", "message"), [
    ("", "empty action"),
    ("   ", "empty action"),
    ("fly 3", "unknown action 'fly'"),
    ("claim x inventory", "'x' is not a number"),
    ("claim 0 sideways", "Banner source must be 'inventory' or 'outside'"),
    ("claim 0", "'claim' takes 2 argument(s)"),
    ("move-die purple +1", "unknown die 'purple'"),
    ("move-die white 2", "extra steps are written '+N'"),
    ("reroll 8", "8 is out of range 0..7"),
    ("build now", "'build' takes no arguments"),
    ("place-tile blue sideways", "face must be 'up' or 'down'"),
    ("deliver diamond 3", "unknown material 'diamond'"),
    ("activate white-3", "unknown Workshop position 'white-3'"),
])
def test_parse_action_rejects_malformed_text(text, message):
    with pytest.raises(IllegalActionError) as info:
        GAME.parse_action(text)
    assert message in str(info.value)


def test_parse_action_rejects_non_text():
    with pytest.raises(IllegalActionError, match="must be text"):
        GAME.parse_action(42)
