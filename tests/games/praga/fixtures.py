"""Scenario builder for Praga tests: our equivalent of a chess FEN.

``build(spec)`` starts from ``GAME.initial_state({"players": n, ...}, seed)`` and
overrides only what the scenario cares about::

    build({
        "players": 4,
        "seat": 3,                       # whose turn hub is on top of the stack
        "crane": (8, 5, ("building", "mines")),  # wheel slot 8 at board position 5
        "p": {3: {"gold": 4, "mine": 7, "techs": ["T1f"], "upg": {"upgrade": ["U09"]}}},
        "rows": {"building": ["B01", "B02", "B03", "B15"]},
        "sites": {"S01": ("B13", 1, True)},  # building, owner (-1: none), cube
        "markets": {"M2": "K2"},
    })

Per-seat keys (``p``): any per-seat list field of the state by name (``gold``, ``vp``,
``mine`` (track space, 1-based), ``road``, ``univ``...), plus ``techs`` (ids, all in
force), ``upg`` (``{action: [id or (id, orientation)]}``), ``walls`` (``{position: id or
(id, orientation)}``), ``hw``/``cat`` as ``(row, column)``, ``ptoken`` (``(gold id,
quarry id)``). ``set``: raw state fields, assigned last.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from meeplehall.core.messages import Message, english
from meeplehall.games.praga import GAME
from meeplehall.games.praga import decisions as D
from meeplehall.games.praga.components import ACTIONS, load
from meeplehall.games.praga.effects import ROW_BITS
from meeplehall.games.praga.state import ROW_NAMES, PragaState
from meeplehall.games.praga.turn import reset_turn

C = load()
GREEN, RED, BLUE, YELLOW = 0, 1, 2, 3


def _tile(value: Any) -> tuple[str, int]:
    return (value, 0) if isinstance(value, str) else (value[0], value[1])


def build(spec: Mapping[str, Any]) -> PragaState:
    players = spec.get("players", 2)
    s = GAME.initial_state({"players": players, **spec.get("options", {})},
                           spec.get("seed", 1))
    seat = spec.get("seat", 0)
    s.seat = seat
    s.stack = [D.Turn(seat)]
    reset_turn(s)
    if "crane" in spec:
        slot, board, pair = spec["crane"]
        arrange(s, slot, board, tuple(ACTIONS.index(a) for a in pair))
    for row_name, ids in spec.get("rows", {}).items():
        row = ROW_NAMES.index(row_name)
        family = (C.building_index, C.wall_index, C.upgrade_index)[row]
        s.rows[row] = tuple(family(i) if i else -1 for i in ids)
    for site_id, (tile, owner, cube) in spec.get("sites", {}).items():
        k = C.site_index(site_id)
        s.site_tile[k] = C.building_index(tile)
        s.site_owner[k] = owner
        s.site_cube[k] = cube
        b = C.buildings[s.site_tile[k]]
        s.site_spent[k] = b.gold + b.stone + C.sites[k].surcharge
    for market_id, tile_id in spec.get("markets", {}).items():
        tiles = list(s.market_tile)
        tiles[C.market_index(market_id)] = C.market_tile_index(tile_id) if tile_id else -1
        s.market_tile = tuple(tiles)
    for p, fields in spec.get("p", {}).items():
        for name, value in fields.items():
            _set_player(s, p, name, value)
    for name, value in spec.get("set", {}).items():
        setattr(s, name, value)
    return s


def _set_player(s: PragaState, p: int, name: str, value: Any) -> None:
    if name == "techs":
        s.techs[p] = tuple(C.tech_index(t) for t in value)
        mask = 0
        for t in s.techs[p]:
            mask |= 1 << (C.technologies[t].level - 1)
        s.tech_ready[p] = mask
    elif name == "upg":
        stacks = [list(x) for x in s.upg[p]]
        for action, tiles in value.items():
            stacks[ACTIONS.index(action)] = [
                C.upgrade_index(_tile(t)[0]) * 6 + _tile(t)[1] for t in tiles]
        s.upg[p] = tuple(tuple(x) for x in stacks)
    elif name == "walls":
        walls = list(s.walls[p])
        for pos, t in value.items():
            tid, orient = _tile(t)
            walls[pos] = C.wall_index(tid) * 6 + orient
        s.walls[p] = tuple(walls)
    elif name in ("hw", "cat"):
        getattr(s, name)[p] = value[0] * ROW_BITS + value[1]
    elif name == "ptoken":
        s.ptoken[p] = tuple(C.production_tokens.index(
            next(t for t in C.production_tokens if t.id == x)) if x else -1 for x in value)
    elif name in ("v_tile", "cat_tile"):
        getattr(s, name)[p] = C.bridge_tile_index(value) if value else -1
    else:
        getattr(s, name)[p] = value


def arrange(s: PragaState, slot: int, board: int, pair: tuple[int, ...]) -> None:
    """Turn the wheel so wheel ``slot`` is over board position ``board`` and put action
    tile 0, showing ``pair``, in it; the other tiles fill the next free slots."""
    s.rotation = (board - slot) % C.crane.positions
    slots = [-1] * C.crane.positions
    slots[slot] = 0
    free = [w for w in range(1, C.crane.positions) if w != slot]
    for tile, w in zip(range(1, 6), free, strict=False):
        slots[w] = tile
    s.slots = tuple(slots)
    pairs = list(s.pairs)
    pairs[0] = (pair[0], pair[1])
    s.pairs = tuple(pairs)


def legal(s: PragaState) -> list[str]:
    return [str(a) for a in GAME.legal_actions(s)]


def play(s: PragaState, *texts: str) -> PragaState:
    """Apply actions (checked) by their text forms. ``site S07`` stands for the two steps
    ``at-market M2`` (the site's market) and ``site S07`` when the market is still to be
    chosen."""
    for text in texts:
        if text.startswith("site ") and isinstance(s.stack[-1], D.Site) and s.stack[-1].market < 0:
            market = C.markets[C.sites[C.site_index(text.split()[1])].market].id
            s = GAME.apply(s, f"at-market {market}")
        s = GAME.apply(s, text)
    return s


def slot_of(kind: str, vp: int | None = None, gain: str | None = None) -> int:
    """A wheel slot with the given bonus kind (``special``, ``gain``, ``egg``)."""
    from meeplehall.games.praga.components import REWARD_KINDS, SLOT_KINDS

    for slot in C.crane.slots:
        if SLOT_KINDS[slot.kind] != kind:
            continue
        if vp is not None and slot.vp != vp:
            continue
        if gain is not None and REWARD_KINDS.index(gain) not in dict(slot.gain):
            continue
        return slot.wheel
    raise KeyError(kind)


def end_of_game(s: PragaState) -> PragaState:
    """Make the seat on turn play the game's last turn up to its end-turn."""
    s.turns = C.turns_per_player * s.players - 1
    s.taken, s.taken_slot, s.action_done = 0, 1, True
    return s


def view_text(line: Mapping[str, Any]) -> str:
    """A readable line of a view (a message) in English."""
    return english(Message.from_json(line))
