"""The designed sections of a Praga view: the table as named, decoded values.

``board(s)`` is what every seat sees of the table; ``pending(s, player)`` is the decision
on top of the stack as its kind, its seat and named fields, masked for the other seats.
Components appear by their printed id (``components.load()``: buildings, walls,
upgrades, action tiles, market tiles, technologies, bridge tiles, production tokens,
seals, markets, sites); an empty place is ``null``. Sides are numbered as on the board:
seats ``0..players-1``, then the sides the engine plays (solo dummy, Parler bots) as
``players + b``. Rewards are ``{kind: amount}`` (``components.REWARD_KINDS``).

The schema is ``docs/schemas/praga-view.json`` (tests/games/test_view_schemas.py checks
every seat's view against it). Clients read these sections, never ``view["state"]``,
which is the bot-only copy of the public state that ``sample_hidden`` rebuilds a full
state from.
"""

from __future__ import annotations

from typing import Any

from meeplehall.games.praga import solo
from meeplehall.games.praga.components import (
    ACTIONS,
    GRIDS,
    REWARD_KINDS,
    ROAD_TILE_EFFECTS,
    load,
)
from meeplehall.games.praga.effects import ROW_BITS
from meeplehall.games.praga.parler_data import PARLER
from meeplehall.games.praga.state import ROW_NAMES, Decision, PragaState

C = load()

_BUILDINGS = tuple(t.id for t in C.buildings)
_WALLS = tuple(t.id for t in C.walls)
_UPGRADES = tuple(t.id for t in C.upgrades)
_ROW_TILES = (_BUILDINGS, _WALLS, _UPGRADES)
_ACTION_TILES = tuple(t.id for t in C.action_tiles)
_MARKET_TILES = tuple(t.id for t in C.market_tiles)
_TECHS = tuple(t.id for t in C.technologies)
_BRIDGE_TILES = tuple(t.id for t in C.bridge_tiles)
_TOKENS = tuple(t.id for t in C.production_tokens)
_SEALS = tuple(t.id for t in C.seals)
_MARKETS = tuple(t.id for t in C.markets)
_SITES = tuple(t.id for t in C.sites)
_TECH_LEVELS = (1, 2, 3, 4)
_EXTRA = ("available", "bought", "done")  # PragaState.xact (P-ACT-2)
_SOURCES = ("action-tile", "extra-action", "technology")  # state.SRC_*
_MINE_TRACKS = ("mines", "quarries")


def _id(names: tuple[str, ...], index: int) -> str | None:
    return None if index < 0 else names[index]


def _reward(reward: Any) -> dict[str, int]:
    return {REWARD_KINDS[kind]: amount for kind, amount in reward}


def _side(value: int) -> int | None:
    return None if value < 0 else value


def _cell(code: int) -> dict[str, int]:
    """A grid cube: ``row`` 0 is the bottom row, ``column`` 0 the first (P-GRID-1)."""
    row, column = divmod(code, ROW_BITS)
    return {"row": row, "column": column}


