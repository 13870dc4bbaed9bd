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
            known |= {str(m.id) for m in read_po(handle) if m.id}
    used: set[str] = set()
    for name in ("app.js", "endgame.js", "games/red-cathedral.js"):
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
