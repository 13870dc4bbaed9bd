"""The HTTP API on SQLite and on PostgreSQL: tables, seats, moves, undo, records."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from meeplehall.core.record import GameRecord, replay
from meeplehall.core.rng import Rng
from meeplehall.games import GAMES
from tests.server.helpers import (
    GAME,
    QUICK,
    bearer,
    hotseat,
    join,
    new_table,
    play_random,
    random_move,
)


def test_games_lists_the_registry_and_the_seat_kinds(client: TestClient) -> None:
    body = client.get("/api/games").json()
    assert {g["name"] for g in body["games"]} == set(GAMES)
    assert body["seat_kinds"][0] == "human" and "random" in body["seat_kinds"]


def test_create_list_and_get_tables(client: TestClient) -> None:
    table = new_table(client, ["human", "random"])
    plain = {"played_by": None, "played_why": None, "muted": False, "deadline": None}
    assert table["seats"] == [{"seat": 0, "kind": "human", "open": True, "name": None, **plain},
                              {"seat": 1, "kind": "random", "open": False, "name": None,
                               **plain}]
    assert table["params"]["players"] == 2 and "seed" not in table
    listed = client.get("/api/tables").json()["tables"]
    assert [t["id"] for t in listed] == [table["id"]]
    assert client.get(f"/api/tables/{table['id']}").json()["to_move"] == 0
    assert client.get("/api/tables", params={"finished": True}).json()["tables"] == []
    assert client.get("/api/tables/999").status_code == 404


def test_bad_tables_are_refused_with_a_reason(client: TestClient) -> None:
    cases: list[tuple[dict[str, Any], str]] = [
        ({"game": "chess"}, "unknown game 'chess'"),
        ({"game": GAME, "options": {"players": 9}}, "must be <= 4"),
        ({"game": GAME, "options": {"colour": "red"}}, "unknown option 'colour'"),
        ({"game": GAME, "seats": ["human"]}, "2 seat(s)"),
        ({"game": GAME, "seats": ["human", "wizard"]}, "unknown seat kind 'wizard'"),
        ({"game": GAME, "seed": "x"}, "seed"),
        ({"game": GAME, "seed": 2**70}, "seed"),
        ({"game": GAME, "surprise": 1}, "surprise"),
    ]
    for body, expected in cases:
        reply = client.post("/api/tables", json=body)
        assert reply.status_code == 422, (body, reply.text)
        assert expected in reply.json()["detail"], (body, reply.json())
    assert client.post("/api/tables", content=b"{not json",
                       headers={"content-type": "application/json"}).status_code == 422


def test_join_leave_and_taken_seats(client: TestClient) -> None:
    table = new_table(client, ["human", "random"])["id"]
    token = join(client, table, 0)
    assert len(token) >= 43  # 256 bits, URL-safe base64
    assert client.post(f"/api/tables/{table}/seats/0/join").status_code == 409
    assert client.post(f"/api/tables/{table}/seats/1/join").status_code == 409  # a bot
    assert client.post(f"/api/tables/{table}/seats/5/join").status_code == 404
    assert client.post(f"/api/tables/{table}/leave", headers=bearer(token)).status_code == 200
    assert client.get(f"/api/tables/{table}/me", headers=bearer(token)).status_code == 401
    assert join(client, table, 0) != token


def test_moves_need_the_current_seq_and_a_legal_action(client: TestClient) -> None:
    table, tokens = hotseat(client)
    legal = client.get(f"/api/tables/{table}/legal", headers=bearer(tokens[0])).json()
    assert legal["your_turn"] and legal["seq"] == 0 and legal["decision"]
    assert all(a["text"] and a["label"] for a in legal["actions"])
    first = legal["actions"][0]["text"]
    move = client.post(f"/api/tables/{table}/actions", headers=bearer(tokens[0]),
                       json={"action": first, "seq": 0})
    assert move.status_code == 200 and move.json()["seq"] == 1
    stale = client.post(f"/api/tables/{table}/actions", headers=bearer(tokens[0]),
                        json={"action": first, "seq": 0})
    assert stale.status_code == 409 and stale.json()["seq"] == 1
    illegal = client.post(f"/api/tables/{table}/actions", headers=bearer(tokens[0]),
                          json={"action": "claim 99 inventory", "seq": 1})
    assert illegal.status_code == 422 and "not legal" in illegal.json()["detail"]
    garbage = client.post(f"/api/tables/{table}/actions", headers=bearer(tokens[0]),
                          json={"action": "fly to the moon", "seq": 1})
    assert garbage.status_code == 422
    state = client.get(f"/api/tables/{table}/view").json()
    other = tokens[1 - state["to_move"]]
    wrong_turn = client.post(f"/api/tables/{table}/actions", headers=bearer(other),
                             json={"action": first, "seq": 1})
    assert wrong_turn.status_code == 403 and "turn" in wrong_turn.json()["detail"]


def _db_moves(url: str, table: int) -> list[tuple[int, str, bool]]:
    engine = create_engine(url)
    with engine.connect() as conn:
        rows = conn.execute(text("SELECT seq, kind, undone FROM moves WHERE table_id = :t "
                                 "ORDER BY seq"), {"t": table}).all()
    engine.dispose()
    return [(r[0], r[1], bool(r[2])) for r in rows]


def test_undo_goes_back_to_the_barrier_and_deletes_nothing(client: TestClient,
                                                           db_url: str) -> None:
    table, tokens = hotseat(client, seed=11)
    # Play until the seat to move has made two moves in a row that rolled no dice and
    # kept the table (the test knows the seed: it made the table).
    game = GAMES[GAME]
    params = client.get(f"/api/tables/{table}").json()["params"]
    local = game.initial_state(params, 11)
    run, seq, seat = 0, 0, 0
    for _ in range(300):
        seat = game.current_player(local)
        assert seat is not None
        legal = client.get(f"/api/tables/{table}/legal", headers=bearer(tokens[seat])).json()
        texts = [a["text"] for a in legal["actions"]]
        quiet = [t for t in texts if not game.reveals(local, game.parse_action(t),
                                                      after := game.apply(local, t))
                 and game.current_player(after) == seat]
        choice = quiet[0] if quiet else texts[0]
        run = run + 1 if quiet else 0
        local = game.apply(local, choice)
        reply = client.post(f"/api/tables/{table}/actions", headers=bearer(tokens[seat]),
                            json={"action": choice, "seq": legal["seq"]})
        assert reply.status_code == 200
        seq = reply.json()["seq"]
        if run == 2:
            break
    else:
        raise AssertionError("no two quiet moves in a row")
    moves = client.get(f"/api/tables/{table}").json()["moves"]
    me = client.get(f"/api/tables/{table}/me", headers=bearer(tokens[seat])).json()
    assert me["undoable"] == 2
    before = client.get(f"/api/tables/{table}/replay/{moves - 2}").json()["view"]
    assert client.post(f"/api/tables/{table}/undo", headers=bearer(tokens[1 - seat]),
                       json={"seq": seq}).status_code in (403, 409)
    undo = client.post(f"/api/tables/{table}/undo", headers=bearer(tokens[seat]),
                       json={"seq": seq, "count": None})
    assert undo.status_code == 200, undo.text
    assert undo.json()["seq"] == seq + 1 and undo.json()["moves"] == moves - 2
    assert client.get(f"/api/tables/{table}/view").json()["view"] == before
    assert _db_moves(db_url.replace("+psycopg", "+psycopg"), table)[-3:] == [
        (seq - 1, "move", True), (seq, "move", True), (seq + 1, "undo", False)]
    again = client.post(f"/api/tables/{table}/undo", headers=bearer(tokens[seat]),
                        json={"seq": seq + 1})
    assert again.status_code == 409 and "nothing to undo" in again.json()["detail"]


def test_undoable_counts_own_moves_back_to_the_last_barrier() -> None:
    from meeplehall.server.live_table import Entry, Live, SeatInfo

    live = Live(1, GAMES[GAME], {}, 0, "new", None, [SeatInfo(0, "human", None)])  # type: ignore[arg-type]
    live.entries = [Entry(1, 0, "a", False), Entry(2, 1, "b", False),
                    Entry(3, 0, "c", True), Entry(4, 0, "d", False), Entry(5, 0, "e", False)]
    assert live.undoable(0) == 2  # d and e; c rolled dice
    assert live.undoable(1) == 0  # seat 0 moved since
    live.entries = live.entries[:2]
    assert live.undoable(1) == 1


@pytest.mark.parametrize(("name", "params"), [(GAME, QUICK), ("praga", {"players": 2})])
def test_undoable_matches_the_rules_through_a_game(client: TestClient, name: str,
                                                   params: dict[str, Any]) -> None:
    """The server's barrier is the engine's ``Game.reveals`` and the moves of the other
    seat; Praga's draws are barriers though its generator never moves after setup."""
    game = GAMES[name]
    table, tokens = hotseat(client, seed=3, game=name, options=params)
    local = game.initial_state(params, 3)  # the test knows the seed: it made the table
    history: list[tuple[int, bool]] = []
    rng = Rng.from_seed(5)
    while (seat := game.current_player(local)) is not None:
        legal = client.get(f"/api/tables/{table}/legal", headers=bearer(tokens[seat])).json()
        texts = [a["text"] for a in legal["actions"]]
        choice = texts[rng.randbelow(len(texts))]
        assert client.post(f"/api/tables/{table}/actions", headers=bearer(tokens[seat]),
                           json={"action": choice, "seq": legal["seq"]}).status_code == 200
        action = game.parse_action(choice)
        before, local = local, game.apply(local, action)
        history.append((seat, game.reveals(before, action, local)))
        if game.current_player(local) is None:
            break
        for who in (0, 1):
            expected = 0
            # ending a turn hands the table over: only the seat to move may undo
            for mover, shown in reversed(history if game.current_player(local) == who else []):
                if mover != who or shown:
                    break
                expected += 1
            me = client.get(f"/api/tables/{table}/me", headers=bearer(tokens[who])).json()
            assert me["undoable"] == expected
    assert any(shown for _, shown in history)
    assert sum(not shown for _, shown in history) > len(history) // 4


