"""Peter Parler, the publishers' solo opponent (P-SOLO-4; the evidence file's "Peter Parler
solo opponent", P.1-P.7), with up to three bots. Data: ``parler_data.py``
(``data/solo/parler.toml``); reading choices: docs/praga-solo.md.

Each bot's turn (P.4): reveal a card (drawn at random from the cards left in this cycle
of five, P.3), do its sections (take an upgrade or wall tile and put it under its stack,
construct a building at his pawn's plaza, +1 gold mine / quarry with the production-token
and seal thresholds), then recycle the oldest / 2nd / 3rd-oldest action tile by the
normal end-of-turn rules (``solo.recycle``). He pays nothing, gains nothing and scores
nothing; his cubes compete for plaza majorities and his seals are lost to the people.

Choices the rules leave to the human stay the human's decisions: where each pawn starts
(``at-market``), and where and how a Parler building is placed when there is more than one
way (``site``, then ``orient``; the blue-corner rule of P.5 step 2 limits the options).
"""

from __future__ import annotations

from functools import partial

from meeplehall.core.messages import M, term
from meeplehall.games.praga import links as L
from meeplehall.games.praga.actions_family import refill, stack_index
from meeplehall.games.praga.city import (
    SITE_CORNERS,
    blue_mask,
    buildings_around,
    claims,
    place_building,
)
from meeplehall.games.praga.components import load
from meeplehall.games.praga.effects import (
    GOLD_TRACK,
    best_final,
    gain_reward,
    in_final,
    log,
    side_name,
)
from meeplehall.games.praga.parler_data import PARLER as PARLER
from meeplehall.games.praga.solo import (
    B_CARD,
    B_CUBES,
    B_DECK,
    B_MINES,
    B_PAWN,
    B_PTR,
    B_QUARRIES,
    put,
    recycle,
)
from meeplehall.games.praga.state import (
    BUILDING_ROW,
    ROW_NAMES,
    UPGRADE_ROW,
    WALL_ROW,
    PragaState,
)
from meeplehall.games.praga.texts import ROW_TERMS

C = load()
FULL_DECK = (1 << len(PARLER.cards)) - 1


def side(s: PragaState, b: int) -> int:
    return s.players + b


# --- setup (P.2) ------------------------------------------------------------------------
def setup_parler(s: PragaState) -> None:
    """P.2 step 5: counters, row pointers at random 1-4 (different bots never share a
    start position in a row); step 4: his cubes ([reading] all 11 of his colour, as he
    has no boards to mark); step 3: each pawn's plaza is the human's choice."""
    n = s.opts.parler_bots
    starts = []
    for _ in ROW_NAMES:
        perm = [0, 1, 2, 3]
        s.rng.shuffle(perm)
        starts.append(perm)
    s.bots = tuple(
        (0, PARLER.start_mines, PARLER.start_quarries, starts[0][b], starts[1][b],
         starts[2][b], -1, -1, C.cubes, FULL_DECK) for b in range(n))
    for b in reversed(range(n)):
        s.stack.append(L.parler_pawn(0, b))


# --- the plazas and the pawn (P.5) ------------------------------------------------------
def buildable(s: PragaState, market: int) -> bool:
    """A plaza in use, not yet scored, with a free site."""
    return (s.market_tile[market] >= 0 and not s.market_done[market]
            and any(s.site_tile[x] < 0 for x in C.market_sites[market]))


def _loop(s: PragaState) -> list[int]:
    return [m for m in PARLER.loop if s.market_tile[m] >= 0]


def move_pawn(s: PragaState, b: int, steps: int) -> None:
    """P.5 step 5: ``steps`` plazas clockwise, then on to the next plaza where he can
    still build (step 6 with ``steps`` = 0); -1 when there is none."""
    assert s.bots is not None
    pawn = s.bots[b][B_PAWN]
    if pawn < 0:
        return
    loop = _loop(s)
    start = (loop.index(pawn) + steps) % len(loop)
    for k in range(len(loop)):
        m = loop[(start + k) % len(loop)]
        if buildable(s, m):
            if m != pawn:
                log(s, M("{bot}'s pawn moves to market {market}", bot=PARLER.names[b],
                         market=C.markets[m].id))
            put(s, b, B_PAWN, m)
            return
    put(s, b, B_PAWN, -1)
    log(s, M("{bot}'s pawn has no plaza left to build at", bot=PARLER.names[b]))


