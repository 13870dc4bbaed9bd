"""A rated three-person Praga table over simulated days, in Chromium, end to end.

The server's clock is a ``FileClock`` (``serve --clock-file``): the test writes hours into
the file to move the days on. Ann (seat 0, the host), Bob (seat 1) and Cy (seat 2) sign in
by the mailed link and ask for every "your turn" by e-mail and webhook. Bob moves his seat
to his phone by its recovery link (his old token is refused at once); Cy goes silent, is
reminded, and the stand-in bot plays for him past the deadline (every seat sees it) until he
comes back; Ann signs in on a second device and finds the table under "Your turn"; Cy's
chat message with markup stays text. To reach the end quickly and honestly, the host then
hands all three seats to the random bot, which finishes the game: the table stays rated
(every seat is an account's) and the leaderboard shows the new ratings. Each "your turn"
reaches the SMTP sink and the webhook receiver exactly once: the counts per seat are
checked after every change of turn, and once more at the end (the bots' turns send none).

Moves of people are sent with each device's seat token over HTTP (what the page's
buttons send; clicking a whole Praga turn is tested elsewhere). The same scenario runs
on one process with SQLite, and on two processes with PostgreSQL and Redis where the
first is killed (SIGKILL) after the reminder: the deadline, the stand-in, the chat and the
end are then the second's; the browsers open each process directly.
"""

from __future__ import annotations

import contextlib
import random
import signal
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from tools.services import TempPostgres

from meeplehall.server.clock import FileClock
from tests.server.conftest import pg, redis_url  # noqa: F401 - fixtures
from tests.server.procs import running_server
from tests.server.sinks import HttpReceiver, SmtpSink, body, until
from tests.web.play import wait_ready

NAMES = ("Ann", "Bob", "Cy")
EMAILS = tuple(f"{n.lower()}@example.org" for n in NAMES)
MARKUP = "<img src=x onerror=z()> back now"
NO_MARKUP = """() => ({images: document.querySelectorAll('#main img').length,
  x: !!window.__pwned})"""
HOUR = 3600


@dataclass
class Hall:
    """The servers of one run: where each device's browser goes, and a way to kill the
    first process (a no-op with one process)."""

    first: str
    second: str
    clock: FileClock
    kill: Callable[[], None]
    sink: SmtpSink
    hooks: HttpReceiver
    pages: list[Any] = field(default_factory=list)


@pytest.fixture
def sink() -> Iterator[SmtpSink]:
    server = SmtpSink()
    yield server
    server.close()


@pytest.fixture
def hooks() -> Iterator[HttpReceiver]:
    receiver = HttpReceiver()
    yield receiver
    receiver.close()


def _extra(sink: SmtpSink, clock_file: Path) -> tuple[str, ...]:
    return ("--smtp", sink.url, "--webhook-allow-private", "--clock-file", str(clock_file),
            "--deadline-every", "0.2", "--bot-think-time", "1", "--bot-lease", "2")


def _device(browser: Any, base: str, context: Any = None) -> Any:
    """A page (a device) on ``base``; ``context``: another tab of that device's browser."""
    if context is None:
        context = browser.new_context(viewport={"width": 1280, "height": 720},
                                      base_url=base)
        context.set_default_timeout(20_000)
        context.add_init_script(
            "localStorage.setItem('meeplehall.autoReplay', '0');"
            "window.z = () => { window.__pwned = true; };")
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    return page


def _sign_in(page: Any, sink: SmtpSink, email: str) -> None:
    """Sign in as a player would: ask for a link, open the mailed link."""
    page.goto("/")
    page.fill("#sign-in-email", email)
    seen = len(sink.to(email))
    page.click("#sign-in")
    until(lambda: len(sink.to(email)) > seen)
    link = next(w for w in body(sink.to(email)[-1]).split() if "/#/sign-in/" in w)
    page.goto("/#/sign-in/" + link.rsplit("/", 1)[1])
    page.wait_for_selector("#signed-in-as")


def _account(page: Any) -> dict[str, Any]:
    reply = page.request.get("/api/account")
    assert reply.ok, reply.text()
    account: dict[str, Any] = reply.json()
    return account


def _token(page: Any, table: int, seat: int) -> str:
    token: str = page.evaluate("""([t, s]) => JSON.parse(
        localStorage.getItem('meeplehall.tables'))[t].tokens[s]""", [str(table), str(seat)])
    return token


