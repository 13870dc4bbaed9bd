"""A long game's log in Chromium: the sync frame carries its end only, and the page
fetches the earlier entries (``GET /tables/{id}/log``) and shows the log whole."""

from __future__ import annotations

from typing import Any

import httpx

from meeplehall.core.record import GameRecord
from meeplehall.core.testing import random_playout
from meeplehall.games import GAMES
from meeplehall.server.live import LOG_TAIL


def test_a_long_games_log_is_shown_whole(new_page: Any, server_url: str) -> None:
    game = GAMES["red-cathedral"]
    _, whole = random_playout(game, {"players": 2}, 11, chooser_seed=2)
    record = GameRecord(whole.game, whole.rules_version, whole.params, whole.seed,
                        whole.actions[:len(whole.actions) * 2 // 3], {})
    reply = httpx.post(f"{server_url}/api/tables/import", timeout=60,
                       json={"record": record.to_dict(), "seats": ["human", "human"]})
    assert reply.status_code == 201, reply.text
    table = reply.json()["id"]
    log = httpx.get(f"{server_url}/api/tables/{table}/view").json()["view"]["log"]
    assert len(log) > LOG_TAIL + 50
    page = new_page()
    fetched: list[str] = []
    page.on("request", lambda r: fetched.append(r.url) if "/log?" in r.url else None)
    page.goto(f"/#/table/{table}")
    shown = min(300, len(log))  # the page lists the last 300 entries
    page.wait_for_function("(n) => document.querySelectorAll('#log li').length === n",
                           arg=shown)
    values = page.eval_on_selector_all("#log li", "(items) => items.map((li) => li.value)")
    assert values == list(range(len(log) - shown + 1, len(log) + 1))
    assert fetched, "the earlier entries come in pages"
    assert not page.errors