def settle_pawns(s: PragaState) -> None:
    """P.5 step 6: a pawn whose plaza can take no more buildings moves on at once."""
    assert s.bots is not None
    for b, bot in enumerate(s.bots):
        if bot[B_PAWN] >= 0 and not buildable(s, bot[B_PAWN]):
            move_pawn(s, b, 0)


# --- his turn (P.4) ---------------------------------------------------------------------
def parler_turn(s: PragaState, b: int) -> bool:
    """Play bot ``b``'s turn; False when it waits for the human to place his building
    (the turn is then finished by ``finish_building``)."""
    assert s.bots is not None
    deck = s.bots[b][B_DECK] or FULL_DECK  # P.3: an empty pile is reshuffled
    left = [k for k in range(len(PARLER.cards)) if deck >> k & 1]
    card = left[s.rng.randbelow(len(left))]
    put(s, b, B_DECK, deck & ~(1 << card))
    put(s, b, B_CARD, card)
    log(s, M("{bot} reveals card {card}", bot=PARLER.names[b], card=PARLER.cards[card].id))
    for section in PARLER.cards[card].sections:
        if section == "building":
            if not _start_building(s, b):
                return False
        elif section == "wall":
            _take_tile(s, b, WALL_ROW)
        elif section == "upgrade":
            _take_tile(s, b, UPGRADE_ROW)
        elif section == "mine":
            _raise(s, b, GOLD_TRACK)
        elif section == "quarry":
            _raise(s, b, 1 - GOLD_TRACK)
        else:
            _mine_or_quarry(s, b)
    _finish(s, b)
    return True


def _finish(s: PragaState, b: int) -> None:
    """P.4 step 4: recycle the action tile the card names."""
    assert s.bots is not None
    recycle(s, b, PARLER.cards[s.bots[b][B_CARD]].recycle)


TILE_IDS = (lambda t: C.buildings[t].id, lambda t: C.walls[t].id,
            lambda t: C.upgrades[t].id)


def _next_position(s: PragaState, b: int, row: int) -> int:
    """The pointer's position in ``row``; the pointer moves on by 1 (after 4 comes 1)."""
    assert s.bots is not None
    pos = s.bots[b][B_PTR + row]
    put(s, b, B_PTR + row, (pos + 1) % 4)
    return pos


def _take_tile(s: PragaState, b: int, row: int) -> None:
    """P.5: the tile at his pointer (the 4th is the special tile) goes under its stack,
    then the gap is refilled; he keeps nothing."""
    pos = _next_position(s, b, row)
    tile = s.rows[row][pos]
    if tile < 0:
        log(s, M("{bot}: position {n} of the {row} row is empty, nothing to take",
                 bot=PARLER.names[b], n=pos + 1, row=ROW_TERMS[row]))
        return
    k = stack_index(s, row, pos == 3)
    s.stacks[k] = (*s.stacks[k], tile)
    refill(s, row, pos)
    log(s, M("{bot} takes {row} tile {tile} (position {n}) and puts it under its stack",
             bot=PARLER.names[b], row=ROW_TERMS[row], tile=TILE_IDS[row](tile),
             n=pos + 1))


def _raise(s: PragaState, b: int, track: int) -> None:
    """+1 gold mine / quarry (skipped when full), then the thresholds (P.4 step 3)."""
    assert s.bots is not None
    gold = track == GOLD_TRACK
    field = B_MINES if gold else B_QUARRIES
    top = PARLER.max_mines if gold else PARLER.max_quarries
    what = "gold mine" if gold else "quarry"
    value = s.bots[b][field]
    if value >= top:
        log(s, M("{bot}: +1 {what} skipped (his track is full)", bot=PARLER.names[b],
                 what=term(what)))
        return
    value += 1
    put(s, b, field, value)
    log(s, M("{bot}: +1 {what} ({n})", bot=PARLER.names[b], what=term(what), n=value))
    if value == (PARLER.token_mines if gold else PARLER.token_quarries) and s.river:
        river = list(s.river)
        token = river.pop(s.rng.randbelow(len(river)))
        s.river = tuple(river)
        log(s, M("{bot} discards production token {token}", bot=PARLER.names[b],
                 token=C.production_tokens[token].id))
    if value == top:
        _claim_seal(s, b, PARLER.gold_seal if gold else PARLER.stone_seal)


