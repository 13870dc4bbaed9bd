"""Catalogue coverage: every message a game emits, in every mode of both games, has a
translation in every language, and each translation uses every argument.

The games are played by a seeded random chooser (fast); for each step the test collects
the prompt (``decision_message``), the label of every legal action (``action_message``)
and the new log entries, with their nested messages. A key is covered in a language
when the catalogue has it (all plural forms for a ``msgid_plural`` entry) and each of its
texts names every argument of the message as a ``{placeholder}``.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest

from meeplehall.core.messages import PLACEHOLDER, Message, catalogue
from meeplehall.core.rng import Rng
from meeplehall.games import GAMES

LANGS = ("en", "de", "pl", "ru", "pt")

# game, params, seeds: every mode of both games
MODES: tuple[tuple[str, dict[str, Any], tuple[int, ...]], ...] = (
    ("red-cathedral", {"players": 1}, (1, 2, 3, 4)),
    ("red-cathedral", {"players": 1, "ivan_choice": "human", "advanced_workshops": True},
     (5, 6)),
    ("red-cathedral", {"players": 2}, (1, 2)),
    ("red-cathedral", {"players": 3}, (1,)),
    ("red-cathedral", {"players": 4}, (1,)),
    ("red-cathedral", {"players": 2, "advanced_workshops": True}, (3, 4)),
    ("red-cathedral", {"players": 3, "advanced_workshops": True, "allow_pass": True}, (2,)),
    ("praga", {"players": 1, "solo_opponent": "dummy"}, (1, 2)),
    ("praga", {"players": 1, "solo_opponent": "parler", "parler_bots": 1}, (1, 2)),
    ("praga", {"players": 1, "solo_opponent": "parler", "parler_bots": 2}, (1,)),
    ("praga", {"players": 1, "solo_opponent": "parler", "parler_bots": 3}, (1, 2)),
    ("praga", {"players": 2}, (1, 2)),
    ("praga", {"players": 3}, (1,)),
    ("praga", {"players": 4}, (1,)),
    ("praga", {"players": 2, "action_side": "B"}, (3,)),
    ("praga", {"players": 3, "action_side": "B", "road_tiles": True}, (2,)),
    ("praga", {"players": 2, "road_tiles": True}, (4,)),
)


def walk(message: Message) -> Iterator[Message]:
    """``message`` and every message nested in its arguments."""
    yield message
    for value in message.args.values():
        for item in value if isinstance(value, tuple) else (value,):
            if isinstance(item, Message):
                yield from walk(item)


# The readable lines of a view that are messages (one, or a list of them), by game.
VIEW_LINES: dict[str, tuple[str, ...]] = {
    "praga": ("turn", "platform", "this_turn", "seats", "markets", "bots", "crane", "rows",
              "bridge", "seals", "river"),
}
VIEW_EVERY = 9  # the view's lines are collected at every 9th step and at the end


def view_lines(name: str, view: dict[str, Any]) -> list[Message]:
    """The messages of a view's readable lines."""
    out = []
    for field in VIEW_LINES.get(name, ()):
        value = view.get(field)
        if isinstance(value, dict) and "key" not in value:  # lines by name (rows)
            value = [item for items in value.values() for item in items]
        for item in value if isinstance(value, list) else () if value is None else (value,):
            out.append(Message.from_json(item))
    return out


def play(name: str, params: dict[str, Any], seed: int) -> list[Message]:
    """Every message of one random game: prompts, labels, log entries and the readable
    lines of the views."""
    game = GAMES[name]
    state = game.initial_state(params, seed)
    rng = Rng.from_seed(seed + 1000)
    out: list[Message] = []
    step = 0
    while game.current_player(state) is not None:
        legal = game.legal_actions(state)
        out.append(game.decision_message(state))
        out += [game.action_message(state, a) for a in legal]
        if step % VIEW_EVERY == 0:
            out += view_lines(name, game.player_view(state, None))
        game.apply_unchecked(state, legal[rng.randbelow(len(legal))])
        step += 1
    out += state.log
    out += view_lines(name, game.player_view(state, None))
    return out


@cache
def emitted_by(name: str) -> dict[str, Message]:
    """One example of each key a game emits (over every mode of the game)."""
    seen: dict[str, Message] = {}
    for game, params, seeds in MODES:
        for seed in seeds:
            if game == name:
                for top in play(name, params, seed):
                    for m in walk(top):
                        seen.setdefault(m.key, m)
    return seen


def emitted() -> dict[str, Message]:
    """One example of each key either game emits."""
    return {**emitted_by("red-cathedral"), **emitted_by("praga")}


def problems(lang: str) -> list[str]:
    """Each key without a translation (the game's own domain first), or whose translation
    does not name exactly the message's arguments."""
    out = []
    for name in GAMES:
        out += _problems(lang, name)
    return out


def _problems(lang: str, name: str) -> list[str]:
    cat = catalogue(lang, name)
    out = []
    for key, message in sorted(emitted_by(name).items()):
        entry = cat.entries.get(key)
        if entry is None:
            out.append(f"{name}: {key!r}: no translation")
            continue
        for text in entry.plural or (entry.text,):
            unused = set(message.args) - set(PLACEHOLDER.findall(text))
            unknown = set(PLACEHOLDER.findall(text)) - set(message.args)
            if unused or unknown:
                out.append(f"{name}: {key!r} -> {text!r}: unused {sorted(unused)}, "
                           f"unknown {sorted(unknown)}")
    return out


def test_every_mode_emits_messages_of_both_games() -> None:
    keys = emitted()
    assert len(keys) > 150
    assert "{seat}: choose a reward ({why})" in keys  # Praga
    assert "{who}: choose where Ivan places his Banner" in keys  # RC solo, human choice
    assert {"{seat}: {vp} VP", "{market} {colour}: {rewards} | {sites}",
            "{n} seal right(s)"} <= set(keys)  # Praga's view lines


@pytest.mark.parametrize("lang", LANGS)
def test_catalogue_coverage_is_complete(lang: str) -> None:
    missing = problems(lang)
    assert not missing, f"{lang}: {len(missing)} of {len(emitted())} keys:\n" + "\n".join(
        missing[:40])
