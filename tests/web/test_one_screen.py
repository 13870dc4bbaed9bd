"""One screen (issue 43): the table page is the window while a game is played.

The shell test opens a table from the lobby at the three desktop viewports and a phone:
the document never scrolls, the side panel scrolls inside itself (beside the board, or as
a drawer on the phone), every seat reads as its name and colour (never "null", "Seat 1"),
and the Rules control shows the decision's rule text with the rule ID small. The play
tests make 24 decisions of each game through board targets at 1280x720, 1440x900 and
390x844, checking the screen (``tests/web/screen.py``) before each one, with screenshots
at the start, middle and end in ``test-artifacts/``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.web.play import create_from_lobby, main_state, side_panel, wait_ready
from tests.web.screen import check_screen, text_problems

DESKTOP = [(1280, 720), (1440, 900), (1920, 1080)]
PHONE = (390, 844)
NO_SCROLL = """() => ({h: document.documentElement.scrollHeight,
  w: document.documentElement.scrollWidth, H: innerHeight, W: innerWidth})"""
SIDE_OVERFLOW = "() => getComputedStyle(document.getElementById('side')).overflowY"
SIDE_TO_END = "() => { const s = document.getElementById('side'); s.scrollTop = s.scrollHeight; }"
DRAWER_SHOWN = """() => { const r = document.getElementById('side').getBoundingClientRect();
  return r.right <= innerWidth + 1 && r.left >= 0; }"""
MARK_BOARD = "() => { document.getElementById('board').firstElementChild.dataset.old = '1'; }"
BOARD_REDRAWN = "() => !document.querySelector('#board > [data-old]')"
DRAWER_CLOSED = "() => document.getElementById('side-toggle').ariaExpanded === 'false'"


def _no_document_scroll(page: Any, where: str) -> None:
    m = page.evaluate(NO_SCROLL)
    assert m["h"] <= m["H"] and m["w"] <= m["W"], f"{where}: the page scrolls: {m}"


def test_the_table_is_one_screen_with_a_side_panel_and_a_drawer_on_phones(
        new_page: Any, server_url: str, artifacts_dir: Path) -> None:
    page = new_page()
    # no seed typed: the "seed chosen" line is absent (and "null" was shown in its place)
    page.goto("/")
    page.wait_for_selector("#create")
    page.fill("#seat-name-0", "Ada")
    page.select_option("#seat-1", "random")
    page.click("#create")
    page.wait_for_url("**/#/table/*")
    table = int(page.url.rsplit("/", 1)[1])
    wait_ready(page)
    for width, height in DESKTOP:
        page.evaluate(MARK_BOARD)
        page.set_viewport_size({"width": width, "height": height})
        where = f"table at {width}x{height}"
        page.wait_for_function("() => document.body.classList.contains('at-table')")
        if (width, height) != (1280, 720):  # the window was 1280x720 before
            # the board region changed size: the board was drawn again to fit it
            page.wait_for_function(BOARD_REDRAWN)
        _no_document_scroll(page, where)
        board = page.locator("#board").bounding_box()
        side = page.locator("#side").bounding_box()
        assert board and side, where
        assert board["width"] > 500 and board["height"] > height * 0.6, (where, board)
        assert side["x"] >= board["x"] + board["width"] - 1 and side["width"] < 400, (where, side)
        assert side["y"] + side["height"] <= height + 1, (where, side)
        assert page.evaluate(SIDE_OVERFLOW) == "auto"
        # the side panel scrolls inside itself, the page stays put
        page.evaluate(SIDE_TO_END)
        _no_document_scroll(page, where)
        assert page.evaluate("() => window.scrollY") == 0
        page.screenshot(path=str(artifacts_dir / f"one-screen-shell-{width}x{height}.png"))
    # One identity: the name and the colour, everywhere; never null, Seat 1, "(you play 1)".
    title = page.inner_text("#table-title")
    assert "Ada (yellow)" in title, title
    seats = page.inner_text("#seats")
    assert "Ada (yellow)" in seats and "Red player" in seats, seats
    for bad in ("null", "undefined", "Seat 1", "Seat 2", "?"):
        assert bad not in seats, (bad, seats)
    assert "(you play 1)" not in title
    assert not text_problems(page.inner_text("#seats"))
    # The other seat's details open on demand; ours are open (its name form).
    assert page.locator("#seats li[data-seat='1'] details").get_attribute("open") is None
    page.click("#seats li[data-seat='1'] summary")
    assert page.locator("#seats li[data-seat='1'] details").get_attribute("open") is not None
    assert page.is_visible("#name-0")
    # Rules at hand: the decision's rule text, the rule ID small and apart.
    page.click("#rules-toggle")
    page.wait_for_selector("#rules-panel [data-rule-ref]")
    rules = page.inner_text("#rules-panel")
    reference = page.inner_text("#rules-panel [data-rule-ref]")
    assert "RC-TURN-2" in reference and "Take exactly one main action" in rules, rules
    body = httpx.get(f"{server_url}/api/tables/{table}/rules").json()
    assert body["rule_ids"][0] == "RC-TURN-2"
    assert not text_problems(rules.replace(reference, ""))
    # The language switch re-renders everything, the name form included.
    page.select_option("#language", "de")
    page.wait_for_function("() => document.documentElement.lang === 'de'")
    page.wait_for_function("() => document.querySelector('#rules-toggle').textContent === 'Regeln'")
    assert "Spieler Rot" in page.inner_text("#seats")
    # the rule text in the player's language (the Rules panel stays open)
    page.wait_for_function("() => document.getElementById('rules-panel').innerText"
                           ".includes('Führe genau eine Hauptaktion aus')")
    assert "Name speichern" in page.inner_text("#seats")
    page.select_option("#language", "en")
    page.wait_for_function("() => document.documentElement.lang === 'en'")
    page.wait_for_function("() => document.querySelector('#rules-toggle').textContent === 'Rules'")
    assert "Name speichern" not in page.inner_text("body")
    assert "Save name" in page.inner_text("#seats")
    # The phone: the board takes the window; the side panel is a drawer.
    page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    page.wait_for_selector("#side-toggle", state="visible")
    _no_document_scroll(page, "phone")
    board = page.locator("#board").bounding_box()
    assert board and board["width"] > PHONE[0] * 0.9 and board["height"] > PHONE[1] * 0.6, board
    page.wait_for_selector("#side", state="hidden")  # the drawer is closed
    assert page.inner_text("#prompt-bar").startswith("Your turn")
    page.screenshot(path=str(artifacts_dir / "one-screen-shell-phone-closed.png"))
    page.click("#side-toggle")
    page.wait_for_function(DRAWER_SHOWN)
    assert page.is_visible("#choices button[data-action]")
    _no_document_scroll(page, "phone, drawer open")
    page.screenshot(path=str(artifacts_dir / "one-screen-shell-phone-drawer.png"))
    page.keyboard.press("Escape")
    page.wait_for_function(DRAWER_CLOSED)
    # The lobby scrolls as any page; its plural is a plural.
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto("/")
    page.wait_for_selector("#open-tables li")
    assert not page.evaluate("() => document.body.classList.contains('at-table')")
    lobby = page.inner_text("#open-tables")
    assert "2 players" in lobby and "1 players" not in lobby
    assert not page.errors


@pytest.mark.parametrize("game, automaton, me", [
    ("red-cathedral", "Ivan", "Yellow player"),  # RC-SOLO: Ivan Yakovlevich
    ("praga", "the dummy", "Green player"),  # P-SOLO-3: the dummy takes action tiles
])
def test_since_your_last_turn_against_an_automaton(new_page: Any, game: str, automaton: str,
                                                   me: str) -> None:
    """Solo against an automaton: the seat moves again at once, and what the automaton
    did is listed."""
    page = new_page()
    create_from_lobby(page, seed=61, players=1, game=game)
    state = wait_ready(page)
    seen: list[str] = []
    for _ in range(60):
        if page.is_visible("#since-section"):
            seen = page.locator("#since-section li").all_inner_texts()
            break
        buttons = page.locator("#choices button[data-action]")
        texts = buttons.evaluate_all("(bs) => bs.map((b) => b.dataset.action)")
        pick = next((i for i, x in enumerate(texts) if x == "end-turn"), 0)
        seq = main_state(page)["seq"]
        buttons.nth(pick).click()
        state = wait_ready(page, seq)
        if state["finished"] == "true":
            break
    assert seen and any(line.startswith(automaton) for line in seen), seen
    assert not any(line.startswith(me) for line in seen), seen  # never our own moves
    assert not page.errors


# -- playing through the board ----------------------------------------------------------------

PLAY_VIEWPORTS = [(1280, 720), (1440, 900), (390, 844)]
GAMES_TO_PLAY = {
    "red-cathedral": {"players": 2, "seats": ("here", "random")},
    "praga": {"players": 2, "seats": ("here", "random")},
}


def _board_decision(page: Any, k: int) -> tuple[str, bool]:
    """Make one decision through a board target (the side list only where the decision
    has none on the board); returns the seq it was made at and whether the board made it."""
    seq = main_state(page)["seq"]
    targets = page.locator("#board [data-action].legal-target")
    if targets.count():
        targets.nth(k % targets.count()).click()
        chooser = page.locator(".board-chooser button[data-action]")
        if chooser.count():
            chooser.first.click()
        return seq, True
    with side_panel(page):
        page.locator("#choices button[data-action]").first.click()
    return seq, False


# What does not pass yet, by game and window (non-strict: a pass is reported, not failed).
PLAY_GAPS: dict[tuple[str, tuple[int, int]], str] = {}
PLAY_CASES = [
    pytest.param(game, size, id=f"{game}-{size[0]}x{size[1]}",
                 marks=[pytest.mark.xfail(strict=False, reason=PLAY_GAPS[(game, size)])]
                 if (game, size) in PLAY_GAPS else [])
    for game in GAMES_TO_PLAY for size in PLAY_VIEWPORTS
]


@pytest.mark.parametrize("game, size", PLAY_CASES)
def test_24_decisions_through_the_board_on_one_screen(new_page: Any, artifacts_dir: Path,
                                                      game: str, size: tuple[int, int]) -> None:
    page = new_page()
    page.set_viewport_size({"width": size[0], "height": size[1]})
    setup = GAMES_TO_PLAY[game]
    create_from_lobby(page, seed=71, players=int(setup["players"]), seats=setup["seats"], game=game)
    state = wait_ready(page)
    name = f"one-screen-{game}-{size[0]}x{size[1]}"
    on_board = 0
    for k in range(24):
        if state["finished"] == "true":
            break
        if k in (0, 12):
            moment = "start" if k == 0 else "middle"
            page.screenshot(path=str(artifacts_dir / f"{name}-{moment}.png"))
        check_screen(page, f"{game} at {size[0]}x{size[1]}, decision {k + 1}")
        seq, by_board = _board_decision(page, k)
        on_board += by_board
        state = wait_ready(page, seq)
    page.screenshot(path=str(artifacts_dir / f"{name}-end.png"))
    # through the board: the side list only for the few decisions without a board element
    assert on_board >= 18, f"only {on_board} of 24 decisions had a board target"
    assert not page.errors
