"""``GET /tables/{id}/review``: a finished game's review, public once the game is over,
made in a worker once per table and kept; refused while the game runs."""

from __future__ import annotations

from fastapi.testclient import TestClient

from meeplehall.ai.review import review
from meeplehall.core.record import GameRecord
from meeplehall.core.rng import Rng
from tests.server.helpers import hotseat, play_random


def test_a_finished_games_review_is_the_reviews_of_its_people(client: TestClient) -> None:
    table, tokens = hotseat(client, seed=33)
    running = client.get(f"/api/tables/{table}/review")
    assert running.status_code == 409 and "when the game is over" in running.json()["detail"]
    play_random(client, table, tokens, Rng.from_seed(33))
    reply = client.get(f"/api/tables/{table}/review")
    assert reply.status_code == 200, reply.text
    body = reply.json()
    record = GameRecord.from_dict(client.get(f"/api/tables/{table}/record").json())
    expected = review(record, seats=[0, 1]).to_dict()
    assert body == {"table_id": table, **expected}
    assert set(body["costly"]) == {"0", "1"}
    again = client.get(f"/api/tables/{table}/review")  # kept: no second job
    assert again.json() == body
    assert client.get("/api/tables/999999/review").status_code == 404
