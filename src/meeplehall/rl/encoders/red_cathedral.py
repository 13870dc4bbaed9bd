"""Red Cathedral encoder: action catalogue and observation layout (``docs/rl.md``).

The catalogue is built from the component data: Cathedral slots from the largest
Building Plan for the player count (RC-SETUP-2), Materials, die colours, Workshop
positions, market spaces, and the exchange and discard sizes printed on Influence cards
(RC-INFL-*). Observations read the view's named sections (market, influence, cathedral,
supply, sides, ivan, turn, pending: games/red_cathedral/views.py), never the bot-only
``view["state"]``: every seat sees the same table in this game, and what is hidden (the
PRNG state, unused cards and tiles) is never in a view.

``state_blocks`` fill the same layout from the engine state's public fields (the
whitelist of views.PUBLIC_FIELDS; never ``rng`` or ``unused``) and the decision on top
of the stack through ``view_sections.decision``, the accessor the views use.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable
from itertools import combinations, combinations_with_replacement, compress
from operator import ne
from typing import Any

from meeplehall.games.red_cathedral import actions as A
from meeplehall.games.red_cathedral import view_sections
from meeplehall.games.red_cathedral.components import (
    CARD_KINDS,
    COLOURS,
    IVAN_CARDS,
    MATERIALS,
    RESOURCES,
    WS_POSITIONS,
    load,
)
from meeplehall.games.red_cathedral.decisions import DECISION_NAMES
from meeplehall.rl.encoders.base import (
    Block,
    Column,
    Encoder,
    StateBlock,
    View,
    keep,
    one_hot,
    pending_key,
    relative,
    rotate,
    scaled,
    top_of_stack,
)

C = load()
MARKET_SPACES = 8
QUADRANTS = 4
DICE = len(COLOURS)
MAX_DICE_ON_SPACE = 3  # RC-MARKET-4: a move may not make a fourth die on a space
MAX_EXTRA_STEPS = 7  # RC-MARKET-2: extra paid steps are capped at 7 by the engine
TOWERS = 4


def max_slots(players: int) -> int:
    """Cathedral slots of the largest Building Plan for ``players`` (solo uses 2p plans)."""
    plan_players = 2 if players == 1 else players
    return max(p.cards for p in C.plans if p.players == plan_players)


def catalogue(players: int) -> list[Any]:
    """Every action value the engine can produce for ``players`` seats."""
    mats = range(len(MATERIALS))
    slots = range(max_slots(players))
    out: list[Any] = list(A.SIMPLE.values())
    out += [A.claim(s, inv) for s in slots for inv in (True, False)]
    out += [A.place_tile(sp, up) for sp in range(len(COLOURS)) for up in (True, False)]
    out += [A.move_die(d, k) for d in range(DICE) for k in range(MAX_EXTRA_STEPS + 1)]
    out += [A.reroll(sp) for sp in range(MARKET_SPACES)]
    most = max(t.amount for t in C.resource_tiles) * MAX_DICE_ON_SPACE  # RC-GAIN-1
    out += [A.obtain(n) for n in range(1, most + 1)]
    out += [A.use_influence(i) for i in (0, 1)]
    out += [A.activate(p) for p in range(len(WS_POSITIONS))]
    out += [A.sell(m) for m in mats] + [A.buy(m) for m in mats]
    influence = [a for card in C.influence for a in card.actions]
    for size in sorted({(a.give, a.take) for a in influence
                        if a.effect == "exchange_identical"}):
        give_n, take_n = size
        out += [A.exchange((g,) * give_n, take)
                for g in mats for take in combinations_with_replacement(mats, take_n)]
    out += [A.upgrade(g, t) for g in mats for t in mats if g != t]
    out += [A.swap_tiles(a, b) for a, b in combinations(range(MARKET_SPACES), 2)]
    for count in sorted({a.count for a in influence if a.effect == "discard_different"}):
        out += [A.discard(c) for c in combinations(mats, count)]
    out += [A.deliver(m, s) for m in mats for s in slots]
    out += [A.decorate(s) for s in slots]
    out += [A.set_jewels(j) for j in A.JEWEL_SETS]
    if players == 1:  # RC-IVACT-CLAIM, RC-IVAN-ORN
        out += [A.ivan_claim(s) for s in slots] + [A.ivan_ornament(s) for s in slots]
    return out


# Component ids and names -> their index in the component data (for one-hots).
_INFLUENCE = {c.id: i for i, c in enumerate(C.influence)}
_RESOURCE = {name: i for i, name in enumerate(RESOURCES)}
_COLOUR = {name: i for i, name in enumerate(COLOURS)}
_IVAN_CARD = {name: i for i, name in enumerate(IVAN_CARDS)}

# per printed card: kind one-hot and cost per Material / 5 (never change)
_CARD_FEATURES = {c.id: [*one_hot([c.kind], len(CARD_KINDS)), *scaled(c.cost, 5)]
                  for c in C.cards}
_SELLING = ("unused", "now", "passed")
_MARKET_STEPS = ("obtain", "influence", "workshop")
_ORNAMENTS = ("door", "arch", "cross")


def _materials(counts: dict[str, int]) -> list[int]:
    return [counts.get(m, 0) for m in MATERIALS]


def _side_of(v: View) -> dict[str, int]:
    """Side names (as the named sections give owners) -> side numbers."""
    return {side["name"]: side["side"] for side in v["sides"]}


_ARGS_FIXED = 14 + 3 + 3  # tile features, Influence action and uses, deliveries


def _args(pending: dict[str, Any] | None, slots: int) -> list[float]:
    """The pending decision's fields as features (``decision_args``): the Workshop tile
    to place (its features, as in ``workshops``), the Influence card's action one-hot (2)
    and uses / 10, deliveries left / 3 and made / 3 and Teamsters, the slot of a jewels
    decision one-hot, the candidate slots of Ivan's card (solo) multi-hot."""
    fields: dict[str, Any] = pending["fields"] if pending is not None else {}
    tile = fields.get("tile")
    slot = fields.get("slot")
    candidates = [0.0] * slots
    for c in fields.get("candidates") or ():
        candidates[c] = 1.0
    return [*(_TILE_FEATURES[tile] if tile is not None else _NO_TILE),
            *one_hot([fields.get("action", -1)], 2), fields.get("uses", 0) / 10,
            fields.get("left", 0) / 3, fields.get("made", 0) / 3,
            float(bool(fields.get("teamsters"))),
            *one_hot([-1 if slot is None else slot], slots), *candidates]


