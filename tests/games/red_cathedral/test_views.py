"""``player_view`` and ``player_views`` against a frozen copy of the generic version.

``views.player_view`` builds the view field by field for speed; its output must stay
exactly that of ``reference_player_view`` below (the implementation it replaced, kept
verbatim): equal values of equal types, in the same key order, so the bytes a server
pushes do not change. If a view is changed on purpose, change both.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from meeplehall.core.rng import Rng
from meeplehall.games.red_cathedral import GAME, view_sections, views
from meeplehall.games.red_cathedral.components import (
    CARD_KINDS,
    COLOURS,
    IVAN_CARDS,
    MATERIALS,
    ORNAMENTS,
    RESOURCES,
    WS_POSITIONS,
)
from meeplehall.games.red_cathedral.scoring import track
from meeplehall.games.red_cathedral.state import RCState
from meeplehall.games.red_cathedral.views import PUBLIC_FIELDS, C, side_name, tile_text

# -- the frozen reference ------------------------------------------------------------------


def _mats(counts: tuple[int, ...]) -> dict[str, int]:
    return {MATERIALS[m]: n for m, n in enumerate(counts) if n}


def _workshop(s: RCState, side: int) -> list[dict[str, Any]]:
    out = []
    for pos, value in enumerate(s.ws[side]):
        entry: dict[str, Any] = {"position": WS_POSITIONS[pos]}
        if value == -2:
            entry["banner"] = True
        elif value >= 0:
            tile = C.tiles[value >> 1]
            entry["tile"] = tile.id
            entry["face_up"] = bool(value & 1)
            entry["benefit"] = tile_text(value >> 1)
        if s.opts.advanced_workshops and C.advanced_ornaments[pos] >= 0 and value == -1:
            entry["locked_ornament"] = ORNAMENTS[C.advanced_ornaments[pos]]
        out.append(entry)
    return out


def reference_player_view(s: RCState, player: int | None) -> dict[str, Any]:
    """Everything seat ``player`` (None: a spectator) may know, as JSON-ready data."""
    t = track()
    plain = s.to_dict()  # the state's JSON form (decisions as ``Decision.to_plain``)
    public = {name: plain[name] for name in PUBLIC_FIELDS}
    top = s.stack[-1] if s.stack else None
    view: dict[str, Any] = {
        "game": "red-cathedral",
        "seat": player,
        "players": s.players,
        "solo": s.solo,
        "options": s.opts.to_params(),
        "plan": s.plan,
        "to_move": None if top is None else top.seat,
        "decision": None if top is None else top.kind,
        "turn_of": side_name(s, s.side),
        "end_triggered_by": None if s.end_trigger < 0 else side_name(s, s.end_trigger),
        "market": [
            {"space": sp, "quadrant": sp // 2,
             "tile": {"id": C.resource_tiles[s.tiles[sp]].id,
                      "resource": RESOURCES[C.resource_tiles[s.tiles[sp]].resource],
                      "amount": C.resource_tiles[s.tiles[sp]].amount},
             "dice": [{"colour": COLOURS[d], "value": s.die_val[d]}
                      for d in range(5) if s.die_pos[d] == sp]}
            for sp in range(8)],
        "influence": [
            {"quadrant": q, "card": C.influence[c].id,
             "actions": [{"rule": a.rule, "mark": "repeat" if a.repeat else "once",
                          "effect": a.effect, "text": a.text} for a in C.influence[c].actions]}
            for q, c in enumerate(s.influence)],
        "cathedral": [
            [{"slot": slot, "card": C.cards[s.card_of[slot]].id,
              "kind": CARD_KINDS[C.cards[s.card_of[slot]].kind],
              "cost": _mats(C.cards[s.card_of[slot]].cost),
              "rp": C.cards[s.card_of[slot]].rp, "rubles": C.cards[s.card_of[slot]].rubles,
              "owner": None if s.owner[slot] < 0 else side_name(s, s.owner[slot]),
              "delivered": _mats(s.delivered[slot]), "completed": s.done[slot],
              "ornament": None if s.orn[slot] < 0 else {
                  "type": ORNAMENTS[C.cards[s.card_of[slot]].kind],
                  "owner": side_name(s, s.orn[slot])},
              "workshop_tile": None if s.ws_tile[slot] < 0 else {
                  "id": C.tiles[s.ws_tile[slot]].id, "benefit": tile_text(s.ws_tile[slot])}}
             for slot in tower]
            for tower in s.towers],
        "supply": _mats(tuple(s.supply)),
        "sides": [
            {"side": side, "name": side_name(s, side),
             "recognition": s.score[side], "prestige": t.pp(s.score[side]),
             "lap": max(0, s.score[side]) // t.lap,
             "completed": s.completed[side], "ornaments_placed": s.orn_placed[side]}
            | ({} if s.solo and side == 1 else {
                "rubles": s.rubles[side], "inventory": _mats(s.inv[side]),
                "capacity": C.free_spaces + C.banners_in_inventory - s.inv_banners[side],
                "banners_in_inventory": s.inv_banners[side],
                "banners_outside": s.out_banners[side],
                "workshop": _workshop(s, side),
                "ornaments_available": dict(zip(ORNAMENTS, s.orn_avail[side], strict=True))})
            for side in range(s.sides)],
        "turn": view_sections.turn(s),
        "pending": view_sections.pending(s),
        "log": [m.to_json() for m in s.log],
        "state": public,
    }
    if s.solo:
        view["ivan"] = {
            "row": [{"card": IVAN_CARDS[c], "die": COLOURS[C.tiles[s.iv_tiles[i]].die],
                     "face_up": s.iv_up[i]} for i, c in enumerate(s.ivan_order)],
            "banners": s.iv_banners,
            "next_ornament": ORNAMENTS[(0, 1, 1, 2)[s.iv_orn]] if s.iv_orn < 4 else None,
            "inventory_card": _mats(s.iv_inv), "build_card": _mats(s.iv_build),
            "carrying_out": None if s.iv_next < 0 else s.iv_next,
            "ornaments_given": s.iv_orn}
    if s.final is not None:
        view["final"] = {"prestige": list(s.final[0]),
                         "breakdown": [list(p) for p in s.final[1]]}
    return view


# -- helpers ---------------------------------------------------------------------------------


def states(players: int, advanced: bool, seed: int, every: int) -> list[RCState]:
    """Every ``every``-th state of a seeded random game, the first and last included."""
    state = GAME.initial_state({"players": players, "advanced_workshops": advanced}, seed)
    rng = Rng.from_seed(1000 + seed)
    out = [state.clone()]
    for i in range(20_000):
        if GAME.current_player(state) is None:
            break
        actions = GAME.legal_actions(state)
        GAME.apply_unchecked(state, actions[rng.randbelow(len(actions))])
        if i % every == 0:
            out.append(state.clone())
    assert GAME.current_player(state) is None
    out.append(state)
    return out


def assert_identical(new: Any, old: Any) -> None:
    """Equal values (``==`` tells lists from tuples), equal JSON (which tells True from 1
    and 1 from 1.0) with the keys in the same order and sorted."""
    assert new == old
    assert json.dumps(new) == json.dumps(old)
    assert json.dumps(new, sort_keys=True) == json.dumps(old, sort_keys=True)


def containers(value: Any, out: set[int] | None = None) -> set[int]:
    """The ids of every dict and list in ``value``."""
    out = set() if out is None else out
    if isinstance(value, dict):
        out.add(id(value))
        for v in value.values():
            containers(v, out)
    elif isinstance(value, list):
        out.add(id(value))
        for v in value:
            containers(v, out)
    return out


# -- tests ----------------------------------------------------------------------------------

CASES = [(players, advanced, seed) for players in (1, 2, 3, 4) for advanced in (False, True)
         for seed in (1, 2, 3)]


@pytest.mark.parametrize(("players", "advanced", "seed"), CASES)
def test_player_view_is_identical_to_the_reference(players: int, advanced: bool,
                                                   seed: int) -> None:
    every = {1: 1, 2: 7, 3: 13, 4: 31}[players]
    for state in states(players, advanced, seed, every):
        for seat in (*range(players), None):
            assert_identical(views.player_view(state, seat),
                             reference_player_view(state, seat))


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_player_views_equal_separate_views(players: int) -> None:
    seats = [None, *range(players), None]
    for state in states(players, players % 2 == 0, 7, 25):
        built = views.player_views(state, seats)
        assert list(built) == [None, *range(players)]
        for seat in seats:
            assert_identical(built[seat], reference_player_view(state, seat))


def test_views_share_nothing_between_calls_but_log_entries() -> None:
    """``player_view`` returns fresh containers every call (a bot may change its copy);
    only the log's entries are shared, read-only, so that a view of a long game is not
    rebuilt entry by entry (``Message.to_json``)."""
    for players in (1, 3):
        state = states(players, True, 5, 1000)[-2]
        first, second = views.player_view(state, 0), views.player_view(state, 0)
        shared = containers(first) & containers(second)
        assert shared and shared <= containers(first["log"]) - {id(first["log"])}
        assert first["log"] is not second["log"]
        assert_identical(first, second)


def test_a_view_survives_changes_to_an_earlier_one() -> None:
    state = states(2, True, 4, 1000)[-2]
    first = views.player_view(state, 0)
    expected = json.dumps(reference_player_view(state, 0))
    first["options"]["players"] = 99
    first["state"]["opts"]["ruble_limit"] = -1
    first["cathedral"][0][0]["cost"]["gold"] = 77
    first["influence"][0]["actions"].clear()
    first["sides"][0]["workshop"][0]["position"] = "x"
    assert json.dumps(views.player_view(state, 0)) == expected


def test_public_part_covers_the_whitelist_in_order() -> None:
    state = states(2, False, 1, 1000)[-1]
    assert list(views.player_view(state, None)["state"]) == list(PUBLIC_FIELDS)


def test_views_of_a_state_loaded_from_json() -> None:
    """A state read back from JSON holds tuples where a played one holds lists."""
    for players in (1, 4):
        for state in states(players, False, 9, 200):
            loaded = RCState.from_dict(json.loads(json.dumps(state.to_dict())))
            for seat in (0, None):
                assert_identical(views.player_view(loaded, seat),
                                 reference_player_view(loaded, seat))


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_views_built_with_a_memo_equal_fresh_ones(players: int) -> None:
    """The server keeps a memo per table (``player_views(state, seats, memo)``): every view
    still equals the reference, whichever states came before (in play order, back to an
    earlier state as after an undo, or another table's)."""
    memo: dict[Any, Any] = {}
    every = {1: 1, 2: 3, 3: 5, 4: 11}[players]
    played = states(players, players % 2 == 1, 11, every)
    other = states(5 - players if players != 1 else 2, True, 12, 97)
    order = [*played[:40], *played[10:15], other[3], *played[40:], played[5], played[-1]]
    seats = [0, None]
    for state in order:
        built = views.player_views(state, seats, memo)
        for seat in seats:
            assert_identical(built[seat], reference_player_view(state, seat))


def test_a_memo_keeps_the_unchanged_parts_of_a_view() -> None:
    """Parts whose inputs did not change are the very objects of the last call (so diffs
    skip them), and changed parts are new."""
    memo: dict[Any, Any] = {}
    played = states(2, True, 3, 1)
    first = views.player_views(played[5], [0], memo)[0]
    again = views.player_views(played[5], [0], memo)[0]
    for key in ("options", "market", "influence", "cathedral", "supply", "sides"):
        assert again[key] is first[key], key
    assert all(again["state"][k] is v for k, v in first["state"].items()
               if isinstance(v, (dict, list)))
    later = views.player_views(played[-1], [0], memo)[0]
    assert later["influence"] is first["influence"]  # fixed at setup
    assert later["cathedral"] is not first["cathedral"]  # cards were claimed
    assert later["cathedral"] != first["cathedral"]
