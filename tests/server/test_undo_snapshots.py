"""Undo and replay views rebuild from the nearest snapshot of the state, not from the
first move: the result is the state a full replay gives, at any length of game."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from fastapi.testclient import TestClient

from meeplehall.core.rng import Rng
from meeplehall.games import GAMES
from meeplehall.server.live_table import (
    MOVE,
    SNAPSHOT_EVERY,
    Built,
    Entry,
    Live,
    Row,
    SeatInfo,
    replay_entries,
    replay_rows,
    step,
)
from tests.server.conftest import make_client
from tests.server.helpers import GAME, bearer, hotseat

PARAMS = {"players": 2}
SEED = 21


class Counting:
    """The game, counting the moves ``apply`` plays."""

    def __init__(self, game: Any) -> None:
        self._game = game
        self.applied = 0

    def apply(self, state: Any, action: Any) -> Any:
        self.applied += 1
        return self._game.apply(state, action)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)


def _long_game(count: int) -> tuple[Any, list[Entry], Live]:
    """``count`` random moves, installed one by one in a live table as the server does."""
    game = GAMES[GAME]
    params = dict(PARAMS)
    live = Live(1, game, params, SEED, "test", datetime(2026, 1, 1, tzinfo=UTC),
                [SeatInfo(i, "human", "hash") for i in range(2)])
    state = game.initial_state(params, SEED)
    live.install(Built(state, [], 0, [], []))
    rng = Rng.from_seed(SEED)
    entries: list[Entry] = []
    for seq in range(1, count + 1):
        seat = game.current_player(state)
        assert seat is not None, "the game ended early: pick another seed"
        actions = game.legal_actions(state)
        state, text, reveal = step(game, state, seat, str(actions[rng.randbelow(len(actions))]))
        entries = [*entries, Entry(seq, seat, text, reveal)]
        live.install(Built(state, entries, seq, [], []))
    return game, entries, live


def test_undo_from_a_snapshot_is_the_full_replay() -> None:
    game, entries, live = _long_game(5 * SNAPSHOT_EVERY + 7)
    assert sorted(live.snapshots) == [SNAPSHOT_EVERY * i for i in range(1, 6)]
    for cut in (0, 1, SNAPSHOT_EVERY - 1, SNAPSHOT_EVERY, SNAPSHOT_EVERY + 1, 100,
                len(entries) - 1, len(entries)):
        counting = Counting(game)
        fast = replay_entries(counting, live.params, SEED, entries[:cut], live.snapshots)
        full = replay_entries(game, live.params, SEED, entries[:cut])
        assert game.to_json(fast) == game.to_json(full), cut
        assert counting.applied < SNAPSHOT_EVERY, (cut, counting.applied)


def test_snapshots_off_the_path_are_not_used() -> None:
    game, entries, live = _long_game(3 * SNAPSHOT_EVERY)
    # Taken back to 40 moves and played on differently: the snapshots past 40 belong to
    # another history; the one at 32 still lies on the path.
    keep = entries[:40]
    live.install(Built(replay_entries(game, live.params, SEED, keep), keep, 200, [], []))
    assert sorted(live.snapshots) == [SNAPSHOT_EVERY]
    stale = {**live.snapshots, 64: (10_000, game.initial_state(live.params, SEED + 1))}
    other = [*keep, *[Entry(200 + i, e.seat, e.action, e.reveal) for i, e in
                      enumerate(entries[40:70])]]
    # A foreign snapshot at 64 (its seq is not the 64th entry's) is passed over.
    assert game.to_json(replay_entries(game, live.params, SEED, other, stale)) == \
        game.to_json(replay_entries(game, live.params, SEED, other))


def test_loaded_tables_get_snapshots_too() -> None:
    game, entries, live = _long_game(2 * SNAPSHOT_EVERY + 1)
    rows = [Row(e.seq, MOVE, e.seat, e.action, False, None) for e in entries]
    built = replay_rows(game, live.params, SEED, rows)
    assert sorted(built.snapshots) == sorted(live.snapshots)
    for k, (seq, state) in built.snapshots.items():
        assert seq == live.snapshots[k][0]
        assert game.to_json(state) == game.to_json(live.snapshots[k][1])


def test_undo_late_in_a_game_over_http_matches_a_fresh_replay(sqlite_url: str) -> None:
    """Past several snapshots, an undo's view is the view of a process that replays the
    whole stored history from the start."""
    game = GAMES[GAME]
    with make_client(sqlite_url) as client:
        table, tokens = hotseat(client, seed=SEED, options=dict(PARAMS))
        params = client.get(f"/api/tables/{table}").json()["params"]
        local = game.initial_state(params, SEED)
        rng = Rng.from_seed(4)
        seq = seat = 0
        for made in range(2000):
            seat = game.current_player(local)
            assert seat is not None, "the game ended before an undo was possible"
            legal = client.get(f"/api/tables/{table}/legal",
                               headers=bearer(tokens[seat])).json()
            texts = [a["text"] for a in legal["actions"]]
            quiet = [t for t in texts if not game.reveals(local, game.parse_action(t),
                                                          after := game.apply(local, t))
                     and game.current_player(after) == seat]
            late = made >= 3 * SNAPSHOT_EVERY
            choice = quiet[0] if late and quiet else texts[rng.randbelow(len(texts))]
            local = game.apply(local, choice)
            reply = client.post(f"/api/tables/{table}/actions", headers=bearer(tokens[seat]),
                                json={"action": choice, "seq": legal["seq"]})
            assert reply.status_code == 200, reply.text
            seq = reply.json()["seq"]
            if late and quiet:
                break
        undo = client.post(f"/api/tables/{table}/undo", headers=bearer(tokens[seat]),
                           json={"seq": seq, "count": 1})
        assert undo.status_code == 200, undo.text
        after_undo = client.get(f"/api/tables/{table}/view").json()
        reply = client.get(f"/api/tables/{table}/replay/{2 * SNAPSHOT_EVERY + 3}")
        assert reply.status_code == 200, reply.text
        replay_view = reply.json()
    with TestClient(make_client(sqlite_url).app) as fresh:  # loads from the database
        assert fresh.get(f"/api/tables/{table}/view").json() == after_undo
        assert fresh.get(f"/api/tables/{table}/replay/{2 * SNAPSHOT_EVERY + 3}").json() \
            == replay_view
