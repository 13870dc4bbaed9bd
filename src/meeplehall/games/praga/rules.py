"""The forward model: ``legal_actions`` and ``apply`` for every decision.

One generator per decision kind (``_GENERATORS``) and one handler per verb
(``_HANDLERS``), as STYLE.md section 3 asks; the hub's own generator and handlers and
the end of the turn live in ``turn.py``. The turn is a hub (§3.1, P-TURN-2/3,
P-TIMING-1): it offers at every moment exactly what may be done now; each choice inside
an action is its own small decision pushed on top of it. Steps with no choice (refills,
the crane's rotation, the clock, final scoring) happen inside ``apply``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from meeplehall.core.messages import Message, term
from meeplehall.core.protocol import IllegalActionError
from meeplehall.games.praga import actions as A
from meeplehall.games.praga import parler
from meeplehall.games.praga.actions_family import (
    performable,
    pick_options,
    pick_tile,
    refill,
    stack_index,
    start_action,
    wall_at,
)
from meeplehall.games.praga.board import (
    free_wall_positions,
    place_upgrade,
    place_wall,
)
from meeplehall.games.praga.city import affordable_sites, blue_mask, place_building
from meeplehall.games.praga.components import (
    GOLD,
    MINES,
    QUARRIES,
    STONE,
    UPGRADE,
    load,
)
from meeplehall.games.praga.effects import (
    GOLD_TRACK,
    add_resource,
    advance_track,
    can_move_up,
    gain_reward,
    grid_of,
    keep_technology,
    move_up,
    produce,
    side_name,
    take_cathedral_tile,
)
from meeplehall.games.praga.road import (
    keep_bridge_tile,
    lay_plank,
)
from meeplehall.games.praga.state import (
    ANY_ACTION,
    ARROW,
    BRIDGE_TILE,
    BUILDING_ROW,
    CAT_TILE,
    CHOOSE,
    DISCARD,
    GROW,
    MARKET_PICK,
    MINE,
    ORIENT,
    PARLER_ORIENT,
    PARLER_PAWN,
    PARLER_SITE,
    PICK,
    PLANK,
    REFRESH,
    SITE,
    SRC_TECH,
    TECH_DRAW,
    TECH_GRID,
    TOKEN,
    TURN,
    UPGRADE_ROW,
    WALL_AT,
    WALL_ROW,
    PragaState,
)
from meeplehall.games.praga.texts import ROW_TERMS
from meeplehall.games.praga.turn import (
    GRIDS,
    REFRESH_PAIRS,
    _gen_turn,
    _h_buy_extra,
    _h_claim_seal,
    _h_end_turn,
    _h_extra,
    _h_perform,
    _h_refresh,
    _h_road_egg,
    _h_road_free,
    _h_side,
    _h_take_tile,
    _h_up,
    _h_use_tech,
    _h_wheel_bonus,
    _refresh_ok,
    _row,
    finish_turn,
    tile_action_pending,
)

C = load()


# --- generators of the other decisions ---------------------------------------------------
def _gen_mine(s: PragaState, d: tuple[Any, ...]) -> list[A.PragaAction]:
    seat, track = d[1], d[2]
    t = C.gold_track if track == GOLD_TRACK else C.quarry_track
    pos = (s.mine if track == GOLD_TRACK else s.quarry)[seat]
    return [A.EXPAND, A.PRODUCE] if pos < t.spaces else [A.PRODUCE]  # P-MINE-6


def _gen_pick(s: PragaState, d: tuple[Any, ...]) -> list[A.PragaAction]:
    return [A.pick(p) for p in pick_options(s, d[1], d[2], d[3], d[4])]


def _gen_wall_at(s: PragaState, d: tuple[Any, ...]) -> list[A.PragaAction]:
    return [A.wall_at(k) for k in free_wall_positions(s, d[1])]


def _gen_site(s: PragaState, d: tuple[Any, ...]) -> list[A.PragaAction]:
    """P-BLD-4/5 in two steps: a market with an affordable free site, then the site."""
    sites = affordable_sites(s, d[1], d[2], d[3])
    if d[4] < 0:
        return [A.at_market(m) for m in sorted({C.sites[x].market for x in sites})]
    return [A.site(x) for x in sites if C.sites[x].market == d[4]]


def _gen_orient(s: PragaState, d: tuple[Any, ...]) -> list[A.PragaAction]:
    return [A.orient(o) for o in range(6)]


def _gen_refresh(s: PragaState, d: tuple[Any, ...]) -> list[A.PragaAction]:
    return [A.remove(i, j) for i, j in REFRESH_PAIRS if _refresh_ok(s, d[2], i, j)]


def _gen_choose(s: PragaState, d: tuple[Any, ...]) -> list[A.PragaAction]:
    return [A.choose(i) for i in range(len(d[2]))]


def _gen_tech_draw(s: PragaState, d: tuple[Any, ...]) -> list[A.PragaAction]:
    return [A.keep_tech(t) for t in sorted(d[2])]


def _gen_token(s: PragaState, d: tuple[Any, ...]) -> list[A.PragaAction]:
    return [A.token(t) for t in sorted(set(s.river))]


def _gen_bridge_tile(s: PragaState, d: tuple[Any, ...]) -> list[A.PragaAction]:
    return [A.bridge_tile(t) for t in sorted(d[2])]


def _gen_plank(s: PragaState, d: tuple[Any, ...]) -> list[A.PragaAction]:
    return [A.plank(k) for k, t in enumerate(s.bridge) if t < 0]


def _gen_arrow(s: PragaState, d: tuple[Any, ...]) -> list[A.PragaAction]:
    if can_move_up(s, d[1], d[2], windows=False):
        return [A.ARROW_UP, A.ARROW_STAY]
    return [A.ARROW_STAY]  # the tier cost can no longer be paid


def _gen_cat_tile(s: PragaState, d: tuple[Any, ...]) -> list[A.PragaAction]:
    return [A.cathedral_tile(t) for t in sorted(s.cat_pile)]


def _gen_discard(s: PragaState, d: tuple[Any, ...]) -> list[A.PragaAction]:
    seat = d[1]
    return [A.keep_silver(n) for n in range(3)
            if n <= s.silver[seat] and 2 - n <= s.goldw[seat]]


def _gen_any_action(s: PragaState, d: tuple[Any, ...]) -> list[A.PragaAction]:
    return [A.any_action(a) for a in range(6) if performable(s, d[1], a, SRC_TECH)]


def _gen_tech_grid(s: PragaState, d: tuple[Any, ...]) -> list[A.PragaAction]:
    return [A.tech_grid(g) for g in GRIDS
            if _row(s, d[1], g) + 1 < grid_of(s, g).rows]


def _gen_market_pick(s: PragaState, d: tuple[Any, ...]) -> list[A.PragaAction]:
    return [A.market_tile(m) for m, t in enumerate(s.market_tile) if t >= 0]


def _gen_grow(s: PragaState, d: tuple[Any, ...]) -> list[A.PragaAction]:
    return [A.grow(track, res) for track in (0, 1) for res in (0, 1)]


_GENERATORS: dict[int, Callable[[PragaState, tuple[Any, ...]], list[A.PragaAction]]] = {
    TURN: _gen_turn, MINE: _gen_mine, PICK: _gen_pick, WALL_AT: _gen_wall_at,
    SITE: _gen_site, ORIENT: _gen_orient, REFRESH: _gen_refresh, CHOOSE: _gen_choose,
    TECH_DRAW: _gen_tech_draw, TOKEN: _gen_token, BRIDGE_TILE: _gen_bridge_tile,
    PLANK: _gen_plank, ARROW: _gen_arrow, CAT_TILE: _gen_cat_tile, DISCARD: _gen_discard,
    ANY_ACTION: _gen_any_action, TECH_GRID: _gen_tech_grid, MARKET_PICK: _gen_market_pick,
    GROW: _gen_grow, **parler.GENERATORS,
}


def legal_actions(s: PragaState) -> tuple[A.PragaAction, ...]:
    """The legal actions of the decision on top of the stack, in generator order."""
    if s.final is not None or not s.stack:
        return ()
    d = s.stack[-1]
    out = _GENERATORS[d[0]](s, d)
    if s.taken >= 0 and not s.action_done and d[1] == s.seat and _fragile(s):
        return tuple(_keep_tile_action(s, d, out))
    return tuple(out)


# --- the tile action is mandatory (P-TURN-2 step 2, P-ACT-3, P-EDGE-1) -------------------
# Verbs that can spend gold, stone or eggs, take row tiles, fill a wall position or move
# the pawn: only these can make the taken tile's action impossible.
RISKY = frozenset({
    "refresh", "remove", "up", "side", "claim-seal", "wheel-bonus", "road-free",
    "road-egg", "use-tech", "extra", "any-action", "pick", "wall-at", "at-market", "site",
    "arrow-up", "tech-grid",
})
# Normal upgrade tiles shown + in the stack that no turn can use up before its tile
# action: the extra action and two one-shot technologies take at most 3 (a refresh keeps
# the count), so with 4 one is always left.
SAFE_UPGRADE = 4


def _fragile(s: PragaState) -> bool:
    """Can the taken tile's action be made impossible by what the player does first?
    Mines/Quarries never (produce is always possible); Upgrade not while enough normal
    upgrade tiles are left."""
    for a in s.pairs[s.taken]:
        if a in (MINES, QUARRIES):
            return False
        if a == UPGRADE:
            row = s.rows[UPGRADE_ROW]
            shown = (row[0] >= 0) + (row[1] >= 0) + (row[2] >= 0)
            if shown + len(s.stacks[stack_index(s, UPGRADE_ROW, False)]) >= SAFE_UPGRADE:
                return False
    return True


def _keep_tile_action(s: PragaState, d: tuple[Any, ...],
                      out: list[A.PragaAction]) -> list[A.PragaAction]:
    """P-TURN-2: once a tile is taken whose action can be performed, the action is
    mandatory, so nothing may be done that makes it impossible (e.g. spending the gold a
    building needs). At the hub this applies while the action is performable; inside
    other decisions, an option is kept when some continuation returns to the hub with the
    action still performable. If no option qualifies (the action was already impossible,
    P-EDGE-1) nothing is filtered, so no state is ever stuck."""
    if d[0] == TURN and not tile_action_pending(s, s.seat):
        return out
    kept = [a for a in out if a.verb not in RISKY or _keeps(s, a, 0)]
    return kept or out


def _keeps(s: PragaState, a: A.PragaAction, depth: int) -> bool:
    c = s.clone()
    _HANDLERS[a.verb](c, c.stack[-1], a)
    if c.final is not None or not c.stack:
        return False
    d = c.stack[-1]
    if d[0] == TURN:
        return tile_action_pending(c, c.seat)
    if depth >= 10:
        return True
    options = _GENERATORS[d[0]](c, d)
    if d[0] == ORIENT:
        options = options[:1]  # orientation costs nothing (gains only)
    return any(_keeps(c, x, depth + 1) for x in options)


# --- handlers: inside actions ----------------------------------------------------------
def _h_expand(s: PragaState, d: tuple[Any, ...], a: A.Expand) -> None:
    s.stack.pop()
    seat, track = d[1], d[2]
    add_resource(s, seat, GOLD if track == GOLD_TRACK else STONE, 1)
    advance_track(s, seat, track)


def _h_produce(s: PragaState, d: tuple[Any, ...], a: A.Produce) -> None:
    s.stack.pop()
    produce(s, d[1], d[2])


def _h_pick(s: PragaState, d: tuple[Any, ...], a: A.Pick) -> None:
    s.stack.pop()
    pick_tile(s, d[1], d[2], d[3], d[4], a.position)


def _h_wall_at(s: PragaState, d: tuple[Any, ...], a: A.WallAt) -> None:
    s.stack.pop()
    wall_at(s, d[1], d[2], a.position)


def _h_at_market(s: PragaState, d: tuple[Any, ...], a: A.AtMarket) -> None:
    if d[0] == PARLER_PAWN:
        parler.HANDLERS[PARLER_PAWN](s, d, a)
        return
    s.stack[-1] = (*d[:4], a.market)


def _h_site(s: PragaState, d: tuple[Any, ...], a: A.Site) -> None:
    if d[0] == PARLER_SITE:
        parler.HANDLERS[PARLER_SITE](s, d, a)
        return
    s.stack.pop()
    seat, tile, discount = d[1], d[2], d[3]
    if blue_mask(tile, 0):
        s.stack.append((ORIENT, seat, BUILDING_ROW, tile, a.site, discount))
    else:
        _place_building(s, seat, tile, a.site, 0, discount)


def _place_building(s: PragaState, seat: int, tile: int, site: int, orient: int,
                    discount: int) -> None:
    """A person's building; with Parler bots his cubes and pawn are part of it."""
    if s.bots is not None and s.opts.solo_opponent == "parler":
        parler.human_build(s, seat, tile, site, orient, discount)
    else:
        place_building(s, seat, tile, site, orient, discount)


