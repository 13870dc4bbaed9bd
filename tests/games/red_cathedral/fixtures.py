"""Scenario builder for The Red Cathedral tests: our equivalent of a chess FEN.

``build(spec)`` starts from ``GAME.initial_state({"players": n, ...}, seed)`` and
overrides only what the scenario cares about, from a small dict::

    build({
        "players": 4,
        "towers": [["B01", card("M02", owner=0, delivered={"brick": 1}), "D01"]],
        "tiles": ["wood", "brick", "stone", "gold", "green", "purple", "rubles", "rp"],
        "dice": {"yellow": (0, 3), "blue": (3, 5)},
        "inv": {0: {"gold": 1}},
        "rubles": {0: 5},
        "turn": 0,
    })

Keys (all optional):

- ``players``, ``seed``, ``options``: passed to ``initial_state``.
- ``towers``: one list per tower, bottom to top; each card is a card id (``"M02"``) or
  ``card(...)``. Slots are numbered tower by tower, bottom to top, as in the engine.
  Claimed cards have no Workshop tile left; unclaimed ones get unused tiles unless
  ``card(tile=...)`` names one (``tile=None`` for none).
- ``tiles``: the 8 Resource tiles by Market space, as ids or resource names.
- ``dice``: ``{colour: (space, value)}``; dice not named stay where setup put them.
- ``influence``: the 4 Influence card ids by quadrant.
- ``rubles``, ``score`` (absolute track space), ``inv`` (``{seat: {material: n}}``),
  ``banners`` (``{seat: (in_inventory, outside)}``), ``ws`` (``{seat: {position:
  ("W28", "up") | "banner" | "empty"}}``), ``orn_avail`` (``{seat: {"door": 1, ...}}``),
  ``completed`` (``{seat: n}``).
- ``supply``: ``{material: n}``; by default the totals minus everything held, so
  Materials are conserved.
- ``turn``: the seat whose turn hub is on top of the stack.
- ``ivan`` (solo): ``order`` (card names), ``dice`` (die colour per card), ``up``,
  ``banners``, ``orn`` (ornaments placed so far), ``inv`` and ``build`` (Materials on his
  Inventory and Build cards).
- ``set``: raw state fields, assigned last (an escape hatch).

By default Banners on the Construction Site are taken from outside the Inventory first,
Ornamentations on the site are no longer available to their owner, and the completed-card
counts follow the towers.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from meeplehall.core.messages import term
from meeplehall.games.red_cathedral import GAME
from meeplehall.games.red_cathedral.components import (
    COLOURS,
    IVAN_CARDS,
    MATERIALS,
    ORNAMENTS,
    RESOURCES,
    WS_POSITIONS,
    load,
)
from meeplehall.games.red_cathedral.decisions import Turn
from meeplehall.games.red_cathedral.scoring import track
from meeplehall.games.red_cathedral.state import BANNER, EMPTY, RCState

C = load()
T = track()
IVAN = 1


def card(card_id: str, owner: int | str | None = None, *, done: bool = False,
         orn: int | str | None = None, delivered: Mapping[str, int] | None = None,
         tile: str | bool | None = True) -> dict[str, Any]:
    """One Cathedral card of a fixture tower.

    Args:
        card_id: the card's id in ``cathedral_cards.toml`` (``"M02"``).
        owner: the seat whose Banner is on it (``"ivan"`` in solo), or None.
        done: completed (finished side up).
        orn: the seat whose Ornamentation is on it, or None.
        delivered: Materials already delivered to it (unfinished cards only).
        tile: the Workshop tile still on the card: an id, None for none, or True for
            "an unused tile if unclaimed".
    """
    return {"card": card_id, "owner": owner, "done": done, "orn": orn,
            "delivered": dict(delivered or {}), "tile": tile}


def mats(counts: Mapping[str, int] | None = None, **more: int) -> tuple[int, ...]:
    """Material counts as the engine's 6-tuple: ``mats(wood=2, gold=1)``."""
    merged = dict(counts or {}) | more
    for name in merged:
        if name not in MATERIALS:
            raise KeyError(f"unknown material {name!r}")
    return tuple(merged.get(m, 0) for m in MATERIALS)


def _side(value: int | str | None) -> int:
    if value is None:
        return -1
    if value == "ivan":
        return IVAN
    assert isinstance(value, int)
    return value


def _per_seat(spec: Mapping[Any, Any] | list[Any]) -> dict[int, Any]:
    if isinstance(spec, list):
        return dict(enumerate(spec))
    return {_side(k): v for k, v in spec.items()}


def _resource_tile(name: str) -> int:
    for i, rt in enumerate(C.resource_tiles):
        if name in (rt.id, RESOURCES[rt.resource]):
            return i
    raise KeyError(f"unknown Resource tile {name!r}")


def _influence_card(name: str) -> int:
    for i, ic in enumerate(C.influence):
        if ic.id == name:
            return i
    raise KeyError(f"unknown Influence card {name!r}")


