"""``POST /tables/{id}/actions`` served outside FastAPI (``MeeplehallApp.fast_move``)
answers exactly as the FastAPI route does, for good and bad requests alike; the route
stays in the OpenAPI schema."""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient

from meeplehall.server.app import MeeplehallApp, parse_move
from meeplehall.server.patch import apply_patch, diff
from tests.server.conftest import make_client
from tests.server.helpers import bearer, hotseat


def _send(client: TestClient, table: Any, token: str | None, body: Any = None,
          content: bytes | None = None, headers: dict[str, str] | None = None,
          ) -> tuple[int, Any, dict[str, str]]:
    sent = dict(headers or {})
    if token is not None:
        sent.update(bearer(token))
    if content is None:
        content = json.dumps(body).encode()
        sent.setdefault("content-type", "application/json")
    reply = client.post(f"/api/tables/{table}/actions", content=content, headers=sent)
    kept = {k: v for k, v in reply.headers.items() if k in ("content-type", "retry-after")}
    return reply.status_code, reply.json(), kept


def _both(client: TestClient, *args: Any, **kwargs: Any) -> tuple[Any, Any]:
    """The same request through the fast path and through FastAPI only."""
    app = client.app
    assert isinstance(app, MeeplehallApp)
    fast = app.fast_move
    fast_reply = _send(client, *args, **kwargs)
    app.fast_move = None
    try:
        general_reply = _send(client, *args, **kwargs)
    finally:
        app.fast_move = fast
    return fast_reply, general_reply


def test_bad_move_requests_get_the_same_answers(sqlite_url: str) -> None:
    with make_client(sqlite_url, max_body=2000) as client:
        table, tokens = hotseat(client)
        legal = client.get(f"/api/tables/{table}/legal", headers=bearer(tokens[0])).json()
        first = legal["actions"][0]["text"]
        token = tokens[0]
        cases: list[tuple[tuple[Any, ...], dict[str, Any]]] = [
            ((table, None, {"action": first, "seq": 0}), {}),  # no token: 401
            ((table, "nope", {"action": first, "seq": 0}), {}),  # wrong token: 401
            ((table, token, {"action": first, "seq": 5}), {}),  # stale seq: 409
            ((table, tokens[1], {"action": first, "seq": 0}), {}),  # not your turn: 403
            ((table, token, {"action": "fly to the moon", "seq": 0}), {}),  # 422
            ((table, token, {"action": first, "seq": True}), {}),
            ((table, token, {"action": first, "seq": 1.0}), {}),
            ((table, token, {"action": first, "seq": -1}), {}),
            ((table, token, {"action": first, "seq": 2**31}), {}),
            ((table, token, {"action": "", "seq": 0}), {}),
            ((table, token, {"action": "x" * 201, "seq": 0}), {}),
            ((table, token, {"action": 7, "seq": 0}), {}),
            ((table, token, {"action": first}), {}),
            ((table, token, {"action": first, "seq": 0, "extra": 1}), {}),
            ((table, token, [first, 0]), {}),
            ((table, token, None), {"content": b"{not json"}),
            ((table, token, None), {"content": b""}),
            ((table, token, {"action": first, "seq": 0}),
             {"headers": {"content-type": "text/plain"}}),
            ((table, token, None), {"content": json.dumps({"action": "y" * 3000,
                                                           "seq": 0}).encode()}),  # 413
            ((999, token, {"action": first, "seq": 0}), {}),  # no such table: 404
            ((0, token, {"action": first, "seq": 0}), {}),
            (("x7", token, {"action": first, "seq": 0}), {}),
            ((2**63, token, {"action": first, "seq": 0}), {}),
        ]
        for args, kwargs in cases:
            fast, general = _both(client, *args, **kwargs)
            assert fast == general, (args, kwargs, fast, general)
            assert fast[0] >= 400 and fast[1]["detail"], (args, fast)
        assert client.get(f"/api/tables/{table}").json()["seq"] == 0  # nothing was played
        # Scheme spelled otherwise, header with odd spacing: still the seat's token.
        status, body, _ = _send(client, table, None, {"action": first, "seq": 0},
                                headers={"Authorization": f"bEaReR   {token} "})
        assert status == 200 and body["seq"] == 1


