"""The client under its content security policy: the lobby and a table of each game load
in Chromium with no policy violation (no console error, no violation event)."""

from __future__ import annotations

from typing import Any

import httpx

WATCH = """() => { window.__violations = [];
  document.addEventListener('securitypolicyviolation',
    (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`)); }"""


def test_the_client_runs_under_its_policy(new_page: Any, server_url: str) -> None:
    page = new_page()
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
    page.add_init_script(f"({WATCH})()")
    page.goto("/")
    page.wait_for_selector("#create")
    policy = httpx.get(server_url).headers["content-security-policy"]
    assert "script-src 'self'" in policy
    for game, options in (("praga", {"players": 2}), ("red-cathedral", {"players": 2})):
        table = httpx.post(f"{server_url}/api/tables", json={
            "game": game, "options": options, "seats": ["human", "human"]}).json()["id"]
        page.goto(f"/#/table/{table}")
        page.wait_for_selector("#board svg")
        page.wait_for_function("() => document.getElementById('log').children.length > 0")
        assert page.evaluate("() => window.__violations") == [], game
    assert not [line for line in console if "Content Security Policy" in line], console
    assert not page.errors
