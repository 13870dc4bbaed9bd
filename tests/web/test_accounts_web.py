"""Accounts in Chromium: signing in by the e-mailed link on one device, creating a rated
table there and setting a password, then signing in with it on a second device, finding
the table under "Your turn" in the lobby and opening it on the account's seat, where the
hidden tab shows a browser notification (the permission asked from the button); a
seat's own e-mail notification (a confirmation first); the profile and leaderboard
pages."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.procs import running_server
from tests.server.sinks import SmtpSink, body, until
from tests.web.play import wait_ready

ADA, BOB = "ada@example.org", "bob@example.org"
DATABASE: list[Path] = []  # the server's SQLite file
# A page whose tab is hidden, with the browser's Notification recorded (and granted).
HIDDEN_TAB = """
Object.defineProperty(document, 'visibilityState', { get: () => 'hidden' });
window.__notes = []; window.__asked = 0;
window.Notification = class {
  constructor(title, options) { window.__notes.push([title, options.body]); }
  close() {}
  static get permission() { return window.__asked ? 'granted' : 'default'; }
  static requestPermission() { window.__asked += 1; return Promise.resolve('granted'); }
};
"""


@pytest.fixture(scope="module")
def sink() -> Iterator[SmtpSink]:
    server = SmtpSink()
    yield server
    server.close()


@pytest.fixture(scope="module")
def server_url(tmp_path_factory: pytest.TempPathFactory, sink: SmtpSink) -> Iterator[str]:
    db: Path = tmp_path_factory.mktemp("accounts-web") / "web.db"
    DATABASE[:] = [db]
    with running_server(f"sqlite:///{db}", "--smtp", sink.url) as url:
        yield url


def sign_in(page: Any, sink: SmtpSink) -> None:
    """Sign in on ``page`` as a player would: ask for a link, open the mailed link."""
    page.goto("/")
    page.fill("#sign-in-email", ADA)
    seen = len(sink.to(ADA))
    page.click("#sign-in")
    page.wait_for_function("() => document.getElementById('account-status').textContent !== ''")
    until(lambda: len(sink.to(ADA)) > seen)
    link = next(w for w in body(sink.to(ADA)[-1]).split() if "/#/sign-in/" in w)
    page.goto("/#/sign-in/" + link.rsplit("/", 1)[1])
    page.wait_for_selector("#signed-in-as")
    assert ADA in page.text_content("#signed-in-as")


def test_sign_in_on_two_devices_and_find_your_turn(new_page: Any, server_url: str,
                                                    sink: SmtpSink) -> None:
    first, second = new_page(), new_page()
    sign_in(first, sink)
    first.select_option("#seat-0", "here")
    first.select_option("#seat-1", "invite")
    first.check("#rated")
    first.click("#create")
    first.wait_for_url("**/#/table/*")
    table = int(first.url.rsplit("/", 1)[1])
    httpx.post(f"{server_url}/api/tables/{table}/seats/1/join", timeout=10)
    wait_ready(first)
    assert first.evaluate("document.cookie") == "", "the session cookie is HttpOnly"
    first.goto("/")  # a password, for signing in without a mail next time
    first.fill("#new-password", "correct horse")
    first.click("#set-password")
    first.wait_for_function("() => document.getElementById('account-status').textContent"
                            " === 'Password saved.'")
    first.goto(f"/#/table/{table}")
    wait_ready(first)
    # the seat's own notifications: an address gets a confirmation link, nothing else
    first.click("[data-notify-seat='0'] summary")
    first.fill("#notify-email-0", BOB)
    first.click("[data-notify-seat='0'] button[type=submit]")
    first.wait_for_function("() => document.getElementById('notify-status-0')"
                            ".textContent.includes('bob@example.org')")
    until(lambda: len(sink.to(BOB)) == 1)
    assert "Confirm" in sink.to(BOB)[0]["Subject"]

    # the second device's tab is in the background, its notifications recorded
    second.add_init_script(HIDDEN_TAB)
    second.goto("/")
    second.fill("#sign-in-email", ADA)
    second.fill("#sign-in-password", "correct horse")
    second.click("#sign-in-with-password")
    second.wait_for_selector("#signed-in-as")
    second.click("#browser-notify")  # the permission is asked on this click only
    second.wait_for_function("() => document.getElementById('browser-notify').textContent"
                             " === 'Stop browser notifications'")
    assert second.evaluate("window.__asked") == 1
    second.wait_for_selector(f"#your-turn-list a[href='#/table/{table}']")
    assert second.locator(f"#account-tables a[href='#/table/{table}']").count() == 1
    second.click(f"#your-turn-list a[href='#/table/{table}']")
    state = wait_ready(second)  # the account's seat, on this device too
    assert state["yourTurn"] == "true"
    assert second.evaluate("window.__notes") == [["Your turn", f"The Red Cathedral #{table}"]]
    # the table is rated (the creator ticked it); the ratings pages
    with sqlite3.connect(DATABASE[0]) as conn:
        assert conn.execute("SELECT rated FROM game_tables WHERE id = ?", (table,)
                            ).fetchone() == (1,)
    second.goto("/")
    second.click("#my-profile")
    second.wait_for_selector("#profile-ratings li")
    second.goto("/#/ratings/red-cathedral/2")
    second.wait_for_selector("#leaderboard tbody tr")
    rows = second.locator("#leaderboard tbody tr").all_text_contents()
    assert any("MCTS hard" in row for row in rows), rows
    assert first.errors == [] and second.errors == []