def _placed(code: int, names: tuple[str, ...]) -> dict[str, Any]:
    """An action-board tile: its id and orientation 0-5 (60 degrees each, hexgrid.py)."""
    return {"tile": names[code // 6], "orientation": code % 6}


def _bits(mask: int) -> list[int]:
    """The numbers of the set bits of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _player(s: PragaState, p: int, name: str) -> dict[str, Any]:
    ready = s.tech_ready[p]
    used = s.tech_used[p]
    wealth = s.wealth[p]
    return {
        "seat": p,
        "name": name,
        "vp": s.vp[p],
        "gold": s.gold[p],
        "stone": s.stone[p],
        "eggs": s.eggs[p],
        "silver_windows": s.silver[p],
        "gold_windows": s.goldw[p],
        "red_tokens": s.red[p],
        "blue_tokens": s.blue[p],
        "mines": s.mine[p] - 1,  # GL-P1: the track space less one
        "quarries": s.quarry[p] - 1,
        "technology": s.tech[p],
        "university": s.univ[p],
        "cubes": s.cubes[p],
        "wealth_bonuses": {"six_gold": bool(wealth & 1), "six_stone": bool(wealth & 2),
                           "nine": bool(wealth & 4)},  # P-RES-4
        "hunger_wall": _cell(s.hw[p]),
        "cathedral": _cell(s.cat[p]),
        "road": s.road[p],  # King's Road space 1-5, 0: not on it yet
        "cathedral_tile": _id(_BRIDGE_TILES, s.cat_tile[p]),
        "v_tile": _id(_BRIDGE_TILES, s.v_tile[p]),
        "production_tokens": {"gold": _id(_TOKENS, s.ptoken[p][0]),
                              "quarry": _id(_TOKENS, s.ptoken[p][1])},
        "seal_rights": s.seal_rights[p],
        "technologies": [_TECHS[t] for t in s.techs[p]],
        "technology_levels_ready": [lv for lv in _TECH_LEVELS if ready >> (lv - 1) & 1],
        "technology_levels_used": [lv for lv in _TECH_LEVELS if used >> (lv - 1) & 1],
        "action_board": {
            "upgrades": {ACTIONS[a]: [_placed(c, _UPGRADES) for c in stack]
                         for a, stack in enumerate(s.upg[p])},
            "walls": [None if c < 0 else _placed(c, _WALLS) for c in s.walls[p]],
        },
        "edge_pairs_paid": _bits(s.edge_paid[p]),  # P-ADJ-3..6, once per pair
        "corner_pairs_paid": _bits(s.corner_paid[p]),  # P-ADJ-8/10
        "token_triggers_used": {"red": bool(s.once[p] & 1), "blue": bool(s.once[p] & 2)},
        "turns_played": s.played[p],
    }


def _turn(s: PragaState) -> dict[str, Any]:
    taken = s.taken
    return {
        "seat": s.seat,
        "action_tile": _id(_ACTION_TILES, taken),
        "wheel_slot": None if taken < 0 else s.taken_slot,
        "action_done": bool(s.action_done),
        "wheel_bonus": bool(s.bonus),
        "special_bonus": bool(s.special),
        "extra_action": _EXTRA[s.xact],
        "row_refreshed": bool(s.refreshed),
        "sideways_moves": {"hunger-wall": s.moves_hw, "cathedral": s.moves_cat},
        "performed": dict(zip(ACTIONS, s.performed, strict=True)),
        "covered": [ACTIONS[a] for a in range(len(ACTIONS)) if s.covered >> a & 1],
        "t14_used": bool(s.t14),
        "road_free": s.road_free,
        "road_egg": s.road_egg,
    }


def _bots(s: PragaState) -> list[dict[str, Any]]:
    """The sides the engine plays: the dummy counts its turns (P-SOLO-2); a Parler bot
    also shows its mines, quarries, row pointers, pawn, latest card and cubes (P.2)."""
    assert s.bots is not None
    if s.opts.solo_opponent == "dummy":
        return [{"side": s.players, "kind": "dummy", "turns": s.bots[0][solo.B_TURNS]}]
    out = []
    for b, bot in enumerate(s.bots):
        left = bin(bot[solo.B_DECK]).count("1")
        out.append({
            "side": s.players + b, "kind": "parler", "name": PARLER.names[b],
            "turns": bot[solo.B_TURNS], "mines": bot[solo.B_MINES],
            "quarries": bot[solo.B_QUARRIES],
            "row_pointers": {ROW_NAMES[r]: bot[solo.B_PTR + r] for r in range(3)},
            "pawn_market": _id(_MARKETS, bot[solo.B_PAWN]),
            "last_card": None if bot[solo.B_CARD] < 0 else PARLER.cards[bot[solo.B_CARD]].id,
            "cubes": bot[solo.B_CUBES],
            "draw_pile": left if left else 5,
        })
    return out


def board(s: PragaState, names: list[str]) -> dict[str, Any]:
    """Everything on the table, the same for every seat and spectator."""
    stacks = [len(x) for x in s.stacks]
    out: dict[str, Any] = {
        "era": s.era,
        "platform": s.platform,
        "star_armed": bool(s.star_armed),
        "turns_done": s.turns,
        "crane": {
            "rotation": s.rotation,
            "wheel": [_id(_ACTION_TILES, t) for t in s.slots],  # slot 0 is the box
            "five_vp_tile": _id(_ACTION_TILES, s.five_vp),
        },
        "action_tiles": {_ACTION_TILES[t]: [ACTIONS[a] for a in pair]
                         for t, pair in enumerate(s.pairs)},
        "rows": {ROW_NAMES[r]: [_id(_ROW_TILES[r], t) for t in s.rows[r]]
                 for r in range(3)},
        "face_down": {
            "stacks": [{"era": era, **{ROW_NAMES[r]: {
                "normal": stacks[(era - 1) * 6 + r * 2],
                "special": stacks[(era - 1) * 6 + r * 2 + 1]} for r in range(3)}}
                for era in (1, 2)],
            "technologies": {str(lv): len(x) for lv, x in zip(_TECH_LEVELS, s.tech_stacks,
                                                              strict=True)},
            "bridge_iv": len(s.iv_stack),
            "bridge_v": len(s.v_pile),
            "cathedral_tiles": len(s.cat_pile),
            "market_tiles_unused": len(s.unused),
        },
        "markets": [{"id": _MARKETS[k], "tile": _id(_MARKET_TILES, t),
                     "scored": bool(s.market_done[k])}
                    for k, t in enumerate(s.market_tile)],
        "sites": [{"id": _SITES[x], "building": _id(_BUILDINGS, t),
                   "owner": _side(s.site_owner[x]), "cube": bool(s.site_cube[x]),
                   "spent": s.site_spent[x],
                   "orientation": None if t < 0 else s.site_orient[x]}
                  for x, t in enumerate(s.site_tile)],
        "bridge": [{"plank": k, "bonuses": [_reward(r) for r in s.planks[k]],
                    "tile": _id(_BRIDGE_TILES, t)} for k, t in enumerate(s.bridge)],
        "road_tiles": [None if e < 0 else ROAD_TILE_EFFECTS[e] for e in s.road_effect],
        "seals": [{"id": _SEALS[k], "owner": _side(o)} for k, o in enumerate(s.seal_owner)],
        "river": [_TOKENS[t] for t in s.river],
        "players": [_player(s, p, names[p]) for p in range(s.players)],
        "turn": _turn(s),
    }
    if s.bots is not None:
        out["bots"] = _bots(s)
    return out


# Field names of each decision kind after its seat (decisions.py), in saved order.
_FIELDS: dict[str, tuple[str, ...]] = {
    "mine-or-quarry": ("track",), "pick-tile": ("row", "source", "discount"),
    "wall-position": ("wall",), "site": ("building", "discount", "market"),
    "orientation": ("row", "tile", "where", "discount"), "refresh": ("row",),
    "choose-reward": ("options", "why"), "keep-technology": ("drawn", "level"),
    "production-token": ("track", "produce"), "bridge-tile": ("tiles", "pile"),
    "plank": ("tile",), "up-arrow": ("grid",),
    "parler-pawn": ("bot",), "parler-site": ("bot", "building"),
    "parler-orientation": ("bot", "building", "site"),
}


def _decode(kind: str, name: str, value: Any, d: list[Any]) -> Any:
    """One decision field, decoded (a hidden value, -1 in a masked tuple, is null)."""
    if name == "row":
        return ROW_NAMES[value]
    if name in ("track", "produce"):
        return _MINE_TRACKS[value]
    if name == "source":
        return _SOURCES[value]
    if name == "grid":
        return GRIDS[value]
    if name == "wall":
        return _WALLS[value]
    if name == "building":
        return _BUILDINGS[value]
    if name == "market":
        return _id(_MARKETS, value)
    if name == "site":
        return _SITES[value]
    if name == "options":
        return [_reward(r) for r in value]
    if name == "drawn":
        return [_id(_TECHS, t) for t in value]
    if name == "tiles":
        return [_id(_BRIDGE_TILES, t) for t in value]
    if name == "pile":
        return ("IV", "V")[value]
    if kind == "plank" and name == "tile":
        return _BRIDGE_TILES[value]
    if name == "tile":  # orientation: a tile of the row
        return _ROW_TILES[d[2]][value]
    if name == "where":  # orientation: a building site, a wall position or an action
        return (_SITES[value] if d[2] == 0 else value if d[2] == 1 else ACTIONS[value])
    return value


def pending(d: Decision | None) -> dict[str, Any] | None:
    """The decision on top of the stack (already masked for the viewing seat)."""
    if d is None:
        return None
    kind = d.name
    plain = d.to_plain()  # [code, seat, *fields]: a token owes no production by default
    fields = {name: _decode(kind, name, value, plain)
              for name, value in zip(_FIELDS.get(kind, ()), plain[2:], strict=False)}
    return {"kind": kind, "seat": d.seat, "fields": fields}

