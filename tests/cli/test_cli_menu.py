"""The terminal's menu numbers and compact table (issue: stable menu numbers within a
decision; a compact board of about 50 lines at 120 columns, the full print on request)."""

from __future__ import annotations

import io
import json
import random

import pytest
from rich.console import Console
from tests.cli.scripts import Script

from meeplehall.cli.play import PlaySession
from meeplehall.cli.render import render_board
from meeplehall.core.messages import message_json
from meeplehall.core.protocol import validate_params
from meeplehall.games import GAMES


def make_session(game: str, players: int, seed: int,
                 answers: list[str]) -> tuple[PlaySession, io.StringIO]:
    buf = io.StringIO()
    g = GAMES[game]
    params = validate_params(g.options, {"players": players})
    return (PlaySession(g, params, seed, ["human"] * players, Console(file=buf, width=120),
                        Script(answers, buf=buf)), buf)


@pytest.mark.parametrize("game", ["praga", "red-cathedral"])
def test_a_number_stays_with_its_action_while_the_decision_goes_on(game: str) -> None:
    """Over a random game: while a seat faces the same decision (same prompt), each action
    keeps its number and no number passes to another action; a new decision starts at 1."""
    play, _ = make_session(game, 2, 5, [])
    g, rng = play.game, random.Random(5)
    shown: dict[tuple[int, str], dict[int, object]] = {}
    continued = 0
    for _ in range(400):
        seat = g.current_player(play.state)
        if seat is None:
            break
        legal = g.legal_actions(play.state)
        previous = play.menu_decision
        menu = play.numbered(seat, legal)
        assert len(menu) == len(legal) and {a for _, a in menu} == set(legal)
        decision = (seat, json.dumps(message_json(g.decision_message(play.state)),
                                     sort_keys=True))
        if previous == decision:
            continued += 1
            for number, action in menu:
                assert shown[decision].get(number, action) == action, (number, action)
        else:
            assert min(n for n, _ in menu) == 1
            shown[decision] = {}
        shown[decision].update(dict(menu))
        play.state = g.apply(play.state, rng.choice(legal))
    assert continued > 5  # the property was exercised on decisions that went on


def test_a_vanished_number_is_refused_and_changes_nothing() -> None:
    """Red Cathedral: after one Market action, the other options keep their numbers; the
    number of the action taken is refused, not given to another option."""
    play, buf = make_session("red-cathedral", 1, 3, [])
    g = play.game
    # play until a decision offers at least three options and goes on after one of them
    rng = random.Random(2)
    for _ in range(300):
        seat = g.current_player(play.state)
        assert seat is not None
        legal = g.legal_actions(play.state)
        before = dict(play.numbered(seat, legal))
        for number, action in sorted(before.items()):
            after_state = g.apply(play.state, action)
            if (g.current_player(after_state) == seat
                    and g.decision_message(after_state) == g.decision_message(play.state)
                    and len(g.legal_actions(after_state)) >= 2):
                assert play.handle(seat, str(number), legal) == "moved"
                state = play.state
                again = dict(play.numbered(seat, g.legal_actions(state)))
                assert number not in again
                for n, a in again.items():
                    assert before.get(n, a) == a
                assert play.handle(seat, str(number), g.legal_actions(state)) == "again"
                assert f"Choice {number} is no longer available" in buf.getvalue()
                assert play.state is state
                return
        play.state = g.apply(play.state, rng.choice(legal))
    pytest.fail("no decision went on after an action")


@pytest.mark.parametrize(("game", "players"), [
    ("red-cathedral", 1), ("red-cathedral", 2), ("red-cathedral", 4),
    ("praga", 1), ("praga", 2), ("praga", 4)])
def test_the_compact_table_fits_about_fifty_lines(game: str, players: int) -> None:
    g = GAMES[game]
    state = g.initial_state(validate_params(g.options, {"players": players}), 7)
    rng = random.Random(3)
    for _ in range(150):
        if g.outcome(state) is not None:
            break
        state = g.apply(state, rng.choice(g.legal_actions(state)))

    def lines(full: bool) -> list[str]:
        buf = io.StringIO()
        render_board(Console(file=buf, width=120), g, state, 0, full=full)
        return buf.getvalue().splitlines()

    compact, full = lines(False), lines(True)
    assert len(compact) <= 55, len(compact)
    assert max(len(line) for line in compact) <= 120
    assert len(full) > len(compact) + 20


def test_board_full_prints_every_detail_on_request() -> None:
    play, buf = make_session("praga", 2, 3, ["board", "board full", "board nonsense", "quit"])
    play.run()
    out = buf.getvalue()
    assert out.count("Hunger Wall ←") + out.count("Hunger Wall →") == 1  # the full grid
    assert "'board full' draws every detail" in out
    assert "Usage: board [full]" in out