def _claim_seal(s: PragaState, b: int, seal: int) -> None:
    """P.4 step 3: the gold / stone seal, else the 6-VP seal; a cube, no payment."""
    assert s.bots is not None
    if s.seal_owner[seal] >= 0:
        seal = PARLER.fallback_seal
    name = PARLER.names[b]
    if s.seal_owner[seal] >= 0:
        log(s, M("{bot}: no seal left to claim", bot=name))
        return
    if s.bots[b][B_CUBES] <= 0:  # as P-EDGE-9 for people
        log(s, M("{bot}: no cube left to claim a seal", bot=name))
        return
    put(s, b, B_CUBES, s.bots[b][B_CUBES] - 1)
    s.seal_owner[seal] = side(s, b)
    log(s, M("{bot} claims seal {seal}", bot=name, seal=C.seals[seal].id))


def _mine_or_quarry(s: PragaState, b: int) -> None:
    """Card 3: raise the one the people have more of (their own mines against their own
    quarries); equal: both; a full track: the other; gold first."""
    assert s.bots is not None
    mines = sum(s.mine[p] - 1 for p in range(s.players))
    quarries = sum(s.quarry[p] - 1 for p in range(s.players))
    want = [GOLD_TRACK] if mines > quarries else [1 - GOLD_TRACK] if quarries > mines \
        else [GOLD_TRACK, 1 - GOLD_TRACK]
    bot = s.bots[b]
    full = {GOLD_TRACK: bot[B_MINES] >= PARLER.max_mines,
            1 - GOLD_TRACK: bot[B_QUARRIES] >= PARLER.max_quarries}
    if len(want) == 1 and full[want[0]]:
        want = [1 - want[0]]
    for track in want:
        _raise(s, b, track)


# --- his buildings (P.5) ----------------------------------------------------------------
def _touches(s: PragaState, tile: int, site: int, orient: int) -> bool:
    """A blue corner of ``tile`` meets a printed blue corner or another building's."""
    mask = blue_mask(tile, orient)
    for c in range(6):
        if mask >> c & 1:
            printed, others = SITE_CORNERS[site][c]
            if printed:
                return True
            for other, oc in others:
                t = s.site_tile[other]
                if t >= 0 and blue_mask(t, s.site_orient[other]) >> oc & 1:
                    return True
    return False


def placements(s: PragaState, tile: int, market: int) -> list[tuple[int, int]]:
    """P.5 step 2: free sites at the plaza; a tile with a blue corner must touch another
    blue corner if it can; orientations that give the same corners count once."""
    free = [x for x in C.market_sites[market] if s.site_tile[x] < 0]
    if not blue_mask(tile, 0):
        return [(x, 0) for x in free]
    orients: list[int] = []
    masks: set[int] = set()
    for o in range(6):
        if blue_mask(tile, o) not in masks:
            masks.add(blue_mask(tile, o))
            orients.append(o)
    every = [(x, o) for x in free for o in orients]
    touching = [(x, o) for x, o in every if _touches(s, tile, x, o)]
    return touching or every


def _start_building(s: PragaState, b: int) -> bool:
    """P.5 steps 1-2: the building at his pointer, placed at his pawn's plaza. False
    when the human must choose the site or the orientation."""
    assert s.bots is not None
    name = PARLER.names[b]
    pawn = s.bots[b][B_PAWN]
    if pawn < 0:
        log(s, M("{bot}: no plaza left to build at", bot=name))
        return True
    pos = _next_position(s, b, BUILDING_ROW)
    tile = s.rows[BUILDING_ROW][pos]
    if tile < 0:
        log(s, M("{bot}: position {n} of the building row is empty, nothing built",
                 bot=name, n=pos + 1))
        return True
    refill(s, BUILDING_ROW, pos)
    log(s, M("{bot} takes building {tile} (position {n}) to build at market {market}",
             bot=name, tile=C.buildings[tile].id, n=pos + 1, market=C.markets[pawn].id))
    options = placements(s, tile, pawn)
    sites = sorted({x for x, _ in options})
    if len(sites) > 1:
        s.stack.append(L.parler_site(0, b, tile))
        return False
    orients = [o for x, o in options if x == sites[0]]
    if len(orients) > 1:
        s.stack.append(L.parler_orient(0, b, tile, sites[0]))
        return False
    place_parler_building(s, b, tile, sites[0], orients[0])
    return True


