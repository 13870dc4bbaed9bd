"""Online play between people, in Chromium at 1280×720: players' names (chosen in the
lobby, for hotseat seats, when joining by an invite link (asked there of someone new),
changed at the table; shown in
the Players panel, the prompt, the lobby list and the end screen; never read as HTML),
presence seen by spectators, and three things of the end and the header: the Praga
header counts turns as the prompt does (the mover's own, of 16), the Praga solo end screen
shows the dummy and the benchmark, and The Red Cathedral's own-area bar no longer covers
the board once the game is over."""

from __future__ import annotations

import json
import re
from typing import Any

import httpx

from meeplehall.core.messages import Message
from meeplehall.core.record import GameRecord
from meeplehall.core.rng import Rng
from meeplehall.core.testing import random_playout
from meeplehall.games import GAMES
from tests.web.play import create_from_lobby, wait_ready

# Names that must stay text ('<' and '>' are refused by the server): an entity that
# markup would turn into a tag, and an attribute breaker.
SCRIPT = "&lt;script&gt;x()"
IMAGE = '" onfocus="z()" a="'
MARKUP = "<img src=x onerror=z()>"  # refused, with the server's reason
NO_MARKUP = """() => ({scripts: document.querySelectorAll('#main script').length,
  images: document.querySelectorAll('#main img').length, x: !!window.__pwned})"""


def _import(server_url: str, record: GameRecord, seats: list[str]) -> int:
    reply = httpx.post(f"{server_url}/api/tables/import",
                       json={"record": record.to_dict(), "seats": seats}, timeout=30)
    assert reply.status_code == 201, reply.text
    table: int = reply.json()["id"]
    return table


def _hold(page: Any, table: int, game: str, seat: int, token: str) -> None:
    """Give this page's browser the seat's token (as joining here would)."""
    page.goto("/")
    page.wait_for_selector("#create")
    page.evaluate("""([id, game, seat, token]) => localStorage.setItem('meeplehall.tables',
        JSON.stringify({[id]: {game, tokens: {[seat]: token}, created: Date.now()}}))""",
                  [table, game, seat, token])


def _create(page: Any, seed: int, seats: tuple[str, ...], names: dict[int, str]) -> int:
    """A Red Cathedral table made in the lobby, with names typed for seats played here."""
    page.goto("/")
    page.wait_for_selector("#create")
    for i, kind in enumerate(seats):
        page.select_option(f"#seat-{i}", kind)
    for i, name in names.items():
        page.fill(f"#seat-name-{i}", name)
    page.click("details summary")
    page.fill("#seed", str(seed))
    page.dispatch_event("#seed", "change")
    page.click("#create")
    page.wait_for_url("**/#/table/*")
    return int(page.url.rsplit("/", 1)[1])


def _trap(page: Any) -> None:
    page.add_init_script("window.x = () => { window.__pwned = true; };"
                         "window.z = () => { window.__pwned = true; };")


def test_names_from_the_lobby_and_invites_shown_everywhere_as_text(new_page: Any,
                                                                  server_url: str) -> None:
    host, guest, watcher = new_page(), new_page(), new_page()
    for page in (host, guest, watcher):
        _trap(page)
    table = _create(host, 52, ("here", "invite"), {0: SCRIPT})
    summary = httpx.get(f"{server_url}/api/tables/{table}").json()
    assert [s["name"] for s in summary["seats"]] == [SCRIPT, None]
    host.wait_for_selector("#invite-1")
    # The friend has given a name on this device before: joining by the link uses it.
    guest.goto("/")
    guest.wait_for_selector("#create")
    guest.evaluate(f"() => localStorage.setItem('meeplehall.playerName', {json.dumps(IMAGE)})")
    guest.goto(f"/#/table/{table}/join/1")
    guest.wait_for_url(f"**/#/table/{table}")
    wait_ready(host)
    # The host's Players panel names the friend at once, as text.
    host.wait_for_function("(n) => document.querySelector(\"#seats li[data-seat='1']\")?"
                           ".textContent.includes(n)", arg=IMAGE)
    assert SCRIPT in host.inner_text("#seats li[data-seat='0']")
    # The friend waits for the host, named by name and colour.
    guest.wait_for_function(
        "(n) => (document.getElementById('prompt')?.textContent ?? '').includes(n)", arg=SCRIPT)
    prompt = guest.inner_text("#prompt")
    assert re.search(rf"Waiting for {re.escape(SCRIPT)} \(\w+\)", prompt), prompt
    # The friend changes their name at the table: everyone sees the new one.
    guest.fill("#name-1", "  Bob  ")
    guest.click("form[data-name-seat='1'] button")
    host.wait_for_function("() => document.querySelector(\"#seats li[data-seat='1']\")?"
                           ".textContent.includes('Bob')")
    assert httpx.get(f"{server_url}/api/tables/{table}").json()["seats"][1]["name"] == "Bob"
    assert guest.evaluate("() => localStorage.getItem('meeplehall.playerName')") == "Bob"
    # A name the server refuses (an invisible character, markup) gets its reason,
    # nothing else.
    for refused, reason in (("Bo\u200bb", "name"), (MARKUP, "refused")):
        guest.fill("#name-1", refused)
        guest.click("form[data-name-seat='1'] button")
        guest.wait_for_function("(r) => document.querySelector('form[data-name-seat=\"1\"] "
                                ".error')?.textContent.includes(r)", arg=reason)
    assert httpx.get(f"{server_url}/api/tables/{table}").json()["seats"][1]["name"] == "Bob"
    # A spectator sees the names and who is here; the lobby lists them.
    watcher.goto(f"/#/table/{table}")
    watcher.wait_for_selector("#seats li[data-seat='0'][data-presence='here']")
    watcher.wait_for_selector("#seats li[data-seat='1'][data-presence='here']")
    assert "Bob" in watcher.inner_text("#seats") and SCRIPT in watcher.inner_text("#seats")
    guest.close()
    watcher.wait_for_selector("#seats li[data-seat='1'][data-presence='away']")
    watcher.goto("/")
    entry = watcher.locator(f"#open-tables li:has(a[href='#/table/{table}'])")
    entry.wait_for()
    assert SCRIPT in entry.inner_text() and "Bob" in entry.inner_text()
    for page in (host, watcher):
        assert page.evaluate(NO_MARKUP) == {"scripts": 0, "images": 0, "x": False}
        assert not page.errors, page.errors


