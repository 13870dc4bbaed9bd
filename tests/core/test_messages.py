"""Messages (core/messages.py): JSON form, English rendering from the catalogue, gettext
plural rules parsed without eval, .po parsing, and log entries addressed to some seats."""

from __future__ import annotations

import json

import pytest

from meeplehall.core.messages import (
    Catalogue,
    Entry,
    M,
    Message,
    catalogue,
    english,
    log_json,
    logs_json,
    parse_po,
    plural_rule,
    term,
)
from meeplehall.core.rng import Rng
from meeplehall.games.praga import GAME as PRAGA
from meeplehall.games.red_cathedral import GAME as RED_CATHEDRAL

POLISH = ("(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2)")
RUSSIAN = ("(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 "
           ": 2)")


def test_json_form_round_trips_with_nested_messages_lists_and_seats() -> None:
    dice = (M("{colour} {value}", colour=term("white"), value=4),)
    m = Message("reroll on space {n}: {dice}", {"n": 3, "dice": dice}, to=(1,))
    data = json.loads(json.dumps(m.to_json()))
    assert data == {"key": "reroll on space {n}: {dice}", "to": [1], "args": {
        "n": 3, "dice": [{"key": "{colour} {value}",
                          "args": {"colour": {"key": "white", "args": {}}, "value": 4}}]}}
    assert Message.from_json(data) == m and hash(Message.from_json(data)) == hash(m)
    with pytest.raises(ValueError, match="not a message"):
        Message.from_json({"args": {}})
    with pytest.raises(ValueError, match="argument"):
        Message.from_json({"key": "x", "args": {"a": 1.5}})


def test_reading_a_messages_own_json_back_gives_that_message() -> None:
    """A bot's determinization reads the view's log back into a state at every decision:
    the log's entries are the messages' own (shared, read-only) JSON forms, so they give
    the messages themselves; any other mapping is decoded."""
    m = M("{who} passes", who=term("red"))
    own = m.to_json()
    assert Message.from_json(own) is m
    copy = json.loads(json.dumps(own))
    assert Message.from_json(copy) == m and Message.from_json(copy) is not m
    state = RED_CATHEDRAL.initial_state({"players": 2}, 1)
    view = RED_CATHEDRAL.player_view(state, 0)
    sampled = RED_CATHEDRAL.sample_hidden(view, Rng(5))
    assert sampled.log == state.log
    assert all(a is b for a, b in zip(sampled.log, state.log, strict=True))


def test_english_is_rendered_from_the_catalogue_with_plural_forms() -> None:
    assert str(M("{n} Ruble", n=1)) == "1 Ruble"
    assert str(M("{n} Ruble", n=3)) == "3 Rubles"
    assert english({"key": "{who} passes", "args": {"who": {"key": "Ivan", "args": {}}}}) == (
        "Ivan passes")
    # a key the catalogue lacks reads as itself; a missing argument stays a placeholder
    assert english(M("no such key {x}", x=1)) == "no such key 1"
    assert english(M("{who} passes")) == "{who} passes"


@pytest.mark.parametrize(("rule", "expected"), [
    ("n != 1", {0: 1, 1: 0, 2: 1, 11: 1}),
    (POLISH, {1: 0, 2: 1, 4: 1, 5: 2, 12: 2, 14: 2, 22: 1, 25: 2, 101: 2, 104: 1}),
    (RUSSIAN, {1: 0, 2: 1, 5: 2, 11: 2, 21: 0, 22: 1, 111: 2, 112: 2}),
    ("0", {0: 0, 7: 0}),
    ("n>1", {0: 0, 1: 0, 2: 1}),
])
def test_plural_rules_are_parsed_without_eval(rule: str, expected: dict[int, int]) -> None:
    choose = plural_rule(rule)
    assert {n: choose(n) for n in expected} == expected


@pytest.mark.parametrize("bad", ["n ==", "(n", "n ? 1", "import os", "n $ 2"])
def test_a_bad_plural_rule_is_refused(bad: str) -> None:
    with pytest.raises(ValueError, match="plural rule"):
        plural_rule(bad)


def test_po_parsing_reads_plural_entries_fuzzy_flags_and_continuations() -> None:
    text = ('msgid ""\nmsgstr ""\n"Language: pl\\n"\n"Plural-Forms: nplurals=3; plural=(n==1 ? 0 :'
            ' 2);\\n"\n\n#, fuzzy\nmsgid "a"\nmsgstr "b"\n\nmsgid "{n} x"\nmsgid_plural "{n} xs"\n'
            'msgstr[0] "{n} y"\nmsgstr[1] "{n} yy"\nmsgstr[2] "{n} yyy"\n\nmsgid "long "\n"key"\n'
            'msgstr "dł" "ugi"\n')
    entries, fields = parse_po(text)
    assert fields["Language"] == "pl" and fields["Plural-Forms"].startswith("nplurals=3")
    assert entries["a"] == ("b", "", (), True)
    assert entries["{n} x"] == ("", "{n} xs", ("{n} y", "{n} yy", "{n} yyy"), False)
    assert entries["long key"][0] == "długi"
    with pytest.raises(ValueError, match="line 2"):
        parse_po('msgid "a"\nmsgfoo "b"\n')