def _tile_features(tile: int) -> list[float]:
    """A Workshop tile: die colour one-hot (5), resource one-hot (8), amount / 3."""
    wt = C.tiles[tile]
    return [*one_hot([wt.die], DICE), *one_hot([wt.resource], len(RESOURCES)), wt.amount / 3]


_TILE_FEATURES = {wt.id: _tile_features(i) for i, wt in enumerate(C.tiles)}
_NO_TILE = [0.0] * 14
# Ivan's side (solo) has no Workshop board
_NO_WORKSHOP: list[dict[str, Any]] = [{}] * len(WS_POSITIONS)


def _workshop(v: View, seat: int, sides: int) -> list[float]:
    out: list[float] = []
    for side in rotate(v["sides"], seat):
        for entry in side.get("workshop", _NO_WORKSHOP):
            tile = entry.get("tile")
            state = 1 if entry.get("banner") else (
                0 if tile is None else 3 if entry["face_up"] else 2)
            out += one_hot([state], 4)
            out += _TILE_FEATURES[tile] if tile is not None else _NO_TILE
    return out


def _slots(v: View, seat: int, sides: int) -> list[float]:
    side_of = _side_of(v)
    entries: list[Any] = []
    for t, column in enumerate(v["cathedral"]):
        for level, slot in enumerate(column):
            entries.append((slot["slot"], t, level, slot))
    entries.sort()  # slot numbers are distinct: the slot order of the card rows
    out: list[float] = []
    for _, tower, level, slot in entries:
        owner = slot["owner"]
        ornament = slot["ornament"]
        delivered = slot["delivered"]
        out += [1.0, *_CARD_FEATURES[slot["card"]],
                *[delivered.get(m, 0) / 5 for m in MATERIALS],
                *one_hot([relative(-1 if owner is None else side_of[owner], seat, sides)],
                         sides),
                float(slot["completed"]),
                *one_hot([relative(-1 if ornament is None else side_of[ornament["owner"]],
                                   seat, sides)], sides),
                *one_hot([tower], TOWERS), level / 5,
                slot["rp"] / 10, slot["rubles"] / 10, float(slot["workshop_tile"] is not None)]
    return out