def test_a_first_time_invitee_is_asked_for_a_name(new_page: Any, server_url: str) -> None:
    """Joining by an invite link on a device that has given no name before asks for one
    (optional) before taking the seat; the name is kept for the next invite."""
    host, guest = new_page(), new_page()
    _trap(guest)
    table = _create(host, 54, ("here", "invite"), {0: "Ann"})
    guest.goto(f"/#/table/{table}/join/1")
    guest.wait_for_selector("#join-invite")
    assert "seat 2" in guest.inner_text("#join-invite")
    assert httpx.get(f"{server_url}/api/tables/{table}").json()["seats"][1]["open"]
    guest.fill("#join-name", f" {IMAGE}")  # trimmed; the field holds 24 characters
    guest.click("#join-take")
    guest.wait_for_url(f"**/#/table/{table}")
    assert httpx.get(f"{server_url}/api/tables/{table}").json()["seats"][1]["name"] == IMAGE
    assert guest.evaluate("() => localStorage.getItem('meeplehall.playerName')") == IMAGE
    host.wait_for_function("(n) => document.querySelector(\"#seats li[data-seat='1']\")?"
                           ".textContent.includes(n)", arg=IMAGE)
    # Another device, no name given: the seat is taken without one.
    second = _create(host, 55, ("here", "invite"), {0: "Ann"})
    other = new_page()
    other.goto(f"/#/table/{second}/join/1")
    other.wait_for_selector("#join-invite")
    other.press("#join-name", "Enter")
    other.wait_for_url(f"**/#/table/{second}")
    seats = httpx.get(f"{server_url}/api/tables/{second}").json()["seats"]
    assert seats[1]["name"] is None and not seats[1]["open"]
    for page in (host, guest, other):
        assert page.evaluate(NO_MARKUP) == {"scripts": 0, "images": 0, "x": False}
        assert not page.errors, page.errors


def test_hotseat_seats_get_their_own_names(new_page: Any, server_url: str) -> None:
    page = new_page()
    table = _create(page, 53, ("here", "here"), {0: "Ann", 1: "Ben"})
    seats = httpx.get(f"{server_url}/api/tables/{table}").json()["seats"]
    assert [s["name"] for s in seats] == ["Ann", "Ben"]
    wait_ready(page)
    assert "Ann (" in page.inner_text("h1") and "Ben (" in page.inner_text("h1")
    board = page.locator("#board").text_content()
    # the player areas' titles name each seat as the shell does (ctx.who): "Ann (yellow)"
    assert "Ann (yellow)" in board and "Ben (red)" in board, board
    # a seat played by a bot has no name field
    page.goto("/")
    page.wait_for_selector("#seat-1")
    page.select_option("#seat-1", "greedy")
    assert page.locator("#seat-name-1").is_hidden()
    assert not page.errors, page.errors


def test_red_cathedral_end_screen_names_and_the_own_area_bar(new_page: Any,
                                                             server_url: str) -> None:
    _, record = random_playout(GAMES["red-cathedral"], {"players": 2, "round_limit": 10}, 7,
                               chooser_seed=3)
    table = _import(server_url, record, ["human", "human"])
    joined = httpx.post(f"{server_url}/api/tables/{table}/seats/0/join",
                        json={"name": SCRIPT}, timeout=30).json()
    page = new_page()
    _trap(page)
    _hold(page, table, "red-cathedral", 0, joined["token"])
    page.goto(f"/#/table/{table}")
    page.wait_for_selector("#end:not([hidden]) #score-table")
    page.wait_for_selector("#board .my-area")
    assert SCRIPT in page.inner_text("#score-table")
    assert page.evaluate(NO_MARKUP) == {"scripts": 0, "images": 0, "x": False}
    # Scroll so that the top of the board sits near the bottom of the window: what is
    # drawn there must be the board, not the own-area bar stuck over it.
    covered = page.evaluate("""() => {
      const bar = document.querySelector('#board .my-area');
      const board = document.querySelector('#board svg');
      window.scrollTo(0, board.getBoundingClientRect().top + window.scrollY - innerHeight + 120);
      const top = board.getBoundingClientRect().top;
      const hit = document.elementFromPoint(board.getBoundingClientRect().left + 200, top + 40);
      return {position: getComputedStyle(bar).position, inBar: bar.contains(hit),
              inBoard: board.contains(hit)};
    }""")
    assert covered == {"position": "static", "inBar": False, "inBoard": True}, covered
    assert not page.errors, page.errors


