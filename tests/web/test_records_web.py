"""Records survive the browser, and a chosen seed is announced (docs/server.md).

For each title: a game whose seed is above 2**53 (a record made elsewhere, imported with
bots in every seat) is finished by the bots while the page watches; the page exports the
record; the downloaded file is the server's bytes, holds the exact seed, and replays to
the same final scores through ``meeplehall replay`` and through the import API. A page
that parsed and rewrote the record would round the seed and the file would not replay.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from rich.console import Console

from meeplehall.cli.main import main
from meeplehall.core.record import GameRecord, replay
from meeplehall.core.testing import random_playout
from meeplehall.games import GAMES
from tests.web.play import create_from_lobby

# params, seed above 2**53 (not exact as a JavaScript number)
TITLES = {"red-cathedral": ({"players": 2, "round_limit": 10}, 2**62 + 1),
          "praga": ({"players": 2}, 2**63 - 3)}
LEFT_TO_BOTS = 4  # moves the bots play while the page watches


@pytest.mark.parametrize("name", sorted(TITLES))
def test_the_exported_record_replays_to_the_same_scores(new_page: Any, server_url: str,
                                                        name: str, tmp_path: Path) -> None:
    game = GAMES[name]
    params, seed = TITLES[name]
    _, record = random_playout(game, params, seed, chooser_seed=5)
    record.actions = record.actions[:-LEFT_TO_BOTS]
    reply = httpx.post(f"{server_url}/api/tables/import",
                       json={"record": record.to_dict(), "seats": ["random", "random"]})
    assert reply.status_code == 201, reply.text
    table = reply.json()["id"]
    assert reply.json()["seed_chosen"]  # the importer knew the seed

    page = new_page()
    page.goto(f"/#/table/{table}")
    page.wait_for_selector("#end:not([hidden]) #export", timeout=60_000)
    assert page.inner_text("#seed-chosen") == "seed chosen by the table's creator"
    with page.expect_download() as download:
        page.click("#export")
    data = Path(download.value.path()).read_bytes()
    server = httpx.get(f"{server_url}/api/tables/{table}/record")
    assert data == server.content  # the server's bytes, not a rewritten copy
    assert json.loads(data)["seed"] == seed
    outcome = httpx.get(f"{server_url}/api/tables/{table}/view").json()["outcome"]
    assert outcome is not None

    # meeplehall replay
    path = tmp_path / "record.json"
    path.write_bytes(data)
    buf = io.StringIO()
    rc = main(["replay", str(path), "--print"], console=Console(file=buf, width=200),
              input_fn=lambda _prompt: "q")
    out = buf.getvalue()
    assert rc == 0 and "Final scores" in out and "does not replay" not in out, out[:3000]
    final = replay(GameRecord.load(path))
    replayed = game.outcome(final)
    assert replayed is not None and list(replayed.scores) == outcome["scores"]

    # the import API
    again = httpx.post(f"{server_url}/api/tables/import", json={"record": json.loads(data)})
    assert again.status_code == 201, again.text
    view = httpx.get(f"{server_url}/api/tables/{again.json()['id']}/view").json()
    assert view["finished"] and view["outcome"]["scores"] == outcome["scores"]
    assert not page.errors


def test_a_chosen_seed_is_announced_in_every_language(new_page: Any, server_url: str) -> None:
    """The lobby and the table say that the creator chose the seed, never its value; a
    seed a browser cannot hold exactly is refused before anything is sent."""
    page = new_page()
    seed = 9_007_199_254_740_000
    table = create_from_lobby(page, seed=seed, seats=("here", "invite"), game="praga")
    page.wait_for_selector("#seed-chosen")
    assert str(seed) not in page.content()
    expected = {"en": "seed chosen by the table's creator",
                "de": "Startwert vom Ersteller des Tisches gewählt",
                "pl": "ziarno losowania wybrane przez twórcę stołu",
                "pt": "semente escolhida por quem criou a mesa",
                "ru": "сид выбран создателем стола"}
    for lang, text in expected.items():
        page.goto(f"/#/table/{table}")
        page.wait_for_selector("#seed-chosen")
        page.select_option("#language", lang)
        page.wait_for_function(
            f"() => document.getElementById('seed-chosen').innerText === {json.dumps(text)}")
        page.goto("/")
        page.wait_for_selector(f"#open-tables a[href='#/table/{table}']")
        page.wait_for_function(
            "() => document.getElementById('open-tables').innerText.includes("
            f"{json.dumps(text)})")
    page.select_option("#language", "en")
    assert str(seed) not in page.content()
    page.wait_for_selector("text=New table")
    page.click("details summary")
    page.fill("#seed", str(2**53))
    page.dispatch_event("#seed", "change")
    before = httpx.get(f"{server_url}/api/tables").json()["tables"]
    page.click("#create")
    page.wait_for_function("() => document.getElementById('create-error').innerText !== ''")
    assert "The seed must be a whole number between -9007199254740991 and " \
           "9007199254740991." in page.inner_text("#create-error")
    assert httpx.get(f"{server_url}/api/tables").json()["tables"] == before
    assert not page.errors
