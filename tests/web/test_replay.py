"""What just happened (issue 43, point 4): when a held seat's turn comes after others
moved (a bot, or an automaton inside our own move: Ivan in The Red Cathedral's solo,
the dummy in Praga's), the board shows their moves step by step, each the view after
that move with what it changed ringed and the move's log lines as its caption; it plays
by itself once and returns to the live board, "Replay" beside "Since your last turn"
plays it again, ◀ ▶ step, Escape and a click on the board return to the game. The
replayed views are the seat's own (never another seat's hidden information), and the
screen checks hold while a replay is shown."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from meeplehall.games.praga.views import PUBLIC_FIELDS as PRAGA_FIELDS
from meeplehall.games.red_cathedral.views import PUBLIC_FIELDS as RC_FIELDS
from tests.web.play import Traffic, check_views, create_from_lobby, main_state, wait_ready
from tests.web.screen import check_screen, text_problems

FIELDS = {"red-cathedral": RC_FIELDS, "praga": PRAGA_FIELDS}
PLAYING = "() => document.getElementById('main').dataset.replay === 'playing'"
LIVE = "() => document.getElementById('main').dataset.replay === 'off'"
STEP_S = 1.1  # REPLAY_STEP_MS in app.js
POS = "(text) => document.getElementById('turn-replay-pos').textContent.startsWith(text)"


def _move(page: Any) -> dict[str, str]:
    """One move by the side panel (ending the turn where that is offered, so that the
    others move soon); returns the state once this page is to move again."""
    buttons = page.locator("#choices button[data-action]")
    texts = buttons.evaluate_all("(bs) => bs.map((b) => b.dataset.action)")
    pick = next((i for i, x in enumerate(texts) if x.split(" ")[0] in ("end-turn", "pass")), 0)
    seq = main_state(page)["seq"]
    buttons.nth(pick).click()
    return wait_ready(page, seq)


def _until_replay(page: Any, moves: int = 60) -> None:
    """Play until the board replays the others' moves by itself."""
    state = wait_ready(page)
    for _ in range(moves):
        state = _move(page)
        assert state["finished"] != "true", "the game ended before any replay"
        try:
            page.wait_for_function(PLAYING, timeout=1_500)
            return
        except Exception:  # no replay this time: our own turn goes on
            continue
    raise AssertionError(f"no replay in {moves} moves")


def _steps(page: Any) -> int:
    pos = page.inner_text("#turn-replay-pos")  # "Move 1 of 3"
    return int(pos.rsplit(" ", 1)[1])


def _replay_shown(page: Any, where: str, rings: bool = True) -> dict[str, Any]:
    """A replay step is on the board: a caption, the changed elements ringed, no choice
    offered on the board; the screen checks hold."""
    page.wait_for_selector("#turn-replay-caption")
    caption = page.inner_text("#turn-replay-caption").strip()
    assert caption and not text_problems(caption), (where, caption)
    assert page.locator("#board .legal-target").count() == 0, where
    # (a ring may be on a player board folded in its summary line)
    if rings:
        page.wait_for_selector("#board [data-changed]", state="attached")
    changed = page.locator("#board [data-changed]").evaluate_all(
        "(ns) => ns.map((n) => n.dataset.changed || n.getAttribute('data-changed'))")
    check_screen(page, where)
    return {"caption": caption, "changed": changed}


def _back_live(page: Any, where: str) -> None:
    assert page.is_hidden("#turn-replay"), where
    assert page.locator("#board [data-changed]").count() == 0, where
    # the live board offers the decision again
    page.wait_for_selector("#board [data-action]")
    assert page.locator("#choices button[data-action]").count() > 0, where


def _replayed_views(traffic: Traffic, seat: int) -> list[dict[str, Any]]:
    """The replay views the page fetched: every one is the seat's own."""
    out = []
    for body in traffic.bodies:
        if isinstance(body, dict) and "moves_shown" in body:
            assert body["view"]["seat"] == seat, body["view"]["seat"]
            assert body["seat"] == seat
            out.append(body["view"])
    return out