def test_red_cathedral_own_area_is_a_strip_of_its_own_during_play(new_page: Any) -> None:
    """The other side of the check above: while the game runs your own area is a strip
    below the board's viewport, in the window and never over the board."""
    page = new_page()
    create_from_lobby(page, seed=54, seats=("here", "random"))
    wait_ready(page)
    page.wait_for_selector("#board .my-area")
    placed = page.evaluate("""() => {
      const bar = document.querySelector('#board .my-area').getBoundingClientRect();
      const board = document.querySelector('#board .rc-viewport').getBoundingClientRect();
      return {below: bar.top >= board.bottom - 0.5, inWindow: bar.bottom <= innerHeight + 0.5,
              tall: bar.height > 50};
    }""")
    assert placed == {"below": True, "inWindow": True, "tall": True}, placed


def _praga_midgame() -> tuple[GameRecord, int, int]:
    """A 2-player Praga record stopped where a seat starts its 4th turn."""
    game = GAMES["praga"]
    params = {"players": 2}
    state = game.initial_state(params, 20261126)
    record = GameRecord(game.name, game.rules_version, dict(params), 20261126)
    rng = Rng.from_seed(4)
    while True:
        message: Message = game.decision_message(state)
        if "take an action tile" in message.key and message.args["n"] >= 4:
            break
        seat = game.current_player(state)
        actions = game.legal_actions(state)
        action = actions[rng.randbelow(len(actions))]
        record.append(seat, action)
        state = game.apply(state, action)
    to_move = game.current_player(state)
    assert to_move is not None and state.turns > 4  # the table's count runs ahead
    return record, to_move, int(message.args["n"])


def test_praga_header_and_prompt_count_the_same_turns(new_page: Any, server_url: str) -> None:
    record, seat, n = _praga_midgame()
    table = _import(server_url, record, ["human", "human"])
    page = new_page()
    page.goto("/")
    page.wait_for_selector("#create")
    page.evaluate("() => localStorage.setItem('meeplehall.playerName', 'Ada')")
    page.goto(f"/#/table/{table}/join/{seat}")
    wait_ready(page)
    for lang in ("en", "de", "pl", "ru", "pt"):
        page.select_option("#language", lang)
        page.wait_for_function("(l) => document.documentElement.lang === l", arg=lang)
        page.wait_for_selector("#board [data-part='status']")
        header = page.locator("#board [data-part='status'] text").first.text_content()
        prompt = page.inner_text("#prompt")
        numbers = [int(x) for x in re.findall(r"\d+", header)]
        assert numbers[-2:] == [n, 16], (lang, header)  # "... turn 4 of 16"
        assert f"{n}" in prompt and "16" in prompt, (lang, prompt)
        assert "32" not in header and "Ada (" in header, (lang, header)
    assert not page.errors, page.errors


def test_praga_solo_end_screen_shows_the_dummy_and_the_benchmark(new_page: Any,
                                                                 server_url: str) -> None:
    _, record = random_playout(GAMES["praga"], {"players": 1, "solo_opponent": "dummy"}, 5,
                               chooser_seed=1)
    table = _import(server_url, record, ["human"])
    page = new_page()
    page.goto(f"/#/table/{table}")
    page.wait_for_selector("#end:not([hidden]) #score-table")
    dummy = page.locator("#score-table tr[data-automaton='dummy']")
    benchmark = page.locator("#score-table tr[data-benchmark='140']")
    assert dummy.count() == 1 and benchmark.count() == 1
    assert dummy.locator("td").last.inner_text() == "0"
    assert benchmark.locator("td").last.inner_text() == "140"
    english = dummy.locator("th").inner_text()
    assert english.startswith("the dummy")
    for lang in ("de", "pl", "ru", "pt"):
        page.select_option("#language", lang)
        page.wait_for_function("(l) => document.documentElement.lang === l", arg=lang)
        page.wait_for_selector("#score-table tr[data-automaton='dummy']")
        label = page.locator("#score-table tr[data-automaton='dummy'] th").inner_text()
        other = page.locator("#score-table tr[data-benchmark] th").inner_text()
        assert label != english and "dummy" not in label, (lang, label)
        assert "Benchmark" not in other, (lang, other)
    assert not page.errors, page.errors
