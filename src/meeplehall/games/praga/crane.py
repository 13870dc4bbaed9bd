"""The action crane and the clock as pure functions over small integers.

The wheel has ``P`` positions (12): wheel position 0 is the square box with the white
arrow, 1..P-1 are tile slots. ``rotation`` says where the wheel stands: wheel position
``w`` is over board position ``(w + rotation) % P``; board position 0 is the start of the
red zone (P-CRANE-1). So the box (and arrow) is over board position ``rotation``.

Tiles live in slots: ``slots[w]`` is the action tile in wheel slot ``w`` or -1 (index 0,
the box, is always -1). Rotating the wheel does not move tiles between slots.

Used by the rules for costs, VP, bonuses, the end-of-turn rotation (P-CRANE-9..12) and the
clock (P-CLOCK-1..8); tests check the derived schedule of P-CLOCK-3 against the data.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from meeplehall.games.praga.components import Crane, load

EMPTY = -1


def box_position(crane: Crane, rotation: int) -> int:
    """Board position of the box (and of the white arrow)."""
    return rotation % crane.positions


def board_position(crane: Crane, wheel: int, rotation: int) -> int:
    """Board position of wheel position ``wheel``."""
    return (wheel + rotation) % crane.positions


def wheel_at(crane: Crane, board: int, rotation: int) -> int:
    """Wheel position (0 = box) over board position ``board``."""
    return (board - rotation) % crane.positions


def zone_cost(crane: Crane, board: int) -> int:
    """Gold cost of taking a tile at ``board`` (red zone), else 0 (P-CRANE-4)."""
    return crane.red_costs[board] if board < len(crane.red_costs) else 0


def zone_vp(crane: Crane, board: int) -> int:
    """VP for taking a tile at ``board`` (blue zone), else 0 (P-CRANE-5)."""
    start = crane.blue_start
    if start <= board < crane.beyond:
        return crane.blue_vp[board - start]
    return 0


def is_green(crane: Crane, board: int) -> bool:
    return crane.green_start <= board < crane.blue_start


class TurnEnd(NamedTuple):
    """What the end-of-turn rotation did (P-CRANE-9 steps 2-5); a named tuple, as it is
    made at the end of every turn."""

    rotation: int
    slots: tuple[int, ...]
    returned_to: int  # wheel slot the taken tile went back to (-1: no tile)
    overflowed: tuple[int, ...]  # tiles moved to green/red with the 5-VP token
    drop: bool  # the wheel cube fell into the hole (P-CLOCK-1/2)
    star: bool  # the white arrow reached the star (P-CLOCK-5)
    steps: int


def _entered(start: int, steps: int, target: int, positions: int) -> bool:
    """Did the box, moving ``steps`` positions from ``start``, enter ``target``? (It
    enters the positions 1..steps ahead of ``start``; a full turn or more enters all.)"""
    return steps >= positions or 1 <= (target - start) % positions <= steps


def end_turn(crane: Crane, rotation: int, slots: tuple[int, ...], taken: int) -> TurnEnd:
    """Rotate, return the taken tile, resolve overflow (P-CRANE-9..12, P-CLOCK-1/2).

    ``taken`` is the tile the player took this turn (already removed from ``slots``), or
    -1 (no tile, e.g. a replay of the clock alone).

    P-CRANE-9 step 2: 1 step, or 2 when the arrow points at the double-rotation mark
    before rotating. Step 3: the tile returns to the slot now at the start of red; if the
    box is there, 1 more step (P-CRANE-11: checked after the rotation). Step 4: any tile
    carried past the end of the blue zone goes to the first free green slot (else the
    first free red slot) with the 5-VP token (P-CRANE-12, LANG-24). The overflowed tiles
    are lifted before the returning tile is placed, so the start of red is free for it.
    """
    p = crane.positions
    box = rotation % p
    steps = 2 if box == crane.double_rotation_mark else 1
    if taken >= 0 and wheel_at(crane, 0, rotation + steps) == 0:
        steps += 1
    new_rotation = (rotation + steps) % p
    out = list(slots)
    over: list[int] = []
    last_blue = crane.beyond - 1
    # A tile is carried past the last blue position when it stood on one of the
    # ``steps`` board positions up to it (last_blue - steps < board <= last_blue); they
    # are lifted in wheel-slot order (the last one gets the 5-VP token). The box (wheel
    # position 0) holds no tile.
    for w in sorted([(board - rotation) % p  # wheel_at
                     for board in range(max(0, last_blue - steps + 1), last_blue + 1)]):
        tile = out[w]
        if w != 0 and tile != EMPTY:
            over.append(tile)
            out[w] = EMPTY
    returned = -1
    if taken >= 0:
        returned = wheel_at(crane, 0, new_rotation)
        out[returned] = taken
    for tile in over:
        target = -1
        for board in (*range(crane.green_start, crane.blue_start),
                      *range(len(crane.red_costs))):
            w = wheel_at(crane, board, new_rotation)
            if w != 0 and out[w] == EMPTY:
                target = w
                break
        if target < 0:  # pragma: no cover - 11 slots, 6 tiles: always room
            raise AssertionError("no free slot for an overflowed tile")
        out[target] = tile
    return TurnEnd(new_rotation, tuple(out), returned, tuple(over),
                   _entered(box, steps, crane.hole, p), _entered(box, steps, crane.star, p),
                   steps)


def setup_rotation(crane: Crane, players: int) -> int:
    """Rotation after P-SETUP-13: the arrow (box) over the player-count symbol."""
    return crane.arrow_start[max(players, 2)] % crane.positions


def setup_slots(crane: Crane, rotation: int, tiles: tuple[int, ...]) -> tuple[int, ...]:
    """P-SETUP-14: tiles into the first empty slots from the start of red, clockwise."""
    out = [EMPTY] * crane.positions
    queue = list(tiles)
    for board in range(crane.positions):
        if not queue:
            break
        w = wheel_at(crane, board, rotation)
        if w != 0:
            out[w] = queue.pop(0)
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Schedule:
    """The clock of a whole game when every turn takes some tile (P-CLOCK-3..7)."""

    drops: tuple[int, ...]  # turn numbers (1-based) after which the wheel cube drops
    era_turn: int  # turn after which the era changes
    countdown_turn: int  # turn after which the platform cube is on the last space
    end_turn: int  # turn after which the platform cube leaves the platform


def schedule(players: int, crane: Crane | None = None) -> Schedule:
    """Simulate the wheel and platform alone (the taken tile does not matter).

    >>> schedule(3).drops
    (4, 15, 26, 37, 48)
    """
    c = crane or load().crane
    n = max(players, 2)
    rotation = setup_rotation(c, n)
    slots = setup_slots(c, rotation, tuple(range(6)))
    platform = c.platform_start[n]
    last = c.platform_spaces - 1
    drops: list[int] = []
    era = countdown = end = 0
    armed = False
    turn = 0
    while end == 0 and turn < 1000:
        turn += 1
        # take the tile furthest along (any tile works for the clock)
        w = max((w for w in range(1, c.positions) if slots[w] != EMPTY),
                key=lambda w: board_position(c, w, rotation))
        tile = slots[w]
        taken = list(slots)
        taken[w] = EMPTY
        res = end_turn(c, rotation, tuple(taken), tile)
        rotation, slots = res.rotation, res.slots
        if res.star and armed and not era:
            era = turn
        if res.drop:
            drops.append(turn)
            platform += 1
            if platform == c.era_line[n]:
                if n == 2:
                    armed = True
                elif not era:
                    era = turn
            if platform == last:
                countdown = turn
            if platform > last:
                end = turn
    return Schedule(tuple(drops), era, countdown, end)
