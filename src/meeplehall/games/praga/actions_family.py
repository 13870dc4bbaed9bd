"""Performing the six actions (§4) and the hex-tile rows (§5).

``performable`` is the one place that says whether an action can be performed now
(P-ACT-3): the hub, the tile choice, the extra action and the technologies all ask it,
and ``start_action`` begins a performance (P-ACT-2: upgrade bonus, King's Road tiles,
then the action's first decision).
"""

from __future__ import annotations

from meeplehall.core.messages import M
from meeplehall.games.praga import crane as K
from meeplehall.games.praga import links as L
from meeplehall.games.praga.board import (
    has_features,
    place_upgrade,
    place_wall,
    upgrade_bonus,
)
from meeplehall.games.praga.city import can_build
from meeplehall.games.praga.components import (
    BUILDING,
    GOLD,
    HUNGER_WALL,
    MINES,
    QUARRIES,
    ROAD,
    STONE,
    UPGRADE,
    WALL,
    load,
)
from meeplehall.games.praga.effects import (
    GOLD_TRACK,
    QUARRY_TRACK,
    active,
    earn_sideways,
    gain,
    gain_reward,
    log,
    pay,
    who,
)
from meeplehall.games.praga.road import can_road, do_road
from meeplehall.games.praga.state import (
    BUILDING_ROW,
    SRC_TILE,
    UPGRADE_ROW,
    WALL_ROW,
    PragaState,
)
from meeplehall.games.praga.texts import ACTION_OBJECTS

C = load()
ROW_OF_ACTION = {BUILDING: BUILDING_ROW, WALL: WALL_ROW, UPGRADE: UPGRADE_ROW}
RT_UPGRADE, RT_WALL = 0, 2  # components.ROAD_TILE_EFFECTS indices
GOLD_STONE = (((1, 1),), ((2, 1),))  # 1 gold / 1 stone
# Per board position: the gold to pay (red zone) and the VP gained (blue zone) for taking
# a tile there (P-CRANE-4/5).
RED_COST = tuple(K.zone_cost(C.crane, board) for board in range(C.crane.positions))
BLUE_VP = tuple(K.zone_vp(C.crane, board) for board in range(C.crane.positions))


def stack_index(s: PragaState, row: int, special: bool) -> int:
    return (s.era - 1) * 6 + row * 2 + int(special)


def refill(s: PragaState, row: int, pos: int) -> None:
    """P-ROW-2: refill a position from the matching stack; empty stack: stays empty."""
    k = stack_index(s, row, pos == 3)
    stack = s.stacks[k]
    tiles = list(s.rows[row])
    if stack:
        tiles[pos] = stack[0]
        s.stacks[k] = stack[1:]
    else:
        tiles[pos] = -1
    s.rows[row] = tuple(tiles)


def deal_rows(s: PragaState) -> None:
    """P-SETUP-11, P-CLOCK-4: 3 normal + 1 special (rightmost) per row."""
    for row in range(3):
        s.rows[row] = (-1, -1, -1, -1)
        for pos in range(4):
            refill(s, row, pos)


def wall_cost(wall: int, discount: int) -> tuple[int, int]:
    w = C.walls[wall]
    return w.gold, max(0, w.stone - discount)  # GL-T4-2 reduces stone only (P-EDGE-11)


def pick_options(s: PragaState, seat: int, row: int, source: int, discount: int,
                 first: bool = False) -> list[int]:
    """Row positions whose tile may be taken (P-ROW-3: the special one only with the
    special-tile bonus for the taken tile's action; P-WALL-2 / P-BLD-2 affordability);
    with ``first``, only the first of them (``performable`` asks whether there is one)."""
    out = []
    tiles = s.rows[row]
    last = 4 if source == SRC_TILE and s.special else 3
    for pos in range(last):
        tile = tiles[pos]
        if tile < 0:
            continue
        if row == WALL_ROW:
            gold, stone = wall_cost(tile, discount)
            if gold > s.gold[seat] or stone > s.stone[seat]:
                continue
        elif row == BUILDING_ROW and not can_build(s, seat, tile, discount):
            continue
        out.append(pos)
        if first:
            break
    return out


