"""Build King's Road (§4.8) and the Charles Bridge (§4.9).

Spaces I-III show a free effect and an egg effect (GL-R1..R5 and the reconstructed
sixth, data/road.toml), kept pending in the hub until used or the turn ends (P-ROAD-3):
a free effect that costs nothing is applied at the end of the turn if not taken earlier;
the optional ones (GL-R2 pays gold, the egg effects pay an egg) lapse. Spaces IV and V
cost an egg to enter and run the bridge procedures (P-ROAD-4/5, P-BRIDGE-2/3).
"""

from __future__ import annotations

from meeplehall.core.messages import M
from meeplehall.games.praga import links as L
from meeplehall.games.praga.board import owned_upgrades
from meeplehall.games.praga.components import (
    BLUE_TOKEN,
    CATHEDRAL,
    GOLD_WINDOW,
    HUNGER_WALL,
    IV_EFFECTS,
    MINE,
    QUARRY,
    RED_TOKEN,
    ROAD_EGG,
    ROAD_FREE,
    SILVER,
    TECH,
    UNIV,
    Reward,
    load,
)
from meeplehall.games.praga.effects import earn_sideways, gain, gain_reward, log, pay, who
from meeplehall.games.praga.state import PragaState

C = load()


def can_road(s: PragaState, seat: int) -> bool:
    """P-ROAD-4/5/6, P-ACT-3, LANG-10."""
    at = s.road[seat]
    if at >= len(C.road):
        return False
    space = C.road[at]
    if s.eggs[seat] < space.entry_eggs:
        return False
    return not (space.bridge == "v" and not s.v_pile and s.opts.empty_v_pile == "forbidden")


def do_road(s: PragaState, seat: int) -> None:
    """Advance the pawn one space and resolve what entering it asks for."""
    space = C.road[s.road[seat]]
    if space.entry_eggs:
        s.eggs[seat] -= space.entry_eggs
    s.road[seat] += 1
    log(s, M("{seat} moves to King's Road space {n}", seat=who(s, seat), n=space.numeral))
    if space.free >= 0:
        resolve_free_at_end(s)
        covered = s.road_effect[space.numeral - 1] >= 0  # P-VAR-2: a tile covers it
        s.road_free = 0 if covered else space.numeral
        s.road_egg = space.numeral
    if space.bridge == "iv":
        drawn = s.iv_stack[:3]
        s.iv_stack = s.iv_stack[3:]
        if drawn:
            s.stack.append(L.bridge_tile(seat, drawn, 0))
    elif space.bridge == "v" and s.v_pile:
        s.stack.append(L.bridge_tile(seat, s.v_pile, 1))


def free_effect(s: PragaState) -> str:
    return ROAD_FREE[C.road[s.road_free - 1].free]


def can_free(s: PragaState) -> bool:
    return s.road_free > 0 and (free_effect(s) != "gold-for-vp" or s.gold[s.seat] >= 1)


def apply_free(s: PragaState) -> None:
    """GL-R2 (pay 1 gold for 4 VP), GL-R5 (2 VP per silver window), GL-R1 (3 VP per era I
    upgrade tile, covered ones included)."""
    seat = s.seat
    effect = free_effect(s)
    s.road_free = 0
    if effect == "gold-for-vp":
        pay(s, seat, gold=1)
        s.vp[seat] += 4
    elif effect == "vp-per-silver":
        s.vp[seat] += 2 * s.silver[seat]
    else:
        s.vp[seat] += 3 * owned_upgrades(s, seat, era=1)


def resolve_free_at_end(s: PragaState) -> None:
    if s.road_free > 0 and free_effect(s) != "gold-for-vp":
        apply_free(s)
    s.road_free = 0
    s.road_egg = 0


def egg_options(s: PragaState) -> tuple[Reward, ...]:
    """The two rewards of a space's egg effect (GL-R3, GL-R4, sixth effect)."""
    effect = ROAD_EGG[C.road[s.road_egg - 1].egg]
    if effect == "window-or-tech":
        return (((GOLD_WINDOW, 1),), ((TECH, 1),))
    if effect == "silver-or-mine-and-quarry":
        if s.opts.road_mine_and_quarry == "one":
            return (((SILVER, 2),), ((MINE, 1),), ((QUARRY, 1),))
        return (((SILVER, 2),), ((MINE, 1), (QUARRY, 1)))
    return (((RED_TOKEN, 1),), ((BLUE_TOKEN, 1),))


def apply_egg(s: PragaState) -> None:
    seat = s.seat
    s.eggs[seat] -= 1
    options = egg_options(s)
    s.road_egg = 0
    s.stack.append(L.choose(seat, options, "King's Road egg effect"))


def bridge_complete(s: PragaState) -> bool:
    return min(s.bridge) >= 0


def keep_bridge_tile(s: PragaState, seat: int, tiles: tuple[int, ...], pile: int,
                     tile: int) -> None:
    """P-BRIDGE-2/3/5/7: the tile's bonus (IV) or ownership (V), then a plank if the
    bridge still has room (its two fields' bonuses)."""
    t = C.bridge_tiles[tile]
    if pile == 0:
        s.iv_stack += tuple(x for x in tiles if x != tile)
        effect = IV_EFFECTS[t.effect]
        if effect == "hw-left-window-vp":
            earn_sideways(s, seat, HUNGER_WALL)
            gain(s, seat, SILVER, 1)
            s.vp[seat] += 2
        elif effect == "cathedral-right-window-vp":
            earn_sideways(s, seat, CATHEDRAL)
            gain(s, seat, SILVER, 1)
            s.vp[seat] += 2
        else:
            gain(s, seat, TECH if t.track == 0 else UNIV, 3)
    else:
        s.v_pile = tuple(x for x in s.v_pile if x != tile)
        s.v_tile[seat] = tile
        s.vp[seat] += t.now_vp
    log(s, M("{seat} takes bridge tile {tile}", seat=who(s, seat), tile=t.id))
    if not bridge_complete(s):
        s.stack.append(L.plank(seat, tile))


def lay_plank(s: PragaState, seat: int, tile: int, position: int) -> None:
    s.bridge[position] = tile
    first, second = s.planks[position]
    gain_reward(s, seat, first)
    gain_reward(s, seat, second)
