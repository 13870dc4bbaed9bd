"""Small helpers for driving the API in tests."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient
from websockets.sync.client import ClientConnection
from websockets.sync.client import connect as _ws_connect

from meeplehall.core.rng import Rng

GAME = "red-cathedral"
QUICK = {"players": 2, "round_limit": 10}  # ends by the round limit: a short whole game


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def new_table(client: Any, seats: list[str] | None = None, options: dict[str, Any] | None = None,
              seed: int = 7, game: str = GAME) -> dict[str, Any]:
    body: dict[str, Any] = {"game": game, "options": options or dict(QUICK), "seed": seed}
    if seats is not None:
        body["seats"] = seats
    reply = client.post("/api/tables", json=body)
    assert reply.status_code == 201, reply.text
    result: dict[str, Any] = reply.json()
    return result


def join(client: Any, table: int, seat: int) -> str:
    reply = client.post(f"/api/tables/{table}/seats/{seat}/join")
    assert reply.status_code == 200, reply.text
    token: str = reply.json()["token"]
    return token


def hotseat(client: Any, **kwargs: Any) -> tuple[int, list[str]]:
    """A two-human table and both seat tokens."""
    table = new_table(client, ["human", "human"], **kwargs)["id"]
    return table, [join(client, table, 0), join(client, table, 1)]


def random_move(client: Any, table: int, tokens: list[str], rng: Rng) -> int | None:
    """Make one random legal move over HTTP; returns the accepted sequence number, or
    None when the game is over."""
    for _ in range(50):
        state = client.get(f"/api/tables/{table}/view").json()
        if state["finished"]:
            return None
        token = tokens[state["to_move"]]
        legal = client.get(f"/api/tables/{table}/legal", headers=bearer(token)).json()
        actions = legal["actions"]
        if actions:
            break
        # the view came from another process's memory (a busy database: X-From-Memory)
        # one move behind: ask again
        time.sleep(0.1)
    assert actions, f"table {table}: the seat to move was offered no action"
    choice = actions[rng.randbelow(len(actions))]["text"]
    reply = client.post(f"/api/tables/{table}/actions", headers=bearer(token),
                        json={"action": choice, "seq": legal["seq"]})
    assert reply.status_code == 200, reply.text
    seq: int = reply.json()["seq"]
    return seq


def play_random(client: Any, table: int, tokens: list[str], rng: Rng,
                max_moves: int = 5000) -> int:
    """Play random legal moves over HTTP until the game ends; returns the moves made."""
    for made in range(max_moves):
        if random_move(client, table, tokens, rng) is None:
            return made
    raise AssertionError("the game did not end")


def wait_finished(client: TestClient, table: int, timeout: float = 60.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state: dict[str, Any] = client.get(f"/api/tables/{table}/view").json()
        if state["finished"]:
            return state
        time.sleep(0.05)
    raise AssertionError(f"table {table} did not finish within {timeout} s")


def connect(uri: str, **kwargs: Any) -> ClientConnection:
    """websockets' sync client, without keepalive pings unless asked: its keepalive
    thread joins the reader thread while ``close()`` joins it too, and Python 3.11's
    ``Thread.join`` can fail on that race (``RuntimeError: release unlocked lock``)."""
    kwargs.setdefault("ping_interval", None)
    return _ws_connect(uri, **kwargs)
