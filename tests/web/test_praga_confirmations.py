"""Praga's "Skip confirmations" setting (games/praga.js ``autoEndAction``), in Chromium:
with it on, the page ends the turn when "End your turn" is the only legal action
(P-TURN-2 step 3) and performs the taken tile's action when it is the only one it can
perform; nothing else is taken without a click."""

from __future__ import annotations

from typing import Any

from tests.web.play import join_by_link, wait_ready
from tests.web.test_praga_table import _table

LONE = {"end-turn", "perform"}


def test_skip_confirmations_takes_a_lone_end_of_turn_or_perform(new_page: Any,
                                                                server_url: str) -> None:
    table = _table(server_url, ["human", "random"])
    page = new_page()
    join_by_link(page, f"{server_url}/#/table/{table}/join/0")
    posted: list[str] = []
    page.on("request", lambda r: posted.append(str((r.post_data_json or {}).get("action")))
            if r.method == "POST" and r.url.endswith("/actions") else None)
    state = wait_ready(page)
    page.check("#auto-end")
    label = page.locator("label[for='auto-end']").inner_text()
    assert "tile" in label and "Influence" not in label
    clicks = 0
    for _ in range(40):
        if state["finished"] == "true":
            break
        legal = [b.get_attribute("data-action") or "" for b in
                 page.locator("#choices button[data-action]").all()]
        # a lone confirmation is never left for the player: the setting takes it
        assert len(legal) > 1 or legal[0].split(" ")[0] not in LONE, legal
        seq = state["seq"]
        page.locator("#choices button[data-action]").first.click()
        clicks += 1
        state = wait_ready(page, seq)
    taken = len(posted) - clicks
    assert taken > 0, posted  # the setting ended turns (or performed) by itself
    assert any(a == "end-turn" for a in posted), posted
    assert page.evaluate("() => localStorage['meeplehall.autoEnd']") == "1"
    rule = page.evaluate("""async () => {
      const m = await import('/static/js/games/praga.js');
      return [m.autoEndAction([{text: 'end-turn'}]), m.autoEndAction([{text: 'perform mines'}]),
              m.autoEndAction([{text: 'end-turn'}, {text: 'wall 1'}]),
              m.autoEndAction([{text: 'pick 2'}])]; }""")
    assert rule == ["end-turn", "perform mines", None, None]
    assert not page.errors, page.errors
