"""The Praga Caput Regni board in the browser (static/js/games/praga.js).

A 2-player table (seat 0 here, seat 1 a random bot) is opened in Chromium through the
shell's join link; the table (the map's SVG and a card per player) must draw every part,
highlight the legal targets of the seat to move, submit one when clicked (the table's seq
advances), and never show what the view hides (the face-down stacks).
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from meeplehall.games.praga import GAME
from tests.web.play import join_by_link

SEED = 20261126
PARTS = ("crane", "rows", "grid-hunger-wall", "grid-cathedral", "city", "side",
         "player-0", "player-1")


def _api(base: str, method: str, path: str, body: Any = None,
         token: str | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"{base}/api{path}", data=data, method=method)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=20) as reply:
            return json.loads(reply.read())
    except urllib.error.HTTPError as exc:
        raise AssertionError(f"{method} {path}: HTTP {exc.code} {exc.read().decode()}") from None


def _open_table(new_page: Any, server_url: str, join: bool = True) -> tuple[Any, int]:
    table = _api(server_url, "POST", "/tables", {
        "game": "praga", "options": {"players": 2}, "seed": SEED,
        "seats": ["human", "random"]})
    page = new_page()
    if join:
        join_by_link(page, f"{server_url}/#/table/{table['id']}/join/0")
    else:
        page.goto(f"{server_url}/#/table/{table['id']}")
    page.wait_for_selector("svg.praga-board [data-part='crane']")
    page.wait_for_selector(".praga-table [data-part='player-1']", state="attached")
    return page, table["id"]


def _hidden_ids() -> set[str]:
    """Ids of components that sit face down at the start of this seeded game (P-SETUP)."""
    from meeplehall.games.praga.components import load

    c = load()
    s = GAME.initial_state({"players": 2}, SEED)
    ids = {c.technologies[t].id for stack in s.tech_stacks for t in stack}
    ids |= {c.bridge_tiles[t].id for t in (*s.iv_stack, *s.v_pile, *s.cat_pile)}
    visible_rows = {(r, t) for r, tiles in enumerate(s.rows) for t in tiles}
    on_sites = {t for t in s.site_tile if t >= 0}
    kinds = (c.buildings, c.walls, c.upgrades)
    for k, stack in enumerate(s.stacks):
        row = (k % 6) // 2
        for t in stack:
            if (row, t) not in visible_rows and not (row == 0 and t in on_sites):
                ids.add(kinds[row][t].id)
    return ids


def test_board_draws_every_part_and_plays_a_move(new_page: Any, server_url: str,
                                                 artifacts_dir: Path) -> None:
    page, table_id = _open_table(new_page, server_url)
    svg = page.locator("#board .praga-table")
    for part in PARTS:
        assert svg.locator(f"[data-part='{part}']").count() == 1, part
    # the crane has 12 positions, the rows 3 x 4 tiles, each grid 6 x 6 cells
    assert svg.locator(".crane-pos").count() == 12
    assert svg.locator(".row-tile").count() == 12
    assert svg.locator("[data-part='grid-hunger-wall'] .grid-cell").count() == 36
    assert svg.locator("[data-part='grid-cathedral'] .grid-cell").count() == 36
    assert svg.locator(".market").count() == 10
    assert svg.locator(".site").count() == 34
    assert svg.locator(".plank").count() == 5
    assert svg.locator(".road-space").count() == 5
    assert svg.locator("[data-part='player-0'] .wall-pos").count() == 12
    assert svg.locator("[data-part='player-1'] .action-hex").count() == 6
    # every piece carries its seat's letter (colour is not the only cue)
    letters = svg.locator(".piece .piece-label").all_text_contents()
    assert letters and all(x.strip() for x in letters)

    # seat 0 moves first (P-SETUP-26): the crane slots with tiles are the targets
    me = _api(server_url, "GET", f"/tables/{table_id}")
    seq = me["seq"]
    targets = svg.locator(".target")
    assert targets.count() >= 1
    first = targets.first
    assert first.get_attribute("role") == "button"
    assert first.get_attribute("tabindex") == "0"
    assert first.get_attribute("aria-label")
    action = first.get_attribute("data-legal")
    assert action and action.startswith("take-tile "), action
    assert first.locator("title").count() == 1
    page.screenshot(path=str(artifacts_dir / "praga-board.png"))
    first.focus()
    page.keyboard.press("Enter")
    page.wait_for_function(
        "([id, seq]) => fetch(`/api/tables/${id}`).then(r => r.json())"
        ".then(t => t.seq > seq)", arg=[table_id, seq])
    after = _api(server_url, "GET", f"/tables/{table_id}")
    assert after["seq"] > seq
    record_moves = after["moves"]
    assert record_moves >= 1
    assert not page.errors, page.errors


def test_hidden_information_is_not_drawn(new_page: Any, server_url: str) -> None:
    page, _ = _open_table(new_page, server_url)
    text = " ".join(page.locator("#board svg text").all_text_contents())
    titles = " ".join(page.locator("#board svg title").all_text_contents())
    shown = set((text + " " + titles).replace("(", " ").replace(")", " ").split())
    hidden = _hidden_ids()
    assert hidden, "the seeded setup has face-down components"
    leaked = sorted(hidden & shown)
    assert not leaked, f"face-down components on the board: {leaked}"
    # the sizes of the face-down stacks are shown instead (views.py HIDDEN_COUNTS)
    assert "stack:" in text


NO_SIDEWAYS = "() => document.scrollingElement.scrollWidth <= window.innerWidth"


@pytest.mark.parametrize("width,height", [(1280, 720), (390, 844)])
def test_board_fits_the_board_area(new_page: Any, server_url: str, width: int,
                                   height: int) -> None:
    page, _ = _open_table(new_page, server_url)
    page.set_viewport_size({"width": width, "height": height})
    page.wait_for_timeout(200)
    box = page.locator(".praga-viewport").bounding_box()
    assert box is not None
    # the map is panned inside its viewport, which never needs more than the window
    assert box["x"] >= 0 and box["x"] + box["width"] <= width
    assert page.evaluate(NO_SIDEWAYS)
    # text zoom: a doubled font size keeps the page from scrolling sideways
    # (set through the CSSOM: the page's Content-Security-Policy refuses an inline <style>)
    zoomed = page.evaluate("""() => {
      const svgs = [...document.querySelectorAll('svg.praga-svg')];
      for (const s of svgs) s.style.setProperty('font-size', '200%', 'important');
      return svgs.length;
    }""")
    assert zoomed >= 1
    page.wait_for_timeout(100)
    assert page.evaluate(NO_SIDEWAYS)
    assert not page.errors, page.errors


def test_a_spectator_gets_no_targets(new_page: Any, server_url: str) -> None:
    page, _ = _open_table(new_page, server_url, join=False)
    svg = page.locator("#board .praga-table")
    assert svg.locator("[data-part='player-1']").count() == 1
    assert svg.locator(".target").count() == 0
    assert not page.errors, page.errors
