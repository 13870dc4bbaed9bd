"""A seat's WebSockets end with the seat: leaving, or the seat changing hands, closes
that token's sockets at once, in this process and in another one sharing the database."""

from __future__ import annotations

import contextlib
import json
from typing import Any

import httpx
from tools.services import TempPostgres
from websockets.exceptions import ConnectionClosed

from tests.server.helpers import bearer, connect, hotseat, join, new_table
from tests.server.procs import running_server

_STACK = contextlib.ExitStack()  # the sockets of the running check, closed at its end


def _sync(base: str, table: int, token: str | None) -> Any:
    ws = _STACK.enter_context(connect(base.replace("http://", "ws://")
                                      + f"/api/tables/{table}/ws"))
    ws.send(json.dumps({"token": token, "since": None}))
    message = json.loads(ws.recv(timeout=10))
    assert message["type"] == "sync", message
    return ws


def _ends(ws: Any, timeout: float = 3.0) -> dict[str, Any]:
    """The socket's last message before it closes (within ``timeout``): the error."""
    last: dict[str, Any] = {}
    try:
        while True:
            last = json.loads(ws.recv(timeout=timeout))
    except ConnectionClosed as closed:
        assert closed.rcvd is not None and closed.rcvd.code == 4401
    return last


def _quiet(ws: Any) -> None:
    """No message and no close within half a second: the socket lives on."""
    try:
        ws.recv(timeout=0.5)
    except TimeoutError:
        return
    raise AssertionError("the socket got a message")


def _check_seat_sockets(one: str, two: str) -> None:
    with _STACK, httpx.Client(base_url=one, timeout=30) as client:
        table, tokens = hotseat(client)
        other = new_table(client, ["human", "human"])["id"]
        other_token = join(client, other, 0)
        # Seat 0 watched from both processes, seat 1 and a spectator beside it.
        mine = [_sync(one, table, tokens[0]), _sync(two, table, tokens[0])]
        keep = [_sync(one, table, tokens[1]), _sync(two, table, None),
                _sync(two, other, other_token)]
        reply = client.post(f"/api/tables/{table}/leave", headers=bearer(tokens[0]))
        assert reply.status_code == 200
        for ws in mine:  # no move happened: the leave alone ends them
            assert _ends(ws) == {"type": "error", "status": 401,
                                 "detail": "this seat was given up"}
        for ws in keep:
            _quiet(ws)
        # The seat changes hands: the new token's socket works, the old token is refused.
        new_token = join(client, table, 0)
        fresh = _sync(two, table, new_token)
        old = _STACK.enter_context(connect(two.replace("http://", "ws://")
                                           + f"/api/tables/{table}/ws"))
        old.send(json.dumps({"token": tokens[0]}))
        assert json.loads(old.recv(timeout=10))["status"] == 401
        # A seat that changes hands between two reads of the socket (leave, then a
        # join at once) still ends the old token's sockets.
        again = [_sync(one, table, new_token), _sync(two, table, new_token)]
        with httpx.Client(base_url=two, timeout=30) as other_client:
            assert other_client.post(f"/api/tables/{table}/leave",
                                     headers=bearer(new_token)).status_code == 200
            third = join(other_client, table, 0)
        for ws in [fresh, *again]:
            assert _ends(ws)["status"] == 401
        legal = client.get(f"/api/tables/{table}/legal", headers=bearer(third)).json()
        reply = client.post(f"/api/tables/{table}/actions", headers=bearer(third),
                            json={"action": legal["actions"][0]["text"], "seq": legal["seq"]})
        assert reply.status_code == 200
        for ws in keep[:2]:  # the others see the move
            assert json.loads(ws.recv(timeout=10))["type"] == "update"


def test_sockets_end_with_their_seat_in_one_process(sqlite_url: str) -> None:
    with running_server(sqlite_url) as base:
        _check_seat_sockets(base, base)


def test_sockets_end_with_their_seat_across_processes(pg: TempPostgres, redis_url: str) -> None:
    db = pg.create_database()
    with running_server(db, "--redis", redis_url) as one, \
            running_server(db, "--redis", redis_url) as two:
        _check_seat_sockets(one, two)