def performable(s: PragaState, seat: int, action: int, source: int,
                discount: int = 0) -> bool:
    if action in (MINES, QUARRIES):
        return True  # produce is always possible
    if action == ROAD:
        return can_road(s, seat)
    if action == WALL and min(s.walls[seat]) >= 0:
        return False  # no free wall position (``free_wall_positions`` is empty)
    return bool(pick_options(s, seat, ROW_OF_ACTION[action], source, discount, first=True))


def take_vp(s: PragaState, seat: int, vp: int) -> None:
    """VP for taking the action tile (blue zone, 5-VP token, special bonus); GL-T1-4
    adds 1 VP once per turn."""
    if vp <= 0:
        return
    s.vp[seat] += vp
    if not s.t14 and active(s, seat, "GL-T1-4"):
        s.t14 = True
        s.vp[seat] += 1


def special_vp(s: PragaState, seat: int) -> None:
    """P-ROW-3, GL-W2: the unused special-tile bonus gives the VP of its slot."""
    s.special = False
    take_vp(s, seat, C.crane.slots[s.taken_slot - 1].vp)


def start_action(s: PragaState, seat: int, action: int, source: int, discount: int) -> None:
    """Begin one performance (P-ACT-2, P-ACT-4, P-UPG-6, P-EFR-3, GL-RT1/RT3).

    The triggers come first (upgrade bonus, King's Road tile): choices they push are
    answered before the action's own first decision, which goes under them on the stack
    (e.g. GL-RT1's gold/stone before the Upgrade action's tile choice). The Upgrade
    action's own upgrade bonus is paid once its tile is placed (``place_upgrade``):
    upgrades cost nothing, so nothing before the placement can need it, and a re-upgraded
    Upgrade hex then offers the old or the new bonus (P-UPG-5/7)."""
    base = len(s.stack)
    counts = list(s.performed)
    counts[action] += 1
    s.performed = tuple(counts)
    log(s, M(("{seat} performs {action}", "{seat} performs {action} as the extra action",
              "{seat} performs {action} (technology)")[source], seat=who(s, seat),
             action=ACTION_OBJECTS[action]))
    if action != UPGRADE and s.upg[seat][action]:  # an upgraded hex (P-UPG-6); the
        upgrade_bonus(s, seat, action)  # Upgrade action's bonus follows its placement
    road = s.road[seat]
    effect = s.road_effect[road - 1] if road else -1
    if effect == RT_UPGRADE and action == UPGRADE:
        s.vp[seat] += 2
        s.stack.append(L.choose(seat, GOLD_STONE, "King's Road tile"))
    elif effect == RT_WALL and action == WALL:
        s.vp[seat] += 2
    if source == SRC_TILE and s.special and action not in ROW_OF_ACTION:
        special_vp(s, seat)
    if action in (MINES, QUARRIES):
        s.stack.insert(base, L.mine(seat, GOLD_TRACK if action == MINES else QUARRY_TRACK))
    elif action == ROAD:
        do_road(s, seat)
    else:
        s.stack.insert(base, L.pick(seat, ROW_OF_ACTION[action], source, discount))


def pick_tile(s: PragaState, seat: int, row: int, source: int, discount: int,
              pos: int) -> None:
    """Take a row tile and go on with what its action needs."""
    tile = s.rows[row][pos]
    if source == SRC_TILE and s.special:
        if pos == 3:
            s.special = False
        else:
            special_vp(s, seat)
    refill(s, row, pos)
    if row == BUILDING_ROW:
        log(s, M("{seat} takes building {tile}", seat=who(s, seat), tile=C.buildings[tile].id))
        s.stack.append(L.site(seat, tile, discount, -1))
    elif row == WALL_ROW:
        w = C.walls[tile]
        gold, stone = wall_cost(tile, discount)
        pay(s, seat, gold=gold, stone=stone)  # P-WALL-2
        log(s, M("{seat} takes wall {tile} for {gold} gold {stone} stone", seat=who(s, seat),
                 tile=w.id, gold=gold, stone=stone))
        gain_reward(s, seat, w.reward)  # P-WALL-3
        if w.hunger_wall:
            earn_sideways(s, seat, HUNGER_WALL)  # P-WALL-6
            for t in active(s, seat, "GL-T2-5"):
                s.vp[seat] += 1
                gain(s, seat, C.technologies[t].resource, 1)
        s.stack.append(L.wall_at(seat, tile))
    else:
        log(s, M("{seat} takes upgrade {tile}", seat=who(s, seat), tile=C.upgrades[tile].id))
    if row != UPGRADE_ROW:
        return
    if has_features(False, tile):
        s.stack.append(L.orient(seat, UPGRADE_ROW, tile, C.upgrades[tile].action, 0))
    else:
        place_upgrade(s, seat, tile, 0)


