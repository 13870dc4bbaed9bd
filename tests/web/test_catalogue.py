"""The message catalogues: gettext .po files read with Babel, served merged per language
with each language's plural rule; the client's strings are all in them; messages render
with plural forms and nested arguments (the engines' coverage: test_message_coverage.py)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from fastapi.testclient import TestClient

from meeplehall.core.messages import M, term
from meeplehall.core.messages import catalogue as engine_catalogue
from meeplehall.games.praga.setup import OPTIONS as PRAGA_OPTIONS
from meeplehall.games.red_cathedral.setup import OPTIONS as RED_OPTIONS
from meeplehall.web import LANGUAGES, LOCALE, STATIC, catalogue
from tests.server.conftest import make_client

PLACEHOLDER = re.compile(r"\{([a-zA-Z_][a-zA-Z0-9_]*)\}")
MINE = ("client", "red-cathedral", "lobby")


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
                ids = message.id if isinstance(message.id, tuple) else (message.id,)
                forms = message.string if isinstance(message.string, tuple) else (
                    message.string,)
                for form in forms:
                    if ids[0] and form:
                        assert set(PLACEHOLDER.findall(form)) <= set(
                            PLACEHOLDER.findall(" ".join(ids))), (lang, message.id)
            if lang != "en":
                untranslated = [m.id for m in cat if m.id and not all(
                    m.string if isinstance(m.string, tuple) else (m.string,))]
                assert not untranslated, (lang, domain, untranslated[:5])


def test_the_client_strings_are_all_in_the_catalogue() -> None:
    known: set[str] = set()
    for domain in MINE:
        with (LOCALE / "en" / "LC_MESSAGES" / f"{domain}.po").open("rb") as handle:
            # a plural entry is known by its singular msgid (t() picks its form by n)
            known |= {m.id if isinstance(m.id, str) else str(m.id[0])
                      for m in read_po(handle) if m.id}
    used: set[str] = set()
    for name in ("app.js", "endgame.js", "people.js", "games/red-cathedral.js"):
        text = (STATIC / "js" / name).read_text()
        used |= set(re.findall(r'\bt\("((?:[^"\\]|\\.)*)"', text))
    assert used and not used - known, sorted(used - known)


def test_the_i18n_endpoint_merges_the_domains(client: TestClient) -> None:
    body = client.get("/api/i18n/de").json()
    assert body["lang"] == "de" and set(body["languages"]) == set(LANGUAGES)
    assert body["plural"] == "(n != 1)"
    assert client.get("/api/i18n/ru").json()["plural"].startswith("(n%10==1 && n%100!=11 ? 0")
    assert body["messages"]["Undo"] == "Rückgängig"
    assert body["messages"]["{who} passes"] == "{who} passt"
    assert client.get("/api/i18n/xx").status_code == 404
    assert "unknown language 'xx'" in client.get("/api/i18n/xx").json()["detail"]
    assert client.get("/").headers["content-type"].startswith("text/html")
    assert client.get("/static/js/app.js").status_code == 200
    # a game's own domain wins where two domains translate a msgid differently
    red = client.get("/api/i18n/de", params={"game": "red-cathedral"}).json()["messages"]
    assert red["upgrade"] == catalogue("de", "red-cathedral")["upgrade"]


def test_a_plural_entry_follows_the_rules_of_each_language() -> None:
    """Plural forms through each catalogue's Plural-Forms rule (and in the endpoint)."""
    rubles = {n: {lang: engine_catalogue(lang).render(M("{n} Ruble", n=n))
                  for lang in LANGUAGES} for n in (1, 2, 5, 22, 25)}
    assert [rubles[n]["en"] for n in (1, 2)] == ["1 Ruble", "2 Rubles"]
    assert [rubles[n]["pl"] for n in (1, 2, 5, 22, 25)] == [
        "1 Rubel", "2 Ruble", "5 Rubli", "22 Ruble", "25 Rubli"]
    assert [rubles[n]["ru"] for n in (1, 2, 5, 22, 25)] == [
        "1 рубль", "2 рубля", "5 рублей", "22 рубля", "25 рублей"]
    assert catalogue("pl", "red-cathedral")["{n} Ruble"] == ["{n} Rubel", "{n} Ruble", "{n} Rubli"]
    assert catalogue("en", "red-cathedral")["{n} Ruble"] == ["{n} Ruble", "{n} Rubles"]


