"""The Red Cathedral's table on one screen (issue 43), in Chromium at 1280x720, 1440x900 and
390x844: a game played through the board's targets only (the side list only for a decision
that has no board element), failing at any decision where the page scrolls, an offered
board target is off the window or covered (``elementFromPoint`` at its centre), board text
in view is under 11 px, or the page shows "null", "undefined", a rule ID or an identifier.
Screenshots at the start, middle and end go to test-artifacts/ (rc-<w>x<h>-<stage>.png).

The checker is local to this file until the shared one (tests/web/screen.py) exists."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from tests.web.play import create_from_lobby, main_state, wait_ready

# Problems of the screen as it is now: a list of strings, empty when all is well.
CHECK = """([least, only]) => {
  const bad = [];
  const W = innerWidth, H = innerHeight, de = document.documentElement;
  if (de.scrollHeight > H + 1 || de.scrollWidth > W + 1) {
    bad.push(`the document scrolls: ${de.scrollWidth}x${de.scrollHeight} in ${W}x${H}`);
  }
  const shown = (el) => { const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && !el.closest('[hidden]'); };
  for (const el of document.querySelectorAll(only || '[data-action].legal-target')) {
    if (!shown(el)) continue;
    const r = el.getBoundingClientRect();
    const what = el.dataset.action;
    if (r.left < -1 || r.top < -1 || r.right > W + 1 || r.bottom > H + 1) {
      bad.push(`off the window: ${what}`);
      continue;
    }
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!hit || (hit !== el && !el.contains(hit))) {
      const by = hit ? (hit.id || hit.getAttribute('class') || hit.tagName) : 'nothing';
      bad.push(`covered: ${what} (by ${by})`);
    }
    if (least && el.closest('#board') && Math.min(r.width, r.height) < least - 0.5) {
      bad.push(`too small: ${what} ${Math.round(r.width)}x${Math.round(r.height)}`);
    }
  }
  // board text in view: SVG text scaled by its SVG, HTML text by its own font size
  const view = (el) => {
    const r = el.getBoundingClientRect();
    const box = el.closest('.rc-viewport');
    const v = box ? box.getBoundingClientRect() : { left: 0, top: 0, right: W, bottom: H };
    return r.width > 0 && r.right > Math.max(0, v.left) && r.left < Math.min(W, v.right)
      && r.bottom > Math.max(0, v.top) && r.top < Math.min(H, v.bottom);
  };
  for (const el of document.querySelectorAll('#board svg text')) {
    if (!el.textContent.trim() || !view(el)) continue;
    const px = parseFloat(getComputedStyle(el).fontSize) * el.getScreenCTM().a;
    if (px < 10.95) bad.push(`board text ${px.toFixed(1)} px: ${el.textContent.trim()}`);
  }
  for (const el of document.querySelectorAll('#board *:not(svg *)')) {
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own || !shown(el) || !view(el) || el.closest('.visually-hidden')) continue;
    const px = parseFloat(getComputedStyle(el).fontSize);
    if (px < 10.95) bad.push(`board text ${px.toFixed(1)} px: ${el.textContent.trim()}`);
  }
  return bad;
}"""

# The page's visible text, without the rule references of a Rules control.
PAGE_TEXT = """() => { const copy = document.body.cloneNode(true);
  copy.querySelectorAll('[data-rule-ref], script, style, .visually-hidden')
    .forEach((el) => el.remove());
  document.body.append(copy); copy.style.position = 'absolute'; copy.style.left = '-99999px';
  const text = copy.innerText; copy.remove(); return text; }"""
WORDS = re.compile(r"\b(null|undefined)\b|\b[A-Z]{1,3}-[A-Z]*-?\d+[a-z]?\b|\b[A-Za-z]+_[A-Za-z_]+\b"
                   r"|\b[A-Z]{1,3}-[A-Z0-9]+\b")

SIZES = ((1280, 720), (1440, 900), (390, 844))
# On a phone the main action's targets (the dice on eight spaces and the Cathedral's
# cards) do not fit the window together at 36 px: the view starts at the first of them.
PHONE_GAP = pytest.mark.xfail(strict=True, reason="phone: not every target of a decision fits "
                              "the window at 36 px; the view starts at the first of them")
CASES = [pytest.param(size, id=f"{size[0]}x{size[1]}", marks=[PHONE_GAP] if size[0] < 600 else [])
         for size in SIZES]


def problems(page: Any, phone: bool, only: str = "") -> list[str]:
    """What is wrong with the screen now; ``only``: check just these targets (the open
    chooser's buttons, which lie over the board while they are offered)."""
    found: list[str] = page.evaluate(CHECK, [36 if phone else 0, only])
    for match in WORDS.finditer(page.evaluate(PAGE_TEXT)):
        found.append(f"the page shows {match.group(0)!r}")
    return found


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
    bad = problems(page, phone)
    assert not bad, bad
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
            bad = problems(page, phone, ".board-chooser [data-action]")
            assert not bad, bad
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