def test_every_language_has_a_plural_rule_matching_its_entries() -> None:
    assert catalogue("pl").render(M("{n} Ruble", n=5)) == "5 Rubli"
    assert catalogue("ru").render(M("{n} Ruble", n=21)) == "21 рубль"
    assert catalogue("de").render(M("{n} Ruble", n=2)) == "2 Rubel"
    made = Catalogue({"k {n}": Entry("k", ("one {n}", "other {n}"))}, "nplurals=2; plural=n>1;")
    assert [made.render(M("k {n}", n=n)) for n in (1, 2)] == ["one 1", "other 2"]


@pytest.mark.parametrize("game", [PRAGA, RED_CATHEDRAL], ids=lambda g: g.name)
def test_a_log_entry_addressed_to_one_seat_reaches_that_seat_only(game: object) -> None:
    g: object = game
    state = g.initial_state({"players": 2}, 3)  # type: ignore[attr-defined]
    secret = Message("{n} Ruble", {"n": 98765}, to=(1,))
    state.log.append(secret)
    views = {seat: g.player_view(state, seat) for seat in (None, 0, 1)}  # type: ignore[attr-defined]
    assert secret.to_json() in views[1]["log"]
    assert secret.to_json() not in views[0]["log"] and secret.to_json() not in views[None]["log"]
    assert "98765" not in json.dumps(views[0]) + json.dumps(views[None])
    shared = getattr(g, "player_views", None)
    if shared is not None:
        together = shared(state, [None, 0, 1])
        assert [secret.to_json() in together[s]["log"] for s in (None, 0, 1)] == [
            False, False, True]
    assert log_json(state.log, 0) == [m.to_json() for m in state.log[:-1]]
    assert log_json(state.log, everything=True)[-1] == secret.to_json()


def test_a_log_memo_extends_the_last_lists_and_reads_any_other_log_whole() -> None:
    """``logs_json(log, seats, memo)`` (the server's views after each move): a log that
    only grew costs its new entries; the lists handed out before are left as they were;
    a log that is not a continuation (an undo replays the game) is read whole; seats
    reading the same entries share one list, and addressed entries stay apart."""
    memo: dict[object, object] = {}
    seats = (None, 0, 1)
    secret = Message("{n} Ruble", {"n": 5}, to=(1,))
    log: list[Message | str] = [M("a"), "plain"]
    first = logs_json(log, seats, memo)
    assert first[None] is first[0] is first[1] == [M("a").to_json(), {"key": "plain", "args": {}}]
    log = [*log, secret]
    second = logs_json(log, seats, memo)
    assert second[None] is second[0] is first[0] and second[1] is not first[1]
    assert second[1][-1] == secret.to_json() and secret.to_json() not in second[0]
    assert logs_json(log, seats, memo) == second  # nothing new: the same lists
    assert all(logs_json(log, seats, memo)[s] is second[s] for s in seats)
    log = [*log, M("b"), Message("{n} Ruble", {"n": 6}, to=(0,))]
    grown = logs_json(log, seats, memo)
    for seat in seats:
        assert grown[seat] == log_json(log, seat)
        assert grown[seat][:len(second[seat])] == second[seat]
    assert first[0] == log_json(log[:2], 0) and second[1] == log_json(log[:3], 1)  # unchanged
    replayed: list[Message | str] = [M("a"), M("c")]  # not a continuation: read whole
    assert logs_json(replayed, seats, memo)[0] == [M("a").to_json(), M("c").to_json()]
    assert logs_json(log, [1, 2], memo) == {1: log_json(log, 1), 2: log_json(log, 2)}


def test_red_cathedral_views_with_a_memo_keep_addressed_entries_apart() -> None:
    state = RED_CATHEDRAL.initial_state({"players": 2}, 3)
    memo: dict[object, object] = {}
    before = RED_CATHEDRAL.player_views(state, [0, 1, None], memo)
    assert before[0]["log"] is before[1]["log"] is before[None]["log"]  # one shared list
    later = state.clone()
    secret = Message("{n} Ruble", {"n": 98765}, to=(1,))
    later.log.append(secret)
    after = RED_CATHEDRAL.player_views(later, [0, 1, None], memo)
    assert [secret.to_json() in after[s]["log"] for s in (0, 1, None)] == [False, True, False]
    assert "98765" not in json.dumps(after[0]) + json.dumps(after[None])
    for seat in (0, 1, None):
        assert after[seat] == RED_CATHEDRAL.player_view(later, seat)
    again = RED_CATHEDRAL.player_views(state, [0, 1, None], memo)  # back, as after an undo
    for seat in (0, 1, None):
        assert again[seat]["log"] == before[seat]["log"]
