"""GET /api/tables/{id}/rules: the rule text of the decision asked now, as the terminal's
``rules`` command shows it, split into the rule IDs and the text without them."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from fastapi.testclient import TestClient

from meeplehall.core.rng import Rng
from meeplehall.games import GAMES
from meeplehall.server.rules_text import RULE_ID, split_rules
from tests.server.conftest import make_client
from tests.server.helpers import QUICK, bearer, hotseat, new_table, random_move


@pytest.fixture
def app_client(sqlite_url: str) -> Iterator[TestClient]:
    with make_client(sqlite_url) as c:
        yield c


def test_the_rules_of_the_decision_asked_now(app_client: TestClient) -> None:
    table, tokens = hotseat(app_client)
    game = GAMES["red-cathedral"]
    expected_ids, expected_text = split_rules(game.rules_text(game.initial_state(dict(QUICK), 7)))
    for headers in ({}, bearer(tokens[0]), bearer(tokens[1])):  # the same for everyone
        reply = app_client.get(f"/api/tables/{table}/rules", headers=headers)
        assert reply.status_code == 200, reply.text
        body = reply.json()
        assert set(body) == {"table_id", "seq", "rule_ids", "text"}
        # RC-TURN-2: the main-action decision of the first turn
        assert body["rule_ids"] == expected_ids and body["rule_ids"][0] == "RC-TURN-2"
        assert body["text"] == expected_text and body["text"].startswith("Take exactly one")
        assert not RULE_ID.search(body["text"])
    # The text follows the decision: after some moves it is still the engine's own.
    rng = Rng(3)
    for _ in range(6):
        random_move(app_client, table, tokens, rng)
    body = app_client.get(f"/api/tables/{table}/rules").json()
    assert body["seq"] == 6 and body["text"] and body["rule_ids"]
    assert not RULE_ID.search(body["text"])


def test_a_wrong_token_or_table_is_refused(app_client: TestClient) -> None:
    table = new_table(app_client, ["human", "random"])["id"]
    assert app_client.get(f"/api/tables/{table}/rules", headers=bearer("nope")).status_code == 401
    assert app_client.get("/api/tables/999999/rules").status_code == 404


@pytest.mark.parametrize("text, ids, plain", [
    ("RC-TURN-2: take one action (RC-CLAIM-1), build (RC-BUILD-1: up to 3 deliveries).",
     ["RC-TURN-2", "RC-CLAIM-1", "RC-BUILD-1"], "Take one action, build (up to 3 deliveries)."),
    ("P-MINE-2 / P-QUAR-1: expand or produce.", ["P-MINE-2", "P-QUAR-1"], "Expand or produce."),
    ("costs 3 (advanced side: always 3, RC-ADV-2) and more (RC-GAIN-1, any amount).",
     ["RC-ADV-2", "RC-GAIN-1"], "Costs 3 (advanced side: always 3) and more (any amount)."),
    ("Parler P.5 step 2: turn his building.", ["Parler P.5 step 2"], "Turn his building."),
    ("Choose one of the rewards.", [], "Choose one of the rewards."),
])
def test_rule_ids_are_taken_out_of_the_text(text: str, ids: list[str], plain: str) -> None:
    assert split_rules(text) == (ids, plain)


def _decision_rule_texts() -> set[str]:
    """The rule text of every decision class of both engines (``rules_text`` / ``rule``),
    as ``GET /rules`` gives it, and the games' end."""
    texts = {split_rules(GAMES["red-cathedral"].rules_text(_finished()))[1]}
    engines = Path(__file__).resolve().parents[2] / "src" / "meeplehall" / "games"
    for path in engines.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
                    and node.target.id in ("rules_text", "rule") and node.value is not None):
                value = ast.literal_eval(node.value)
                if isinstance(value, str) and split_rules(value)[1]:
                    texts.add(split_rules(value)[1])
    return texts


def _finished() -> object:
    game = GAMES["red-cathedral"]
    state = game.initial_state(dict(QUICK), 7)
    state.stack.clear()  # no decision left: the game is over
    return state


def test_every_rule_text_is_in_the_rules_catalogue_of_every_language() -> None:
    texts = _decision_rule_texts()
    assert len(texts) > 25
    locale = Path(__file__).resolve().parents[2] / "src" / "meeplehall" / "web" / "locale"
    for lang in ("en", "de", "pl", "ru", "pt"):
        with (locale / lang / "LC_MESSAGES" / "rules.po").open("rb") as handle:
            entries = {m.id: m.string for m in read_po(handle) if m.id}
        missing = sorted(texts - set(entries))
        assert not missing, (lang, missing[:3])
        if lang != "en":
            untranslated = sorted(k for k in texts if not entries[k])
            assert not untranslated, (lang, untranslated[:3])