def _per_side(v: View, seat: int) -> list[float]:
    out: list[float] = []
    for side in rotate(v["sides"], seat):
        ornaments = side.get("ornaments_available", {})
        out += [side.get("rubles", 0) / 20, *scaled(_materials(side.get("inventory", {})), 10),
                side.get("banners_in_inventory", 0) / 4, side.get("banners_outside", 0) / 4,
                *[ornaments.get(o, 0) / 2 for o in _ORNAMENTS], side["ornaments_placed"] / 4,
                side["completed"] / 5, side["recognition"] / 100]
    return out


def _flags(v: View, seat: int) -> list[float]:
    turn = v["turn"]
    steps = turn["market_steps_used"]
    used = turn["workshop_positions_used"]
    return [float(turn["main_action_done"]), _SELLING.index(turn["selling"]) / 2,
            float(turn["reroll_used"]), float(turn["end_bonus_given"]),
            float(v["end_triggered_by"] is not None),
            *[float(name in steps) for name in _MARKET_STEPS],
            *[float(name in used) for name in WS_POSITIONS],
            turn["turns"] / 1000, turn["decisions_pending"] / 10]


def _dice(v: View) -> tuple[list[int], list[int]]:
    """Each die's market space and pips (colour order), from the market's spaces."""
    pos = [-1] * DICE
    values = [0] * DICE
    for space in v["market"]:
        for die in space["dice"]:
            d = _COLOUR[die["colour"]]
            pos[d] = space["space"]
            values[d] = die["value"]
    return pos, values


def _solo(v: View, seat: int) -> list[float]:
    ivan = v.get("ivan")
    if ivan is None:
        return []
    row = ivan["row"]
    carrying = ivan["carrying_out"]
    return [ivan["banners"] / 10, ivan["ornaments_given"] / 4,
            *scaled(_materials(ivan["inventory_card"]), 10),
            *scaled(_materials(ivan["build_card"]), 10), *[float(c["face_up"]) for c in row],
            *one_hot([_IVAN_CARD[c["card"]] for c in row], len(IVAN_CARDS)),
            *one_hot([-1 if carrying is None else carrying], len(IVAN_CARDS))]


def _per_slot(sides: int) -> int:
    """The numbers of one Cathedral slot (see the ``cathedral`` block)."""
    return 1 + len(CARD_KINDS) + 6 + 6 + sides + 1 + sides + TOWERS + 4


