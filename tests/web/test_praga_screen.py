"""The Praga table on one screen (issue 43), in Chromium at 1280×720, 1440×900 and 390×844.

A whole 2-player game against a random bot is played through the board's targets alone
(``[data-action].legal-target``: the map, the own board, the decision row); at every
decision of the first ``CHECKED`` the screen is checked (tests/web/screen.py): the
page never scrolls, every offered target is in the window and not covered, the board's
text in view is at least 11 px, no "null", "undefined", rule ID or identifier shows; on
the phone every target is at least 36 px. Screenshots at the start, the middle and the end
of the game go to test-artifacts/praga-WxH-{start,middle,end}.png.
"""

from __future__ import annotations

import json
import re
import urllib.request
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tests.web.play import join_by_link, wait_ready
from tests.web.screen import screen_problems

SEED = 20261202
CHECKED = 40
MIDDLE = 20
TARGET = "#board [data-action].legal-target"


def _table(server_url: str) -> int:
    body = json.dumps({"game": "praga", "options": {"players": 2}, "seed": SEED,
                       "seats": ["human", "random"]}).encode()
    request = urllib.request.Request(f"{server_url}/api/tables", data=body, method="POST")
    request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=20) as reply:
        table: int = json.loads(reply.read())["id"]
    return table


def _click_board(page: Any, k: int) -> str:
    """Click one of the decision's board targets where a player would, at its centre (no
    scrolling into view first); cycles through them so that the game moves on."""
    targets = page.locator(TARGET)
    n = targets.count()
    assert n, "a decision without a board target"
    pick = targets.nth(0 if k % 3 else (k // 3) % n)
    action = pick.get_attribute("data-action") or ""
    box = pick.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    size = page.viewport_size
    hit = 0 <= x < size["width"] and 0 <= y < size["height"] and pick.evaluate(
        "(n, [x, y]) => { const e = document.elementFromPoint(x, y);"
        " return !!e && (e === n || n.contains(e)); }",
        [x, y])
    if hit:
        page.mouse.click(x, y)
    else:  # already counted by screen_problems: choose it without a click to go on
        pick.dispatch_event("click")
    return action


@pytest.mark.parametrize("size", [(1280, 720), (1440, 900), (390, 844)],
                         ids=["1280x720", "1440x900", "390x844"])
def test_a_whole_game_through_the_board_on_one_screen(new_page: Any, server_url: str,
                                                      artifacts_dir: Path,
                                                      size: tuple[int, int]) -> None:
    width, height = size
    phone = width < 600
    page = new_page()
    page.set_viewport_size({"width": width, "height": height})
    join_by_link(page, f"{server_url}/#/table/{_table(server_url)}/join/0")
    page.wait_for_selector("#board svg.praga-board")
    state = wait_ready(page)
    problems: list[str] = []
    made = 0
    chosen: list[str] = []
    while state["finished"] != "true":
        assert made < 500
        page.wait_for_timeout(60)  # the board's follow-the-decision move has run
        if made == 0:
            page.screenshot(path=str(artifacts_dir / f"praga-{width}x{height}-start.png"))
        if made == MIDDLE:
            page.screenshot(path=str(artifacts_dir / f"praga-{width}x{height}-middle.png"))
        if made < CHECKED:
            problems += screen_problems(page, f"decision {made} ({', '.join(chosen[-1:])})",
                                        min_target=36 if phone else 0, page_scroll=not phone,
                                        every_drawn=True)
        seq = state["seq"]
        chosen.append(_click_board(page, made))
        made += 1
        state = wait_ready(page, seq)
    page.wait_for_selector("#end:not([hidden])")
    page.screenshot(path=str(artifacts_dir / f"praga-{width}x{height}-end.png"))
    print(f"\n{width}x{height}: {made} decisions through the board, {len(problems)} problems")
    # the kinds of problem and how often each came (the finding without its details)
    kinds = Counter(re.sub(r"(?::| [\d.]+ px| not drawn).*", "", p.split(": ", 1)[1])
                    for p in problems)
    for kind, count in kinds.most_common(30):
        print(f"   {count:4} {kind}")
    assert made >= 24
    assert not problems, "\n".join(problems[:40])
    assert not page.errors, page.errors
