"""The log and the end-of-game view, as the terminal renderer reads them."""

from __future__ import annotations

import re

from meeplehall.core.messages import log_lines
from meeplehall.core.testing import random_playout
from meeplehall.games.praga import GAME
from meeplehall.games.praga.components import load
from meeplehall.games.praga.final import CATEGORIES
from tests.games.praga.fixtures import GREEN, build, play, view_text

C = load()
GREEN_ZONE = C.crane.green_start + 1


def test_log_names_seats_by_colour_and_echoes_each_move_once():
    """Log lines name the seat by colour (never ``seat N`` or ``N: ``); a move that writes
    its own line (taking a tile, performing, picking a tile) is not echoed again, and an
    upgrade names its action."""
    s = build({"crane": (2, GREEN_ZONE, ("upgrade", "mines")),
               "rows": {"upgrade": ["U16", "U01", "U02", "U12"]}})
    start = len(s.log)
    s = play(s, "take-tile 2", "perform upgrade", "pick 0", "orient 0", "end-turn")
    lines = log_lines(s.log)[start:]
    assert all(not re.search(r"\bseat \d\b|^\d: ", line) for line in lines), lines
    assert lines[0] == f"green takes action tile {C.action_tiles[0].id} from slot 2"
    assert lines[1] == "green performs upgrade"
    assert lines[2] == "green takes upgrade U16"
    assert lines[3] == "green upgrades its upgrade action with U16"
    assert lines[4] == "green ends the turn"  # key "{seat}: end-turn", a sentence
    assert not any("take-tile" in line or "pick 0" in line for line in lines)
    assert sum("orient" in line for line in lines) == 0  # the placement line says it


def test_log_echoes_moves_without_their_own_line_before_their_effects():
    """A move with no line of its own (``produce``) is echoed (key ``{seat}: produce``, a
    sentence in every language), before the lines of what it caused (the wealth bonus)."""
    s = build({"crane": (2, GREEN_ZONE, ("mines", "wall")),
               "p": {GREEN: {"mine": 7, "gold": 4}}})
    s = play(s, "take-tile 2", "perform mines")
    start = len(s.log)
    s = play(s, "produce")
    assert log_lines(s.log)[start] == "green produces"
    assert s.log[start].key == "{seat}: produce"
    assert log_lines(s.log)[start + 1].startswith("green gains a wealth bonus")


def test_view_at_the_end_of_the_game_says_it_is_over():
    """After final scoring the view no longer describes a platform space or a turn; the
    final scores come with category names and the ranking by colour (P-SCORE-1..9)."""
    final, _ = random_playout(GAME, {"players": 3}, 5, 55)
    view = GAME.player_view(final, None)
    assert view["over"] is True
    assert view["to_move"] is None
    platform = view_text(view["platform"])
    assert "over" in platform and "space" not in platform
    assert view_text(view["this_turn"]).startswith("the game is over")
    fin = view["final"]
    assert fin["categories"] == list(CATEGORIES)
    assert len(fin["breakdown"]) == 3 and all(isinstance(p, list) for p in fin["breakdown"])
    for seat in range(3):
        named = fin["by_category"][seat]
        assert list(named) == list(CATEGORIES)
        assert sum(named.values()) == fin["vp"][seat]
        row = fin["seats"][seat]
        assert row["name"] == C.colours[seat] and row["total"] == fin["vp"][seat]
    outcome = GAME.outcome(final)
    assert outcome is not None
    assert fin["ranking"] == [[C.colours[p] for p in g] for g in outcome.ranking]
    assert fin["winners"] == fin["ranking"][0]
    assert log_lines(final.log)[-1].startswith("final scoring: ")
    assert "seat" not in log_lines(final.log)[-1]


def test_view_during_the_game_is_not_over():
    s = build({})
    view = GAME.player_view(s, 0)
    assert view["over"] is False and "final" not in view
    assert view_text(view["platform"]).startswith("space ")
