"""The end screen's game review: opened by the player, it draws each side's chance of
winning over the game and lists each person's costliest moves as text, in the page's
language, at 1280x720 and on a phone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from meeplehall.core.testing import random_playout
from meeplehall.games import GAMES


def test_the_review_shows_chances_and_costly_moves(new_page: Any, server_url: str,
                                                   artifacts_dir: Path) -> None:
    _, record = random_playout(GAMES["red-cathedral"], {"players": 2}, 71, chooser_seed=3)
    reply = httpx.post(f"{server_url}/api/tables/import", json={"record": record.to_dict()})
    assert reply.status_code == 201, reply.text
    table = reply.json()["id"]
    page = new_page()
    page.goto(f"/#/table/{table}")
    page.wait_for_selector("#end:not([hidden]) #review", timeout=60_000)
    page.click("#review summary")
    page.wait_for_selector("#review[data-review=shown]", timeout=90_000)
    assert page.locator("#chance-chart polyline").count() == 2
    lists = page.locator("#review ol.costly")
    assert lists.count() == 2  # both seats are people's
    first = lists.first.locator("li").first.inner_text()
    assert first.startswith("Move ") and "the expert would have played" in first
    assert "{" not in page.inner_text("#review")  # every text rendered
    page.locator("#review").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts_dir / "review-1280x720.png"), full_page=False)
    page.set_viewport_size({"width": 390, "height": 844})
    box = page.locator("#chance-chart").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    page.select_option("#language", "pl")
    page.wait_for_selector("#review summary:has-text('Analiza partii')")
    assert not page.errors