def place_parler_building(s: PragaState, b: int, tile: int, site: int, orient: int) -> None:
    """P.5 steps 3-6: his cube on a cube space, plaza scoring when it was the last free
    site, then his pawn moves one plaza per point of the printed cost. He pays nothing and
    gets nothing (no Old Town VP, no corners, no Cathedral move)."""
    assert s.bots is not None
    bd = C.buildings[tile]
    market = C.sites[site].market
    s.site_tile[site] = tile
    s.site_owner[site] = side(s, b)
    s.site_orient[site] = orient
    s.site_spent[site] = bd.gold + bd.stone  # [reading] the printed cost
    cube = bd.cube and s.market_tile[market] >= 0 and s.bots[b][B_CUBES] > 0
    if cube:
        put(s, b, B_CUBES, s.bots[b][B_CUBES] - 1)
        s.site_cube[site] = True
    log(s, M("{bot} builds {building} on {site} and puts a cube on it" if cube
             else "{bot} builds {building} on {site}", bot=PARLER.names[b], building=bd.id,
             site=C.sites[site].id))
    if buildings_around(s, market) == len(C.market_sites[market]):
        score_market(s, market)
    move_pawn(s, b, bd.gold + bd.stone)
    settle_pawns(s)


def score_market(s: PragaState, market: int) -> None:
    """P-MKT-6/7 with Parler (P.5 step 4): his cubes count for the majority and the
    spending tie-break, he takes no reward; people get none, one or both as usual.
    During final scoring a choice takes the better reward (``effects.best_final``)."""
    assert s.bots is not None
    s.market_done[market] = True
    tile_index = s.market_tile[market]
    if tile_index < 0:
        return
    tile = C.market_tiles[tile_index]
    found = claims(s, market)
    where = C.markets[market].id
    if found:
        best = max(found.values())
        for owner in sorted(found):
            if owner >= s.players:
                if found[owner] == best:
                    log(s, M("market {market}: {bot} has the majority and takes nothing",
                             market=where, bot=PARLER.names[owner - s.players]))
                continue
            if found[owner] == best:
                log(s, M("market {market}: {seat} takes both rewards", market=where,
                         seat=term(side_name(s, owner))))
                gain_reward(s, owner, tile.upper)
                gain_reward(s, owner, tile.lower)
            elif in_final(s):
                options = tuple(partial(gain_reward, seat=owner, reward=r)
                                for r in (tile.upper, tile.lower))
                gain_reward(s, owner, (tile.upper, tile.lower)[best_final(s, owner, options)])
            else:
                s.stack.append(L.choose(owner, (tile.upper, tile.lower), f"market {where}"))
    for x in C.market_sites[market]:
        if s.site_cube[x]:
            s.site_cube[x] = False
            owner = s.site_owner[x]
            if owner >= s.players:
                b = owner - s.players
                put(s, b, B_CUBES, s.bots[b][B_CUBES] + 1)
            else:
                s.cubes[owner] += 1


def human_build(s: PragaState, seat: int, tile: int, site: int, orient: int,
                discount: int) -> None:
    """A person's building in a game with Parler: as ``city.place_building``, but a plaza
    completed while Parler has cubes there is scored by ``score_market`` (his cubes count,
    he takes nothing); then pawns on a plaza that is now full move on (P.5 step 6)."""
    market = C.sites[site].market
    sites = C.market_sites[market]
    completes = buildings_around(s, market) == len(sites) - 1
    if completes and s.market_tile[market] >= 0 and any(
            s.site_cube[x] and s.site_owner[x] >= s.players for x in sites):
        # city.place_building scores nothing at a plaza without a tile: hide the tile
        # while it places the building, then score the plaza here with Parler's cubes.
        shown = s.market_tile
        cube = C.buildings[tile].cube and s.cubes[seat] > 0
        s.market_tile = (*shown[:market], -1, *shown[market + 1:])
        place_building(s, seat, tile, site, orient, discount)
        s.market_tile = shown
        if cube:  # P-MKT-3: the cube goes on, and comes home at once with the scoring
            s.cubes[seat] -= 1
            s.site_cube[site] = True
        score_market(s, market)
    else:
        place_building(s, seat, tile, site, orient, discount)
    settle_pawns(s)


# --- the human's choices for Parler (decisions.ParlerPawn/ParlerSite/ParlerOrient) ------
def start_pawn(s: PragaState, b: int, market: int) -> None:
    """P.2 step 3: bot ``b``'s pawn starts at ``market``."""
    put(s, b, B_PAWN, market)
    log(s, M("{bot}'s pawn starts at market {market}", bot=PARLER.names[b],
             market=C.markets[market].id))


def finish_building(s: PragaState, b: int, tile: int, site: int, orient: int) -> None:
    """Place bot ``b``'s building where the human chose and finish his turn (the round
    goes on with ``turn.bot_round``)."""
    place_parler_building(s, b, tile, site, orient)
    _finish(s, b)
