"""Every seat's and the spectator's view matches the game's JSON schema in docs/schemas,
at many positions of random games in every mode; and the designed sections (``board``,
``pending`` and the other named sections) never name a hidden component."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from meeplehall.games import GAMES

SCHEMAS = Path(__file__).resolve().parents[2] / "docs" / "schemas"

MODES: dict[str, tuple[dict[str, Any], ...]] = {
    "praga": (
        {"players": 2}, {"players": 3}, {"players": 4, "road_tiles": True,
                                         "action_side": "B"},
        {"players": 1}, {"players": 1, "solo_opponent": "parler", "parler_bots": 2},
    ),
    "red-cathedral": (
        {"players": 1}, {"players": 2}, {"players": 3, "advanced_workshops": True},
        {"players": 4},
    ),
}


def _validator(game: str) -> jsonschema.protocols.Validator:
    schema = json.loads((SCHEMAS / f"{game}-view.json").read_text(encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)  # type: ignore[no-any-return]


def _positions(name: str, params: dict[str, Any], seed: int, every: int) -> Iterator[Any]:
    """States of one random game: every ``every``-th decision and the last one."""
    game = GAMES[name]
    state = game.initial_state(params, seed)
    rng = random.Random(seed)
    k = 0
    while game.outcome(state) is None:
        if k % every == 0:
            yield state
        game.apply_unchecked(state, rng.choice(game.legal_actions(state)))
        k += 1
    yield state


def _seats(game: Any, state: Any) -> list[int | None]:
    return [*range(game.num_players(state)), None]


@pytest.mark.parametrize("name", sorted(MODES))
def test_every_view_matches_the_schema(name: str) -> None:
    validator = _validator(name)
    game = GAMES[name]
    checked = 0
    for i, params in enumerate(MODES[name]):
        for state in _positions(name, params, 100 + i, 23):
            for seat in _seats(game, state):
                view = json.loads(json.dumps(game.player_view(state, seat)))
                errors = sorted(validator.iter_errors(view), key=lambda e: list(e.path))
                assert not errors, (params, seat, [
                    f"{'/'.join(map(str, e.path))}: {e.message}" for e in errors[:5]])
                checked += 1
    assert checked > 200


def test_a_schema_refuses_a_raw_code() -> None:
    """The schemas are strict enough to catch the packed codes they replace."""
    validator = _validator("praga")
    game = GAMES["praga"]
    view = json.loads(json.dumps(game.player_view(game.initial_state({"players": 2}, 3), 0)))
    assert validator.is_valid(view)
    view["board"]["players"][0]["hunger_wall"] = 9  # row 1, column 1 packed as 1 * 8 + 1
    assert not validator.is_valid(view)


def test_praga_readable_lines_are_messages() -> None:
    """A readable line of a Praga view is a message for the catalogues, not English."""
    validator = _validator("praga")
    game = GAMES["praga"]
    state = game.initial_state({"players": 1, "solo_opponent": "parler"}, 3)
    view = json.loads(json.dumps(game.player_view(state, 0)))
    assert validator.is_valid(view)
    for field in ("turn", "platform", "this_turn", "seats", "markets", "bots", "crane",
                  "bridge", "seals", "river"):
        changed = json.loads(json.dumps(view))
        line = changed[field][0] if isinstance(changed[field], list) else changed[field]
        assert set(line) == {"key", "args"}
        if isinstance(changed[field], list):
            changed[field][0] = "an English line"
        else:
            changed[field] = "an English line"
        assert not validator.is_valid(changed), field


# -- hidden components ----------------------------------------------------------------


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from _strings(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _strings(v)


def _praga_hidden(state: Any, seat: int | None) -> set[str]:
    """Ids of the components ``seat`` may not see: the face-down stacks and piles, the
    market tiles in the box and what another seat draws in private (P-TECH-2,
    P-BRIDGE-2)."""
    from meeplehall.games.praga import decisions as D
    from meeplehall.games.praga.components import load

    C = load()
    rows = (C.buildings, C.walls, C.upgrades)
    out: set[str] = set()
    for k, stack in enumerate(state.stacks):
        out |= {rows[(k % 6) // 2][t].id for t in stack}
    out |= {C.technologies[t].id for st in state.tech_stacks for t in st}
    out |= {C.bridge_tiles[t].id for t in (*state.iv_stack, *state.v_pile, *state.cat_pile)}
    out |= {C.market_tiles[t].id for t in state.unused}
    for d in state.stack:
        if d.seat != seat and isinstance(d, D.TechDraw):
            out |= {C.technologies[t].id for t in d.drawn}
        if d.seat != seat and isinstance(d, D.BridgeTile):
            out |= {C.bridge_tiles[t].id for t in d.tiles}
    return out


def test_praga_sections_name_no_hidden_component() -> None:
    game = GAMES["praga"]
    looked = 0
    for i, params in enumerate(MODES["praga"]):
        for state in _positions("praga", params, 200 + i, 7):
            for seat in _seats(game, state):
                hidden = _praga_hidden(state, seat)
                view = game.player_view(state, seat)
                shown = {k: v for k, v in view.items() if k not in ("state", "log")}
                leaked = hidden & set(_strings(shown))
                assert not leaked, (params, seat, sorted(leaked))
                looked += len(hidden)
    assert looked > 1000


def test_praga_private_draws_are_shown_to_their_seat_only() -> None:
    """The technologies a seat draws (P-TECH-2) are in its ``pending`` fields, and null
    in every other seat's."""
    from meeplehall.games.praga import decisions as D

    game = GAMES["praga"]
    found = 0
    for i, params in enumerate(MODES["praga"][:3]):
        for state in _positions("praga", params, 300 + i, 1):
            top = state.stack[-1] if state.stack else None
            if not isinstance(top, D.TechDraw):
                continue
            for seat in _seats(game, state):
                drawn = game.player_view(state, seat)["pending"]["fields"]["drawn"]
                if seat == top.seat:
                    assert None not in drawn
                else:
                    assert drawn == [None] * len(drawn)
            found += 1
    assert found > 0


@pytest.mark.parametrize("name", sorted(MODES))
def test_player_views_equal_separate_views(name: str) -> None:
    """The server builds every seat's view at once (``player_views``): each equals the
    seat's own ``player_view``, private draws included."""
    game = GAMES[name]
    build = game.views.player_views  # type: ignore[attr-defined]
    for i, params in enumerate(MODES[name][:3]):
        for state in _positions(name, params, 400 + i, 3):
            seats = _seats(game, state)
            built = build(state, seats, {})
            for seat in seats:
                assert json.dumps(built[seat]) == json.dumps(game.player_view(state, seat))


def test_praga_public_state_is_the_generic_plain_form() -> None:
    """views._public builds the bot-only ``state`` field by field: it equals
    ``state_to_plain`` of the whitelist, types and key order included."""
    from meeplehall.core.plain import state_to_plain
    from meeplehall.games.praga import views

    for i, params in enumerate(MODES["praga"]):
        for state in _positions("praga", params, 500 + i, 11):
            slots = views._PUBLIC_SLOTS if state.bots is not None else views._PUBLIC_NO_BOTS
            fast = views._public(state, slots)
            slow = state_to_plain(state, slots)
            assert list(fast) == list(slow)
            assert repr(fast) == repr(slow)