def build(spec: Mapping[str, Any]) -> RCState:
    """Build a state from a scenario spec (see the module docstring)."""
    known = {"players", "seed", "options", "towers", "tiles", "dice", "influence", "rubles",
             "score", "inv", "banners", "ws", "orn_avail", "completed", "supply", "turn",
             "ivan", "set"}
    unknown = set(spec) - known
    assert not unknown, f"unknown fixture keys: {sorted(unknown)}"
    players = spec.get("players", 2)
    s = GAME.initial_state({"players": players, **spec.get("options", {})},
                           spec.get("seed", 0))
    s.log = [term("setup: scenario fixture")]
    if "towers" in spec:
        _towers(s, spec["towers"])
    if "tiles" in spec:
        names = spec["tiles"]
        assert len(names) == 8, "tiles: one Resource tile per Market space"
        s.tiles = [_resource_tile(n) for n in names]
        assert sorted(s.tiles) == list(range(8)), "tiles: each tile exactly once"
    for colour, (space, value) in spec.get("dice", {}).items():
        die = COLOURS.index(colour)
        s.die_pos[die] = space
        s.die_val[die] = value
    if "influence" in spec:
        s.influence = tuple(_influence_card(n) for n in spec["influence"])
    for seat, n in _per_seat(spec.get("rubles", {})).items():
        s.rubles[seat] = n
    for seat, n in _per_seat(spec.get("score", {})).items():
        s.score[seat] = n
    for seat, counts in _per_seat(spec.get("inv", {})).items():
        s.inv[seat] = mats(counts)
    _banners(s, spec.get("banners", {}))
    for seat, positions in _per_seat(spec.get("ws", {})).items():
        board = list(s.ws[seat])
        for name, value in positions.items():
            pos = WS_POSITIONS.index(name)
            if value == "banner":
                board[pos] = BANNER
            elif value == "empty":
                board[pos] = EMPTY
            else:
                tile_id, face = value
                assert face in ("up", "down")
                board[pos] = 2 * C.tile_index(tile_id) + (face == "up")
        s.ws[seat] = tuple(board)
    _ornaments(s, spec.get("orn_avail", {}))
    completed = [0] * s.sides
    for slot, o in enumerate(s.owner):
        if s.done[slot]:
            completed[o] += 1
    s.completed = completed
    for seat, n in _per_seat(spec.get("completed", {})).items():
        s.completed[seat] = n
    if s.solo:
        _ivan(s, spec.get("ivan", {}))
    _supply(s, spec.get("supply"))
    if "turn" in spec:
        s.side = spec["turn"]
        s.stack = [Turn(spec["turn"])]
    for name, value in spec.get("set", {}).items():
        setattr(s, name, value)
    _unused(s)
    return s


def _towers(s: RCState, towers: Iterable[Iterable[str | dict[str, Any]]]) -> None:
    card_of: list[int] = []
    slot_tower: list[int] = []
    slot_level: list[int] = []
    slots_of: list[tuple[int, ...]] = []
    entries: list[dict[str, Any]] = []
    for t, tower in enumerate(towers):
        slots = []
        tower = [card(x) if isinstance(x, str) else x for x in tower]
        kinds = [C.cards[C.card_index(x["card"])].kind for x in tower]
        assert len(tower) >= 2 and kinds[0] == 0 and kinds[-1] == 2 and all(
            k == 1 for k in kinds[1:-1]), f"tower {t} must be Base, Middles, Dome: {tower}"
        for level, entry in enumerate(tower):
            slots.append(len(card_of))
            card_of.append(C.card_index(entry["card"]))
            slot_tower.append(t)
            slot_level.append(level)
            entries.append(entry)
        slots_of.append(tuple(slots))
    assert len(set(card_of)) == len(card_of), "a card appears twice on the site"
    s.plan = "fixture"
    s.card_of = tuple(card_of)
    s.slot_tower = tuple(slot_tower)
    s.slot_level = tuple(slot_level)
    s.towers = tuple(slots_of)
    s.owner = [_side(e["owner"]) for e in entries]
    s.done = [bool(e["done"]) for e in entries]
    s.orn = [_side(e["orn"]) for e in entries]
    s.delivered = [mats(e["delivered"]) for e in entries]
    for slot, e in enumerate(entries):
        assert not (e["done"] and e["owner"] is None), f"slot {slot}: completed but unclaimed"
        assert not (e["done"] and e["delivered"]), f"slot {slot}: completed cards hold nothing"
        assert e["orn"] is None or e["done"], f"slot {slot}: Ornamentation on unfinished card"
    # Workshop tiles: named ones first, then unused tiles of this player count.
    pool = [i for i, wt in enumerate(C.tiles)
            if (2 if s.solo else s.players) >= 3 or not wt.players_3plus]
    named = {C.tile_index(e["tile"]) for e in entries if isinstance(e["tile"], str)}
    spare = [i for i in pool if i not in named]
    ws_tile = []
    for e in entries:
        if isinstance(e["tile"], str):
            ws_tile.append(C.tile_index(e["tile"]))
        elif e["tile"] is True and e["owner"] is None and spare:
            ws_tile.append(spare.pop(0))
        else:
            ws_tile.append(-1)
    s.ws_tile = ws_tile


