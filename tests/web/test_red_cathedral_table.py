"""The Red Cathedral's table in Chromium: your own area always in view, the legend, the
Prestige spaces on the track, dice and Market spaces each clickable at their centre,
Escape closing the board's chooser, confirmations on the board and the "end my turn
when nothing is left" setting."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.web.play import click_move, create_from_lobby, wait_ready

# Every board target whose centre is covered by another element (none should be).
COVERED = """() => {
  const bad = [];
  for (const el of document.querySelectorAll('#board [data-target]')) {
    el.scrollIntoView({block: 'center'});
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    const owner = hit && hit.closest('[data-target]');
    if (owner !== el) {
      bad.push(el.dataset.target + ' under ' + (owner ? owner.dataset.target : hit && hit.tagName));
    }
  }
  window.scrollTo(0, 0);
  return bad;
}"""

LONE = {"end-turn", "finish-market", "perform", "done", "pass", "finish-delivery", "hire-teamsters"}

IN_VIEW = """() => { const r = document.getElementById('my-area').getBoundingClientRect();
  return [r.top >= 0, r.left >= 0, r.bottom <= innerHeight + 0.5,
          r.right <= innerWidth + 0.5, r.height > 50]; }"""


@pytest.mark.parametrize("size", [(1280, 720), (1440, 900)])
def test_your_own_area_is_always_in_view(new_page: Any, size: tuple[int, int]) -> None:
    page = new_page()
    page.set_viewport_size({"width": size[0], "height": size[1]})
    create_from_lobby(page, seed=31, players=3, seats=("here", "random", "random"))
    state = wait_ready(page)
    for k in range(6):
        assert all(page.evaluate(IN_VIEW)), (k, page.evaluate(IN_VIEW))
        # the Workshop board and the Inventory of your own side are in that area
        area = page.inner_text("#my-area")
        assert "Inventory" in area and "(you)" in area
        page.mouse.wheel(0, 300)
        assert all(page.evaluate(IN_VIEW))
        page.evaluate("() => window.scrollTo(0, 0)")
        state = wait_ready(page, click_move(page, k, board_every=2))
        if state["finished"] == "true":
            break
    assert not page.errors


def test_legend_prestige_spaces_and_targets_at_their_centre(new_page: Any, server_url: str) -> None:
    page = new_page()
    create_from_lobby(page, seed=12, seats=("here", "random"))
    state = wait_ready(page)
    # the legend opens from the board's toolbar (a closed <details> until then)
    legend = page.text_content("#legend") or ""
    for abbreviation in ("RP", "PP", "₽", "✓", "Recognition", "Prestige", "Rubles", "wood",
                         "purple"):
        assert abbreviation in legend, abbreviation
    # the 40 Prestige spaces of data/track.toml, with their Prestige value every 5
    track = httpx.get(f"{server_url}/api/board/red-cathedral/track").json()
    assert len(track["prestige_positions"]) == 40
    assert page.locator("#board [data-prestige]").count() == 40
    assert "40 PP" in (page.text_content("#board .prestige-spaces") or "")
    checked = 0
    for k in range(12):
        assert page.evaluate(COVERED) == []
        checked += page.locator("#board [data-target]").count()
        state = wait_ready(page, click_move(page, k, board_every=2))
        if state["finished"] == "true":
            break
    assert checked > 20
    assert not page.errors


def test_escape_closes_the_chooser(new_page: Any) -> None:
    page = new_page()
    create_from_lobby(page, seed=13, seats=("here", "random"))
    wait_ready(page)
    many = page.locator("#board [data-target][data-count]:not([data-count='1'])")
    assert many.count() > 0
    many.first.click(position={"x": 8, "y": 8})
    page.wait_for_selector(".board-chooser:not([hidden]) button[data-action]:focus")
    page.keyboard.press("Escape")
    page.wait_for_selector(".board-chooser", state="hidden")
    assert page.evaluate("() => document.activeElement.dataset.target") is not None
    assert not page.errors


def test_confirmations_on_the_board_and_ending_the_turn_by_itself(new_page: Any) -> None:
    page = new_page()
    create_from_lobby(page, seed=14, seats=("here", "random"))
    posted: list[str] = []
    page.on("request", lambda r: posted.append(str((r.post_data_json or {}).get("action")))
            if r.method == "POST" and r.url.endswith("/actions") else None)
    state = wait_ready(page)
    page.check("#auto-end")
    seen: set[str] = set()
    clicks = 0
    for k in range(60):
        for confirm in page.locator("#board [data-confirm]").all():
            text = confirm.get_attribute("data-confirm") or ""
            seen.add(text.split(" ")[0])
        # a lone confirmation is never offered: the setting takes it
        legal = [b.get_attribute("data-action") or "" for b in
                 page.locator("#choices button[data-action]").all()]
        assert len(legal) > 1 or legal[0].split(" ")[0] not in LONE, legal
        confirm = page.locator("#board [data-confirm]")
        if confirm.count():
            seq = state["seq"]
            confirm.first.click()
        else:
            seq = click_move(page, k, board_every=0)
        clicks += 1
        state = wait_ready(page, seq)
        if state["finished"] == "true":
            break
    assert seen & {"finish-market", "perform", "done", "end-turn", "pass"}, seen
    # the Influence actions chosen were carried out without a click
    chosen = [k for k, action in enumerate(posted) if action.startswith("use-influence")]
    assert len(posted) == clicks + sum(
        1 for k in chosen if k + 1 < len(posted) and posted[k + 1] == "perform"), (posted, clicks)
    # The setting takes a confirmation that is the only legal action, and nothing else.
    # (The engine offers every confirmation beside another choice in the games played
    # here, so it is checked on the module's rule.)
    assert page.evaluate("() => localStorage['meeplehall.autoEnd']") == "1"
    taken = page.evaluate("""async () => {
      const m = await import('/static/js/games/red-cathedral.js');
      return [m.autoEndAction([{text: 'end-turn'}]), m.autoEndAction([{text: 'finish-market'}]),
              m.autoEndAction([{text: 'end-turn'}, {text: 'sell-prestige'}]),
              m.autoEndAction([{text: 'deliver 3 wood'}]),
              m.autoEndAction([{text: 'perform'}, {text: 'done'}], 'use-influence 2'),
              m.autoEndAction([{text: 'perform'}, {text: 'done'}], 'sell wood')]; }""")
    assert taken == ["end-turn", "finish-market", None, None, "perform", None]
    assert not page.errors
