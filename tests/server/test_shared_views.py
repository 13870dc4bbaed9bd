"""Views built once per state for all seats: the server pushes the same bytes as with one
``player_view`` call per seat."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime
from typing import Any

import pytest

from meeplehall.core.rng import Rng
from meeplehall.games import GAMES
from meeplehall.games.praga import decisions as D
from meeplehall.games.red_cathedral import GAME
from meeplehall.server.live import Connection, Hub
from meeplehall.server.live_table import Built, Entry, Live, SeatInfo, step, views_builder


class PerSeat:
    """The game without shared views: the server falls back to ``player_view``."""

    shared_views = False

    def __init__(self, game: Any) -> None:
        self._game = game

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)


def random_moves(params: dict[str, Any], seed: int, count: int) -> list[str]:
    state = GAME.initial_state(params, seed)
    rng = Rng.from_seed(seed + 50)
    moves = []
    for _ in range(count):
        if GAME.current_player(state) is None:
            break
        actions = GAME.legal_actions(state)
        action = actions[rng.randbelow(len(actions))]
        moves.append(str(action))
        GAME.apply_unchecked(state, action)
    return moves


def pushed(game: Any, params: dict[str, Any], seed: int, moves: list[str],
           order: list[int | None], patches: list[int] | None = None) -> list[str]:
    """Every message a hub sends to connections of the seats in ``order`` (in that order)
    while ``moves`` are made one by one: a sync first, then updates."""
    players = params["players"]
    live = Live(1, game, params, seed, "test", datetime(2026, 1, 1, tzinfo=UTC),
                [SeatInfo(i, "human", "hash") for i in range(players)])
    live.install(Built(game.initial_state(params, seed), [], 0, [], []))
    hub = Hub(service=None)  # type: ignore[arg-type]  # not needed for these messages
    conns = [Connection(ws=None, table_id=1, seat=seat)  # type: ignore[arg-type]
             for seat in order]
    out = [json.dumps(asyncio.run(hub.sync_message(conn, live, None))) for conn in conns]
    entries: list[Entry] = []
    for seq, text in enumerate(moves, 1):
        seat = live.to_move
        assert seat is not None
        state, canonical, random = step(game, live.state, seat, text)
        entries = [*entries, Entry(seq, seat, canonical, random)]
        live.install(Built(state, entries, seq, [], []))
        out.extend(hub.update_text(conn, live) for conn in conns)
        if patches is not None:
            patches.append(len(live.patches))
    return out


@pytest.mark.parametrize(("params", "order"), [
    ({"players": 2}, [0, 1, None, None]),
    ({"players": 2, "advanced_workshops": True}, [None, 1, 0]),
    ({"players": 1}, [None, 0]),
    ({"players": 3}, [2, None, 0, 1, None]),
    ({"players": 4, "advanced_workshops": True}, [3, 1]),
])
def test_shared_views_push_the_same_bytes(params: dict[str, Any],
                                          order: list[int | None]) -> None:
    assert views_builder(GAME) is not None
    moves = random_moves(params, 11, 150)
    counts: list[int] = []
    shared = pushed(GAME, params, 11, moves, order, counts)
    per_seat = pushed(PerSeat(GAME), params, 11, moves, order)
    assert len(shared) == len(order) * (len(moves) + 1)
    assert shared == per_seat
    assert set(counts) == {1}  # one patch per move, for every seat


def test_views_of_one_state_share_all_but_the_seat() -> None:
    params = {"players": 2}
    live = Live(1, GAME, params, 3, "test", datetime(2026, 1, 1, tzinfo=UTC),
                [SeatInfo(i, "human", "hash") for i in range(2)])
    live.install(Built(GAME.initial_state(params, 3), [], 0, [], []))
    spectator, first = live.view(None), live.view(0)
    assert live.view(0) is first and live.view(1) is not first
    assert spectator["log"] is first["log"] and spectator["state"] is first["state"]
    for seat in (0, 1, None):
        assert json.dumps(live.view(seat)) == json.dumps(GAME.player_view(live.state, seat))
    with pytest.raises(ValueError, match="no seat 2"):
        live.view(2)


def test_a_builder_keeps_each_seats_private_draws() -> None:
    """Praga builds its views at once too; the technologies a seat draws in private
    (P-TECH-2) are in its own view only, and every view equals its ``player_view``."""
    assert views_builder(PerSeat(GAME)) is None
    praga = GAMES["praga"]
    build = views_builder(praga)
    assert build is not None
    state = praga.initial_state({"players": 3}, 11)
    rng = Rng.from_seed(4)
    checked = 0
    while praga.current_player(state) is not None and checked < 3:
        top = state.stack[-1]
        if isinstance(top, D.TechDraw):
            seats: list[int | None] = [0, 1, 2, None]
            views = build(state, seats, {})
            for seat in seats:
                assert json.dumps(views[seat]) == json.dumps(praga.player_view(state, seat))
                drawn = views[seat]["pending"]["fields"]["drawn"]
                assert (None in drawn) == (seat != top.seat)
            checked += 1
        actions = praga.legal_actions(state)
        praga.apply_unchecked(state, actions[rng.randbelow(len(actions))])
    assert checked