def _h_orient(s: PragaState, d: tuple[Any, ...], a: A.Orient) -> None:
    if d[0] == PARLER_ORIENT:
        parler.HANDLERS[PARLER_ORIENT](s, d, a)
        return
    s.stack.pop()
    _, seat, row, tile, where, discount = d
    if row == BUILDING_ROW:
        _place_building(s, seat, tile, where, a.orientation, discount)
    elif row == WALL_ROW:
        place_wall(s, seat, tile, where, a.orientation)
    else:
        place_upgrade(s, seat, tile, a.orientation)


def _h_remove(s: PragaState, d: tuple[Any, ...], a: A.Remove) -> None:
    """P-ROW-5: the two tiles go under their stacks; the gaps are refilled."""
    s.stack.pop()
    row = d[2]
    removed = [(pos, s.rows[row][pos]) for pos in (a.first, a.second)]
    for pos, _ in removed:
        refill(s, row, pos)
    for pos, tile in removed:
        k = stack_index(s, row, pos == 3)
        s.stacks[k] = (*s.stacks[k], tile)


def _h_choose(s: PragaState, d: tuple[Any, ...], a: A.Choose) -> None:
    s.stack.pop()
    gain_reward(s, d[1], d[2][a.index])


def _h_keep_tech(s: PragaState, d: tuple[Any, ...], a: A.KeepTech) -> None:
    s.stack.pop()
    keep_technology(s, d[1], d[2], a.tech)


