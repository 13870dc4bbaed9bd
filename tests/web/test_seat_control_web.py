"""Tables over days in Chromium at 1280×720: a turn deadline chosen in the lobby and shown
in the prompt, the chat (markup stays text), the host's controls (hand a seat to a bot,
take it back, mute) and a seat moved to another device by its recovery link."""

from __future__ import annotations

import json
from typing import Any

import httpx

MARKUP = "<img src=x onerror=z()> sorry for the delay"
NO_MARKUP = """() => ({images: document.querySelectorAll('#main img').length,
  x: !!window.__pwned})"""


def test_host_controls_chat_deadline_and_recovery(new_page: Any, server_url: str) -> None:
    host, guest, phone = new_page(), new_page(), new_page()
    for page in (host, guest):
        page.add_init_script("window.z = () => { window.__pwned = true; };")
    host.goto("/")
    host.wait_for_selector("#create")
    host.select_option("#seat-1", "invite")
    host.fill("#seat-name-0", "Ann")
    host.select_option("#deadline", "48")
    host.click("#create")
    host.wait_for_url("**/#/table/*")
    table = int(host.url.rsplit("/", 1)[1])
    summary = httpx.get(f"{server_url}/api/tables/{table}").json()
    assert summary["deadline_hours"] == 48 and summary["hosted"]
    guest.goto("/")
    guest.wait_for_selector("#create")
    guest.evaluate("() => localStorage.setItem('meeplehall.playerName', 'Bob')")
    guest.goto(f"/#/table/{table}/join/1")
    guest.wait_for_url(f"**/#/table/{table}")
    # The seat to move sees its deadline in the prompt (or its waiting partner does).
    for page in (host, guest):
        page.wait_for_function("() => /hours? left\\)/.test(document.getElementById('prompt')"
                               "?.textContent ?? '')")
    # Chat: markup stays text on every page.
    guest.fill("#chat-input", MARKUP)
    guest.click("#chat-send")
    guest.wait_for_function("() => document.getElementById('chat-input').value === ''"
                            " || document.getElementById('chat-error').textContent !== ''")
    assert guest.text_content("#chat-error") == ""
    host.wait_for_function("(m) => [...document.querySelectorAll('#chat-list .chat-text')]"
                           ".some((e) => e.textContent === m)", arg=MARKUP)
    assert host.inner_text("#chat-list .chat-who") == "Bob"
    # The host hands Bob's seat to a bot; everyone sees it; then takes it back.
    if not host.evaluate("() => document.querySelector(\"#seats li[data-seat='1'] details\").open"):
        host.click("#seats li[data-seat='1'] summary")
    host.select_option("#host-level-1", "random")
    host.click("#seats li[data-seat='1'] .host-bot")
    guest.wait_for_selector("#seats li[data-seat='1'] .stand-in[data-played-by='random']")
    host.click("#seats li[data-seat='1'] .host-back")
    guest.wait_for_function("() => !document.querySelector(\"#seats li[data-seat='1'] .stand-in\")")
    # Muted, Bob's chat field says so; unmuted, it works again.
    host.click("#seats li[data-seat='1'] .host-mute")
    guest.wait_for_selector("#chat-input[disabled]")
    host.click("#seats li[data-seat='1'] .host-mute")
    guest.wait_for_selector("#chat-input:not([disabled])")
    # Bob moves his seat to his phone: the link, opened there, plays seat 2; the old tab
    # is told the seat was given up.
    guest.click("#seats li[data-seat='1'] .recovery-ask")
    link = guest.input_value("#recovery-1")
    assert f"/#/recover/{table}/" in link
    phone.goto(link.replace(server_url, ""))
    phone.wait_for_url(f"**/#/table/{table}")
    phone.wait_for_selector("#seats li[data-seat='1'] .recovery-ask")
    guest.wait_for_function("() => (document.getElementById('table-error')?.textContent ?? '')"
                            ".includes('given up')")
    tokens = phone.evaluate("() => JSON.parse(localStorage.getItem('meeplehall.tables'))")
    assert set(tokens[str(table)]["tokens"]) == {"1"}
    assert httpx.get(f"{server_url}/api/tables/{table}").json()["seats"][1]["name"] == "Bob"
    for page in (host, guest, phone):
        assert page.evaluate(NO_MARKUP) == {"images": 0, "x": False}, json.dumps(page.errors)
        assert not page.errors, page.errors
