"""The city map: Build Building (§4.6), blue corners (P-ADJ-9) and markets (§4.7).

Order inside one building (P-BLD-9, P-TIMING-3): choose tile -> choose site (the total
cost, tile plus Old Town surcharge, must be payable, P-BLD-2) -> orientation -> pay ->
rewards and the site's VP (P-BLD-3) -> placement and blue corners -> Cathedral symbol
(P-BLD-7) -> cube or immediate VP (P-MKT-3..5) -> completion (P-MKT-6/7).
"""

from __future__ import annotations

from functools import cache

from meeplehall.core.messages import M
from meeplehall.games.praga import hexgrid
from meeplehall.games.praga import links as L
from meeplehall.games.praga.components import BLUE_TOKEN, CATHEDRAL, load
from meeplehall.games.praga.effects import (
    active,
    earn_sideways,
    gain,
    gain_reward,
    log,
    pay,
    who,
)
from meeplehall.games.praga.state import PragaState

C = load()


def _site_corners() -> tuple[tuple[tuple[bool, tuple[tuple[int, int], ...]], ...], ...]:
    """Per site and board corner: a printed blue corner there?, other sites there."""
    out = []
    for site in C.sites:
        per = []
        for c in range(6):
            v = hexgrid.vertex(site.hex, c)
            others = tuple((C.site_at[h], hexgrid.corner_of(h, v)) for h in v
                           if h != site.hex and h in C.site_at)
            per.append((v in C.printed_blue, others))
        out.append(tuple(per))
    return tuple(out)


SITE_CORNERS = _site_corners()
ROAD_TILE_BUILDING = 1  # components.ROAD_TILE_EFFECTS: building-without-cathedral-vp


@cache
def blue_mask(building: int, orient: int) -> int:
    mask = 0
    for c in C.buildings[building].blue_corners:
        mask |= 1 << ((c + orient) % 6)
    return mask


def site_cost(building: int, site: int, discount: int) -> tuple[int, int]:
    """Gold and stone of a building on a site: tile cost + Old Town surcharge, minus a
    GL-T4-1 discount on the gold part only (P-EDGE-11)."""
    b = C.buildings[building]
    return max(0, b.gold + C.sites[site].surcharge - discount), b.stone


SURCHARGE = tuple(site.surcharge for site in C.sites)


def can_build(s: PragaState, seat: int, building: int, discount: int) -> bool:
    """Some free site where ``building`` is affordable (fast path of
    ``affordable_sites``: only the surcharge differs between sites)."""
    b = C.buildings[building]
    if b.stone > s.stone[seat]:
        return False
    room = s.gold[seat] + discount - b.gold  # the largest surcharge that can be paid
    if room < 0:
        return False
    tiles = s.site_tile
    return any(tiles[k] < 0 and SURCHARGE[k] <= room for k in range(len(tiles)))


def affordable_sites(s: PragaState, seat: int, building: int, discount: int) -> list[int]:
    gold, stone = s.gold[seat], s.stone[seat]
    out = []
    for site, tile in enumerate(s.site_tile):
        if tile < 0:
            g, st = site_cost(building, site, discount)
            if g <= gold and st <= stone:
                out.append(site)
    return out


def buildings_around(s: PragaState, market: int) -> int:
    return sum(1 for site in C.market_sites[market] if s.site_tile[site] >= 0)


def place_building(s: PragaState, seat: int, building: int, site: int, orient: int,
                   discount: int) -> None:
    b = C.buildings[building]
    sd = C.sites[site]
    gold, stone = site_cost(building, site, discount)
    pay(s, seat, gold=gold, stone=stone)
    spent = gold + stone if s.opts.spent == "paid" else b.gold + b.stone + sd.surcharge
    log(s, M("{seat} builds {building} on {site} for {gold} gold {stone} stone",
             seat=who(s, seat), building=b.id, site=sd.id, gold=gold, stone=stone))
    gain_reward(s, seat, b.reward)
    s.vp[seat] += sd.vp
    s.site_tile[site] = building
    s.site_owner[site] = seat
    s.site_orient[site] = orient
    s.site_spent[site] = spent
    # blue corners (P-ADJ-9/10)
    mask = blue_mask(building, orient)
    tokens = 0
    for c in range(6):
        if mask >> c & 1:
            printed, others = SITE_CORNERS[site][c]
            tokens += printed
            for other, oc in others:
                t = s.site_tile[other]
                if t >= 0 and blue_mask(t, s.site_orient[other]) >> oc & 1:
                    tokens += 1
    if tokens:
        gain(s, seat, BLUE_TOKEN, tokens)
    if b.cathedral:
        earn_sideways(s, seat, CATHEDRAL)  # P-BLD-7
    for t in active(s, seat, "GL-T2-1"):
        if b.cathedral:
            s.vp[seat] += 1
            gain(s, seat, C.technologies[t].resource, 1)
    for t in active(s, seat, "GL-T2-3"):
        if not b.cathedral:
            s.vp[seat] += 1
            gain(s, seat, C.technologies[t].resource, 1)
    road = s.road[seat]
    if (not b.cathedral and road and s.road_effect[road - 1] == ROAD_TILE_BUILDING):
        s.vp[seat] += 3  # GL-RT2
    market = sd.market
    if b.cube:
        if s.market_tile[market] >= 0 and s.cubes[seat] > 0:  # P-MKT-3/4/11
            s.cubes[seat] -= 1
            s.site_cube[site] = True
    else:
        s.vp[seat] += buildings_around(s, market)  # P-MKT-5
    if buildings_around(s, market) == len(C.market_sites[market]):
        score_market(s, market)


def claims(s: PragaState, market: int) -> dict[int, tuple[int, int]]:
    """Seat -> (cubes, spent on the buildings carrying them) around a market."""
    out: dict[int, tuple[int, int]] = {}
    for site in C.market_sites[market]:
        if s.site_cube[site]:
            owner = s.site_owner[site]
            cubes, spent = out.get(owner, (0, 0))
            out[owner] = (cubes + 1, spent + s.site_spent[site])
    return out


def score_market(s: PragaState, market: int) -> None:
    """P-MKT-6/7: majority gets both rewards (tie: more spent, then all tied); every
    other claimant chooses one; cubes go home."""
    s.market_done[market] = True
    tile_index = s.market_tile[market]
    if tile_index < 0:
        return
    tile = C.market_tiles[tile_index]
    found = claims(s, market)
    if found:
        best = max(found.values())
        for seat in sorted(found):
            if found[seat] == best:
                log(s, M("market {market}: {seat} takes both rewards",
                         market=C.markets[market].id, seat=who(s, seat)))
                gain_reward(s, seat, tile.upper)
                gain_reward(s, seat, tile.lower)
            else:
                s.stack.append(L.choose(seat, (tile.upper, tile.lower),
                                        f"market {C.markets[market].id}"))
    for site in C.market_sites[market]:
        if s.site_cube[site]:
            s.site_cube[site] = False
            s.cubes[s.site_owner[site]] += 1