def blocks(players: int) -> list[Block]:
    """The observation layout for ``players`` seats (solo: you and Ivan, two sides)."""
    sides = 2 if players == 1 else players
    ns = max_slots(players)
    n_res = len(RESOURCES)
    per_slot = _per_slot(sides)
    out = [
        Block("decision", len(DECISION_NAMES),
              f"one-hot of the pending decision type ({', '.join(DECISION_NAMES)})",
              lambda v, s: one_hot([DECISION_NAMES.index(v["decision"])
                                    if v["decision"] else -1], len(DECISION_NAMES))),
        Block("to_move", sides,
              "one-hot of the side to move, relative to the observer (0 = you)",
              lambda v, s: one_hot([relative(v["to_move"] if v["to_move"] is not None
                                             else -1, s, sides)], sides)),
        Block("decision_args", _ARGS_FIXED + 2 * ns,
              "the pending decision's fields: the Workshop tile to place (die colour "
              "one-hot, resource one-hot, amount / 3), the Influence card's action one-hot "
              "(2) and uses / 10, deliveries left / 3 and made / 3, Teamsters, the slot of "
              f"a jewels decision one-hot ({ns}), the candidate slots of Ivan's card "
              f"(solo) multi-hot ({ns})",
              lambda v, s: _args(v["pending"], ns)),
        Block("flags", 16,
              "main action done, sell state / 2, reroll used, end bonus given, end "
              "triggered, market steps used (3 bits), Workshop positions used (6 bits), "
              "turns / 1000, decision stack depth / 10",
              _flags),
        Block("moved_die", DICE, f"one-hot of the die moved this turn ({', '.join(COLOURS)})",
              lambda v, s: one_hot([_COLOUR.get(v["turn"]["moved_die"], -1)], DICE)),
        Block("destination", MARKET_SPACES, "one-hot of the market space the die reached",
              lambda v, s: one_hot([v["turn"]["destination"] if v["turn"]["destination"]
                                    is not None else -1], MARKET_SPACES)),
        Block("market_tiles", MARKET_SPACES * (n_res + 1),
              f"per market space 0-7: resource one-hot ({', '.join(RESOURCES)}), amount / 3",
              lambda v, s: [x for sp in v["market"] for x in
                            (*one_hot([_RESOURCE[sp["tile"]["resource"]]], n_res),
                             sp["tile"]["amount"] / 3)]),
        Block("die_positions", DICE * MARKET_SPACES,
              "per die (yellow, red, blue, green, white): one-hot of its market space",
              lambda v, s: one_hot(_dice(v)[0], MARKET_SPACES)),
        Block("die_values", DICE, "per die: pips / 6",
              lambda v, s: scaled(_dice(v)[1], 6)),
        Block("influence", QUADRANTS * len(C.influence),
              f"per quadrant: one-hot of its Influence card ({len(C.influence)} cards)",
              lambda v, s: one_hot([_INFLUENCE[q["card"]] for q in v["influence"]],
                                   len(C.influence))),
        Block("supply", len(MATERIALS), f"general supply per Material ({', '.join(MATERIALS)})"
              " / 20", lambda v, s: scaled(_materials(v["supply"]), 20)),
        Block("sides", sides * 15,
              "per side, you first: rubles / 20, inventory per Material / 10, Banners in "
              "inventory / 4, Banners outside / 4, Ornaments available (door, arch, cross) "
              "/ 2, Ornaments placed / 4, cards completed / 5, Recognition / 100 (Ivan, solo: "
              "no rubles, inventory, Banners or Ornaments to place, all zero)",
              _per_side),
        Block("workshops", sides * len(WS_POSITIONS) * 18,
              "per side, you first, per Workshop position (yellow, red, blue, green, "
              "white-1, white-2): one-hot empty/Banner/tile face down/tile face up, then "
              "the tile's die colour one-hot (5), resource one-hot (8), amount / 3",
              lambda v, s: _workshop(v, s, sides)),
        Block("cathedral", ns * per_slot,
              f"per Cathedral slot (up to {ns}; absent slots are zero): present, kind "
              "one-hot (base, middle, dome), cost per Material / 5, delivered per Material "
              "/ 5, owner one-hot relative to you, completed, Ornament owner one-hot "
              "relative to you, tower one-hot (4), level / 5, Recognition / 10, "
              "rubles / 10, Workshop tile still on the card",
              lambda v, s: _slots(v, s, sides)),
    ]
    if players == 1:
        out.append(Block("ivan", 2 + 12 + 5 + 25 + 5,
                         "solo only: Ivan's Banners / 10, next Ornament / 4, inventory card "
                         "per Material / 10, build card per Material / 10, Ivan's dice "
                         "tiles face up (5), one-hot of each card in Ivan's row (5 x 5), "
                         "one-hot of Ivan's next card", _solo))
    return out


