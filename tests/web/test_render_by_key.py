"""The browser renders the engines' messages by key (static/js/i18n.js): plural forms by
each language's rule, nested and listed arguments, and no English parsed back."""

from __future__ import annotations

from typing import Any

from meeplehall.web import STATIC
from tests.web.play import create_from_lobby, wait_ready

RENDER = """async ([lang, message]) => {
  const i18n = await import('/static/js/i18n.js');
  await i18n.setLanguage(lang);
  return i18n.render(message);
}"""


def ruble(n: int) -> dict[str, Any]:
    return {"key": "{n} Ruble", "args": {"n": n}}


def test_the_client_reads_no_english_back() -> None:
    source = (STATIC / "js" / "i18n.js").read_text(encoding="utf-8")
    assert "new RegExp" not in source and "eval(" not in source
    assert "new Function" not in source


def test_plural_forms_and_nested_arguments_in_every_language(new_page: Any) -> None:
    page = new_page()
    page.goto("/")
    page.wait_for_selector("#create")
    render = lambda lang, message: page.evaluate(RENDER, [lang, message])  # noqa: E731
    assert [render("pl", ruble(n)) for n in (1, 2, 5, 22, 112)] == [
        "1 Rubel", "2 Ruble", "5 Rubli", "22 Ruble", "112 Rubli"]
    assert [render("ru", ruble(n)) for n in (1, 3, 11, 21, 25)] == [
        "1 рубль", "3 рубля", "11 рублей", "21 рубль", "25 рублей"]
    assert [render("en", ruble(n)) for n in (1, 2)] == ["1 Ruble", "2 Rubles"]
    who = {"key": "{who} (seat {n})", "args": {"who": {"key": "yellow", "args": {}}, "n": 0}}
    scores = {"key": "final scoring: {scores}", "args": {"scores": [
        {"key": "side {n}: {pp} PP", "args": {"n": 0, "pp": 3}},
        {"key": "side {n}: {pp} PP", "args": {"n": 1, "pp": 44}}]}}
    # the engines count seats from 0; the page counts them from 1, as the lobby does
    assert render("de", {"key": "{who} passes", "args": {"who": who}}) == "Gelb (Platz 1) passt"
    assert render("de", scores) == "Endwertung: Seite 1: 3 PP, Seite 2: 44 PP"
    assert render("en", scores) == "final scoring: side 1: 3 PP, side 2: 44 PP"
    # an English sentence is not a key: it stays as it is, nothing is matched inside it
    assert render("de", "yellow (seat 0) passes") == "yellow (seat 0) passes"
    assert not page.errors


def test_labels_prompt_and_log_arrive_as_messages(new_page: Any) -> None:
    page = new_page()
    page.goto("/")
    page.wait_for_selector("#create")
    page.select_option("#language", "pl")
    page.wait_for_function("() => document.documentElement.lang === 'pl'", timeout=30_000)
    table = create_from_lobby(page, seed=5, seats=("here", "random"))
    wait_ready(page)
    # the catalogue chosen in the lobby may still be on its way: the page renders again
    # when it arrives
    page.wait_for_function("() => document.getElementById('prompt').innerText"
                           ".includes('wybierz akcję główną')", timeout=15_000)
    tokens = page.evaluate("() => JSON.parse(localStorage['meeplehall.tables'])")[str(table)]
    body = page.evaluate("""async ([id, token]) => {
      const reply = await fetch(`/api/tables/${id}/legal`,
                                {headers: {Authorization: `Bearer ${token}`}});
      return reply.json();
    }""", [table, tokens["tokens"]["0"]])
    assert body["decision"]["key"] == "{who}: choose your main action"
    assert all(set(a["label"]) == {"key", "args"} for a in body["actions"])
    assert not page.errors
