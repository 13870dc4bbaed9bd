"""Both games on a phone (390×844) and The Red Cathedral on a tablet (820×1180), in
Chromium: no sideways scrolling of the page, the board zooms and pans with every click
target at least 24 px (at the default zoom, or after one zoom step), the choices (in the
side panel's drawer on a phone) never in an inner scroll box, and screenshots in
test-artifacts/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.web.play import click_move, create_from_lobby, side_panel, wait_ready

PHONE = {"width": 390, "height": 844}
TABLET = {"width": 820, "height": 1180}
MIN_TARGET_PX = 24

# The smaller side of every board target's box, in screen pixels.
TARGETS = """() => [...document.querySelectorAll(
    '#board [data-target], #board svg .target')]
  .map((e) => { const r = e.getBoundingClientRect();
    return [Math.min(r.width, r.height), e.dataset.target || e.dataset.legal]; })"""
NO_SIDEWAYS = "() => document.scrollingElement.scrollWidth <= window.innerWidth"
OVERFLOW = "e => [getComputedStyle(e).overflowY, e.scrollHeight, e.clientHeight]"


def _phone(new_page: Any) -> Any:
    page = new_page()
    page.set_viewport_size(PHONE)
    return page


def _choices_reachable(page: Any) -> None:
    """The choices are in the side panel's own flow (the drawer on a phone): no inner box
    that hides some of them."""
    with side_panel(page):
        overflow = page.locator("#choices").evaluate(OVERFLOW)
        assert overflow[0] == "visible" or overflow[1] <= overflow[2] + 1, overflow
        buttons = page.locator("#choices button[data-action]")
        assert buttons.count() >= 1
        buttons.last.scroll_into_view_if_needed()
        assert buttons.last.is_visible()


def _zoom(page: Any, viewport: str) -> float:
    return float(page.get_attribute(viewport, "data-zoom"))


def test_the_red_cathedral_on_a_phone(new_page: Any, artifacts_dir: Path) -> None:
    page = _phone(new_page)
    create_from_lobby(page, seed=14, seats=("here", "random"))
    state = wait_ready(page)
    page.screenshot(path=str(artifacts_dir / "red-cathedral-390x844-start.png"), full_page=True)
    # zoom and pan: the board has its own viewport with the zoom buttons
    viewport = page.locator("#board .rc-viewport")
    assert viewport.count() == 1 and page.locator("#board .rc-zoombar button").count() == 4
    assert page.locator("#my-area").count() == 0  # your area is on the zoomable board
    assert "(you)" in page.inner_text("#board .rc-viewport")
    seen = 0
    for k in range(10):
        assert page.evaluate(NO_SIDEWAYS)
        sizes = page.evaluate(TARGETS)
        small = [(round(size, 1), key) for size, key in sizes if size < MIN_TARGET_PX]
        assert not small, (k, small)
        seen += len(sizes)
        _choices_reachable(page)
        if k == 5:
            page.screenshot(path=str(artifacts_dir / "red-cathedral-390x844-middle.png"))
        state = wait_ready(page, click_move(page, k, board_every=2))
        if state["finished"] == "true":
            break
    assert seen > 10  # dice, spaces, cards, the Inventory: targets were measured
    # the zoom buttons and dragging move the board, and the zoom survives the next view
    z0 = _zoom(page, "#board .rc-viewport")
    page.click("#board .rc-zoombar [data-zoom='zoom-in']")
    assert _zoom(page, "#board .rc-viewport") > z0
    page.click("#board .rc-zoombar [data-zoom='zoom-fit']")
    fit = page.locator("#board .rc-viewport svg").bounding_box()
    box = viewport.bounding_box()
    assert fit["width"] <= box["width"] + 1
    # on a phone the board is drawn at about its own size: "100 %" is left out of the bar
    assert not page.is_visible("#board .rc-zoombar [data-zoom='zoom-reset']")
    for _ in range(12):  # from the whole board to wider than the window
        if _zoom(page, "#board .rc-viewport") > 1.3:
            break
        page.click("#board .rc-zoombar [data-zoom='zoom-in']")
    before = viewport.evaluate("e => { e.scrollLeft = 0; e.scrollTop = 0; return [0, 0]; }")
    page.mouse.move(box["x"] + 300, box["y"] + 200)
    page.mouse.down()
    page.mouse.move(box["x"] + 150, box["y"] + 100, steps=5)
    page.mouse.up()
    after = viewport.evaluate("e => [e.scrollLeft, e.scrollTop]")
    assert after[0] > before[0] and after[1] > before[1], (before, after)
    # the next decision moves the view to its targets by itself, large enough for a finger
    state = wait_ready(page, click_move(page, 0, board_every=0))
    if state["finished"] != "true":
        assert _zoom(page, "#board .rc-viewport") >= 36 / 37 - 0.001  # 37-unit targets
    assert not page.errors, page.errors


def test_the_red_cathedral_on_a_tablet_stays_as_it_is(new_page: Any,
                                                      artifacts_dir: Path) -> None:
    page = new_page()
    page.set_viewport_size(TABLET)
    create_from_lobby(page, seed=15, seats=("here", "random"))
    wait_ready(page)
    assert page.evaluate(NO_SIDEWAYS)
    # as on a desktop: the zoomable board and your own area as a strip of its own below it
    assert page.locator("#board .rc-viewport").count() == 1
    assert page.locator("#my-area").count() == 1
    board = page.locator("#board .rc-viewport").bounding_box()
    assert board["width"] >= 700 and board["x"] + board["width"] <= TABLET["width"]
    sizes = page.evaluate(TARGETS)
    assert min(size for size, _ in sizes) >= 20, sizes
    page.screenshot(path=str(artifacts_dir / "red-cathedral-820x1180-start.png"))
    assert not page.errors, page.errors


def test_praga_on_a_phone(new_page: Any, artifacts_dir: Path) -> None:
    page = _phone(new_page)
    create_from_lobby(page, seed=3, seats=("here", "greedy"), game="praga")
    state = wait_ready(page)
    page.screenshot(path=str(artifacts_dir / "praga-390x844-start.png"), full_page=True)
    for k in range(8):
        assert page.evaluate(NO_SIDEWAYS)
        sizes = page.evaluate(TARGETS)
        # at the default zoom, or after one zoom step
        if sizes and min(size for size, _ in sizes) < MIN_TARGET_PX:
            page.click("[data-zoom='zoom-in']")
            sizes = page.evaluate(TARGETS)
        small = [(round(size, 1), key) for size, key in sizes if size < MIN_TARGET_PX]
        assert not small, (k, small)
        _choices_reachable(page)
        if k == 4:
            page.screenshot(path=str(artifacts_dir / "praga-390x844-middle.png"))
        seq = state["seq"]
        with side_panel(page):
            page.locator("#choices button[data-action]").first.click()
        state = wait_ready(page, seq)
        if state["finished"] == "true":
            break
    assert not page.errors, page.errors
