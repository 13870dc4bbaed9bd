"""``Game.reveals`` for Praga: each kind of move that shows a seat something face down is
an undo barrier; the moves that show nothing are not (tests/conformance/test_hidden_information.py
checks the same over whole random games by re-dealing the hidden parts).

Praga shuffles everything at setup and never touches its generator in a 2-4 player game,
so a barrier rule built on the generator would let a player draw, look and undo."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from meeplehall.core.rng import Rng
from meeplehall.games.praga import GAME
from meeplehall.games.praga import decisions as D
from meeplehall.games.praga.state import PragaState
from meeplehall.server.live_table import Entry, Live
from tests.games.praga.fixtures import build, play


def _reveals(s: PragaState, text: str) -> tuple[bool, PragaState]:
    action = GAME.parse_action(text)
    after = GAME.apply(s, action)
    return GAME.reveals(s, action, after), after


def _found(params: dict[str, Any], test: Callable[[PragaState, Any, PragaState], bool],
           seeds: range = range(1, 40)) -> tuple[PragaState, Any, PragaState]:
    """The first move of seeded random games for which ``test(before, action, after)``."""
    for seed in seeds:
        s = GAME.initial_state(params, seed)
        rng = Rng.from_seed(seed)
        while GAME.current_player(s) is not None:
            legal = GAME.legal_actions(s)
            action = legal[rng.randbelow(len(legal))]
            after = GAME.apply(s, action)
            if test(s, action, after):
                return s, action, after
            s = after
    raise AssertionError("no such move in the seeded games")


def test_paying_and_choosing_in_the_open_are_not_reveals():
    """Taking an action tile, the wheel bonus, paying for a refresh: nothing hidden moves,
    so the seat may take them back."""
    s = build({})
    shown, after = _reveals(s, "take-tile 4")
    assert not shown
    shown, _ = _reveals(after, str(GAME.legal_actions(after)[0]))
    assert not shown
    shown, _ = _reveals(s, "refresh wall stone")
    assert not shown


def test_P_ROW_5_refreshing_a_row_shows_the_tiles_drawn():
    """P-ROW-5, P-ROW-2: the 2 tiles that replace the removed ones come off face-down
    stacks."""
    s = play(build({}), "refresh wall stone")
    shown, after = _reveals(s, "remove 1 3")
    assert shown and after.rows[1] != s.rows[1]


def test_P_ROW_2_a_tile_taken_from_a_row_is_replaced_from_its_stack():
    """P-ROW-2: building a building refills its position from the stack."""
    before, action, after = _found({"players": 2}, lambda b, a, x: (
        x.rows[0] != b.rows[0] and all(len(p) <= len(q) for p, q in zip(x.stacks, b.stacks,
                                                                           strict=True))
        and x.stacks != b.stacks and x.era == b.era))
    assert GAME.reveals(before, action, after)


def test_P_TECH_2_a_technology_draw_and_the_choice_among_it():
    """P-TECH-2: the 3 technologies drawn are seen by their seat (a reveal to it); the one
    kept then becomes public, and the others learn which it was (a reveal to them)."""
    before, action, after = _found({"players": 2}, lambda b, a, x: (
        x.stack and isinstance(x.stack[-1], D.TechDraw)
        and not (b.stack and isinstance(b.stack[-1], D.TechDraw))))
    assert GAME.reveals(before, action, after)
    keep = GAME.legal_actions(after)[0]
    assert GAME.reveals(after, keep, GAME.apply(after, keep))


def test_P_BRIDGE_2_and_3_bridge_tiles_drawn_or_offered():
    """P-BRIDGE-2: entering IV draws 3 IV tiles; P-BRIDGE-3: entering V shows the V pile
    to the seat choosing from it."""
    for road, pile in ((3, 0), (4, 1)):
        s = build({"crane": (2, 5, ("road", "mines")), "p": {0: {"road": road, "eggs": 1}}})
        s = play(s, "take-tile 2")
        shown, after = _reveals(s, "perform road")
        assert isinstance(after.stack[-1], D.BridgeTile) and after.stack[-1].pile == pile
        assert shown


def test_P_GRID_7_the_cathedral_tiles_offered():
    """P-GRID-7: the seat reaching the Cathedral's top tier is offered the face-down
    Cathedral tiles (its legal actions name them)."""
    s = build({"p": {0: {"silver": 2, "cat": (3, 0), "gold": 3, "stone": 3}}})
    shown, after = _reveals(s, "up cathedral")
    assert isinstance(after.stack[-1], D.CatTile) and shown
    tile = GAME.legal_actions(after)[0]
    assert GAME.reveals(after, tile, GAME.apply(after, tile))


def test_P_CLOCK_4_the_era_II_rows():
    """P-CLOCK-4, P-ROW-6: the era change deals the era II rows from their stacks."""
    before, action, after = _found({"players": 2}, lambda b, a, x: x.era != b.era)
    assert GAME.reveals(before, action, after)


def test_P_SOLO_2_the_dummys_turn():
    """P-SOLO-2: the move that ends the player's turn plays the dummy's, which takes an
    action tile and removes tiles from a row that refill from the stacks."""
    before, action, after = _found({"players": 1, "solo_opponent": "dummy"},
                                   lambda b, a, x: x.stacks != b.stacks and x.seat == b.seat)
    assert GAME.reveals(before, action, after)


def test_P_3_parlers_card_draws():
    """P.3: Parler draws his cards at random (the PRNG): the move that lets him play is a
    barrier."""
    before, action, after = _found({"players": 1, "solo_opponent": "parler"},
                                   lambda b, a, x: x.rng.state != b.rng.state)
    assert GAME.reveals(before, action, after)


def test_the_server_refuses_to_undo_a_draw():
    """The server's undo stops at a move ``reveals`` flags, and at a move by another seat
    (the end of a turn hands the table over)."""
    live = Live(1, GAME, {"players": 2}, 1, "new", None, [])  # type: ignore[arg-type]
    live.entries = [Entry(1, 0, "take-tile 2", False), Entry(2, 0, "perform road", True),
                    Entry(3, 0, "bridge-tile X", False)]
    assert live.undoable(0) == 1
    live.entries = [Entry(1, 1, "end-turn", False), Entry(2, 0, "take-tile 2", False)]
    assert live.undoable(0) == 1 and live.undoable(1) == 0