def _h_token(s: PragaState, d: tuple[Any, ...], a: A.Token) -> None:
    """P-PROD-1/2: the token goes on the leftmost space of the track that earned it; a
    production owed by GL-T4-6 (``d[3]``: the track that produces) follows."""
    s.stack.pop()
    seat, track = d[1], d[2]
    river = list(s.river)
    river.remove(a.token)
    s.river = tuple(river)
    tokens = list(s.ptoken[seat])
    tokens[track] = a.token
    s.ptoken[seat] = (tokens[0], tokens[1])
    if len(d) > 3:
        produce(s, seat, d[3])


def _h_bridge_tile(s: PragaState, d: tuple[Any, ...], a: A.BridgeTile) -> None:
    s.stack.pop()
    keep_bridge_tile(s, d[1], d[2], d[3], a.tile)


def _h_plank(s: PragaState, d: tuple[Any, ...], a: A.Plank) -> None:
    s.stack.pop()
    lay_plank(s, d[1], d[2], a.plank)


def _h_arrow_up(s: PragaState, d: tuple[Any, ...], a: A.ArrowUp) -> None:
    s.stack.pop()
    move_up(s, d[1], d[2], windows=False, tier_cost=True)


def _h_arrow_stay(s: PragaState, d: tuple[Any, ...], a: A.ArrowStay) -> None:
    s.stack.pop()


