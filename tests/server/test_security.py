"""Tokens act only for their own seat at their own table; responses carry views only."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from meeplehall.core.rng import SEED_BOUND, new_seed
from meeplehall.games import GAMES
from meeplehall.server.security import hash_token
from tests.server.helpers import GAME, QUICK, bearer, hotseat, new_table

SECRET_KEYS = {"rng", "unused", "seed"}


def _keys(data: Any) -> set[str]:
    """The keys of every object in ``data``, but those whose value is a plain count
    (Praga's views count the face-down market tiles as "unused")."""
    if isinstance(data, dict):
        own = {k for k, v in data.items() if isinstance(v, bool) or not isinstance(v, int)}
        return own | set().union(*(_keys(v) for v in data.values()))
    if isinstance(data, list):
        return set().union(*(_keys(v) for v in data)) if data else set()
    return set()


def test_tokens_act_only_for_their_own_seat_and_table(client: TestClient) -> None:
    table, tokens = hotseat(client)
    other_table, other_tokens = hotseat(client)
    legal = client.get(f"/api/tables/{table}/legal", headers=bearer(tokens[0])).json()
    move = {"action": legal["actions"][0]["text"], "seq": 0}
    url = f"/api/tables/{table}/actions"
    assert client.post(url, json=move).status_code == 401  # spectators cannot move
    assert client.post(url, json=move, headers=bearer("x" * 43)).status_code == 401
    assert client.post(url, json=move, headers={"Authorization": "Basic abc"}).status_code == 401
    assert client.post(url, json=move, headers=bearer(other_tokens[0])).status_code == 401
    assert client.post(url, json=move, headers=bearer(tokens[1])).status_code == 403
    for path in ("me", "legal"):
        assert client.get(f"/api/tables/{table}/{path}").status_code == 401
        assert client.get(f"/api/tables/{table}/{path}",
                          headers=bearer(other_tokens[1])).status_code == 401
    assert client.post(f"/api/tables/{other_table}/undo", headers=bearer(tokens[0]),
                       json={"seq": 0}).status_code == 401
    assert client.post(f"/api/tables/{other_table}/leave",
                       headers=bearer(tokens[0])).status_code == 401
    me = client.get(f"/api/tables/{table}/me", headers=bearer(tokens[1])).json()
    assert me["seat"] == 1
    assert client.post(url, json=move, headers=bearer(tokens[0])).status_code == 200


def test_tokens_are_stored_hashed(client: TestClient, db_url: str) -> None:
    _table, tokens = hotseat(client)
    engine = create_engine(db_url)
    with engine.connect() as conn:
        stored = {r[0] for r in conn.execute(text("SELECT token_hash FROM seats"))}
    engine.dispose()
    assert stored == {hash_token(t) for t in tokens}
    assert not stored & set(tokens)


# Each game, with a table seed of 16 digits (the largest a person may choose): its
# digits must turn up in no reply, nor the generator's state (docs/server.md).
TABLES = {"red-cathedral": dict(QUICK), "praga": {"players": 2}}
BIG_SEED = SEED_BOUND - 12_345


@pytest.mark.parametrize("name", sorted(TABLES))
def test_no_response_carries_the_state_or_its_randomness(client: TestClient, name: str) -> None:
    game = GAMES[name]
    params = TABLES[name]
    table, tokens = hotseat(client, seed=BIG_SEED, game=name, options=params)
    local = game.initial_state(params, BIG_SEED)
    secrets_text = {str(BIG_SEED), str(local.rng.state), f"{local.rng.state:x}"}
    replies: list[Any] = []
    for _ in range(15):
        seat = game.current_player(local)
        assert seat is not None
        for path, headers in (("view", {}), ("me", bearer(tokens[seat])),
                              ("legal", bearer(tokens[seat])), ("replay/0", {}),
                              ("replay/0", bearer(tokens[1 - seat])), ("record", {}),
                              ("analysis", bearer(tokens[seat]))):
            replies.append(client.get(f"/api/tables/{table}/{path}", headers=headers))
        replies.append(client.get(f"/api/tables/{table}"))
        replies.append(client.get("/api/tables"))
        legal = replies[-7].json()
        choice = legal["actions"][0]["text"]
        replies.append(client.post(f"/api/tables/{table}/actions", headers=bearer(tokens[seat]),
                                   json={"action": choice, "seq": legal["seq"]}))
        replies.append(client.post(f"/api/tables/{table}/actions", headers=bearer(tokens[seat]),
                                   json={"action": "nonsense", "seq": legal["seq"] + 1}))
        replies.append(client.post(f"/api/tables/{table}/undo", headers=bearer(tokens[1 - seat]),
                                   json={"seq": legal["seq"] + 1}))
        local = game.apply(local, game.parse_action(choice))
        secrets_text |= {str(local.rng.state), f"{local.rng.state:x}"}
        with client.websocket_connect(f"/api/tables/{table}/ws") as ws:
            ws.send_json({"token": tokens[seat], "since": 0})
            replies.append(ws.receive_json())
        me = client.get(f"/api/tables/{table}/me", headers=bearer(tokens[seat])).json()
        assert me["view"] == game.player_view(local, seat)  # exactly the seat's view
    for reply in replies:
        body = reply if isinstance(reply, dict) else reply.json()
        assert not _keys(body) & SECRET_KEYS, body
        dumped = json.dumps(body)
        assert not any(s in dumped for s in secrets_text), dumped[:300]


def test_a_chosen_seed_is_announced_never_shown(client: TestClient) -> None:
    """Every seat and the lobby are told that the creator chose the seed; a random seed
    is drawn below 2**53; a larger chosen one is refused with a clear message."""
    chosen = new_table(client, ["human", "human"], seed=BIG_SEED)
    assert chosen["source"] == "chosen" and chosen["seed_chosen"]
    listed = {t["id"]: t for t in client.get("/api/tables").json()["tables"]}
    assert listed[chosen["id"]]["seed_chosen"]
    assert client.get(f"/api/tables/{chosen['id']}").json()["seed_chosen"]
    body = {"game": "praga", "options": {"players": 2}}
    drawn = client.post("/api/tables", json=body).json()
    assert drawn["source"] == "new" and not drawn["seed_chosen"]
    for seed in (SEED_BOUND, -SEED_BOUND, 2**63 - 1, 2**70):
        reply = client.post("/api/tables", json={**body, "seed": seed})
        assert reply.status_code == 422
        assert f"seed {seed} is out of range: a seed must be a whole number between " \
               "-9007199254740991 and 9007199254740991" in reply.json()["detail"]


def test_random_seeds_are_exact_in_a_browser() -> None:
    """Seeds the project draws stay below 2**53 (a JavaScript number holds them)."""
    assert all(0 <= new_seed() < SEED_BOUND for _ in range(200))


def test_spectators_get_the_public_view(client: TestClient) -> None:
    game = GAMES[GAME]
    table, _ = hotseat(client, seed=5)
    spectator = client.get(f"/api/tables/{table}/view").json()
    assert spectator["seat"] is None and "legal" not in spectator
    assert spectator["view"] == game.player_view(game.initial_state(QUICK, 5), None)
