"""The action crane and the clock (P-CRANE-1..12, P-CLOCK-1..8, P-SETUP-13..16) as pure
functions over the crane data: the derived schedule of P-CLOCK-3 must hold exactly."""

from __future__ import annotations

import itertools

import pytest

from meeplehall.games.praga import crane as K
from meeplehall.games.praga.components import load

C = load()
CR = C.crane


@pytest.mark.parametrize(("players", "drops"), [
    (2, (10, 21, 32)), (3, (4, 15, 26, 37, 48)), (4, (9, 20, 31, 42, 53, 64))])
def test_P_CLOCK_3_one_revolution_is_11_turns_and_drops_fall_as_derived(players, drops):
    """P-CLOCK-1/2/3: the wheel cube drops once per revolution; 11 turns per revolution;
    drop turns as in the table of P-CLOCK-3."""
    sched = K.schedule(players)
    assert sched.drops == drops
    assert all(b - a == 11 for a, b in itertools.pairwise(drops))


@pytest.mark.parametrize(("players", "era"), [(2, 16), (3, 26), (4, 31)])
def test_P_CLOCK_4_and_P_CLOCK_5_era_switch(players, era):
    """P-CLOCK-4 (3-4 players: when the platform cube crosses the line), P-CLOCK-5
    (2 players: when the white arrow reaches the star after the crossing)."""
    assert K.schedule(players).era_turn == era


@pytest.mark.parametrize("players", [2, 3, 4])
def test_P_CLOCK_6_and_P_CLOCK_7_countdown_and_end(players):
    """P-CLOCK-6: the platform cube reaches the last space with exactly 11 turns left;
    P-CLOCK-7/P-CLOCK-8, P-TURN-1: it leaves the platform after 16 turns per player."""
    sched = K.schedule(players)
    assert sched.end_turn == 16 * players
    assert sched.end_turn - sched.countdown_turn == 11


def test_T_08_three_player_countdown_split():
    """T-08 (P-CLOCK-6): with 3 players the countdown starts at the end of the start
    player's turn: the start player has 3 turns left, seats 2 and 3 have 4 each."""
    sched = K.schedule(3)
    left = [0, 0, 0]
    for turn in range(sched.countdown_turn + 1, sched.end_turn + 1):
        left[(turn - 1) % 3] += 1
    assert (sched.countdown_turn - 1) % 3 == 0  # the start player's turn
    assert left == [3, 4, 4]
    for players, split in ((2, [5, 6]), (4, [2, 3, 3, 3])):
        s = K.schedule(players)
        got = [0] * players
        for turn in range(s.countdown_turn + 1, s.end_turn + 1):
            got[(turn - 1) % players] += 1
        assert got == split


@pytest.mark.parametrize("players", [2, 3, 4])
def test_P_SETUP_14_tiles_start_in_red_and_green(players):
    """P-SETUP-13/14/15: the arrow (box) at the player-count symbol; the 6 tiles fill the
    first 6 empty slots from the start of red: the 4 red and the first 2 green slots."""
    rot = K.setup_rotation(CR, players)
    slots = K.setup_slots(CR, rot, tuple(range(6)))
    boards = sorted(K.board_position(CR, w, rot) for w in range(1, 12) if slots[w] >= 0)
    assert boards == [0, 1, 2, 3, 4, 5] or boards == [0, 1, 2, 3, 5, 6]
    assert all(K.zone_vp(CR, b) == 0 for b in boards)
    assert slots[0] == K.EMPTY


def test_P_CRANE_4_and_P_CRANE_5_zone_costs_and_vp():
    """P-CRANE-2/4/5: red positions cost gold, green nothing, blue gives VP; the last
    blue position is worth 5 VP (P-CRANE-12)."""
    assert [K.zone_cost(CR, b) for b in range(4)] == list(CR.red_costs)
    assert all(K.zone_cost(CR, b) == 0 and K.zone_vp(CR, b) == 0 for b in range(4, 7))
    assert K.zone_vp(CR, CR.beyond - 1) == 5
    assert all(K.is_green(CR, b) for b in range(CR.green_start, CR.blue_start))


def test_P_CRANE_9_double_rotation_when_the_arrow_points_at_the_mark():
    """P-CRANE-9 step 2: 2 steps when the arrow points at the double-rotation mark before
    rotating, else 1; P-CRANE-10: the tile returns to the start of the red zone."""
    rot = CR.double_rotation_mark  # box over the mark
    slots = [K.EMPTY] * 12
    res = K.end_turn(CR, rot, tuple(slots), 3)
    assert res.steps == 2
    assert K.board_position(CR, res.returned_to, res.rotation) == 0
    res = K.end_turn(CR, 0 if CR.double_rotation_mark else 1, tuple(slots), 3)
    assert res.steps == 1


def test_P_CRANE_11_box_skip_when_the_box_would_be_at_the_start_of_red():
    """P-CRANE-9 step 3, P-CRANE-11: if the box arrives at the start of red, rotate once
    more so the tile has a slot. With the printed wheel the double rotation already
    prevents it; a crane without the mark shows the skip."""
    from dataclasses import replace

    crane = replace(CR, double_rotation_mark=-1)
    res = K.end_turn(crane, crane.positions - 1, tuple([K.EMPTY] * 12), 2)
    assert res.steps == 2 and K.box_position(crane, res.rotation) == 1


def test_P_CRANE_12_overflow_moves_a_tile_to_green_with_the_5_vp_token():
    """P-CRANE-12, P-EDGE-6: a tile carried beyond the blue zone goes to the first free
    green slot (LANG-24: first free red slot if green is full)."""
    rot = 5  # box at board 5, not at the double mark
    slots = [K.EMPTY] * 12
    last_blue = CR.beyond - 1
    slots[K.wheel_at(CR, last_blue, rot)] = 4
    res = K.end_turn(CR, rot, tuple(slots), 0)
    assert res.overflowed == (4,)
    w = res.slots.index(4)
    assert K.is_green(CR, K.board_position(CR, w, res.rotation))
    # green full (or the box in it): first free red slot
    slots = [K.EMPTY] * 12
    slots[K.wheel_at(CR, last_blue, rot)] = 4
    for b, tile in zip(range(CR.green_start - 1, CR.blue_start - 1), (1, 2, 3), strict=True):
        w = K.wheel_at(CR, b, rot)
        if w:
            slots[w] = tile
    res = K.end_turn(CR, rot, tuple(slots), 0)
    w = res.slots.index(4)
    assert K.board_position(CR, w, res.rotation) < CR.green_start