# --- the same layout, read from the state ----------------------------------------------
_N_DEC = len(DECISION_NAMES)
_DEC_INDEX = {name: i for i, name in enumerate(DECISION_NAMES)}
_RT_FEATURES = tuple([*one_hot([rt.resource], len(RESOURCES)), rt.amount / 3]
                     for rt in C.resource_tiles)
# Workshop position code (state.ws: -2 Banner, -1 empty, 2 * tile + face_up) -> 18 floats
_WS_FEATURES = {-2: [0.0, 1.0, 0.0, 0.0, *_NO_TILE], -1: [1.0, 0.0, 0.0, 0.0, *_NO_TILE]}
for _t, _wt in enumerate(C.tiles):
    for _up in (0, 1):
        _WS_FEATURES[2 * _t + _up] = [*one_hot([3 if _up else 2], 4), *_TILE_FEATURES[_wt.id]]
_CARD_BY_INDEX = tuple(_CARD_FEATURES[c.id] for c in C.cards)
_CARD_MONEY = tuple((c.rp / 10, c.rubles / 10) for c in C.cards)
_NO_WS_BOARD = (-1,) * len(WS_POSITIONS)


def _one(index: int, classes: int) -> list[float]:
    row = [0.0] * classes
    if 0 <= index < classes:
        row[index] = 1.0
    return row


def _s_decision(s: Any, seat: int, d: Any, sides: int, slots: int) -> list[float]:
    """decision, to_move and decision_args of the decision ``d`` on top (None: none)."""
    p = None if d is None else view_sections.decision(d)
    return [*_one(-1 if p is None else _DEC_INDEX[p["kind"]], _N_DEC),
            *_one(-1 if p is None else (p["seat"] - seat) % sides, sides),
            *_args(p, slots)]


_MK_BITS = tuple([float(m >> b & 1) for b in range(3)] for m in range(8))
_ACT_BITS = tuple([float(m >> b & 1) for b in range(len(WS_POSITIONS))]
                  for m in range(1 << len(WS_POSITIONS)))
# flags, a column per state field; the fields that change on few moves checked together
_FLAG_COLUMNS = (
    Column("stack", 15, 10, length=True), Column("main_done", 0),
    Column("mk_used", 5, table=_MK_BITS), Column("turns", 14, 1000),
    (Column("sell_state", 1, 2), Column("reroll_used", 2), Column("bonus_given", 3),
     Column("end_trigger", 4, number=lambda t: float(t >= 0)),
     Column("act_used", 8, table=_ACT_BITS)),
)


def _s_market(s: Any, seat: int, p: Any) -> list[float]:
    out: list[float] = []
    for t in s.tiles:
        out += _RT_FEATURES[t]
    return out


# dice (RC-MARKET-1: always on a market space): per die its space one-hot, then per die
# its pips / 6; each die rewritten only when it changed
_DICE_COLUMNS = (
    Column("die_pos", 0, each=DICE, numbers=lambda sp: _one(sp, MARKET_SPACES),
           size=MARKET_SPACES),
    Column("die_val", DICE * MARKET_SPACES, 6, each=DICE),
)


# sides of a game of 2-4 players (solo: Ivan's part is written by _s_side)
_SIDE_COLUMNS = (
    Column("rubles", 0, 20), Column("inv", 1, numbers=lambda t: [n / 10 for n in t],
                                    size=len(MATERIALS)),
    Column("score", 14, 100),
    (Column("inv_banners", 7, 4), Column("out_banners", 8, 4),
     Column("orn_avail", 9, numbers=lambda t: [n / 2 for n in t], size=len(_ORNAMENTS)),
     Column("orn_placed", 12, 4), Column("completed", 13, 5)),
)


def _s_side(s: Any, side: int, p: Any) -> list[float]:
    """One side's part of ``sides``."""
    if s.solo and side == 1:
        head = [0.0] * 12
    else:
        head = [s.rubles[side] / 20, *[n / 10 for n in s.inv[side]],
                s.inv_banners[side] / 4, s.out_banners[side] / 4,
                *[n / 2 for n in s.orn_avail[side]]]
    return [*head, s.orn_placed[side] / 4, s.completed[side] / 5, s.score[side] / 100]


