"""Solo play: the sides the engine plays, and the rulebook's dummy (§14, P-SOLO-1..4).

Seat model (as Ivan in The Red Cathedral): ``players`` counts the seats that decide;
the sides the engine plays live in ``state.bots`` (one tuple per bot, fields at the
``B_*`` indices) and act inside ``apply``, never as a decision of a seat. Bot ``b`` is
side ``players + b`` wherever the board records an owner (sites, seals). The board is set
up for ``opts.table`` sides: 2 against the dummy (P-SOLO-1), seats + bots against Parler.

A round: every seat takes its turn, then every bot (``turn.finish_turn`` calls
``turn.bot_round`` after the last seat; ``setup.setup_bots`` seats the bots).
``state.turns`` counts the seats' turns only, so "16 turns each" (P-CLOCK-8) and the end
of the game read as in the base game; each bot counts its own turns (``B_TURNS``). The
game ends after the bots' 16th turn.

The dummy (P-SOLO-2/3): take the action tile furthest along the crane and return it by
the normal end-of-turn rules; it pays nothing, gains nothing and performs no action.
"""

from __future__ import annotations

from meeplehall.core.messages import M, Message, term
from meeplehall.games.praga import crane as K
from meeplehall.games.praga.clock import rotate_crane, techs_in_force
from meeplehall.games.praga.components import load
from meeplehall.games.praga.effects import log
from meeplehall.games.praga.parler_data import PARLER
from meeplehall.games.praga.state import PragaState

C = load()

# Fields of one bot's tuple in ``state.bots``.
B_TURNS = 0  # turns taken
B_MINES = 1  # Parler: gold mines (P.2 step 5)
B_QUARRIES = 2  # Parler: quarries
B_PTR = 3  # Parler: row pointers 0..3 at B_PTR + row (building, wall, upgrade rows)
B_PAWN = 6  # Parler: market index of his pawn, -1: nowhere left to build
B_CARD = 7  # Parler: the card of his latest turn (index into the deck), -1: none yet
B_CUBES = 8  # Parler: cubes in his supply
B_DECK = 9  # Parler: bit mask of the cards still in the draw pile of this cycle
BOT_FIELDS = 10

DUMMY_NAME = "the dummy"


def bot_message(s: PragaState, b: int) -> Message | str:
    """A bot side in a message: the dummy (translated) or a Parler bot's name."""
    return term(DUMMY_NAME) if s.opts.solo_opponent == "dummy" else bot_name(s, b)


def bot_name(s: PragaState, b: int) -> str:
    if s.opts.solo_opponent == "dummy":
        return DUMMY_NAME
    return PARLER.names[b]


def put(s: PragaState, b: int, field: int, value: int) -> None:
    """Set one field of bot ``b`` (bots are tuples shared by clones)."""
    assert s.bots is not None
    bot = list(s.bots[b])
    bot[field] = value
    bots = list(s.bots)
    bots[b] = tuple(bot)
    s.bots = tuple(bots)


def tiles_by_age(s: PragaState) -> list[int]:
    """Wheel slots holding a tile, furthest along the crane first (the one closest to
    the end of the blue zone: the oldest, P-SOLO-2 step 1, Parler's recycle)."""
    positions, rotation = C.crane.positions, s.rotation
    out = []
    for board in reversed(range(positions)):
        w = K.wheel_at(C.crane, board, rotation)
        if w != 0 and s.slots[w] >= 0:  # the box (wheel position 0) holds no tile
            out.append(w)
    return out


ORDINALS = ("oldest", "second-oldest", "third-oldest")


def recycle(s: PragaState, b: int, k: int) -> None:
    """Take the ``k``-th oldest action tile and return it to the crane by the normal
    end-of-turn rules (rotation, box skip, overflow, clock); nothing is paid or gained.
    [reading] Taking the tile that carries the 5-VP token sends the token back beside
    the crane, as when a player takes it (P-CRANE-12), but nobody scores it."""
    ages = tiles_by_age(s)
    w = ages[min(k, len(ages) - 1)]
    tile = s.slots[w]
    slots = list(s.slots)
    slots[w] = -1
    s.slots = tuple(slots)
    key = "{bot} takes the {which} action tile {tile} from slot {slot} and returns it to the crane"
    if s.five_vp == tile:
        s.five_vp = -1
        key += " (its 5-VP token goes back beside the crane)"
    log(s, M(key, bot=bot_message(s, b), which=term(ORDINALS[k]),
             tile=C.action_tiles[tile].id, slot=w))
    rotate_crane(s, tile)
    assert s.bots is not None
    put(s, b, B_TURNS, s.bots[b][B_TURNS] + 1)
    techs_in_force(s)


def dummy_turn(s: PragaState, b: int) -> None:
    """P-SOLO-2: the tile furthest along, returned by the normal end-of-turn rules;
    P-SOLO-3: no payment, no gain, no action, no windows."""
    recycle(s, b, 0)
