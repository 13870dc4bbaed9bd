"""Turn notifications: ``your-turn`` notices raised once per turn by the committing
process, e-mail (confirmed first, one message per turn, unsubscribe) through a local
SMTP sink, webhooks to a local HTTP receiver, and nothing sent to anyone who did not
ask."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from sqlalchemy import select
from tools.services import TempPostgres

from meeplehall.core.rng import Rng
from meeplehall.server.db import DeliveryRow
from meeplehall.server.notices import Notice
from meeplehall.server.webhooks import BadWebhook, check_url
from tests.server.conftest import make_client
from tests.server.helpers import bearer, hotseat, join, new_table, random_move
from tests.server.procs import running_server
from tests.server.sinks import HttpReceiver, SmtpSink, body, until

ADA = "ada@example.org"


@pytest.fixture(scope="module")
def sink() -> Iterator[SmtpSink]:
    server = SmtpSink()
    yield server
    server.close()


@pytest.fixture(scope="module")
def receiver() -> Iterator[HttpReceiver]:
    server = HttpReceiver()
    yield server
    server.close()


def people_client(url: str, sink: SmtpSink, **kwargs: Any) -> Any:
    return make_client(url, smtp=sink.url, public_url="https://hall.example",
                       webhook_allow_private=True, **kwargs)


def to_turn_of(client: Any, table: int, tokens: list[str], seat: int, rng: Rng) -> int:
    """Play random moves until ``seat`` is to move after another seat moved; the seq."""
    for _ in range(400):
        state = client.get(f"/api/tables/{table}/view").json()
        if state["to_move"] == seat and state["seq"] > 0:
            return int(state["seq"])
        assert random_move(client, table, tokens, rng) is not None
    raise AssertionError("the turn never came")


def turns_begun(client: Any, table: int, tokens: list[str], moves: int, rng: Rng
                ) -> list[tuple[int, int]]:
    """Play up to ``moves`` random moves (fewer when the game ends); the (seq, seat) of
    each turn that began."""
    begun: list[tuple[int, int]] = []
    for _ in range(moves):
        before = client.get(f"/api/tables/{table}/view").json()["to_move"]
        seq = random_move(client, table, tokens, rng)
        if seq is None:
            break
        after = client.get(f"/api/tables/{table}/view").json()["to_move"]
        if after is not None and after != before:
            begun.append((seq, after))
    return begun


def link_in(text: str, path: str) -> str:
    for word in text.split():
        if path in word:
            return word
    raise AssertionError(f"no {path} link in {text!r}")


def token_of(link: str) -> str:
    return parse_qs(urlsplit(link).query)["t"][0]


def test_nothing_is_sent_to_anyone_who_did_not_ask(sqlite_url: str, sink: SmtpSink,
                                                   receiver: HttpReceiver) -> None:
    before, hooks = len(sink.messages), len(receiver.received)
    with people_client(sqlite_url, sink) as client:
        table, tokens = hotseat(client)
        heard: list[Notice] = []
        client.app.state.notices.subscribe(heard.append)
        turns_begun(client, table, tokens, 30, Rng(3))
        client.app.state.notifier.idle()
        assert heard, "turns began, so notices were raised"
        with client.app.state.service.engine.connect() as conn:
            assert conn.execute(select(DeliveryRow)).all() == []
    assert len(sink.messages) == before and len(receiver.received) == hooks


def test_one_notice_per_turn_only_when_the_turn_passes(sqlite_url: str,
                                                       sink: SmtpSink) -> None:
    with people_client(sqlite_url, sink) as client:
        table, tokens = hotseat(client)
        heard: list[Notice] = []
        client.app.state.notices.subscribe(heard.append)
        begun = turns_begun(client, table, tokens, 40, Rng(5))
        assert begun
        assert [(n.seq, n.seat) for n in heard] == begun
        assert all(n.kind == "your-turn" and n.game == "red-cathedral" for n in heard)


def test_no_turn_notice_for_a_seat_a_bot_plays(sqlite_url: str, sink: SmtpSink) -> None:
    """A seat the host handed to a bot (or a stand-in plays) is told nothing while the
    bot moves for it; taken back, its turns are notified again."""
    with people_client(sqlite_url, sink) as client:
        made = new_table(client, ["human", "human"])
        table, host = made["id"], {"X-Host-Token": made["host_token"]}
        tokens = [join(client, table, 0), join(client, table, 1)]
        heard: list[Notice] = []
        client.app.state.notices.subscribe(heard.append)
        handed = client.post(f"/api/tables/{table}/seats/1/bot", headers=host,
                             json={"level": "random"})
        assert handed.status_code == 200, handed.text
        rng = Rng(8)
        for _ in range(6):  # seat 0's turns; the bot plays seat 1's in between
            to_turn_of(client, table, [tokens[0], tokens[0]], 0, rng)
            assert random_move(client, table, [tokens[0], tokens[0]], rng) is not None
        assert heard and {n.seat for n in heard} == {0}, heard
        assert client.post(f"/api/tables/{table}/seats/1/back", headers=host
                           ).status_code == 200
        to_turn_of(client, table, tokens, 1, rng)
        client.app.state.notifier.idle()
        assert heard[-1].seat == 1 and heard[-1].kind == "your-turn"


def test_email_is_confirmed_first_then_one_message_per_turn(sqlite_url: str,
                                                            sink: SmtpSink) -> None:
    with people_client(sqlite_url, sink) as client:
        notifier = client.app.state.notifier
        table, tokens = hotseat(client)
        reply = client.put(f"/api/tables/{table}/notify", headers=bearer(tokens[1]),
                           json={"email": " Ada@Example.org "})
        assert reply.status_code == 200, reply.text
        assert reply.json()["email"] == {"target": ADA, "confirmed": False}
        notifier.idle()
        (confirmation,) = sink.to(ADA)
        assert "Confirm" in confirmation["Subject"]
        rng = Rng(11)
        to_turn_of(client, table, tokens, 1, rng)
        notifier.idle()
        assert len(sink.to(ADA)) == 1, "nothing but the confirmation before it is opened"
        link = link_in(body(confirmation), "/api/notify/confirm")
        assert link.startswith("https://hall.example/api/notify/confirm?t=")
        opened = client.get(urlsplit(link).path + "?" + urlsplit(link).query)
        assert opened.status_code == 200 and ADA in opened.text
        assert client.get(f"/api/tables/{table}/notify", headers=bearer(tokens[1])
                          ).json()["email"]["confirmed"] is True
        assert client.get(urlsplit(link).path + "?" + urlsplit(link).query
                          ).status_code == 404  # used

        # the next turns of seat 1: one message each, none for seat 0's turns
        begun = turns_begun(client, table, tokens, 40, rng)
        notifier.idle()
        mine = [seq for seq, seat in begun if seat == 1]
        assert mine
        turns = sink.to(ADA)[1:]
        assert len(turns) == len(mine)
        mail = turns[0]
        assert mail["Subject"] == f"Your turn: The Red Cathedral, table {table}"
        assert f"https://hall.example/#/table/{table}" in body(mail)
        unsubscribe = link_in(body(mail), "/api/notify/unsubscribe")
        assert mail["List-Unsubscribe"] == f"<{unsubscribe}>"
        assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"

        # the same notice raised again (another process, a restart): not sent again
        again = Notice("your-turn", table, 1, mine[0], datetime.now(UTC), "red-cathedral")
        client.app.state.notices.publish(again)
        notifier.idle()
        assert len(sink.to(ADA)) == 1 + len(mine)

        # one click (RFC 8058's POST) stops it
        stop = client.post(urlsplit(unsubscribe).path + "?" + urlsplit(unsubscribe).query)
        assert stop.status_code == 200
        later = turns_begun(client, table, tokens, 30, rng)
        notifier.idle()
        assert any(seat == 1 for _, seat in later)
        assert len(sink.to(ADA)) == 1 + len(mine)
        assert client.get(f"/api/tables/{table}/notify", headers=bearer(tokens[1])
                          ).json() == {"email": None, "webhook": None}


def test_webhook_gets_the_turn_and_a_second_process_sends_nothing_again(
        tmp_path: Path, sink: SmtpSink, receiver: HttpReceiver) -> None:
    url = f"sqlite:///{tmp_path / 'two.db'}"
    hook = f"{receiver.url}/turn/{tmp_path.name}"
    with people_client(url, sink) as first, people_client(url, sink) as second:
        table, tokens = hotseat(first)
        reply = first.put(f"/api/tables/{table}/notify", headers=bearer(tokens[1]),
                          json={"webhook": hook})
        assert reply.json()["webhook"] == {"target": hook, "confirmed": True}
        heard_second: list[Notice] = []
        second.app.state.notices.subscribe(heard_second.append)
        seq = to_turn_of(first, table, tokens, 1, Rng(2))
        first.app.state.notifier.idle()
        mine = [r["json"] for r in receiver.received if r["path"].endswith(tmp_path.name)]
        assert mine == [{"kind": "your-turn", "game": "red-cathedral", "table": table,
                         "seat": 1, "url": f"https://hall.example/#/table/{table}",
                         "deadline": None}]
        # the other process reads the change but raises nothing ...
        assert second.get(f"/api/tables/{table}/view").json()["seq"] == seq
        assert heard_second == []
        # ... and a notice it did raise for the same turn finds the delivery made
        second.app.state.notices.publish(
            Notice("your-turn", table, 1, seq, datetime.now(UTC), "red-cathedral"))
        second.app.state.notifier.idle()
        assert len([r for r in receiver.received if r["path"].endswith(tmp_path.name)]) == 1


def test_a_seat_given_up_loses_its_subscriptions(sqlite_url: str, sink: SmtpSink,
                                                 receiver: HttpReceiver) -> None:
    hook = f"{receiver.url}/left"
    with people_client(sqlite_url, sink) as client:
        table, tokens = hotseat(client)
        client.put(f"/api/tables/{table}/notify", headers=bearer(tokens[1]),
                   json={"webhook": hook})
        assert client.post(f"/api/tables/{table}/leave", headers=bearer(tokens[1])
                           ).status_code == 200
        newcomer = client.post(f"/api/tables/{table}/seats/1/join").json()["token"]
        assert client.get(f"/api/tables/{table}/notify", headers=bearer(newcomer)
                          ).json() == {"email": None, "webhook": None}
        to_turn_of(client, table, [tokens[0], newcomer], 1, Rng(4))
        client.app.state.notifier.idle()
        assert not [r for r in receiver.received if r["path"] == "/left"]


def test_bad_subscriptions_are_refused_with_a_reason(sqlite_url: str, tmp_path: Path,
                                                     sink: SmtpSink) -> None:
    with people_client(sqlite_url, sink) as client:
        table, tokens = hotseat(client)
        put = client.put(f"/api/tables/{table}/notify", headers=bearer(tokens[0]),
                         json={"email": "not an address"})
        assert put.status_code == 422 and "e-mail address" in put.json()["detail"]
        put = client.put(f"/api/tables/{table}/notify", headers=bearer(tokens[0]),
                         json={"webhook": "ftp://example.org/x"})
        assert put.status_code == 422 and "https://" in put.json()["detail"]
        assert client.put(f"/api/tables/{table}/notify", json={"webhook": None}
                          ).status_code == 401
    with make_client(f"sqlite:///{tmp_path / 'nomail.db'}") as client:
        table, tokens = hotseat(client)
        put = client.put(f"/api/tables/{table}/notify", headers=bearer(tokens[0]),
                         json={"email": ADA})
        assert put.status_code == 409 and "no e-mail" in put.json()["detail"]


def test_webhook_urls_must_be_https_to_public_addresses() -> None:
    for url, reason in [("http://example.org/hook", "https"),
                        ("https://127.0.0.1/hook", "non-public"),
                        ("https://10.1.2.3/hook", "non-public"),
                        ("https://[::1]/hook", "non-public"),
                        ("https://169.254.169.254/latest", "non-public"),
                        ("https://user:pw@example.org/", "user or password"),
                        ("https:///nohost", "absolute")]:
        with pytest.raises(BadWebhook, match=reason):
            check_url(url, allow_private=False)
    assert check_url("https://8.8.8.8/hook", allow_private=False) == "https://8.8.8.8/hook"
    assert check_url("http://127.0.0.1:9/x", allow_private=True) == "http://127.0.0.1:9/x"


def test_two_processes_on_postgresql_and_redis_deliver_each_turn_once(
        pg: TempPostgres, redis_url: str, sink: SmtpSink, receiver: HttpReceiver) -> None:
    """Moves made through both processes, which hear each other's through Redis: each
    turn that began reaches the seat's webhook once."""
    db = pg.create_database()
    extra = ("--redis", redis_url, "--smtp", sink.url, "--webhook-allow-private")
    with running_server(db, *extra) as one, running_server(db, *extra) as two, \
            httpx.Client(base_url=one, timeout=30) as first, \
            httpx.Client(base_url=two, timeout=30) as second:
        table, tokens = hotseat(first)
        via = [first, second]  # seat 0 plays through one process, seat 1 through the other
        for seat in (0, 1):
            put = via[seat].put(f"/api/tables/{table}/notify", headers=bearer(tokens[seat]),
                                json={"webhook": f"{receiver.url}/pg/{table}/{seat}"})
            assert put.status_code == 200, put.text
        rng = Rng(8)
        begun = {0: 0, 1: 0}
        for _ in range(30):
            state = first.get(f"/api/tables/{table}/view").json()
            mover = state["to_move"]
            if mover is None:
                break
            seq = random_move(via[mover], table, tokens, rng)
            after = second.get(f"/api/tables/{table}/view").json()
            while after["seq"] < (seq or 0):  # the other process's memory, a move behind
                after = second.get(f"/api/tables/{table}/view").json()
            if after["to_move"] is not None and after["to_move"] != mover:
                begun[after["to_move"]] += 1
        assert begun[0] and begun[1]

        def got(seat: int) -> int:
            return len([r for r in receiver.received if r["path"] == f"/pg/{table}/{seat}"])

        until(lambda: got(0) >= begun[0] and got(1) >= begun[1])
        time.sleep(0.5)  # anything sent twice would have arrived by now
        assert (got(0), got(1)) == (begun[0], begun[1])


