"""The browser client in real Chromium: a whole Red Cathedral game against a bot by
clicking, the language switch, reload and resume, and the end screen."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx

from meeplehall.games.red_cathedral.views import PUBLIC_FIELDS
from tests.web.play import (
    Traffic,
    check_views,
    click_move,
    create_from_lobby,
    join_by_link,
    play_to_end,
    shot,
    wait_ready,
)


def test_a_whole_game_against_a_bot_by_clicking(new_page: Any, server_url: str,
                                                artifacts_dir: Path) -> None:
    page = new_page()
    traffic = Traffic(page)
    page.goto("/")
    page.wait_for_selector("#create")
    shot(page, artifacts_dir, "lobby.png")
    table = create_from_lobby(page, seed=11, seats=("here", "greedy"))

    def on_move(made: int) -> None:
        if made == 30:
            shot(page, artifacts_dir, "red-cathedral-midgame.png")
            # the board draws what the rules show: 8 market spaces, 5 dice, 4 Influence cards
            # the table in its zoomable viewport, and your own area in its strip below it
            assert page.locator("#board .rc-viewport > svg").count() == 1
            assert page.locator("#board #my-area svg").count() == 1
            assert page.locator("#board [data-target^='space:'], #board text").count() > 50
            assert "Space 8" in (page.text_content("#board .rc-viewport") or "")

    moves = play_to_end(page, max_moves=600, on_move=on_move)
    assert moves >= 30
    summary = httpx.get(f"{server_url}/api/tables/{table}").json()
    assert summary["finished"]
    page.wait_for_selector("#end:not([hidden]) #score-table")
    outcome = httpx.get(f"{server_url}/api/tables/{table}/view").json()["outcome"]
    rows = page.locator("#score-table tbody tr")
    assert rows.count() == 2
    for i, score in enumerate(outcome["scores"]):
        cells = rows.nth(i).locator("td")
        # the rulebook's steps: track (rounded down), leftovers, towers, then the total
        values = [int(cells.nth(k).inner_text()) for k in range(cells.count())]
        assert values == [*outcome["breakdown"][i].values(), score]
    assert page.locator("#score-chart rect").count() >= 2
    shot(page, artifacts_dir, "end-screen.png")

    with page.expect_download() as download:
        page.click("#export")
    record = json.loads(Path(download.value.path()).read_text())
    assert record["game"] == "red-cathedral" and len(record["actions"]) == summary["moves"]

    page.click("#replay summary")
    page.click("#replay-first")
    page.wait_for_selector("#replay-board[data-moves='0'] svg")
    page.click("#replay-next")
    page.wait_for_selector("#replay-board[data-moves='1'] svg")
    assert page.inner_text("#replay-pos").startswith("1 /")
    assert check_views(traffic, 0, PUBLIC_FIELDS) >= moves
    assert not page.errors


def log_has(text: str) -> str:
    return f"() => document.getElementById('log').innerText.includes({text!r})"


def test_language_switch_translates_the_page_and_the_log(new_page: Any) -> None:
    page = new_page()
    page.goto("/")
    page.wait_for_selector("#create")
    page.select_option("#language", "de")
    page.wait_for_selector("text=Spiele Die Rote Kathedrale und Praga Caput Regni")
    assert page.inner_text("#create") == "Tisch eröffnen"
    create_from_lobby(page, seed=5, seats=("here", "random"))
    state = wait_ready(page)
    assert "Du bist am Zug" in page.inner_text("#prompt")
    assert "wähle deine Hauptaktion" in page.inner_text("#prompt")
    assert "Aufbau: 2 Spieler" in page.inner_text("#log")
    buttons = page.locator("#choices button").all_inner_texts()
    assert any(text.startswith("Reserviere") for text in buttons)
    for k in range(3):
        seq = click_move(page, k + 1, board_every=0)
        state = wait_ready(page, seq)
    german_log = page.inner_text("#log")
    assert "(Platz 0)" in german_log or "(Platz 1)" in german_log
    page.select_option("#language", "pl")
    page.wait_for_function(log_has("Przygotowanie: graczy 2"))
    assert "Twoja tura" in page.inner_text("#prompt")
    assert "Dziennik" in page.inner_text("main")
    assert "(miejsce " in page.inner_text("#log")
    page.select_option("#language", "ru")
    page.wait_for_function(log_has("Подготовка"))
    page.select_option("#language", "pt")
    page.wait_for_function(log_has("Preparação: 2 jogadores"))
    page.select_option("#language", "en")
    page.wait_for_function(log_has("Setup: 2 players, Building Plan"))
    assert state["finished"] == "false"
    assert not page.errors


def test_reload_mid_game_and_continue(new_page: Any, server_url: str) -> None:
    page = new_page()
    table = create_from_lobby(page, seed=8, seats=("here", "random"))
    state = wait_ready(page)
    for k in range(4):
        state = wait_ready(page, click_move(page, k + 1))
    log_before = page.locator("#log li").count()
    page.reload()
    after = wait_ready(page)
    assert after["seq"] == state["seq"] and page.locator("#log li").count() == log_before
    for k in range(3):
        after = wait_ready(page, click_move(page, k + 1))
    assert int(after["seq"]) > int(state["seq"])
    # the lobby lists the table under "Resume my tables"
    page.goto("/")
    page.wait_for_selector(f"#my-tables a[href='#/table/{table}']")
    page.click(f"#my-tables a[href='#/table/{table}']")
    resumed = wait_ready(page)
    assert resumed["seq"] == after["seq"]
    assert not page.errors


def test_hotseat_one_browser_plays_both_seats(new_page: Any, server_url: str) -> None:
    page = new_page()
    table = create_from_lobby(page, seed=4, seats=("here", "here"), options={"round_limit": "2"})
    tokens = page.evaluate("() => JSON.parse(localStorage['meeplehall.tables'])")[str(table)]
    assert sorted(tokens["tokens"]) == ["0", "1"]
    play_to_end(page, max_moves=200)
    log = page.inner_text("#log")
    # seats are numbered from 1 on the page, as in the lobby
    assert "yellow (seat 1)" in log and "red (seat 2)" in log and "(seat 0)" not in log
    assert httpx.get(f"{server_url}/api/tables/{table}").json()["finished"]
    assert not page.errors


def test_two_browsers_play_online_and_see_only_their_own_secrets(
        new_page: Any, server_url: str) -> None:
    host, guest, watcher = new_page(), new_page(), new_page()
    host_traffic, guest_traffic = Traffic(host), Traffic(guest)
    table = create_from_lobby(host, seed=21, seats=("here", "invite"),
                              options={"round_limit": "3"})
    link = host.input_value("#invite-1")
    assert link.endswith(f"/#/table/{table}/join/1")
    join_by_link(guest, link)
    guest.wait_for_url(f"**/#/table/{table}")
    guest.wait_for_selector("#prompt")
    watcher.goto(f"/#/table/{table}")
    watcher.wait_for_selector("#prompt")
    host_token = host.evaluate("() => JSON.parse(localStorage['meeplehall.tables'])")[str(table)]
    guest_token = guest.evaluate("() => JSON.parse(localStorage['meeplehall.tables'])")[str(table)]
    assert list(host_token["tokens"]) == ["0"] and list(guest_token["tokens"]) == ["1"]
    secret_of = {"host": guest_token["tokens"]["1"], "guest": host_token["tokens"]["0"]}

    pages = [host, guest]
    made = [0, 0]
    while True:
        to_move = httpx.get(f"{server_url}/api/tables/{table}").json()
        if to_move["finished"]:
            break
        seat = to_move["to_move"]
        page, other = pages[seat], pages[1 - seat]
        wait_ready(page, None)
        seq = click_move(page, made[seat])
        made[seat] += 1
        # the other browser sees the move live, through its WebSocket
        other.wait_for_function(
            "(s) => Number(document.getElementById('main').dataset.seq) > Number(s)", arg=seq)
        assert sum(made) < 400
    for page in (*pages, watcher):
        page.wait_for_selector("#end:not([hidden]) #score-table")
    assert made[0] > 3 and made[1] > 3
    # the spectator followed live, without a seat: no choices, no token
    assert watcher.locator("#choices button").count() == 0
    assert watcher.inner_text("#log") == host.inner_text("#log")
    assert "meeplehall.tables" not in watcher.evaluate("() => ({...localStorage})")

    for name, page, traffic, seat in (("host", host, host_traffic, 0),
                                      ("guest", guest, guest_traffic, 1)):
        secret = secret_of[name]
        assert secret not in page.content()
        assert secret not in json.dumps(page.evaluate("() => ({...localStorage})"))
        assert all(secret not in text for text in traffic.texts)
        check_views(traffic, seat, PUBLIC_FIELDS)
        assert not page.errors


def test_keyboard_play_letters_on_pieces_and_text_zoom(new_page: Any) -> None:
    page = new_page()
    create_from_lobby(page, seed=13, seats=("here", "random"))
    state = wait_ready(page)
    targets = page.locator("#board [data-target]")
    assert targets.count() > 0
    for k in range(targets.count()):
        target = targets.nth(k)
        assert target.get_attribute("tabindex") == "0"
        assert target.get_attribute("role") == "button"
        assert target.get_attribute("aria-label")
        assert target.locator("title").count() >= 1
    # Every player piece carries its colour's letter, not colour alone.
    tokens = page.locator("#board g.token")
    assert tokens.count() >= 2
    letters = tokens.evaluate_all("(gs) => gs.map((g) => g.textContent.trim())")
    assert all(len(letter) == 1 and letter.isalpha() for letter in letters), letters
    # A move by keyboard alone: focus a board target, Enter (and Enter in its chooser).
    card = page.locator("#board [data-target^='card:']").first
    card.focus()
    page.keyboard.press("Enter")
    if int(card.get_attribute("data-count") or "1") > 1:
        page.wait_for_selector(".board-chooser:not([hidden]) button[data-action]:focus")
        page.keyboard.press("Enter")
    after = wait_ready(page, state["seq"])
    assert int(after["seq"]) > int(state["seq"])
    # Text zoom 200%: the page still fits the 1280-pixel width, the choices still show.
    page.evaluate("() => { document.documentElement.style.fontSize = '200%'; }")
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth + 1")
    assert page.locator("#choices button").first.is_visible()
    assert not page.errors


def test_hint_and_undo(new_page: Any, server_url: str) -> None:
    page = new_page()
    table = create_from_lobby(page, seed=9, seats=("here", "random"))
    state = wait_ready(page)
    page.click("#hint")
    page.wait_for_selector("#hint-text")
    hinted = page.locator("#choices button.hinted")
    assert hinted.count() == 1 and hinted.inner_text() in page.inner_text("#hint-text")
    # Play (side panel) until the server allows an undo: a move that revealed nothing.
    for k in range(30):
        if page.locator("#undo").count():
            break
        state = wait_ready(page, click_move(page, k, board_every=0))
    else:
        raise AssertionError("no undoable move in 30 moves")
    before = httpx.get(f"{server_url}/api/tables/{table}").json()["moves"]
    page.click("#undo")
    page.wait_for_function("(s) => document.getElementById('main').dataset.seq !== s",
                           arg=state["seq"])
    wait_ready(page)
    assert httpx.get(f"{server_url}/api/tables/{table}").json()["moves"] == before - 1
    assert not page.errors


def test_solo_against_ivan(new_page: Any, server_url: str) -> None:
    """RC-SOLO: one seat; Ivan is played by the engine and drawn from the view."""
    page = new_page()
    table = create_from_lobby(page, seed=17, players=1, seats=("here",),
                              options={"round_limit": "6"})
    wait_ready(page)
    assert "Ivan Yakovlevich" in page.inner_text("#board")
    play_to_end(page, max_moves=300)
    page.wait_for_selector("#end:not([hidden]) #score-table")
    result = httpx.get(f"{server_url}/api/tables/{table}").json()
    assert result["finished"]
    # the human's row and Ivan's (RC-SOLO-10), with Ivan's final score
    assert page.locator("#score-table tbody tr").count() == 2
    ivan = httpx.get(f"{server_url}/api/tables/{table}/view").json()["outcome"]["details"]["ivan"]
    cells = page.locator("#score-table tr[data-automaton='ivan'] td").all_inner_texts()
    assert cells[-1] == str(ivan["score"])
    assert "solo result" in page.inner_text("#end") or "Winner" in page.inner_text("#end")
    assert not page.errors