def test_ending_the_turn_is_an_undo_barrier(client: TestClient) -> None:
    """Once the table has passed to the next player, the previous one cannot undo."""
    table, tokens = hotseat(client, seed=11)
    game = GAMES[GAME]
    local = game.initial_state(QUICK, 11)
    for _ in range(200):
        seat = game.current_player(local)
        assert seat is not None
        legal = client.get(f"/api/tables/{table}/legal", headers=bearer(tokens[seat])).json()
        texts = [a["text"] for a in legal["actions"]]
        # a move that reveals nothing and hands the table over, if there is one
        handing = [t for t in texts
                   if not game.reveals(local, game.parse_action(t), after := game.apply(local, t))
                   and game.current_player(after) not in (seat, None)]
        choice = handing[0] if handing else texts[0]
        assert client.post(f"/api/tables/{table}/actions", headers=bearer(tokens[seat]),
                           json={"action": choice, "seq": legal["seq"]}).status_code == 200
        local = game.apply(local, choice)
        if handing:
            break
    else:
        raise AssertionError("no move handed the table over without revealing anything")
    me = client.get(f"/api/tables/{table}/me", headers=bearer(tokens[seat])).json()
    assert me["undoable"] == 0
    refused = client.post(f"/api/tables/{table}/undo", headers=bearer(tokens[seat]),
                          json={"seq": me["seq"]})
    assert refused.status_code == 409 and "nothing to undo" in refused.json()["detail"]


