"""A whole 2-player Praga Caput Regni game against a bot in Chromium, by clicking; the
page never receives what the view whitelist hides from its seat."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from meeplehall.games.praga import decisions as D
from meeplehall.games.praga.views import HIDDEN_COUNTS, PUBLIC_FIELDS
from tests.web.play import Traffic, check_views, create_from_lobby, play_to_end, shot

SEAT = 0
PRIVATE = (D.TechDraw.code, D.BridgeTile.code)  # decisions drawn in private (saved form)


def test_a_whole_praga_game_against_a_bot_by_clicking(new_page: Any, server_url: str,
                                                      artifacts_dir: Path) -> None:
    page = new_page()
    traffic = Traffic(page)
    table = create_from_lobby(page, seed=3, seats=("here", "greedy"), game="praga")

    def on_move(made: int) -> None:
        if made == 40:
            shot(page, artifacts_dir, "praga-midgame.png")

    moves = play_to_end(page, max_moves=400, on_move=on_move)
    assert moves > 60
    summary = httpx.get(f"{server_url}/api/tables/{table}/view").json()
    assert summary["finished"]
    page.wait_for_selector("#end:not([hidden]) #score-table")
    rows = page.locator("#score-table tbody tr")
    assert rows.count() == 2
    for i, score in enumerate(summary["outcome"]["scores"]):
        cells = rows.nth(i).locator("td")
        assert int(cells.nth(cells.count() - 1).inner_text()) == score
    shot(page, artifacts_dir, "praga-end-screen.png")

    # Hidden information (P-TECH-2, P-BRIDGE-2): the face-down stacks travel as counts
    # only, and the tiles another seat is choosing among are masked.
    assert check_views(traffic, SEAT, PUBLIC_FIELDS) >= moves
    masked = 0
    for view in traffic.views():
        counts = [v for value in view["face_down"].values()
                  for v in (value if isinstance(value, list) else [value])]
        assert all(isinstance(v, int) for v in counts), view["face_down"]
        assert not set(HIDDEN_COUNTS) & set(view["state"])
        for decision in view["state"].get("stack", []):
            if decision[1] != SEAT and decision[0] in PRIVATE:
                assert set(decision[2]) <= {-1}, decision
                masked += 1
    for body in traffic.bodies:
        for op in body.get("patch", []) if isinstance(body, dict) else []:
            if op["path"].startswith("/state/stack"):
                value = op.get("value")
                rows_ = value if op["path"] == "/state/stack" else [value]
                for decision in rows_:
                    if (isinstance(decision, list) and len(decision) > 2 and decision[1] != SEAT
                            and decision[0] in PRIVATE):
                        assert set(decision[2]) <= {-1}, decision
    assert not page.errors