def _k_side(s: Any, side: int, p: Any) -> tuple[Any, ...]:
    return (s.solo and side == 1, s.rubles[side], s.inv[side], s.inv_banners[side],
            s.out_banners[side], s.orn_avail[side], s.orn_placed[side], s.completed[side],
            s.score[side])


def _ws_board(codes: tuple[int, ...]) -> list[float]:
    """One side's part of ``workshops``: its Workshop positions' codes (``state.ws``)."""
    return [x for code in codes for x in _WS_FEATURES[code]]


def _s_workshops(s: Any, seat: int, p: Any) -> list[float]:
    out: list[float] = []
    sides = s.sides
    for k in range(sides):
        side = (seat + k) % sides
        board = _NO_WS_BOARD if s.solo and side == 1 else s.ws[side]
        for code in board:
            out += _WS_FEATURES[code]
    return out


_SlotPlace = tuple[int, tuple[int, int, int], list[float], list[float]]
_SLOT_ORDER: dict[tuple[Any, ...], tuple[Any, Any, list[_SlotPlace]]] = {}


def _slot_order(s: Any) -> list[_SlotPlace]:
    """Per Cathedral slot in slot order (slot ``n`` is the ``n``-th): (slot, (its card,
    tower, level), the card's features, its tower one-hot, level and card money): what
    never changes in a game, worked out once per layout.

    Raises:
        ValueError: the slot numbers are not 0 .. n-1 (a layout bug).
    """
    towers, card_of = s.towers, s.card_of
    # by the identity of the game's own tuples first (hashing them costs more)
    hit = _SLOT_ORDER.get((id(towers), id(card_of)))
    if hit is not None and hit[0] is towers and hit[1] is card_of:
        return hit[2]
    key = (towers, card_of)
    layout = _SLOT_ORDER.get(key)
    if layout is None:
        entries = sorted((slot, t, level) for t, tower in enumerate(towers)
                         for level, slot in enumerate(tower))
        if [e[0] for e in entries] != list(range(len(card_of))):
            raise ValueError("the Cathedral slots are not numbered 0 .. n-1 over the towers")
        order: list[_SlotPlace] = [
            (slot, (card_of[slot], t, level), [1.0, *_CARD_BY_INDEX[card_of[slot]]],
             [*_one(t, TOWERS), level / 5, *_CARD_MONEY[card_of[slot]]])
            for slot, t, level in entries]
        layout = keep(_SLOT_ORDER, key, (towers, card_of, order), 256)
    keep(_SLOT_ORDER, (id(towers), id(card_of)), (towers, card_of, layout[2]), 256)
    return layout[2]


_SLOT_ROWS: dict[tuple[Any, ...], array[float]] = {}


def _slot_row(s: Any, seat: int, entry: _SlotPlace) -> array[float]:
    """One Cathedral slot's numbers as ``seat`` sees them, kept per (its card and place,
    what is on it, its owners relative to the viewer)."""
    slot, where, card, place = entry
    sides = s.sides
    owner = s.owner[slot]
    orn = s.orn[slot]
    delivered = s.delivered[slot]
    key = (where, sides, owner if owner < 0 else (owner - seat) % sides, delivered,
           s.done[slot], orn if orn < 0 else (orn - seat) % sides, s.ws_tile[slot] >= 0)
    row = _SLOT_ROWS.get(key)
    if row is None:
        row = keep(_SLOT_ROWS, key, array("f", [
            *card, *[n / 5 for n in delivered], *_one(key[2], sides), float(key[4]),
            *_one(key[5], sides), *place, float(key[6])]))
    return row


def _s_slots(s: Any, seat: int, p: Any) -> array[float]:
    out = array("f")
    for entry in _slot_order(s):
        out += _slot_row(s, seat, entry)
    return out


_CATHEDRAL_READS = ("towers", "card_of", "owner", "delivered", "done", "orn", "ws_tile")
_UNSEEN = object()


