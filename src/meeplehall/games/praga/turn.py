"""The turn hub (§3.1, P-TURN-1..4, P-TIMING-1/2): what may be done at each moment of a
turn, the handlers of those choices, and the end of the turn with the crane and the
clock (P-CRANE-9..12, P-CLOCK-1..8).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from meeplehall.core.messages import M
from meeplehall.games.praga import actions as A
from meeplehall.games.praga import crane as K
from meeplehall.games.praga import final
from meeplehall.games.praga import links as L
from meeplehall.games.praga.actions_family import (
    BLUE_VP,
    RED_COST,
    egg_price,
    performable,
    special_vp,
    stack_index,
    start_action,
    take_vp,
    takeable,
    tile_performable,
    wheel_gains,
)
from meeplehall.games.praga.clock import rotate_crane, techs_in_force
from meeplehall.games.praga.components import (
    BUILDING,
    CATHEDRAL,
    EGG,
    GOLD,
    GOLD_WINDOW,
    HUNGER_WALL,
    ROAD,
    STONE,
    TECH,
    UNIV,
    UPGRADE,
    WALL,
    load,
)
from meeplehall.games.praga.effects import (
    GOLD_TRACK,
    QUARRY_TRACK,
    ROW_BITS,
    TECH_EFFECT,
    add_resource,
    can_move_up,
    gain,
    grid_of,
    log,
    move_up,
    pay,
    produce,
    sideways,
    who,
)
from meeplehall.games.praga.parler import parler_turn
from meeplehall.games.praga.road import (
    apply_egg,
    apply_free,
    can_free,
    can_road,
    resolve_free_at_end,
)
from meeplehall.games.praga.solo import B_TURNS, dummy_turn
from meeplehall.games.praga.state import (
    SRC_EXTRA,
    SRC_TECH,
    SRC_TILE,
    PragaState,
)

C = load()
GRIDS = (HUNGER_WALL, CATHEDRAL)
REFRESH_PAIRS = ((0, 1), (0, 2), (1, 2), (0, 3), (1, 3), (2, 3))  # P-ROW-5


# --- the hub -----------------------------------------------------------------------------
def tile_action_pending(s: PragaState, seat: int) -> bool:
    """The taken tile's action is still to be performed and can be (P-TURN-2 step 2,
    P-EDGE-1: a tile whose actions cannot be performed lets the turn end)."""
    return (s.taken >= 0 and not s.action_done
            and tile_performable(s, seat, s.taken, s.taken_slot, s.bonus, s.special))


def refreshable_rows(s: PragaState) -> list[int]:
    """P-ROW-5, P-EDGE-7: the rows whose ``refresh_pairs`` is not empty, counted instead
    of trying the six pairs: two normal tiles need two shown and two in the normal stack;
    the special and a normal one need the special shown, a normal one shown and a tile in
    each stack."""
    out = []
    for row in range(3):
        tiles = s.rows[row]
        k = stack_index(s, row, False)  # the special stack is k + 1
        normal = len(s.stacks[k])
        shown = (tiles[0] >= 0) + (tiles[1] >= 0) + (tiles[2] >= 0)
        if ((shown >= 2 and normal >= 2)
                or (shown >= 1 and tiles[3] >= 0 and normal >= 1
                    and len(s.stacks[k + 1]) >= 1)):
            out.append(row)
    return out


def refresh_pairs(s: PragaState, row: int) -> list[tuple[int, int]]:
    """P-ROW-5, P-EDGE-7: the pairs of positions (``REFRESH_PAIRS`` order) a refresh of
    ``row`` may remove: both tiles are there and both gaps can be refilled."""
    tiles = s.rows[row]
    k = stack_index(s, row, False)  # the special stack is k + 1
    normal, special = len(s.stacks[k]), len(s.stacks[k + 1])
    return [(i, j) for i, j in REFRESH_PAIRS
            if tiles[i] >= 0 and tiles[j] >= 0 and normal >= (i < 3) + (j < 3)
            and special >= (j == 3)]


def tech_usable(s: PragaState, seat: int, t: int) -> bool:
    """Level III/IV technologies: once, in own turns, when their effect can happen."""
    level = C.technologies[t].level
    if level < 3 or not s.tech_ready[seat] >> (level - 1) & 1:
        return False
    if s.tech_used[seat] >> (level - 1) & 1:
        return False
    effect = TECH_EFFECT[t]
    if effect == "GL-T3-1":
        s.eggs[seat] += 1
        ok = can_road(s, seat)
        s.eggs[seat] -= 1
        return ok
    if effect == "GL-T3-2":
        return any(grid_row(s, seat, g) + 1 < grid_of(s, g).rows for g in GRIDS)
    if effect in ("GL-T3-4", "GL-T4-4"):
        return performable(s, seat, UPGRADE, SRC_TECH)
    if effect == "GL-T4-1":
        return performable(s, seat, BUILDING, SRC_TECH, 2)
    if effect == "GL-T4-2":
        return performable(s, seat, WALL, SRC_TECH, 2)
    if effect == "GL-T4-5":
        return any(t >= 0 for t in s.market_tile)
    return True


def grid_row(s: PragaState, seat: int, grid: int) -> int:
    return (s.hw if grid == HUNGER_WALL else s.cat)[seat] // ROW_BITS


def _seal_ok(s: PragaState, seat: int, k: int) -> bool:
    if s.seal_owner[k] >= 0:
        return False
    gold, stone, silver, goldw = C.seals[k].cost
    return (s.gold[seat] >= gold and s.stone[seat] >= stone and s.silver[seat] >= silver
            and s.goldw[seat] >= goldw)


def hub_actions(s: PragaState, seat: int) -> list[A.PragaAction]:
    """What the hub offers ``seat`` now (P-TURN-2/3, P-TIMING-1)."""
    out: list[A.PragaAction] = []
    if s.taken < 0:
        out += [A.take_tile(w) for w in takeable(s, seat)]
    else:
        if not s.action_done:
            for a in sorted(s.pairs[s.taken]):
                if performable(s, seat, a, SRC_TILE):
                    out.append(A.perform(a))
        if (s.bonus and _bonus_ok(s, seat)) or s.special:
            out.append(A.WHEEL_BONUS)
    if s.xact == 0:
        if s.goldw[seat] >= 2:
            out.append(A.buy_extra(False))
        if s.goldw[seat] >= 1 and s.silver[seat] >= 1:
            out.append(A.buy_extra(True))
    elif s.xact == 1:
        out += [A.extra(a) for a in range(6) if performable(s, seat, a, SRC_EXTRA)]
    if not s.refreshed:
        gold, stone = s.gold[seat], s.stone[seat]
        if gold or stone:
            for row in refreshable_rows(s):
                if gold:
                    out.append(A.refresh(row, 0))
                if stone:
                    out.append(A.refresh(row, 1))
    if s.silver[seat] >= 2:  # P-GRID-5: the 2 silver windows (can_move_up asks too)
        for g in GRIDS:
            if can_move_up(s, seat, g, windows=True):
                out.append(A.move_up(g))
    if s.moves_hw:
        out.append(A.move_sideways(HUNGER_WALL))
    if s.moves_cat:
        out.append(A.move_sideways(CATHEDRAL))
    if s.seal_rights[seat] and s.cubes[seat]:
        out += [A.claim_seal(k) for k in range(len(C.seals)) if _seal_ok(s, seat, k)]
    techs = s.techs[seat]
    if techs:
        out += [A.use_tech(t) for t in techs if tech_usable(s, seat, t)]
    if s.road_free and can_free(s):  # P-ROAD-3: only while a free effect is pending
        out.append(A.ROAD_FREE)
    if s.road_egg and s.eggs[seat]:
        out.append(A.ROAD_EGG)
    if s.taken >= 0 and not tile_action_pending(s, seat) and not _owed(s):
        out.append(A.END_TURN)
    return out


def _owed(s: PragaState) -> bool:
    """Gains the options make mandatory before the turn may end (both are offered in the
    hub while owed): a wheel bonus gain with ``unused_wheel_gain='granted'`` (P-CRANE-6;
    the egg purchase stays optional) and earned sideways moves with
    ``unused_sideways='applied'`` (P-GRID-4)."""
    if (s.opts.unused_wheel_gain == "granted" and s.bonus and not s.special
            and C.crane.slots[s.taken_slot - 1].kind != 2):
        return True
    return s.opts.unused_sideways == "applied" and (s.moves_hw > 0 or s.moves_cat > 0)


def _bonus_ok(s: PragaState, seat: int) -> bool:
    slot = C.crane.slots[s.taken_slot - 1]
    if slot.kind == 2:  # egg purchase
        gold, stone, _, _ = egg_price(s, s.taken_slot)
        return s.gold[seat] >= gold and s.stone[seat] >= stone
    return True


# --- handlers: the hub ---------------------------------------------------------------------
def _h_take_tile(s: PragaState, seat: int, a: A.TakeTile) -> None:
    """P-TURN-2 step 1, P-CRANE-2/4/5/6/12."""
    w = a.slot
    tile = s.slots[w]
    board = K.board_position(C.crane, w, s.rotation)
    cost = RED_COST[board]
    vp = BLUE_VP[board]
    if s.five_vp == tile:
        vp = 5
        s.five_vp = -1
    pay(s, seat, gold=cost)
    slots = list(s.slots)
    slots[w] = -1
    s.slots = tuple(slots)
    s.taken, s.taken_slot = tile, w
    log(s, M("{seat} takes action tile {tile} from slot {slot}", seat=who(s, seat),
             tile=C.action_tiles[tile].id, slot=w))
    take_vp(s, seat, vp)
    kind = C.crane.slots[w - 1].kind
    s.special = kind == 0
    s.bonus = kind != 0


def _h_perform(s: PragaState, seat: int, a: A.Perform) -> None:
    s.action_done = True
    start_action(s, seat, a.action, SRC_TILE, 0)


def _h_wheel_bonus(s: PragaState, seat: int, a: A.WheelBonus) -> None:
    """GL-W1..W6, P-CRANE-6/7/8; GL-T1-1 adds 1 of the shown resource and 1 VP."""
    if s.special:
        special_vp(s, seat)
        return
    slot = C.crane.slots[s.taken_slot - 1]
    s.bonus = False
    if slot.kind == 1:
        for (kind, printed), (_, amount) in zip(
                slot.gain, wheel_gains(s, seat, s.taken_slot), strict=True):
            gain(s, seat, kind, amount)
            s.vp[seat] += amount - printed
    elif slot.kind == 2:
        gold, stone, _, _ = egg_price(s, s.taken_slot)
        pay(s, seat, gold=gold, stone=stone)
        gain(s, seat, EGG, 1)
    else:
        gain(s, seat, UNIV if slot.track else TECH, 1)  # GL-W4


def _h_buy_extra(s: PragaState, seat: int, a: A.BuyExtra) -> None:
    """P-XACT-1: 2 gold windows, or 1 gold + 1 silver window."""
    if a.silver:
        pay(s, seat, goldw=1, silver=1)
    else:
        pay(s, seat, goldw=2)
    s.xact = 1


def _h_extra(s: PragaState, seat: int, a: A.Extra) -> None:
    s.xact = 2
    start_action(s, seat, a.action, SRC_EXTRA, 0)


def _h_refresh(s: PragaState, seat: int, a: A.Refresh) -> None:
    pay(s, seat, gold=1 if a.resource == 0 else 0, stone=1 if a.resource == 1 else 0)
    s.refreshed = True
    s.stack.append(L.refresh(seat, a.row))


def _h_up(s: PragaState, seat: int, a: A.MoveUp) -> None:
    move_up(s, seat, a.grid, windows=True, tier_cost=True)


def _h_side(s: PragaState, seat: int, a: A.MoveSideways) -> None:
    if a.grid == HUNGER_WALL:
        s.moves_hw -= 1
    else:
        s.moves_cat -= 1
    sideways(s, seat, a.grid)


def _h_claim_seal(s: PragaState, seat: int, a: A.ClaimSeal) -> None:
    """P-SEAL-2/3: pay the printed cost and put a cube from the supply on it."""
    gold, stone, silver, goldw = C.seals[a.seal].cost
    pay(s, seat, gold=gold, stone=stone, silver=silver, goldw=goldw)
    s.seal_rights[seat] -= 1
    s.cubes[seat] -= 1
    s.seal_owner[a.seal] = seat
    log(s, M("{seat} claims seal {seal}", seat=who(s, seat), seal=C.seals[a.seal].id))


def _h_use_tech(s: PragaState, seat: int, a: A.UseTech) -> None:
    """Level III/IV technologies (GL-T3-*, GL-T4-*; P-TECH-6/7)."""
    t = a.tech
    s.tech_used[seat] |= 1 << (C.technologies[t].level - 1)
    effect = TECH_EFFECT[t]
    log(s, M("{seat} uses technology {tech}", seat=who(s, seat), tech=C.technologies[t].id))
    if effect == "GL-T3-1":
        gain(s, seat, EGG, 1)
        start_action(s, seat, ROAD, SRC_TECH, 0)
    elif effect == "GL-T3-2":
        s.stack.append(L.tech_grid(seat))
    elif effect == "GL-T3-3":
        gain(s, seat, UNIV, 4)
    elif effect == "GL-T3-4":
        s.vp[seat] += 3
        start_action(s, seat, UPGRADE, SRC_TECH, 0)
    elif effect == "GL-T3-5":
        produce(s, seat, GOLD_TRACK)
        add_resource(s, seat, STONE, 2)
    elif effect == "GL-T3-6":
        produce(s, seat, QUARRY_TRACK)
        add_resource(s, seat, GOLD, 2)
    elif effect == "GL-T4-1":
        start_action(s, seat, BUILDING, SRC_TECH, 2)
    elif effect == "GL-T4-2":
        start_action(s, seat, WALL, SRC_TECH, 2)
    elif effect == "GL-T4-3":
        s.stack.append(L.any_action(seat))
    elif effect == "GL-T4-4":
        gain(s, seat, GOLD_WINDOW, 1)
        start_action(s, seat, UPGRADE, SRC_TECH, 0)
    elif effect == "GL-T4-5":
        s.stack.append(L.market_pick(seat))
    else:
        s.stack.append(L.grow(seat))


def _h_road_free(s: PragaState, seat: int, a: A.RoadFree) -> None:
    apply_free(s)


def _h_road_egg(s: PragaState, seat: int, a: A.RoadEgg) -> None:
    apply_egg(s)


def _h_end_turn(s: PragaState, seat: int, a: A.EndTurn) -> None:
    """P-CRANE-9 step 1 (windows), then the crane and the clock."""
    if s.road_free or s.road_egg:  # a King's Road effect is pending (P-ROAD-3)
        resolve_free_at_end(s)
    if s.special:
        special_vp(s, seat)
    s.bonus = False
    s.stack.pop()
    if s.windows(seat) > 2:
        s.stack.append(L.discard(seat))
    else:
        finish_turn(s)


HUB: dict[str, Callable[[PragaState, int, Any], None]] = {  # verb -> handler
    "take-tile": _h_take_tile, "perform": _h_perform, "wheel-bonus": _h_wheel_bonus,
    "buy-extra": _h_buy_extra, "extra": _h_extra, "refresh": _h_refresh, "up": _h_up,
    "side": _h_side, "claim-seal": _h_claim_seal, "use-tech": _h_use_tech,
    "road-free": _h_road_free, "road-egg": _h_road_egg, "end-turn": _h_end_turn,
}


# --- end of turn ---------------------------------------------------------------------------
def finish_turn(s: PragaState) -> None:
    """P-CRANE-9 steps 2-5, P-CLOCK-1..8, then the next turn or final scoring. After the
    last seat of a round, the sides the engine plays take their turns (solo.py)."""
    seat = s.seat
    rotate_crane(s, s.taken)
    s.turns += 1
    s.played[seat] += 1
    techs_in_force(s)
    n = s.players
    if s.bots is not None and seat == n - 1:
        s.seat = 0
        reset_turn(s)
        s.stack.append(L.hub(0))
        bot_round(s)
        return
    if s.turns >= C.turns_per_player * n:
        final.final_scoring(s)
        return
    s.seat = (seat + 1) % n
    reset_turn(s)
    s.stack.append(L.hub(s.seat))


def bot_round(s: PragaState) -> None:
    """After the last seat's turn: each bot that has not yet played this round takes its
    turn. A Parler turn that needs a choice of the human (where his building goes) stops
    here; the handler of that choice finishes the turn and calls this again. After the
    bots' 16th turn: final scoring."""
    assert s.bots is not None
    round_no = s.played[s.players - 1]
    for b in range(len(s.bots)):
        if s.bots[b][B_TURNS] < round_no:
            if s.opts.solo_opponent == "dummy":
                dummy_turn(s, b)
            elif not parler_turn(s, b):
                return
    if s.turns >= C.turns_per_player * s.players:
        final.final_scoring(s)


def reset_turn(s: PragaState) -> None:
    s.taken = -1
    s.taken_slot = -1
    s.action_done = False
    s.bonus = False
    s.special = False
    s.xact = 0
    s.refreshed = False
    s.moves_hw = 0
    s.moves_cat = 0
    s.performed = (0, 0, 0, 0, 0, 0)
    s.covered = 0
    s.t14 = False
    s.road_free = 0
    s.road_egg = 0