def test_good_moves_get_the_same_answers(sqlite_url: str) -> None:
    with make_client(sqlite_url) as client:
        app = client.app
        assert isinstance(app, MeeplehallApp)
        one, tokens_one = hotseat(client, seed=11)
        two, tokens_two = hotseat(client, seed=11)
        for _ in range(12):
            state = client.get(f"/api/tables/{one}/view").json()
            seat, seq = state["to_move"], state["seq"]
            legal = client.get(f"/api/tables/{one}/legal",
                               headers=bearer(tokens_one[seat])).json()["actions"]
            action = legal[-1]["text"]
            fast = _send(client, one, tokens_one[seat], {"action": action, "seq": seq},
                         headers={"content-type": "application/json; charset=utf-8"})
            app.fast_move, saved = None, app.fast_move
            try:
                general = _send(client, two, tokens_two[seat], {"action": action, "seq": seq})
            finally:
                app.fast_move = saved
            assert fast[0] == general[0] == 200
            assert {**fast[1], "table_id": 0} == {**general[1], "table_id": 0}
            assert fast[2] == general[2]


def test_move_rate_limit_on_the_fast_path(sqlite_url: str) -> None:
    with make_client(sqlite_url, move_rate=0.5, move_burst=1) as client:
        table, tokens = hotseat(client)
        legal = client.get(f"/api/tables/{table}/legal", headers=bearer(tokens[0])).json()
        status, _, _ = _send(client, table, tokens[0],
                             {"action": legal["actions"][0]["text"], "seq": 0})
        assert status == 200
        seat = client.get(f"/api/tables/{table}/view").json()["to_move"]
        status, body, headers = _send(client, table, tokens[0],
                                      {"action": "x", "seq": 1 if seat == 0 else 0})
        assert status == 429 and "too many moves" in body["detail"]
        assert int(headers["retry-after"]) >= 1


def test_parse_move_takes_only_what_the_route_accepts() -> None:
    headers = [(b"authorization", b"Bearer abc"), (b"content-type", b"application/json")]
    body = b'{"action": "end-turn", "seq": 3}'
    assert parse_move("/api/tables/12/actions", headers, body) == (12, "abc", "end-turn", 3)
    assert parse_move("/api/tables/１２/actions", headers, body) is None  # not ASCII digits
    assert parse_move("/api/tables/12/actions", headers[:1], body) is None
    assert parse_move("/api/tables/12/actions", [(b"authorization", b"Basic abc"),
                                                 headers[1]], body) is None
    assert parse_move("/api/tables/12/actions", headers,
                      '{"action": "é", "seq": 3}'.encode()) is None


def test_the_move_route_is_still_in_the_schema(sqlite_url: str) -> None:
    with make_client(sqlite_url) as client:
        schema = client.get("/openapi.json").json()
        post = schema["paths"]["/api/tables/{table_id}/actions"]["post"]
        assert "requestBody" in post and "409" in post["responses"]


def test_remembered_bytes_keep_diffs_exact() -> None:
    """With memos, a member equal by ``==`` but not by JSON type (1 and True) is still
    patched, and a memo reused with its document gives the same patches."""
    old = {"a": [1, 2], "b": {"c": [0]}, "log": ["x"]}
    new = {"a": [True, 2], "b": {"c": [0]}, "log": ["x", "y"]}
    newer = {"a": [True, 2], "b": {"c": [False]}, "log": ["x", "y"]}
    memos: list[dict[Any, bytes]] = [{}, {}, {}]
    first = diff(old, new, "", memos[0], memos[1])
    assert first == diff(old, new)
    assert apply_patch(old, first) == new and apply_patch(old, first)["a"][0] is True
    second = diff(new, newer, "", memos[1], memos[2])
    assert second == diff(new, newer) == [{"op": "replace", "path": "/b/c/0",
                                           "value": False}]
    assert diff(newer, newer, "", memos[2], memos[2]) == []
