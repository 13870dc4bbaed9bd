"""The message catalogues: gettext .po files read with Babel, served merged per language,
and covering the client's strings and every English text the Red Cathedral engine shows
(log lines, prompts, action labels) by exact msgid or by {placeholder} pattern."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from fastapi.testclient import TestClient

from meeplehall.ai.base import make_bot
from meeplehall.games import GAMES
from meeplehall.web import LANGUAGES, LOCALE, STATIC, catalogue
from tests.server.conftest import make_client

PLACEHOLDER = re.compile(r"\{([a-zA-Z_][a-zA-Z0-9_]*)\}")
MINE = ("client", "red-cathedral")


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with make_client(f"sqlite:///{tmp_path / 'web.db'}") as c:
        yield c


def test_every_language_has_the_domains_and_they_parse() -> None:
    for lang in LANGUAGES:
        for domain in MINE:
            path = LOCALE / lang / "LC_MESSAGES" / f"{domain}.po"
            with path.open("rb") as handle:
                cat = read_po(handle, abort_invalid=True)
            ids = [m.id for m in cat if m.id]
            assert ids, path.name
            for message in cat:
                if message.id and message.string:
                    assert set(PLACEHOLDER.findall(message.string)) == set(
                        PLACEHOLDER.findall(message.id)), (lang, message.id)
            if lang != "en":
                untranslated = [m.id for m in cat if m.id and not m.string]
                assert not untranslated, (lang, domain, untranslated[:5])


def test_the_client_strings_are_all_in_the_catalogue() -> None:
    known: set[str] = set()
    for domain in MINE:
        with (LOCALE / "en" / "LC_MESSAGES" / f"{domain}.po").open("rb") as handle:
            known |= {str(m.id) for m in read_po(handle) if m.id}
    used: set[str] = set()
    for name in ("app.js", "endgame.js", "games/red-cathedral.js"):
        text = (STATIC / "js" / name).read_text()
        used |= set(re.findall(r'\bt\("((?:[^"\\]|\\.)*)"', text))
    assert used and not used - known, sorted(used - known)


def test_the_i18n_endpoint_merges_the_domains(client: TestClient) -> None:
    body = client.get("/api/i18n/de").json()
    assert body["lang"] == "de" and set(body["languages"]) == set(LANGUAGES)
    assert body["messages"]["Undo"] == "Rückgängig"
    assert body["messages"]["{who} passes"] == "{who} passt"
    assert client.get("/api/i18n/xx").status_code == 404
    assert "unknown language 'xx'" in client.get("/api/i18n/xx").json()["detail"]
    assert client.get("/").headers["content-type"].startswith("text/html")
    assert client.get("/static/js/app.js").status_code == 200
    # a game's own domain wins where two domains translate a msgid differently
    red = client.get("/api/i18n/de", params={"game": "red-cathedral"}).json()["messages"]
    assert red["upgrade"] == catalogue("de", "red-cathedral")["upgrade"]


class Translator:
    """The client's tr() in Python (static/js/i18n.js)."""

    def __init__(self, messages: dict[str, str]) -> None:
        self.messages = messages
        patterns = []
        for msgid, msgstr in messages.items():
            names = PLACEHOLDER.findall(msgid)
            if names:
                parts = PLACEHOLDER.split(msgid)[::2]
                source = re.compile("(.+?)".join(re.escape(p) for p in parts), re.S)
                patterns.append((len(PLACEHOLDER.sub("", msgid)), source, names, msgstr))
        patterns.sort(key=lambda p: -p[0])
        self.patterns = patterns

    def __call__(self, text: str, depth: int = 0) -> str | None:
        """The translation of ``text``; None when nothing matches."""
        if text in self.messages:
            return self.messages[text]
        if depth > 6:
            return None
        for _, source, names, msgstr in self.patterns:
            m = source.fullmatch(text)
            if m:
                values = {n: self.value(v, depth + 1)
                          for n, v in zip(names, m.groups(), strict=True)}
                return PLACEHOLDER.sub(lambda x, v=values: v.get(x.group(1), x.group(0)), msgstr)
        return None

    def value(self, value: str, depth: int) -> str:
        """A captured value: a list "a, b" is translated item by item."""
        if value in self.messages or ", " not in value:
            return self(value, depth) or value
        return ", ".join(self(v, depth) or v for v in value.split(", "))


def test_the_python_mirror_of_tr_translates_lists_and_nested_values() -> None:
    translate = Translator(catalogue("de", "red-cathedral"))
    line = "final scoring: side 0: 3 PP, side 1: 44 PP, side 2: 5 PP"
    assert translate(line) == "Endwertung: Seite 0: 3 PP, Seite 1: 44 PP, Seite 2: 5 PP"
    assert translate("yellow (seat 0) passes") == "Gelb (Platz 0) passt"
    assert translate("the moon is bright") in (None, "the moon is bright")


@pytest.fixture(scope="module")
def engine_texts() -> set[str]:
    """Every prompt, action label and log line of three bot games (2, 3 players, solo)."""
    game = GAMES["red-cathedral"]
    texts: set[str] = set()
    for seed, players, bot, rounds in ((1, 2, "greedy", 500), (2, 3, "random", 12),
                                       (3, 1, "greedy", 500), (4, 1, "random", 30)):
        state = game.initial_state({"players": players, "round_limit": rounds}, seed)
        chooser = make_bot(bot, seed)
        while game.current_player(state) is not None:
            seat = game.current_player(state)
            legal = game.legal_actions(state)
            texts.add(game.describe_decision(state))
            texts |= {game.action_label(state, a) for a in legal}
            state = game.apply(state, chooser.choose(game, game.player_view(state, seat), legal))
        texts |= set(state.log)
    return texts


@pytest.mark.parametrize("lang", ["de", "pl", "ru", "pt"])
def test_every_red_cathedral_text_of_a_game_is_translated(lang: str,
                                                          engine_texts: set[str]) -> None:
    translate = Translator(catalogue(lang, "red-cathedral"))
    missing = sorted(t for t in engine_texts if translate(t) in (None, t))
    assert not missing, missing[:20]