@pytest.mark.parametrize("game, players, seats, automaton", [
    ("red-cathedral", 2, ("here", "random"), None),
    ("praga", 2, ("here", "random"), None),
    ("red-cathedral", 1, (), "Ivan"),  # RC-SOLO: Ivan Yakovlevich moves inside our move
    ("praga", 1, (), "the dummy"),  # P-SOLO-3: the dummy takes action tiles
])
def test_the_others_moves_replay_on_the_board(new_page: Any, artifacts_dir: Path, game: str,
                                              players: int, seats: tuple[str, ...],
                                              automaton: str | None) -> None:
    page = new_page(replay=True)
    traffic = Traffic(page)
    create_from_lobby(page, seed=61, players=players, seats=seats, game=game)
    _until_replay(page)
    name = f"replay-{game}-{'solo' if automaton else 'bot'}"
    first = _replay_shown(page, f"{name}: first step")
    assert first["changed"], first
    if automaton:
        assert automaton in first["caption"], first["caption"]
    page.screenshot(path=str(artifacts_dir / f"{name}.png"))
    steps = _steps(page)
    # it plays by itself, about a second a step, and returns to the live board
    page.wait_for_function(LIVE, timeout=(steps * STEP_S + 8) * 1000)
    _back_live(page, f"{name}: after the replay")

    # "Replay" plays it again; Escape returns at once
    page.click("#since-replay")
    page.wait_for_function(PLAYING)
    _replay_shown(page, f"{name}: replayed")
    page.keyboard.press("Escape")
    page.wait_for_function(LIVE, timeout=1_000)
    _back_live(page, f"{name}: after Escape")

    # ◀ ▶ step (and stop it playing by itself); a click on the board returns to the game
    page.click("#since-replay")
    page.wait_for_function(PLAYING)
    if steps > 1:
        page.click("#turn-replay-next")
        page.wait_for_function(POS, arg="Move 2 ")
        page.click("#turn-replay-prev")
        page.wait_for_function(POS, arg="Move 1 ")
        page.wait_for_timeout(STEP_S * 1000 + 300)
        assert page.evaluate(PLAYING), "a replay stepped by hand went on by itself"
    page.click("#board", position={"x": 30, "y": 30})
    page.wait_for_function(LIVE, timeout=1_000)
    _back_live(page, f"{name}: after a click on the board")

    # After a reload the views come from the server: the seat's own replay views.
    page.reload()
    wait_ready(page)
    page.click("#since-replay")
    page.wait_for_function(PLAYING)
    again = _replay_shown(page, f"{name}: after a reload")
    assert again["caption"] == first["caption"]
    assert _replayed_views(traffic, 0), "the reloaded page fetched no replay view"
    check_views(traffic, 0, FIELDS[game])
    page.keyboard.press("Escape")
    page.wait_for_function(LIVE, timeout=1_000)
    assert not page.errors


def test_with_reduced_motion_the_live_board_marks_the_changes(new_page: Any) -> None:
    """prefers-reduced-motion: nothing plays by itself; the live board rings what the
    others changed since our last turn, and "Replay" steps by hand."""
    page = new_page(replay=True)
    page.emulate_media(reduced_motion="reduce")
    create_from_lobby(page, seed=62, seats=("here", "random"), game="red-cathedral")
    state = wait_ready(page)
    for _ in range(30):
        state = _move(page)
        assert state["finished"] != "true"
        if page.is_visible("#since-replay"):
            break
    page.wait_for_selector("#board [data-changed]")
    assert page.evaluate(LIVE)
    assert page.locator("#board .legal-target").count() > 0  # the decision is offered
    check_screen(page, "reduced motion: the changes marked on the live board")
    page.click("#since-replay")
    page.wait_for_function(PLAYING)
    page.wait_for_timeout(STEP_S * 1000 + 300)
    assert page.evaluate(PLAYING), "with reduced motion the replay went on by itself"
    for _ in range(_steps(page)):
        page.click("#turn-replay-next")
    page.wait_for_function(LIVE, timeout=2_000)
    _back_live(page, "reduced motion: after the last step")
    assert not page.errors


HIDE = """(state) => { Object.defineProperty(document, 'visibilityState',
  {value: state, configurable: true}); document.dispatchEvent(new Event('visibilitychange')); }"""


def test_a_spectator_sees_what_happened_since_they_last_looked(new_page: Any) -> None:
    """A spectator: "Since you last looked" lists and replays the moves made while the
    page was hidden, in the spectators' view."""
    player = new_page()
    table = create_from_lobby(player, seed=63, seats=("here", "random"), game="praga")
    wait_ready(player)
    watcher = new_page(replay=True)
    traffic = Traffic(watcher)
    watcher.goto(f"/#/table/{table}")
    watcher.wait_for_selector("#board svg")
    watcher.evaluate(HIDE, "hidden")
    seq = main_state(watcher)["seq"]
    for _ in range(40):  # until the bot has moved too
        _move(player)
        if player.is_visible("#since-section"):
            break
    watcher.wait_for_function("(s) => document.getElementById('main').dataset.seq !== s", arg=seq)
    watcher.evaluate(HIDE, "visible")
    watcher.wait_for_function(PLAYING)
    assert watcher.inner_text("#since-section h2") == "Since you last looked"
    _replay_shown(watcher, "spectator: replay", rings=False)
    # stepping by hand: some of the moves change what the board marks (a move that only
    # takes a tile into the hand changes no board element)
    rings = []
    for _ in range(_steps(watcher)):
        rings.append(watcher.locator("#board [data-changed]").count())
        watcher.click("#turn-replay-next")
        watcher.wait_for_timeout(300)
    assert any(rings), rings
    watcher.click("#since-replay")
    watcher.wait_for_function(PLAYING)
    watcher.keyboard.press("Escape")
    watcher.wait_for_function(LIVE, timeout=1_000)
    for body in traffic.bodies:
        if isinstance(body, dict) and "moves_shown" in body:
            assert body["seat"] is None and body["view"]["seat"] is None
    check_views(traffic, None, PRAGA_FIELDS)
    assert not watcher.errors and not player.errors