def _banners(s: RCState, override: Mapping[Any, tuple[int, int]]) -> None:
    """Banners left on each board: those on the site come from outside first."""
    explicit = _per_seat(override)
    for seat in range(s.players):
        if seat in explicit:
            s.inv_banners[seat], s.out_banners[seat] = explicit[seat]
            continue
        used = sum(1 for o in s.owner if o == seat)
        out_start = s.out_banners[seat]
        from_out = min(used, out_start)
        s.out_banners[seat] = out_start - from_out
        s.inv_banners[seat] -= used - from_out
        assert s.inv_banners[seat] >= 0, f"seat {seat} owns more cards than it has Banners"
        if s.opts.advanced_workshops:
            board = list(s.ws[seat])
            for pos in (4, 5)[: from_out]:
                board[pos] = EMPTY
            s.ws[seat] = tuple(board)
    if s.solo:
        s.iv_banners = C.banners_per_player - sum(1 for o in s.owner if o == IVAN)


def _ornaments(s: RCState, override: Mapping[Any, Mapping[str, int]]) -> None:
    placed = [0] * s.sides
    used = [[0, 0, 0] for _ in range(s.sides)]
    for slot, o in enumerate(s.orn):
        if o >= 0:
            placed[o] += 1
            used[o][C.cards[s.card_of[slot]].kind] += 1
    s.orn_placed = placed
    explicit = _per_seat(override)
    for seat in range(s.sides):
        if seat in explicit:
            counts = explicit[seat]
            s.orn_avail[seat] = tuple(counts.get(o, 0) for o in ORNAMENTS)
        else:
            avail = s.orn_avail[seat]
            s.orn_avail[seat] = tuple(max(0, avail[k] - used[seat][k]) for k in range(3))
    if s.solo:
        s.iv_orn = placed[IVAN]


def _ivan(s: RCState, spec: Mapping[str, Any]) -> None:
    if "order" in spec:
        s.ivan_order = tuple(IVAN_CARDS.index(name) for name in spec["order"])
    if "dice" in spec:
        by_die = {C.tiles[t].die: t for t in s.iv_tiles}
        s.iv_tiles = [by_die[COLOURS.index(colour)] for colour in spec["dice"]]
    if "up" in spec:
        s.iv_up = list(spec["up"])
    if "banners" in spec:
        s.iv_banners = spec["banners"]
    if "orn" in spec:
        s.iv_orn = spec["orn"]
    if "inv" in spec:
        s.iv_inv = mats(spec["inv"])
    if "build" in spec:
        s.iv_build = mats(spec["build"])


def held(s: RCState) -> tuple[int, ...]:
    """Materials outside the general supply, per type."""
    total = [0] * 6
    for counts in (*s.inv, *s.delivered, s.iv_inv, s.iv_build):
        for m in range(6):
            total[m] += counts[m]
    return tuple(total)


def _supply(s: RCState, override: Mapping[str, int] | None) -> None:
    if override is not None:
        s.supply = list(mats(override))
        return
    out = held(s)
    s.supply = [C.supply[m] - out[m] for m in range(6)]
    assert min(s.supply) >= 0, "the fixture holds more Materials than the game has"


def _unused(s: RCState) -> None:
    on_table = set(s.card_of)
    cards = tuple(i for i in range(len(C.cards)) if i not in on_table)
    seen = {t for t in s.ws_tile if t >= 0} | set(s.iv_tiles)
    for board in s.ws:
        seen |= {v >> 1 for v in board if v >= 0}
    tiles = tuple(i for i in range(len(C.tiles)) if i not in seen)
    influence = tuple(i for i in range(len(C.influence)) if i not in set(s.influence))
    s.unused = (cards, tiles, influence)


# --- small helpers for scenario tests ------------------------------------------------------
def play(s: RCState, *texts: str) -> RCState:
    """Apply actions by their text, checked (``GAME.apply``), and return the new state."""
    for text in texts:
        s = GAME.apply(s, GAME.parse_action(text))
    return s


def legal(s: RCState) -> set[str]:
    """The legal actions' texts."""
    return {str(a) for a in GAME.legal_actions(s)}


def pp(s: RCState, side: int) -> int:
    """Prestige of a side's marker now (RC-SCORE-8)."""
    return T.pp(s.score[side])


def slot_of(s: RCState, card_id: str) -> int:
    """The slot of a card on the Construction Site."""
    return s.card_of.index(C.card_index(card_id))


def market_turn(s: RCState) -> RCState:
    """Play one plain turn for the seat to move: the first die move, no market actions."""
    side = GAME.current_player(s)
    move = next(a for a in GAME.legal_actions(s) if str(a).startswith("move-die"))
    s = play(s, str(move), "finish-market")
    if GAME.current_player(s) == side and s.stack and s.main_done:
        s = play(s, "end-turn")
    return s
