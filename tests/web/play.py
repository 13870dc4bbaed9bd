"""Driving the browser client like a player: only clicks (side panel or board)."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

# The shell marks #main with data-seq, data-your-turn, data-busy and data-finished.
READY = """(prev) => { const m = document.getElementById('main');
  return m.dataset.page === 'table' && (m.dataset.finished === 'true' ||
    (m.dataset.yourTurn === 'true' && m.dataset.busy === 'false' && m.dataset.seq !== prev)); }"""


def main_state(page: Any) -> dict[str, str]:
    state: dict[str, str] = page.evaluate("() => ({...document.getElementById('main').dataset})")
    return state


def join_by_link(page: Any, url: str) -> None:
    """Open an invite link (``.../#/table/{id}/join/{seat}``) in a browser that has given
    no name and holds no seat at that table: the page asks for a name; take the seat
    without one."""
    page.goto(url)
    page.click("#join-take")


def wait_ready(page: Any, prev_seq: str | None = None, timeout: float = 30_000) -> dict[str, str]:
    """Wait until the game is over or it is this page's turn at a new seq."""
    page.wait_for_function(READY, arg=prev_seq or "", timeout=timeout)
    return main_state(page)


def click_move(page: Any, k: int, board_every: int = 3) -> str:
    """Make the ``k``-th move of this page by clicking; returns the seq it was made at.

    Every ``board_every``-th move clicks a highlighted board element (and, if it offers
    several choices, the first button of the board's chooser); the others click a
    side-panel button, cycling through the list so that the game moves on."""
    seq = main_state(page)["seq"]
    targets = page.locator("#board [data-target]:not([data-target^='score:'])")
    if board_every and k % board_every == 0 and targets.count():
        target = targets.first
        count = int(target.get_attribute("data-count") or "1")
        # near its top-left corner, as a player would where a die sits on a market space
        # that is itself a target
        target.click(position={"x": 8, "y": 8})
        if count > 1:
            page.locator(".board-chooser button[data-action]").first.click()
        return seq
    buttons = page.locator("#choices button[data-action]")
    n = buttons.count()
    assert n > 0, "it is this page's turn but no choice is offered"
    with side_panel(page):
        buttons.nth(0 if k % 4 else (k // 4) % n).click()
    return seq


@contextlib.contextmanager
def side_panel(page: Any) -> Any:
    """The side panel in view: below 60rem it is a drawer, opened (and closed after) by
    its toggle; above, it is beside the board already."""
    drawer = page.is_visible("#side-toggle") and page.get_attribute(
        "#side-toggle", "aria-expanded") != "true"
    if drawer:
        page.click("#side-toggle")
        page.wait_for_selector("#side", state="visible")
    try:
        yield
    finally:
        if drawer:
            page.keyboard.press("Escape")


def play_to_end(page: Any, max_moves: int, on_move: Any = None) -> int:
    """Play this page's seats until the game ends; returns the number of moves made."""
    state = wait_ready(page)
    made = 0
    while state["finished"] != "true":
        assert made < max_moves, f"the game did not end within {max_moves} moves"
        seq = click_move(page, made)
        made += 1
        if on_move is not None:
            on_move(made)
        state = wait_ready(page, seq)
    return made


class Traffic:
    """Everything a page receives: HTTP response bodies (JSON) and WebSocket frames."""

    def __init__(self, page: Any) -> None:
        self.bodies: list[Any] = []
        self.texts: list[str] = []
        page.on("response", self._response)
        page.on("websocket", self._websocket)

    def _response(self, response: Any) -> None:
        if "/api/" not in response.url:
            return
        try:
            text = response.text()
        except Exception:  # a body that is gone (navigation): nothing was read from it
            return
        self.texts.append(text)
        with contextlib.suppress(ValueError):
            self.bodies.append(json.loads(text))

    def _websocket(self, ws: Any) -> None:
        def frame(payload: Any) -> None:
            text = payload if isinstance(payload, str) else payload.decode()
            self.texts.append(text)
            self.bodies.append(json.loads(text))

        ws.on("framereceived", frame)

    def views(self) -> list[dict[str, Any]]:
        """Every view received (full views; patches are checked as text)."""
        out = []
        for body in self.bodies:
            if isinstance(body, dict) and isinstance(body.get("view"), dict):
                out.append(body["view"])
        return out


def shot(page: Any, folder: Path, name: str) -> Path:
    path = folder / name
    page.screenshot(path=str(path), full_page=True)
    assert path.stat().st_size > 1000
    return path


def create_from_lobby(page: Any, *, seed: int, players: int = 2, seats: tuple[str, ...] = (),
                      options: dict[str, str] | None = None, game: str = "red-cathedral") -> int:
    """Open a table through the lobby form; returns its id."""
    page.goto("/")
    page.wait_for_selector("#create")
    page.click(f"button[data-game='{game}']")
    page.wait_for_selector(f"button[data-game='{game}'][aria-pressed='true']")
    if players != 2:
        page.fill("#players", str(players))
        page.dispatch_event("#players", "change")
    for i, kind in enumerate(seats):
        page.select_option(f"#seat-{i}", kind)
    page.click("details summary")
    for name, value in (options or {}).items():
        page.fill(f"#opt-{name}", value)
        page.dispatch_event(f"#opt-{name}", "change")
    page.fill("#seed", str(seed))
    page.dispatch_event("#seed", "change")
    page.click("#create")
    page.wait_for_url("**/#/table/*")
    return int(page.url.rsplit("/", 1)[1])


def check_views(traffic: Traffic, seat: int | None, fields: tuple[str, ...]) -> int:
    """Every view the page received (whole, or as a live patch) is its own seat's (or
    the spectators'), and its state holds only whitelisted fields (no PRNG, no unused
    components). Returns how many views and patches were checked."""
    checked = 0
    for view in traffic.views():
        assert view["seat"] in (seat, None), view["seat"]
        assert set(view["state"]) <= set(fields), set(view["state"]) - set(fields)
        checked += 1
    for body in traffic.bodies:
        if isinstance(body, dict) and body.get("type") == "update":
            assert body["seat"] == seat
            for op in body["patch"]:
                parts = op["path"].split("/")
                assert parts[1:2] != ["seat"], "a patch changed the view's seat"
                if parts[1:2] == ["state"] and len(parts) > 2:
                    assert parts[2] in fields, op["path"]
            checked += 1
    for body in traffic.bodies:
        assert "rng" not in keys_of(body), "the PRNG state reached the page"
    return checked


def keys_of(data: Any) -> set[str]:
    """Every dict key anywhere in ``data``."""
    if isinstance(data, dict):
        return set(data).union(*(keys_of(v) for v in data.values()))
    if isinstance(data, list):
        return set().union(*(keys_of(v) for v in data))
    return set()