def test_a_recovery_link_goes_by_mail_only_to_a_confirmed_address(sqlite_url: str,
                                                                  sink: SmtpSink) -> None:
    """A seat moves to another device by a link mailed to its confirmed address (issue
    45, point 1); the answer never holds the link, and the old token stops working."""
    address = "bob.recovers@example.org"
    with people_client(sqlite_url, sink) as client:
        notifier = client.app.state.notifier
        table, tokens = hotseat(client)
        ask = f"/api/tables/{table}/recovery/mail"
        refused = client.post(ask, headers=bearer(tokens[1]))
        assert refused.status_code == 409 and "no confirmed e-mail" in refused.json()["detail"]
        client.put(f"/api/tables/{table}/notify", headers=bearer(tokens[1]),
                   json={"email": address})
        notifier.idle()
        (confirmation,) = sink.to(address)
        refused = client.post(ask, headers=bearer(tokens[1]))  # not confirmed yet
        assert refused.status_code == 409
        link = link_in(body(confirmation), "/api/notify/confirm")
        assert client.get(urlsplit(link).path + "?" + urlsplit(link).query).status_code == 200
        assert client.post(ask).status_code == 401  # no token
        reply = client.post(ask, headers=bearer(tokens[1]))
        assert reply.status_code == 200, reply.text
        assert reply.json() == {"table_id": table, "seat": 1, "sent": 1}
        notifier.idle()
        mail = sink.to(address)[-1]
        assert f"table {table}" in mail["Subject"]
        link = link_in(body(mail), "/#/recover/")
        assert link.startswith(f"https://hall.example/#/recover/{table}/")
        assert link.rsplit("/", 1)[1] not in reply.text
        moved = client.post(f"/api/tables/{table}/recover",
                            json={"secret": link.rsplit("/", 1)[1]})
        assert moved.status_code == 200, moved.text
        assert client.get(f"/api/tables/{table}/me", headers=bearer(tokens[1])
                          ).status_code == 401
        assert client.get(f"/api/tables/{table}/me", headers=bearer(moved.json()["token"])
                          ).status_code == 200
    with make_client(sqlite_url) as plain:  # a server without an SMTP relay says so
        table, tokens = hotseat(plain)
        refused = plain.post(f"/api/tables/{table}/recovery/mail", headers=bearer(tokens[0]))
        assert refused.status_code == 409 and "no SMTP relay" in refused.json()["detail"]