def _h_cathedral_tile(s: PragaState, d: tuple[Any, ...], a: A.CathedralTile) -> None:
    """P-GRID-7: one of the Cathedral's final-scoring tiles (any '3 VP now' included)."""
    s.stack.pop()
    take_cathedral_tile(s, d[1], a.tile)


def _h_keep_silver(s: PragaState, d: tuple[Any, ...], a: A.KeepSilver) -> None:
    """P-WIN-2: keep 2 windows, ``a`` of them silver."""
    s.stack.pop()
    seat = d[1]
    s.silver[seat] = a.silver
    s.goldw[seat] = 2 - a.silver
    finish_turn(s)


def _h_any_action(s: PragaState, d: tuple[Any, ...], a: A.AnyAction) -> None:
    s.stack.pop()
    start_action(s, d[1], a.action, SRC_TECH, 0)


def _h_tech_grid(s: PragaState, d: tuple[Any, ...], a: A.TechGrid) -> None:
    s.stack.pop()
    move_up(s, d[1], a.grid, windows=False, tier_cost=False)


def _h_market_tile(s: PragaState, d: tuple[Any, ...], a: A.MarketTile) -> None:
    s.stack.pop()
    tile = C.market_tiles[s.market_tile[a.market]]
    gain_reward(s, d[1], tile.upper)
    gain_reward(s, d[1], tile.lower)