def test_nested_and_listed_arguments_are_rendered_in_the_language() -> None:
    seats = tuple(M("side {n}: {pp} PP", n=i, pp=pp) for i, pp in enumerate((3, 44)))
    line = M("final scoring: {scores}", scores=seats)
    assert engine_catalogue("de", "red-cathedral").render(line) == (
        "Endwertung: Seite 0: 3 PP, Seite 1: 44 PP")
    assert engine_catalogue("de", "praga").render(line).startswith("Schlusswertung: ")
    assert str(line) == "final scoring: side 0: 3 PP, side 1: 44 PP"
    who = M("{who} (seat {n})", who=term("yellow"), n=0)
    assert engine_catalogue("de").render(M("{who} passes", who=who)) == "Gelb (Platz 0) passt"


# What a lobby text written for people never shows: rule IDs (P-SETUP-5, RC-AMB-3, GL-R4),
# edition tags ([RU]), notes on sources, code names (solo_opponent, 'parler', x=y).
CODE = re.compile(r"\b[A-Z]{1,3}-[A-Z0-9]+|\[[A-Z]{2}\]|\w_\w|=|'\w+'|\b(?:dized|seed|literal)\b"
                  r"|\(the reference|\btoml\b")


def lobby_catalogue(lang: str) -> dict[str, str]:
    with (LOCALE / lang / "LC_MESSAGES" / "lobby.po").open("rb") as handle:
        return {str(m.id): str(m.string) for m in read_po(handle, abort_invalid=True) if m.id}


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_every_rule_option_has_a_plain_name_and_help_in_every_language(lang: str) -> None:
    """The lobby shows each option of both games by its own name and help (lobby.po), and
    each choice of a list by its own words, in every language, never the engine's
    apparatus (the terminal's --list-options and the docs keep the rule IDs)."""
    texts = lobby_catalogue(lang)
    english = lobby_catalogue("en")
    wanted: list[str] = []
    for options in (RED_OPTIONS, PRAGA_OPTIONS):
        for option in options:
            wanted += [f"lobby option: {option.name}", f"lobby help: {option.name}"]
            wanted += [f"lobby choice: {option.name}: {c}" for c in option.choices]
    assert len(wanted) > 100
    missing = [key for key in wanted if not texts.get(key)]
    assert not missing, (lang, missing[:5])
    assert not set(texts) - set(wanted), sorted(set(texts) - set(wanted))  # none left over
    bad = {key: texts[key] for key in wanted if CODE.search(texts[key])}
    assert not bad, (lang, bad)
    if lang != "en":  # translated, not copied (short words like "Prestige" may agree)
        same = [key for key in wanted if texts[key] == english[key] and " " in texts[key]]
        assert len(same) <= 3, (lang, same)
    # the helps are sentences, the names are short
    for options in (RED_OPTIONS, PRAGA_OPTIONS):
        for option in options:
            assert len(texts[f"lobby option: {option.name}"]) <= 70, option.name
            assert texts[f"lobby help: {option.name}"].endswith("."), (lang, option.name)


def test_the_engine_texts_themselves_keep_their_rule_ids() -> None:
    """The terminal and the docs read the engine's own help: the rule IDs stay there."""
    assert CODE.search(" ".join(o.help for o in PRAGA_OPTIONS))
    assert all(o.rule for o in (*PRAGA_OPTIONS, *RED_OPTIONS))
