"""The table and the lobby in Chromium: the small things a player notices (the lobby's
form, move numbers, seat numbers, "since your last turn", the hint on the board, record
import) and online play between people (joins seen at once, an invite link opened by
its own host, players away, a seat given up and taken on another device)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx

from meeplehall.core.testing import random_playout
from meeplehall.games import GAMES
from tests.web.play import click_move, create_from_lobby, join_by_link, wait_ready


def test_the_first_click_on_create_after_changing_players_works(new_page: Any,
                                                                server_url: str) -> None:
    page = new_page()
    page.goto("/")
    page.wait_for_selector("#create")
    page.click("button[data-game='red-cathedral']")
    page.fill("#players", "3")
    page.wait_for_selector("#seat-2")
    page.click("#create")  # at once: the field's change must not rebuild the button
    page.wait_for_url("**/#/table/*")
    table = int(page.url.rsplit("/", 1)[1])
    assert len(httpx.get(f"{server_url}/api/tables/{table}").json()["seats"]) == 3
    assert not page.errors


def test_lobby_lists_real_move_numbers_and_plain_seat_wording(new_page: Any,
                                                               server_url: str) -> None:
    page = new_page()
    table = create_from_lobby(page, seed=41, seats=("here", "random"))
    state = wait_ready(page)
    for k in range(3):
        state = wait_ready(page, click_move(page, k, board_every=0))
    moves = httpx.get(f"{server_url}/api/tables/{table}").json()["moves"]
    assert moves >= 3
    # every seat by its identity in the log (no name given: its colour's player)
    log = page.inner_text("#log")
    assert "Yellow player" in log and "(seat" not in log
    page.goto("/")
    entry = page.locator(f"#open-tables li:has(a[href='#/table/{table}'])")
    entry.wait_for()
    assert f"move {moves}" in entry.inner_text()
    mine = page.locator(f"#my-tables li:has(a[href='#/table/{table}'])")
    page.wait_for_function("(id) => !document.querySelector(`#my-tables a[href='#/table/${id}']`)"
                           ".parentElement.innerText.includes('…')", arg=table)
    assert "you play as Yellow player · your turn" in mine.inner_text()
    assert state["finished"] == "false"
    assert not page.errors


def test_since_your_last_turn_shows_only_the_others_moves(new_page: Any) -> None:
    page = new_page()
    create_from_lobby(page, seed=42, seats=("here", "random"))
    state = wait_ready(page)
    shown = 0
    for k in range(14):
        if page.is_visible("#since-section"):
            lines = page.locator("#since-section li").all_inner_texts()
            assert lines and not any(line.startswith("Yellow player") for line in lines), lines
            shown += 1
        state = wait_ready(page, click_move(page, k, board_every=0))
        if state["finished"] == "true":
            break
    assert shown >= 2
    assert not page.errors


def test_the_hint_is_shown_on_the_board(new_page: Any) -> None:
    page = new_page()
    create_from_lobby(page, seed=43, seats=("here", "random"))
    wait_ready(page)
    page.click("#hint")
    page.wait_for_selector("#hint-text")
    hinted = page.locator("#choices button.hinted").get_attribute("data-action")
    on_board = page.locator("#board [data-hinted]")
    on_board.first.wait_for()
    assert on_board.first.get_attribute("data-hinted") == hinted
    assert page.locator("#board .hint-ring").count() >= 1
    assert not page.errors


def test_a_record_is_imported_in_the_browser(new_page: Any, server_url: str,
                                             tmp_path: Path) -> None:
    params = {"players": 2, "round_limit": 2}
    _, record = random_playout(GAMES["red-cathedral"], params, 7, chooser_seed=3)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record.to_dict()))
    page = new_page()
    page.goto("/")
    page.set_input_files("#import-file", str(path))
    page.wait_for_url("**/#/table/*")
    table = int(page.url.rsplit("/", 1)[1])
    summary = httpx.get(f"{server_url}/api/tables/{table}").json()
    assert summary["moves"] == len(record.actions) and summary["finished"]
    page.wait_for_selector("#end:not([hidden]) #score-table")
    # a file that is not a record: a clear error, no table
    bad = tmp_path / "bad.json"
    bad.write_text("not json")
    page.goto("/")
    page.set_input_files("#import-file", str(bad))
    page.wait_for_function("() => document.getElementById('import-error').textContent.length > 0")
    assert "not a game record" in page.inner_text("#import-error")
    assert not page.errors


def seat_item(page: Any, seat: int) -> Any:
    return page.locator(f"#seats li[data-seat='{seat}']")


def test_online_joins_presence_own_invite_and_giving_up_a_seat(new_page: Any,
                                                               server_url: str) -> None:
    host, guest = new_page(), new_page()
    table = create_from_lobby(host, seed=44, players=3, seats=("here", "invite", "invite"))
    host.wait_for_selector("#invite-1")
    # The host opens their own invite link: asked first; "No" takes nothing.
    host.goto(f"/#/table/{table}/join/2")
    host.wait_for_selector("#join-ask")
    assert "seat 3" in host.inner_text("#join-ask")
    host.click("#join-no")
    host.wait_for_selector("#invite-2")
    assert httpx.get(f"{server_url}/api/tables/{table}").json()["seats"][2]["open"]
    # A friend joins: the host's Players panel shows it at once, without a move.
    join_by_link(guest, f"/#/table/{table}/join/1")  # asked for a name: none given
    guest.wait_for_url(f"**/#/table/{table}")
    guest.wait_for_selector("#prompt")
    host.wait_for_function("() => !document.getElementById('invite-1')")
    host.wait_for_selector("#seats li[data-seat='1'][data-presence='here']")
    # The friend closes the page: shown as away to the others.
    guest.close()
    host.wait_for_selector("#seats li[data-seat='1'][data-presence='away']")
    assert "away" in seat_item(host, 1).inner_text()
    # On another device the friend could take a seat the host gives up.
    other = new_page()
    host.once("dialog", lambda dialog: dialog.accept())
    host.click("#seats button[data-leave='0']")
    host.wait_for_selector("#invite-0")
    join_by_link(other, f"/#/table/{table}/join/0")
    other.wait_for_url(f"**/#/table/{table}")
    wait_ready(other)
    assert other.locator("#choices button").count() > 0
    assert not host.errors and not other.errors


CODE = re.compile(r"\b[A-Z]{1,3}-[A-Z0-9]+|\[(?:RU|DE|PL|PT)\]|dized|\w_\w|='"
                  r"|\(the reference|\(the seed")


FORM = ", ".join(f"section[aria-labelledby=new-table] {part}"
                 for part in ("label", ".option-help", "option"))


def test_lobby_option_texts_are_plain_words_in_every_language(new_page: Any) -> None:
    page = new_page()
    page.goto("/")
    page.wait_for_selector("#create")
    for lang in ("en", "de", "pl", "ru", "pt"):
        page.select_option("#language", lang)
        page.wait_for_function("(l) => document.documentElement.lang === l", arg=lang)
        for game in ("red-cathedral", "praga"):
            page.click(f"button[data-game='{game}']")
            page.wait_for_selector(f"button[data-game='{game}'][aria-pressed='true']")
            texts = page.evaluate("""() => [...document.querySelectorAll(FORM)]
                .map((e) => e.textContent)""".replace("FORM", repr(FORM)))
            assert len(texts) > 10
            bad = [text for text in texts if CODE.search(text)]
            assert not bad, (lang, game, bad[:5])
    # the main options have their own plain texts in each language
    page.select_option("#language", "de")
    page.click("button[data-game='red-cathedral']")
    form = page.inner_text("section[aria-labelledby=new-table]")
    assert "Fortgeschrittene Werkstatttafeln" in form
    # and so have the secondary ones (lobby.po), their choices included
    more = page.text_content("section[aria-labelledby=new-table] details") or ""
    assert "Wann Prestige verkauft werden darf" in more and "alles auf einmal" in more
    assert not page.errors