def _summary(hall: Hall, base: str, table: int) -> dict[str, Any]:
    summary: dict[str, Any] = httpx.get(f"{base}/api/tables/{table}", timeout=30).json()
    return summary


def _turn_mails(hall: Hall, seat: int) -> int:
    return sum(1 for m in hall.sink.to(EMAILS[seat]) if m["Subject"].startswith("Your turn"))


def _turn_hooks(hall: Hall, seat: int) -> int:
    return sum(1 for r in hall.hooks.received
               if r["path"] == f"/{NAMES[seat]}" and r["json"]["kind"] == "your-turn")


def _delivered(hall: Hall, expected: list[int]) -> None:
    """Every "your turn" so far reached the sink and the receiver, once each."""
    def counts() -> tuple[list[int], list[int]]:
        return ([_turn_mails(hall, s) for s in range(3)],
                [_turn_hooks(hall, s) for s in range(3)])

    with contextlib.suppress(AssertionError):
        until(lambda: counts() == (expected, expected))
    assert counts() == (expected, expected)


def _play_turn(hall: Hall, base: str, table: int, seat: int, token: str,
               rng: random.Random) -> int:
    """Play the seat's whole turn over HTTP; returns the seat to move next."""
    auth = {"Authorization": f"Bearer {token}"}
    with httpx.Client(base_url=base, timeout=30, headers=auth) as http:
        while True:
            legal = http.get(f"/api/tables/{table}/legal").json()
            if not legal["actions"]:
                summary = _summary(hall, base, table)
                assert summary["to_move"] != seat, legal
                to_move: int = summary["to_move"]
                return to_move
            action = rng.choice(legal["actions"])["text"]
            moved = http.post(f"/api/tables/{table}/actions",
                              json={"action": action, "seq": legal["seq"]})
            assert moved.status_code == 200, moved.text


def _board(base: str) -> list[dict[str, Any]]:
    """The leaderboard of three-player Praga."""
    reply = httpx.get(f"{base}/api/ratings/praga?players=3", timeout=30)
    rows: list[dict[str, Any]] = reply.json()["players_rated"]
    return rows


def _wait_seat(hall: Hall, base: str, table: int, test: Callable[[dict[str, Any]], bool],
               what: str) -> dict[str, Any]:
    found: list[dict[str, Any]] = []

    def check() -> bool:
        found[:] = [_summary(hall, base, table)]
        return test(found[0])

    try:
        until(check, timeout=60)
    except AssertionError:
        raise AssertionError(f"{what} did not happen: {found}") from None
    return found[0]


def scenario(hall: Hall, browser: Any) -> None:
    try:
        _scenario(hall, browser)
    finally:
        for context in {page.context for page in hall.pages}:
            context.close()