def test_record_export_import_and_replay_views(client: TestClient) -> None:
    table, tokens = hotseat(client, seed=21)
    assert client.get(f"/api/tables/{table}/record").status_code == 409  # seed still secret
    made = play_random(client, table, tokens, Rng.from_seed(2))
    record_json = client.get(f"/api/tables/{table}/record").json()
    record = GameRecord.from_dict(record_json)
    assert len(record.actions) == made and record.seed == 21
    final = client.get(f"/api/tables/{table}/view").json()
    state = replay(record)
    assert GAMES[GAME].player_view(state, None) == final["view"]
    assert final["outcome"] is not None
    mid = client.get(f"/api/tables/{table}/replay/{made // 2}").json()
    assert mid["view"] == GAMES[GAME].player_view(replay(record, upto=made // 2), None)
    assert client.get(f"/api/tables/{table}/replay/{made + 1}").status_code == 404
    imported = client.post("/api/tables/import", json={"record": record_json})
    assert imported.status_code == 201, imported.text
    assert imported.json()["finished"] and imported.json()["source"] == "import"
    copy = client.get(f"/api/tables/{imported.json()['id']}/view").json()
    assert copy["view"] == final["view"]
    # the imported table's record names the seat of every move, as the original did
    again = client.get(f"/api/tables/{imported.json()['id']}/record")
    assert again.headers["content-disposition"].startswith("attachment")
    assert GameRecord.from_json(again.text).actions == record.actions


def test_bad_records_are_refused(client: TestClient) -> None:
    table, tokens = hotseat(client, seed=4)
    play_random(client, table, tokens, Rng.from_seed(4))
    good = client.get(f"/api/tables/{table}/record").json()
    broken = [
        {},
        {**good, "format": "other"},
        {**good, "game": "chess"},
        {**good, "rules_version": 99},
        {**good, "params": {"players": 7}},
        {**good, "actions": [[0, "fly"]]},
        {**good, "actions": [[1, good["actions"][0][1]]]},
        {**good, "actions": "all of them"},
        {**good, "seed": 2**80},
    ]
    for record in broken:
        reply = client.post("/api/tables/import", json={"record": record})
        assert reply.status_code == 422, (record.get("game"), reply.text)
        assert reply.json()["detail"]


def test_body_size_and_move_rate_limits(db_url: str) -> None:
    from tests.server.conftest import make_client

    with make_client(db_url, move_rate=1.0, move_burst=2, max_body=2000) as client:
        big = client.post("/api/tables", json={"game": GAME, "options": {"x": "y" * 5000}})
        assert big.status_code == 413 and "limit" in big.json()["detail"]
        table, tokens = hotseat(client)
        codes = []
        for i in range(4):  # claim, undo, claim, undo: all by seat 0
            legal = client.get(f"/api/tables/{table}/legal", headers=bearer(tokens[0])).json()
            if i % 2 == 0:
                reply = client.post(f"/api/tables/{table}/actions", headers=bearer(tokens[0]),
                                    json={"action": legal["actions"][0]["text"],
                                          "seq": legal["seq"]})
            else:
                reply = client.post(f"/api/tables/{table}/undo", headers=bearer(tokens[0]),
                                    json={"seq": legal["seq"]})
            codes.append(reply.status_code)
        assert 429 in codes and codes[:2] == [200, 200]


def test_all_bot_tables_play_to_the_end(client: TestClient) -> None:
    from tests.server.helpers import wait_finished

    table = new_table(client, ["random", "greedy"], options=dict(QUICK))["id"]
    final = wait_finished(client, table)
    assert final["outcome"]["scores"]
    record = GameRecord.from_dict(client.get(f"/api/tables/{table}/record").json())
    assert GAMES[GAME].player_view(replay(record), None) == final["view"]


def test_views_are_serialised_once_per_seq_and_follow_every_move(client: TestClient) -> None:
    """``/view`` and ``/me`` answers are made into JSON once per seat and seq: the same
    bytes while the table stands still, each seat's own view, the new position after a
    move, and the same content as the standard library's JSON of the view."""
    table, tokens = hotseat(client, seed=9)
    rng = Rng.from_seed(9)
    for _ in range(3):
        first = client.get(f"/api/tables/{table}/view")
        again = client.get(f"/api/tables/{table}/view")
        assert first.status_code == 200 and first.headers["content-type"] == "application/json"
        assert first.content == again.content
        mine = [client.get(f"/api/tables/{table}/me", headers=bearer(t)).json() for t in tokens]
        assert [m["seat"] for m in mine] == [0, 1] and mine[0]["seq"] == first.json()["seq"]
        assert first.json()["view"] == GAMES[GAME].player_view(
            client.app.state.service._live[table].state, None)  # type: ignore[attr-defined]
        seq = first.json()["seq"]
        assert random_move(client, table, tokens, rng) is not None
        assert client.get(f"/api/tables/{table}/view").json()["seq"] == seq + 1
