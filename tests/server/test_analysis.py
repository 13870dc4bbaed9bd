"""GET /api/tables/{id}/analysis: the hint of the seat to move, ranked by a bot."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from meeplehall.ai.base import analyse
from meeplehall.games import GAMES
from tests.server.conftest import make_client
from tests.server.helpers import QUICK, bearer, hotseat


@pytest.fixture
def app_client(sqlite_url: str) -> Iterator[TestClient]:
    with make_client(sqlite_url) as c:
        yield c


def test_analysis_ranks_every_legal_action_of_the_seat_to_move(app_client: TestClient) -> None:
    table, tokens = hotseat(app_client)
    legal = app_client.get(f"/api/tables/{table}/legal", headers=bearer(tokens[0])).json()
    reply = app_client.get(f"/api/tables/{table}/analysis", headers=bearer(tokens[0]))
    assert reply.status_code == 200, reply.text
    body = reply.json()
    assert body["seat"] == 0 and body["bot"] == "greedy" and body["seq"] == legal["seq"]
    assert body["decision"] == legal["decision"]
    ranked = body["ranked"]
    assert sorted(r["text"] for r in ranked) == sorted(a["text"] for a in legal["actions"])
    labels = {a["text"]: a["label"] for a in legal["actions"]}
    assert all(r["label"] == labels[r["text"]] for r in ranked)
    scores = [r["score"] for r in ranked]
    assert scores == sorted(scores, reverse=True)
    # The same ranking as analyse() on the seat's own view (deterministic: no hidden
    # information in the opening and the greedy evaluation of each child).
    game = GAMES["red-cathedral"]
    state = game.initial_state(dict(QUICK), 7)
    expected = analyse(game, game.player_view(state, 0), game.legal_actions(state))
    assert [r["score"] for r in ranked] == pytest.approx([s for _, s in expected])
    again = app_client.get(f"/api/tables/{table}/analysis", headers=bearer(tokens[0])).json()
    assert again == body


def test_analysis_is_refused_to_other_seats_and_without_a_token(
        app_client: TestClient) -> None:
    table, tokens = hotseat(app_client)
    waiting = app_client.get(f"/api/tables/{table}/analysis", headers=bearer(tokens[1]))
    assert waiting.status_code == 409 and "seat 1 is not to move" in waiting.json()["detail"]
    anonymous = app_client.get(f"/api/tables/{table}/analysis")
    assert anonymous.status_code == 401 and "seat token" in anonymous.json()["detail"]
    wrong = app_client.get(f"/api/tables/{table}/analysis", headers=bearer("x" * 43))
    assert wrong.status_code == 401
    missing = app_client.get("/api/tables/99/analysis", headers=bearer(tokens[0]))
    assert missing.status_code == 404


def test_analysis_names_an_unknown_bot(app_client: TestClient) -> None:
    table, tokens = hotseat(app_client)
    reply = app_client.get(f"/api/tables/{table}/analysis", params={"bot": "oracle"},
                           headers=bearer(tokens[0]))
    assert reply.status_code == 422 and "unknown bot 'oracle'" in reply.json()["detail"]


def test_analysis_with_the_random_bot_shares_evenly(app_client: TestClient) -> None:
    table, tokens = hotseat(app_client, game="praga", options={"players": 2})
    body = app_client.get(f"/api/tables/{table}/analysis", params={"bot": "random"},
                          headers=bearer(tokens[0])).json()
    n = len(body["ranked"])
    assert n > 1 and all(r["score"] == pytest.approx(1 / n) for r in body["ranked"])