def wall_at(s: PragaState, seat: int, tile: int, pos: int) -> None:
    if has_features(True, tile):
        s.stack.append(L.orient(seat, WALL_ROW, tile, pos, 0))
    else:
        place_wall(s, seat, tile, pos, 0)


def egg_price(s: PragaState, w: int) -> tuple[int, int, int, int]:
    """The price of the egg sold by wheel slot ``w`` (P-CRANE-7): gold as the rulebooks
    say, or with option ``egg_price = "art"`` the price the crane art seems to show."""
    slot = C.crane.slots[w - 1]
    if s.opts.egg_price == "art" and any(slot.art_price):
        return slot.art_price
    return slot.price


def wheel_gains(s: PragaState, seat: int, w: int) -> tuple[tuple[int, int], ...]:
    """What the gain bonus of wheel slot ``w`` gives ``seat`` (GL-W1..W3), with GL-T1-1's
    one more of the shown resource per such technology in force."""
    printed = C.crane.slots[w - 1].gain
    techs = active(s, seat, "GL-T1-1")
    if not techs:
        return printed
    return tuple(
        (kind, amount + sum(1 for t in techs if C.technologies[t].resource == kind))
        for kind, amount in printed)


def tile_performable(s: PragaState, seat: int, tile: int, w: int, bonus: bool,
                     special: bool) -> bool:
    """Can an action of action tile ``tile`` be performed, counting what its wheel slot
    ``w`` gives (P-TURN-3, P-CRANE-6/7/8, P-ACT-3): with ``bonus``, the slot's gold and
    stone, or the egg it sells when its price can be paid; with ``special``, access to
    the special tile of the row. The state is changed only while asking."""
    first, second = pair = s.pairs[tile]
    if MINES in pair or QUARRIES in pair:
        return True  # produce is always possible
    saved = (s.gold[seat], s.stone[seat], s.eggs[seat], s.special)
    slot = C.crane.slots[w - 1]
    try:
        if bonus and slot.kind == 1:
            for kind, amount in wheel_gains(s, seat, w):
                if kind == GOLD:
                    s.gold[seat] = min(9, s.gold[seat] + amount)
                elif kind == STONE:
                    s.stone[seat] = min(9, s.stone[seat] + amount)
        elif bonus and slot.kind == 2:
            gold, stone, _, _ = egg_price(s, w)
            if s.gold[seat] >= gold and s.stone[seat] >= stone:
                s.gold[seat] -= gold
                s.stone[seat] -= stone
                s.eggs[seat] += 1
        s.special = special
        return (performable(s, seat, first, SRC_TILE)
                or performable(s, seat, second, SRC_TILE))
    finally:
        s.gold[seat], s.stone[seat], s.eggs[seat], s.special = saved


def takeable(s: PragaState, seat: int) -> list[int]:
    """Wheel slots whose tile may be taken now (P-CRANE-4, P-EDGE-1): its red cost is
    payable, and, if any tile offers a performable action, one that does. What the tile's
    own slot gives counts, after the red cost is paid (P-TURN-3, P-CRANE-6/8)."""
    payable: list[int] = []
    useful: list[int] = []
    gold = s.gold[seat]
    positions, rotation = C.crane.positions, s.rotation
    slots = s.slots
    for w in range(1, positions):
        tile = slots[w]
        if tile < 0:
            continue
        cost = RED_COST[(w + rotation) % positions]  # K.board_position
        if cost > gold:
            continue
        payable.append(w)
        pair = s.pairs[tile]
        if MINES in pair or QUARRIES in pair:
            useful.append(w)  # produce is always possible (tile_performable)
            continue
        s.gold[seat] = gold - cost
        try:
            if tile_performable(s, seat, tile, w, True, C.crane.slots[w - 1].kind == 0):
                useful.append(w)
        finally:
            s.gold[seat] = gold
    return useful or payable
