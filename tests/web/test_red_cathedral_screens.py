"""Screenshots of The Red Cathedral's table at 1280×720 and 1440×900 (start, middle, end)
in test-artifacts/, each checked for your own area in view while the game runs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.web.play import click_move, create_from_lobby, wait_ready

SIZES = ((1280, 720), (1440, 900))
MINE_IN_VIEW = """(height) => { const mine = document.getElementById('my-area');
  if (!mine) return false;
  const r = mine.getBoundingClientRect();
  return r.height > 0 && r.top >= 0 && r.bottom <= height + 0.5; }"""


def shots(page: Any, folder: Path, stage: str) -> None:
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate("() => window.scrollTo(0, 0)")
        if stage != "end":
            # the board is drawn again for the new size (ResizeObserver): once it is, your
            # own area is wholly in the window
            page.wait_for_function(MINE_IN_VIEW, arg=height, timeout=5_000)
        path = folder / f"red-cathedral-{width}x{height}-{stage}.png"
        page.screenshot(path=str(path))
        assert path.stat().st_size > 10_000


def test_screenshots_at_two_sizes(new_page: Any, artifacts_dir: Path) -> None:
    page = new_page()
    create_from_lobby(page, seed=51, seats=("here", "random"), options={"round_limit": "8"})
    state = wait_ready(page)
    shots(page, artifacts_dir, "start")
    made = 0
    while state["finished"] != "true":
        assert made < 400
        state = wait_ready(page, click_move(page, made, board_every=2))
        made += 1
        if made == 25:
            shots(page, artifacts_dir, "middle")
    assert made > 25
    page.wait_for_selector("#end:not([hidden]) #score-table")
    shots(page, artifacts_dir, "end")
    assert not page.errors