def _slots_update(slots: int, width: int,
                  ) -> Callable[[Any, int, Any, memoryview, int, Any], None]:
    """The cathedral block's ``update`` (``slots`` of ``width`` values): the slots whose
    owner, deliveries, completion, Ornamentation or Workshop tile changed since ``old``
    (the fields of ``_CATHEDRAL_READS`` then); every slot, absent ones zero, when the
    layout changed or nothing was written."""
    size = slots * width

    def update(s: Any, seat: int, p: Any, row: memoryview, at: int, old: Any) -> None:
        towers, card_of = s.towers, s.card_of
        if old is None or old[0] != towers or old[1] != card_of:
            values = _s_slots(s, seat, p)
            values.frombytes(bytes(4 * (size - len(values))))
            row[at:at + size] = values
            return
        everything = range(len(card_of))
        changed: set[int] = set()
        for now, before in ((s.owner, old[2]), (s.delivered, old[3]), (s.done, old[4]),
                            (s.orn, old[5]), (s.ws_tile, old[6])):
            if now != before:
                changed.update(compress(everything, map(ne, now, before)))
        order = _slot_order(s)
        for slot in changed:
            a = at + slot * width
            row[a:a + width] = _slot_row(s, seat, order[slot])

    return update


def _s_ivan(s: Any, seat: int, p: Any) -> list[float]:
    if not s.solo:
        return []
    order = s.ivan_order
    out = [s.iv_banners / 10, s.iv_orn / 4, *[n / 10 for n in s.iv_inv],
           *[n / 10 for n in s.iv_build], *[float(s.iv_up[i]) for i in range(len(order))]]
    for c in order:
        out += _one(c, len(IVAN_CARDS))
    return out + _one(s.iv_next, len(IVAN_CARDS))


def _k_ivan(s: Any, seat: int, p: Any) -> tuple[Any, ...]:
    return (s.ivan_order, s.iv_banners, s.iv_orn, s.iv_inv, s.iv_build, *s.iv_up, s.iv_next)


def state_blocks(players: int) -> list[StateBlock]:
    """The layout of :func:`blocks`, filled from the state."""
    sides = 2 if players == 1 else players
    ns = max_slots(players)
    out = [
        # decision, to_move and decision_args: one write when the decision changes
        StateBlock("decision", lambda s, seat, d: _s_decision(s, seat, d, sides, ns),
                   pending_key, covers=3, ident=True),
        StateBlock("flags", columns=_FLAG_COLUMNS),
        StateBlock("moved_die", lambda s, seat, p: [
            *_one(s.moved_die, DICE), *_one(s.dest, MARKET_SPACES)],
            reads=("moved_die", "dest"), covers=2, memo=True),
        StateBlock("market_tiles", _s_market, reads=("tiles",)),
        StateBlock("die_positions", columns=_DICE_COLUMNS, covers=2),
        StateBlock("influence", lambda s, seat, p: one_hot(s.influence, len(C.influence)),
                   reads=("influence",)),
        StateBlock("supply", columns=(Column("supply", 0, 20, each=len(MATERIALS)),)),
        StateBlock("sides", sides=sides, columns=_SIDE_COLUMNS) if players > 1 else
        StateBlock("sides", _s_side, _k_side, sides=sides),
        StateBlock("workshops", sides=sides, columns=(
            Column("ws", 0, numbers=_ws_board, size=len(WS_POSITIONS) * 18),))
        if players > 1 else StateBlock("workshops", _s_workshops, reads=("ws",)),
        StateBlock("cathedral", update=_slots_update(ns, _per_slot(sides)),
                   reads=_CATHEDRAL_READS),
    ]
    if players == 1:
        out.append(StateBlock("ivan", _s_ivan, _k_ivan))
    return out


def make_encoder(players: int) -> Encoder:
    """The encoder for a game of ``players`` seats (1 = solo against Ivan)."""
    return Encoder("red-cathedral", players, catalogue(players), blocks(players),
                   state_blocks(players), top_of_stack)