def _scenario(hall: Hall, browser: Any) -> None:
    ann, bob, cy = (_device(browser, hall.first), _device(browser, hall.second),
                    _device(browser, hall.first))
    hall.pages += [ann, bob, cy]
    for seat, page in enumerate((ann, bob, cy)):
        _sign_in(page, hall.sink, EMAILS[seat])
        csrf = {"X-CSRF-Token": _account(page)["csrf"]}
        assert page.request.post("/api/account", data={"name": NAMES[seat]},
                                 headers=csrf).ok
        reply = page.request.put("/api/account/notifications", headers=csrf, data={
            "email": True, "webhook": f"{hall.hooks.url}/{NAMES[seat]}"})
        assert reply.ok, reply.text()
    created = httpx.post(f"{hall.first}/api/tables", timeout=30, json={
        "game": "praga", "options": {"players": 3}, "seed": 45, "rated": True,
        "deadline_hours": 24, "stand_in": "random"}).json()
    table, host = created["id"], created["host_token"]
    expected = [0, 0, 0]
    for seat, page in enumerate((ann, bob, cy)):
        page.goto("/")
        page.wait_for_selector("#create")
        page.evaluate("(n) => localStorage.setItem('meeplehall.playerName', n)", NAMES[seat])
        page.goto(f"/#/table/{table}/join/{seat}")
        page.wait_for_url(f"**/#/table/{table}")
        page.wait_for_selector(f"#seats li[data-seat='{seat}']")
    summary = _summary(hall, hall.first, table)
    assert [s["name"] for s in summary["seats"]] == list(NAMES) and summary["rated"]
    for seat, page in enumerate((ann, bob, cy)):
        assert {"table_id": table, "seat": seat} in [
            {"table_id": s["table_id"], "seat": s["seat"]} for s in _account(page)["seats"]]
    to_move = summary["to_move"]
    expected[to_move] += 1  # the seat to move when it was joined
    _delivered(hall, expected)
    tokens = [_token(p, table, s) for s, p in enumerate((ann, bob, cy))]
    rng = random.Random(45)
    # Day 1: the seats before Cy play their turns (Bob on his first device).
    while to_move != 2:
        to_move = _play_turn(hall, hall.first, table, to_move, tokens[to_move], rng)
        expected[to_move] += 1
        _delivered(hall, expected)
        if to_move == 1:
            break
    # Bob moves his seat to his phone by its recovery link: the old token is refused.
    phone = _device(browser, hall.second)
    hall.pages.append(phone)
    bob.goto(f"/#/table/{table}")
    bob.click("#seats li[data-seat='1'] .recovery-ask")
    link = bob.input_value("#recovery-1")
    assert link.startswith(f"{hall.second}/#/recover/{table}/"), link
    phone.goto("/#/" + link.split("/#/", 1)[1])
    phone.wait_for_url(f"**/#/table/{table}")
    phone.wait_for_selector("#seats li[data-seat='1'] .recovery-ask")
    old = httpx.get(f"{hall.first}/api/tables/{table}/me", timeout=30,
                    headers={"Authorization": f"Bearer {tokens[1]}"})
    assert old.status_code == 401, old.text
    bob.wait_for_function("() => (document.getElementById('table-error')?.textContent ?? '')"
                          ".includes('given up')")
    tokens[1] = _token(phone, table, 1)
    while to_move != 2:
        to_move = _play_turn(hall, hall.second, table, to_move, tokens[to_move], rng)
        expected[to_move] += 1
        _delivered(hall, expected)
    # Cy goes silent (his tab is closed): 19 hours later, a reminder by mail and webhook.
    cy.close()
    hall.clock.advance(19 * HOUR)
    until(lambda: any(r["json"]["kind"] == "reminder" and r["path"] == "/Cy"
                      for r in hall.hooks.received))
    until(lambda: any(m["Subject"].startswith("Reminder: your turn")
                      for m in hall.sink.to(EMAILS[2])))
    hall.kill()  # with two processes: the first dies here, the second goes on
    # Past the deadline the stand-in plays Cy's turn; every seat sees who played.
    hall.clock.advance(6 * HOUR)
    base = hall.second
    summary = _wait_seat(hall, base, table, lambda t: t["to_move"] != 2,
                         "the stand-in's turn for Cy")
    assert summary["seats"][2]["played_by"] == "random"
    assert summary["seats"][2]["played_why"] == "deadline"
    to_move = summary["to_move"]
    expected[to_move] += 1
    _delivered(hall, expected)
    for page in (phone,) if hall.first != hall.second else (ann, phone):
        page.wait_for_selector("#seats li[data-seat='2'] .stand-in[data-played-by='random']")
        page.wait_for_function("() => document.getElementById('main').textContent"
                               ".includes('stand-in bot for Cy')")
    # Ann signs in on a second device and finds the table under "Your turn".
    while to_move != 0:  # (Bob's turn first when the seat order is so)
        to_move = _play_turn(hall, base, table, to_move, tokens[to_move], rng)
        expected[to_move] += 1 if to_move != 2 else 0  # the stand-in plays Cy's turns
        _delivered(hall, expected)
    tablet = _device(browser, base)
    hall.pages.append(tablet)
    _sign_in(tablet, hall.sink, EMAILS[0])
    tablet.wait_for_selector(f"#your-turn-list a[href='#/table/{table}']")
    tablet.click(f"#your-turn-list a[href='#/table/{table}']")
    assert wait_ready(tablet)["yourTurn"] == "true"
    tablet.wait_for_selector("#seats li[data-seat='2'] .stand-in[data-played-by='random']")
    assert _token(tablet, table, 0) == tokens[0]  # the account's seat, on this device too
    # Ann, then Bob play; Cy's turn is the stand-in's again (no "your turn" for him).
    for _ in range(3):
        to_move = _play_turn(hall, base, table, to_move, tokens[to_move], rng)
        if to_move == 2:
            summary = _wait_seat(hall, base, table, lambda t: t["to_move"] != 2,
                                 "the stand-in's second turn for Cy")
            to_move = summary["to_move"]
        expected[to_move] += 1
        _delivered(hall, expected)
        if to_move == 0:
            break
    # Cy comes back (a tab of his browser opens the table): the stand-in ends; his
    # message with markup is text on every page.
    back = _device(browser, base)
    hall.pages.append(back)
    _sign_in(back, hall.sink, EMAILS[2])
    back.goto(f"/#/table/{table}")
    back.wait_for_selector("#chat-input")
    _wait_seat(hall, base, table, lambda t: t["seats"][2]["played_by"] is None,
               "the end of the stand-in")
    tablet.wait_for_function("() => !document.querySelector(\"#seats li[data-seat='2'] "
                             ".stand-in\")")
    back.fill("#chat-input", MARKUP)
    back.click("#chat-send")
    for page in (tablet, phone, back):
        page.wait_for_function("(m) => [...document.querySelectorAll('#chat-list "
                               ".chat-text')].some((e) => e.textContent === m)", arg=MARKUP)
        assert page.evaluate(NO_MARKUP) == {"images": 0, "x": False}
    # The host hands every seat to the random bot, which finishes the game; meanwhile
    # the devices are closed, or in the lobby (a page draws every move it is sent).
    for page in (ann, bob, phone, back):
        assert not page.errors, page.errors
        page.close()
    tablet.goto("/")
    tablet.wait_for_selector("#create")
    before = _board(base)
    assert not [r for r in before if r["name"] in NAMES]
    to_move = _summary(hall, base, table)["to_move"]
    for seat in sorted(range(3), key=lambda s: s == to_move):  # the seat to move last:
        reply = httpx.post(f"{base}/api/tables/{table}/seats/{seat}/bot", timeout=30,
                           json={"level": "random"}, headers={"X-Host-Token": host})
        assert reply.status_code == 200, reply.text  # (so no person's turn comes)
    _wait_seat(hall, base, table, lambda t: t["finished"], "the end of the game")
    tablet.goto(f"/#/table/{table}")
    tablet.wait_for_selector("#end:not([hidden]) #score-table")
    board: list[dict[str, Any]] = []

    def rated() -> bool:
        board[:] = _board(base)
        return sorted(r["name"] for r in board if r["account"]) == sorted(NAMES)

    until(rated)
    for row in board:
        if row["account"]:
            assert row["games"] == 1 and (row["mu"], row["sigma"]) != (25.0, 25 / 3), row
    assert len({r["mu"] for r in board if r["account"]}) == 3, board
    tablet.goto("/#/ratings/praga/3")
    tablet.wait_for_selector("#leaderboard tbody tr")
    rows = tablet.locator("#leaderboard tbody tr").all_text_contents()
    for name in NAMES:
        assert any(name in row for row in rows), rows
    _delivered(hall, expected)  # the bots' turns sent no "your turn"
    for page in hall.pages:
        if not page.is_closed() and page.url.startswith(base):
            assert not page.errors, page.errors


def test_over_days_one_process(browser: Any, sink: SmtpSink, hooks: HttpReceiver,
                               tmp_path: Path) -> None:
    clock_file = tmp_path / "clock"
    db = f"sqlite:///{tmp_path / 'days.db'}"
    with running_server(db, *_extra(sink, clock_file)) as url:
        scenario(Hall(url, url, FileClock(clock_file), lambda: None, sink, hooks), browser)


def test_over_days_two_processes_one_killed(browser: Any, sink: SmtpSink,
                                           hooks: HttpReceiver, tmp_path: Path,
                                           pg: TempPostgres,  # noqa: F811
                                           redis_url: str) -> None:  # noqa: F811
    clock_file = tmp_path / "clock"
    db = pg.create_database()
    procs: list[subprocess.Popen[bytes]] = []
    extra = ("--redis", redis_url, *_extra(sink, clock_file))

    def kill() -> None:
        procs[0].send_signal(signal.SIGKILL)
        procs[0].wait(timeout=30)

    with running_server(db, *extra, procs=procs) as one, \
            running_server(db, *extra, procs=procs) as two:
        scenario(Hall(one, two, FileClock(clock_file), kill, sink, hooks), browser)
