"""Praga's invariants for the conformance suite's playouts (``conformance.py``, run by
``tests/conformance/``), and the property tests that are Praga's own: private draws
hidden from the other seats, and the fast building check against the site list.

The invariants, checked after every step of random games: gold and stone stay within
0-9; nobody ends a turn with more than 2 windows; cubes are conserved; every decision's
legal list stays short.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from meeplehall.core.rng import Rng
from meeplehall.core.testing import check_view_resampling
from meeplehall.games.praga import GAME
from meeplehall.games.praga import decisions as D
from tests.conformance.spec import sampled_states


def resources_in_range(s):
    """P-RES-1, P-RES-2: gold and stone within 0-9; nothing negative."""
    for seat in range(s.players):
        assert 0 <= s.gold[seat] <= 9 and 0 <= s.stone[seat] <= 9
        assert min(s.eggs[seat], s.silver[seat], s.goldw[seat], s.cubes[seat]) >= 0


_TURN_SEEN = {"turns": -1, "due": False}  # the turn counter last seen, and a check due


def windows_at_turn_end(s):
    """P-WIN-2: at the start of a turn, the player before has at most 2 windows. The
    game's last turn is checked as final scoring begins (``last_turn_checked``): final
    step 1 may still pay windows, through a wealth bonus (P-SCORE-2, P-RES-4). Checked
    once per turn, at its first state: later in the turn a technology used before the
    tile is taken (T3e's wealth bonus) may leave a third window until the turn's end,
    in a state that looks like the turn's start (in the solo game the player before is
    the player)."""
    if s.turns != _TURN_SEEN["turns"]:
        _TURN_SEEN["turns"], _TURN_SEEN["due"] = s.turns, bool(s.turns)
    if _TURN_SEEN["due"] and s.stack == [D.Turn(s.seat)] and s.taken < 0 and s.xact == 0:
        _TURN_SEEN["due"] = False
        before = (s.seat - 1) % s.players
        assert s.windows(before) <= 2, f"seat {before} ended a turn with >2 windows"


def last_turn_checked(monkeypatch: pytest.MonkeyPatch) -> Callable[[], None]:
    """P-WIN-2 for the game's last turn: as final scoring begins, the seat that played
    it holds at most 2 windows. Returns the check that some game reached final scoring
    (the conformance suite's playout guard)."""
    from meeplehall.games.praga import final

    scoring = final.final_scoring
    checked = []

    def checking(s):
        if all(n == 16 for n in s.played):  # not a projection (projected_scores)
            assert s.windows(s.seat) <= 2, f"seat {s.seat} ended the last turn with >2 windows"
            checked.append(s.seat)
        scoring(s)

    monkeypatch.setattr(final, "final_scoring", checking)

    def reached() -> None:
        assert checked, "no game reached final scoring"

    return reached


def cubes_conserved(s):
    """P-COMP-3: supply + market cubes + seals + taken wealth covers = 2 + bonuses."""
    for seat in range(s.players):
        on_sites = sum(1 for k, o in enumerate(s.site_owner) if o == seat and s.site_cube[k])
        seals = s.seal_owner.count(seat)
        freed = bin(s.wealth[seat]).count("1")
        assert s.cubes[seat] + on_sites + seals == 2 + freed


def small_decisions(s):
    """STYLE.md section 3: every decision's legal list stays short (asked in steps)."""
    assert len(GAME.legal_actions(s)) <= 24


INVARIANTS = (resources_in_range, windows_at_turn_end, cubes_conserved, small_decisions)


def test_private_draws_are_hidden_from_other_seats():
    """P-TECH-2, P-BRIDGE-2, P-BRIDGE-3: the technologies or IV tiles a seat draws, and
    the V pile it chooses from, are seen by that seat only; re-sampling keeps every
    seat's view."""
    from meeplehall.games.praga.effects import gain
    from tests.games.praga.fixtures import build, play

    rng = Rng(5)
    for road in (3, 4):
        s = build({"crane": (2, 5, ("road", "mines")), "p": {0: {"road": road, "eggs": 1}}})
        s = play(s, "take-tile 2", "perform road")
        mine, theirs = GAME.player_view(s, 0), GAME.player_view(s, 1)
        assert min(mine["state"]["stack"][-1][2]) >= 0
        assert set(theirs["state"]["stack"][-1][2]) == {-1}
        check_view_resampling(GAME, s, rng)
    s = build({})
    gain(s, 0, 8, 1)
    assert set(GAME.player_view(s, 1)["state"]["stack"][-1][2]) == {-1}
    check_view_resampling(GAME, s, rng)


def test_fast_building_check_agrees_with_the_site_list():
    """``city.can_build`` (the fast path) agrees with ``city.affordable_sites``."""
    from meeplehall.games.praga.city import affordable_sites, can_build

    for players in (2, 4):
        for state in sampled_states(GAME, {"players": players}, players, 7):
            for seat in range(players):
                for tile in range(36):
                    for discount in (0, 2):
                        assert can_build(state, seat, tile, discount) == bool(
                            affordable_sites(state, seat, tile, discount))


def test_refreshable_rows_agree_with_the_refresh_pairs():
    """``turn.refreshable_rows`` (counted, P-ROW-5) names exactly the rows whose
    ``refresh_pairs`` is not empty, also with tiles and stacks taken away (P-EDGE-7)."""
    from meeplehall.games.praga.turn import refresh_pairs, refreshable_rows

    rng = Rng.from_seed(3)
    for players in (2, 4):
        for state in sampled_states(GAME, {"players": players}, players, 5):
            for _ in range(4):
                assert refreshable_rows(state) == [
                    row for row in range(3) if refresh_pairs(state, row)]
                row = rng.randbelow(3)
                tiles = list(state.rows[row])
                tiles[rng.randbelow(4)] = -1
                state.rows[row] = tuple(tiles)
                k = rng.randbelow(len(state.stacks))
                state.stacks[k] = state.stacks[k][:rng.randbelow(3)]  # 0-2 tiles left


def test_performable_agrees_with_the_pick_options():
    """``performable`` stops at the first pickable tile: for the row actions it is true
    exactly when ``pick_options`` lists one (P-ACT-3)."""
    from meeplehall.games.praga.actions_family import (
        ROW_OF_ACTION,
        performable,
        pick_options,
    )
    from meeplehall.games.praga.board import free_wall_positions
    from meeplehall.games.praga.components import WALL

    for players in (2, 3):
        for state in sampled_states(GAME, {"players": players}, players + 10, 5):
            for seat in range(players):
                for action, row in ROW_OF_ACTION.items():
                    for source in range(3):
                        for discount in (0, 2):
                            expected = bool(pick_options(state, seat, row, source, discount))
                            if action == WALL and not free_wall_positions(state, seat):
                                expected = False
                            assert performable(state, seat, action, source,
                                               discount) == expected


def test_crane_turn_end_agrees_with_the_slot_by_slot_reading():
    """``crane.end_turn`` lifts only the tiles on the positions that can pass the end of
    the blue zone: the same result as checking every wheel slot (P-CRANE-9..12), and the
    box enters a position as the step-by-step move does (P-CLOCK-1/5)."""
    from meeplehall.games.praga import crane as K
    from meeplehall.games.praga.components import load

    cr = load().crane
    p = cr.positions
    for start in range(-p, 2 * p):
        for steps in range(2 * p + 1):
            for target in range(p):
                assert K._entered(start, steps, target, p) == any(
                    (start + k) % p == target for k in range(1, steps + 1))
    rng = Rng.from_seed(11)
    for _ in range(3000):
        rotation = rng.randbelow(3 * p)
        slots = [K.EMPTY] * p
        wheel = list(range(1, p))
        rng.shuffle(wheel)
        for i, w in enumerate(wheel[:rng.randbelow(7)]):  # up to 6 tiles on the wheel
            slots[w] = i
        taken = rng.choice((-1, 20))
        res = K.end_turn(cr, rotation, tuple(slots), taken)
        lifted = [slots[w] for w in range(1, p) if slots[w] != K.EMPTY
                  and (w + rotation) % p <= cr.beyond - 1 < (w + rotation) % p + res.steps]
        assert list(res.overflowed) == lifted
        assert sorted(t for t in res.slots if t != K.EMPTY) == sorted(
            [t for t in slots if t != K.EMPTY] + ([taken] if taken >= 0 else []))
