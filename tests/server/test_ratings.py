"""Ratings: rated tables between accounts (and bots) update OpenSkill ratings once per
game and player count; casual tables and tables with an anonymous seat do not; bot
levels are anchored by the arena's measured strengths; solo personal bests; deletion."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from meeplehall.core.rng import Rng
from meeplehall.server.ratings import MU, anchor, elo_over
from tests.server.conftest import make_client
from tests.server.helpers import QUICK, random_move
from tests.server.sinks import SmtpSink
from tests.server.test_accounts import as_device, sign_in

ADA, BOB = "ada@example.org", "bob@example.org"


@pytest.fixture(scope="module")
def sink() -> Iterator[SmtpSink]:
    server = SmtpSink()
    yield server
    server.close()


@pytest.fixture
def client(sqlite_url: str, sink: SmtpSink) -> Iterator[Any]:
    with make_client(sqlite_url, smtp=sink.url, public_url="https://hall.example") as c:
        yield c


def two_accounts_play(client: Any, sink: SmtpSink, rated: bool, seed: int,
                      anonymous_second: bool = False) -> tuple[int, list[dict[str, Any]]]:
    """A two-seat table (Ada at seat 0, Bob or nobody's account at seat 1) played to
    its end; the table and the two accounts (Bob's None when anonymous)."""
    reply = client.post("/api/tables", json={"game": "red-cathedral", "options": QUICK,
                                             "seed": seed, "rated": rated})
    assert reply.status_code == 201, reply.text
    table = reply.json()["id"]
    assert reply.json()["rated"] is rated
    assert client.get(f"/api/tables/{table}").json()["rated"] is rated
    assert [t["rated"] for t in client.get("/api/tables").json()["tables"]
            if t["id"] == table] == [rated]
    accounts, tokens = [], []
    for seat, address in enumerate((ADA, BOB)):
        as_device(client, None)
        if seat == 1 and anonymous_second:
            accounts.append(None)
            tokens.append(client.post(f"/api/tables/{table}/seats/1/join").json()["token"])
            continue
        account = sign_in(client, sink, address)
        accounts.append(account)
        tokens.append(client.post(f"/api/tables/{table}/seats/{seat}/join",
                                  headers={"X-CSRF-Token": account["csrf"]}).json()["token"])
    as_device(client, None)
    rng = Rng(seed)
    while random_move(client, table, tokens, rng) is not None:
        pass
    client.app.state.ratings.idle()
    return table, accounts


def test_bot_anchors_follow_the_measured_win_rates() -> None:
    assert elo_over(0.5) == 0
    assert round(elo_over(0.76)) == 200
    assert anchor("red-cathedral", "greedy") == MU
    medium, hard = anchor("red-cathedral", "mcts-medium"), anchor("red-cathedral", "mcts-hard")
    assert medium is not None and hard is not None and MU < medium < hard
    assert anchor("red-cathedral", "random") is None  # not measured: rated as a person
    assert anchor("praga", "mcts-hard") is not None


def test_a_rated_game_between_accounts_moves_both_ratings_once(client: Any,
                                                               sink: SmtpSink) -> None:
    table, (ada, bob) = two_accounts_play(client, sink, rated=True, seed=21)
    board = client.get("/api/ratings/red-cathedral?players=2").json()["players_rated"]
    people = {e["account"]: e for e in board if e["account"] is not None}
    assert set(people) == {ada["id"], bob["id"]}
    assert all(e["games"] == 1 and not e["anchored"] for e in people.values())
    shown = [e["rating"] for e in board]
    assert shown == sorted(shown, reverse=True)
    assert any(e["player"] == "bot:mcts-hard" and e["anchored"] for e in board)
    profiles = [client.get(f"/api/accounts/{a['id']}/profile").json() for a in (ada, bob)]
    results = [p["results"][0] for p in profiles]
    assert all(r["table_id"] == table and r["rated"] and r["mu_before"] == MU
               for r in results)
    winner = min(results, key=lambda r: r["rank"])
    loser = max(results, key=lambda r: r["rank"])
    if winner["rank"] != loser["rank"]:
        assert winner["mu_after"] > MU > loser["mu_after"]
    assert "email" not in profiles[0] and ADA not in str(profiles[0])
    # rated again (another process, a restart): nothing changes
    client.app.state.ratings.rate(client.app.state.service.cached(table))
    again = client.get(f"/api/accounts/{ada['id']}/profile").json()
    assert len(again["results"]) == 1 and again["ratings"][0]["games"] == 1


def test_casual_tables_and_anonymous_seats_are_not_rated(client: Any,
                                                         sink: SmtpSink) -> None:
    _, (ada, _) = two_accounts_play(client, sink, rated=False, seed=22)
    _, (ada2, _) = two_accounts_play(client, sink, rated=True, seed=23,
                                     anonymous_second=True)
    assert ada2["id"] == ada["id"]
    profile = client.get(f"/api/accounts/{ada['id']}/profile").json()
    assert profile["ratings"] == [] and profile["results"] == []
    board = client.get("/api/ratings/red-cathedral?players=2").json()["players_rated"]
    assert all(e["anchored"] for e in board)
    assert client.get("/api/ratings/chess").status_code == 404
    assert client.post("/api/tables", json={"game": "red-cathedral", "rated": "yes"}
                       ).status_code == 422


def test_solo_games_keep_personal_bests_and_deletion_forgets_them(
        client: Any, sink: SmtpSink) -> None:
    ada = sign_in(client, sink, ADA)
    csrf = {"X-CSRF-Token": ada["csrf"]}
    table = client.post("/api/tables", json={"game": "red-cathedral", "seed": 5,
                                             "options": {"players": 1, "round_limit": 6}}
                        ).json()["id"]
    token = client.post(f"/api/tables/{table}/seats/0/join", headers=csrf).json()["token"]
    rng = Rng(5)
    while random_move(client, table, [token], rng) is not None:
        pass
    client.app.state.ratings.idle()
    profile = client.get(f"/api/accounts/{ada['id']}/profile").json()
    (result,) = profile["results"]
    (best,) = profile["bests"]
    outcome = client.app.state.service.cached(table)
    ivan = outcome.game.outcome(outcome.state).details["ivan"]["score"]
    assert best == {"game": "red-cathedral", "mode": "ivan", "measure": "margin",
                    "best": result["score"] - ivan, "table_id": table}
    assert profile["ratings"] == []  # a solo game changes no rating
    assert client.delete("/api/account", headers=csrf).status_code == 200
    assert client.get(f"/api/accounts/{ada['id']}/profile").status_code == 404
    with client.app.state.service.engine.connect() as conn:
        from sqlalchemy import func, select

        from meeplehall.server.db import ResultRow
        assert conn.execute(select(func.count()).select_from(ResultRow)).scalar_one() == 0