def _h_grow(s: PragaState, d: tuple[Any, ...], a: A.Grow) -> None:
    """GL-T4-6: +1 mine or quarry, then produce. A production token the cube reaches is
    taken at once (P-PROD-1) and then the production pays with it ([DE] "Danach
    produzierst du"): the production waits in the token decision (``_h_token``)."""
    s.stack.pop()
    n = len(s.stack)
    advance_track(s, d[1], a.track)
    if len(s.stack) > n and s.stack[-1][0] == TOKEN:
        s.stack[-1] = (*s.stack[-1], a.resource)
    else:
        produce(s, d[1], a.resource)


_HANDLERS: dict[str, Callable[[PragaState, tuple[Any, ...], Any], None]] = {
    "take-tile": _h_take_tile, "perform": _h_perform, "wheel-bonus": _h_wheel_bonus,
    "buy-extra": _h_buy_extra, "extra": _h_extra, "refresh": _h_refresh,
    "remove": _h_remove, "up": _h_up, "side": _h_side, "claim-seal": _h_claim_seal,
    "use-tech": _h_use_tech, "road-free": _h_road_free, "road-egg": _h_road_egg,
    "end-turn": _h_end_turn, "expand": _h_expand, "produce": _h_produce, "pick": _h_pick,
    "wall-at": _h_wall_at, "at-market": _h_at_market, "site": _h_site,
    "orient": _h_orient, "choose": _h_choose,
    "keep-tech": _h_keep_tech, "token": _h_token, "bridge-tile": _h_bridge_tile,
    "plank": _h_plank, "arrow-up": _h_arrow_up, "arrow-stay": _h_arrow_stay,
    "cathedral-tile": _h_cathedral_tile, "keep-silver": _h_keep_silver,
    "any-action": _h_any_action, "tech-grid": _h_tech_grid,
    "market-tile": _h_market_tile, "grow": _h_grow,
}


# Verbs whose handler always logs the move itself ("green takes action tile A1 ...").
SELF_LOGGED = frozenset({"take-tile", "perform", "extra", "any-action", "pick",
                         "claim-seal", "use-tech", "keep-tech", "bridge-tile"})
# Verbs that log the move when they place a tile ("green builds B03 on S07"), and are
# echoed only when they ask a further question instead (site, then orientation).
LOGGED_IF_PLACED = frozenset({"site", "orient"})


def apply_unchecked(s: PragaState, action: A.PragaAction) -> None:
    """Apply a legal action in place (the caller owns ``s``)."""
    if not s.stack:
        raise IllegalActionError(f"{action} is not legal: the game is over")
    verb = action.verb
    seat = s.stack[-1][1]
    n = len(s.log)
    _HANDLERS[verb](s, s.stack[-1], action)
    # The move in the log: verbs whose handler always writes a line for it need no echo;
    # the others get ``colour: move`` before what the move caused (P-TURN-2 order).
    if verb not in SELF_LOGGED and (verb not in LOGGED_IF_PLACED or len(s.log) == n):
        s.log.insert(n, _echo(s, seat, action))


# How the words of an echoed move become message arguments, by argument kind (the rest:
# the word itself, an id or a number).
_ECHO_TERMS: dict[str, tuple[Message, ...]] = {
    "row": ROW_TERMS,
    "res": (term("gold"), term("stone")),
    "grid": (term("hunger-wall"), term("cathedral")),
    "track": (term("gold mine"), term("quarry")),
    "win": (term("2 gold windows"), term("1 gold + 1 silver window")),
}


_FIELDS: dict[type, tuple[str, ...]] = {}  # action class -> its field names


def _field_names(cls: type) -> tuple[str, ...]:
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in dataclasses.fields(cls))
    return names


def _echo(s: PragaState, seat: int, action: Any) -> Message:
    """The log entry of a move whose handler writes none: the verb is part of the key
    (``{seat}: refresh {a} {b}``), its arguments are ``a`` and ``b``."""
    words = str(action).split()
    args: dict[str, Any] = {"seat": term(side_name(s, seat))}
    values = [getattr(action, name) for name in _field_names(type(action))]
    for name, kind, value, word in zip(("a", "b"), type(action).args, values, words[1:],
                                       strict=False):
        terms = _ECHO_TERMS.get(kind)
        args[name] = terms[value] if terms is not None else word
    return Message(" ".join(("{seat}:", words[0], *("{a}", "{b}")[:len(words) - 1])), args)
