"""The Red Cathedral's table on one screen (issue 43), in Chromium at 1280x720, 1440x900 and
390x844: a game played through the board's targets only (the side list only for a decision
that has no board element), failing at any decision where the page scrolls, an offered
board target is off the window or covered (``elementFromPoint`` at its centre), board text
in view is under 11 px, or the page shows "null", "undefined", a rule ID or an identifier.
On a phone every board target must also be at least 36 px across. The checker is the
shared one, tests/web/screen.py. Screenshots at the start, middle and end go to
test-artifacts/ (rc-<w>x<h>-<stage>.png)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from tests.web.play import create_from_lobby, main_state, wait_ready
from tests.web.screen import check_screen

SIZES = ((1280, 720), (1440, 900), (390, 844))
CASES = [pytest.param(size, id=f"{size[0]}x{size[1]}") for size in SIZES]


PHONE_TARGET = 36.0  # px: the smallest board target a finger hits on a phone


def check(page: Any, phone: bool, where: str, targets: str = "") -> None:
    """The shared screen check; on a phone the board targets are at least PHONE_TARGET
    across. ``targets``: check just these (the open chooser's buttons, which lie over the
    board while they are offered)."""
    check_screen(page, where, targets=targets, min_target=PHONE_TARGET if phone else 0.0)


def board_targets(page: Any) -> list[Any]:
    """The offered board targets that are shown (the chooser's buttons apart)."""
    out = []
    for el in page.locator("#board [data-action].legal-target:not(.board-chooser button)").all():
        box = el.bounding_box()
        if box and box["width"] > 0:
            out.append((el, box))
    return out


def click_centre(page: Any, box: dict[str, float]) -> None:
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def one_decision(page: Any, rng: random.Random, phone: bool) -> tuple[str, bool]:
    """Check the screen, then take one decision by a board target when the decision has
    one (several choices: the board's chooser), else by the side list. Returns the seq it
    was taken at and whether the board was used."""
    seq = main_state(page)["seq"]
    where = f"decision at seq {seq}"
    # what the player sees: after the frames that draw a resized board again have run
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    check(page, phone, where)
    targets = board_targets(page)
    if targets:
        # finishing steps now and then, so that turns end; otherwise any target
        finish = [t for t in targets if (t[0].get_attribute("data-action") or "").split(" ")[0] in
                  ("end-turn", "finish-market", "perform", "pass", "finish-delivery", "done")]
        el, box = rng.choice(finish) if finish and rng.random() < 0.5 else rng.choice(targets)
        count = int(el.get_attribute("data-count") or "1")
        click_centre(page, box)
        if count > 1:
            page.wait_for_selector(".board-chooser:not([hidden]) button[data-action]")
            check(page, phone, f"{where}, its chooser", ".board-chooser [data-action]")
            buttons = page.locator(".board-chooser button[data-action]").all()
            button = rng.choice(buttons)
            box = button.bounding_box()
            assert box is not None
            click_centre(page, box)
        return seq, True
    buttons = page.locator("#choices button[data-action]")
    assert buttons.count() > 0, "it is this page's turn but no choice is offered"
    buttons.nth(rng.randrange(buttons.count())).click()
    return seq, False


def shot(page: Any, folder: Path, size: tuple[int, int], stage: str) -> None:
    path = folder / f"rc-{size[0]}x{size[1]}-{stage}.png"
    page.screenshot(path=str(path))
    assert path.stat().st_size > 10_000


@pytest.mark.parametrize("size", CASES)
def test_a_game_on_one_screen_through_the_board(new_page: Any, artifacts_dir: Path,
                                                 size: tuple[int, int]) -> None:
    page = new_page()
    page.set_viewport_size({"width": size[0], "height": size[1]})
    phone = size[0] < 600
    create_from_lobby(page, seed=43, seats=("here", "random"), options={"round_limit": "12"})
    state = wait_ready(page)
    shot(page, artifacts_dir, size, "start")
    rng = random.Random(43)
    made = on_board = 0
    while state["finished"] != "true":
        assert made < 300, "the game did not end"
        seq, board = one_decision(page, rng, phone)
        made += 1
        on_board += board
        state = wait_ready(page, seq)
        if made == 20:
            shot(page, artifacts_dir, size, "middle")
    assert made >= 24 and on_board >= 20, (made, on_board)
    page.wait_for_selector("#end:not([hidden]) #score-table")
    shot(page, artifacts_dir, size, "end")
    assert not page.errors
