"""Red Cathedral encoder: action catalogue and observation layout (``docs/rl.md``).

The catalogue is built from the component data: Cathedral slots from the largest
Building Plan for the player count (RC-SETUP-2), Materials, die colours, Workshop
positions, market spaces, and the exchange and discard sizes printed on Influence cards
(RC-INFL-*). Observations read ``view["state"]``, the public part of the state that
``player_view`` whitelists: every seat sees the same table in this game, and what is
hidden (the PRNG state, unused cards and tiles) is never in a view.
"""

from __future__ import annotations

from itertools import combinations, combinations_with_replacement
from typing import Any

from meeplehall.games.red_cathedral import actions as A
from meeplehall.games.red_cathedral.components import (
    CARD_KINDS,
    COLOURS,
    IVAN_CARDS,
    MATERIALS,
    RESOURCES,
    WS_POSITIONS,
    load,
)
from meeplehall.games.red_cathedral.state import DECISION_NAMES
from meeplehall.rl.encoders.base import (
    Block,
    Encoder,
    View,
    flatten,
    one_hot,
    relative,
    rotate,
    scaled,
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


def _st(v: View) -> dict[str, Any]:
    state: dict[str, Any] = v["state"]
    return state


def _top(v: View) -> list[Any]:
    stack = _st(v)["stack"]
    return list(stack[-1]) if stack else []


def _tile_features(tile: int) -> list[float]:
    """A Workshop tile: die colour one-hot (5), resource one-hot (8), amount / 3."""
    wt = C.tiles[tile]
    return [*one_hot([wt.die], DICE), *one_hot([wt.resource], len(RESOURCES)), wt.amount / 3]


def _workshop(v: View, seat: int, sides: int) -> list[float]:
    out: list[float] = []
    for board in rotate(_st(v)["ws"], seat):
        for value in board:
            state = 1 if value == -2 else (3 if value >= 0 and value & 1 else
                                           (2 if value >= 0 else 0))
            out += one_hot([state], 4)
            out += _tile_features(value >> 1) if value >= 0 else [0.0] * 14
    return out


def _slots(v: View, seat: int, sides: int) -> list[float]:
    st = _st(v)
    out: list[float] = []
    for slot, card_index in enumerate(st["card_of"]):
        card = C.cards[card_index]
        out += [1.0, *one_hot([card.kind], len(CARD_KINDS)), *scaled(card.cost, 5),
                *scaled(st["delivered"][slot], 5),
                *one_hot([relative(st["owner"][slot], seat, sides)], sides),
                float(st["done"][slot]),
                *one_hot([relative(st["orn"][slot], seat, sides)], sides),
                *one_hot([st["slot_tower"][slot]], TOWERS), st["slot_level"][slot] / 5,
                card.rp / 10, card.rubles / 10, float(st["ws_tile"][slot] >= 0)]
    return out


def _per_side(v: View, seat: int) -> list[float]:
    st = _st(v)
    out: list[float] = []
    for side in rotate(list(range(st["sides"])), seat):
        out += [st["rubles"][side] / 20, *scaled(st["inv"][side], 10),
                st["inv_banners"][side] / 4, st["out_banners"][side] / 4,
                *scaled(st["orn_avail"][side], 2), st["orn_placed"][side] / 4,
                st["completed"][side] / 5, st["score"][side] / 100]
    return out


def _flags(v: View, seat: int) -> list[float]:
    st = _st(v)
    return [float(st["main_done"]), st["sell_state"] / 2, float(st["reroll_used"]),
            float(st["bonus_given"]), float(st["end_trigger"] >= 0),
            *[float(st["mk_used"] >> b & 1) for b in range(3)],
            *[float(st["act_used"] >> b & 1) for b in range(6)],
            st["turns"] / 1000, len(st["stack"]) / 10]


def _solo(v: View, seat: int) -> list[float]:
    st = _st(v)
    if not st["solo"]:
        return []
    return [st["iv_banners"] / 10, st["iv_orn"] / 4, *scaled(st["iv_inv"], 10),
            *scaled(st["iv_build"], 10), *[float(u) for u in st["iv_up"]],
            *one_hot(st["ivan_order"], len(IVAN_CARDS)),
            *one_hot([st["iv_next"]], len(IVAN_CARDS))]


def blocks(players: int) -> list[Block]:
    """The observation layout for ``players`` seats (solo: you and Ivan, two sides)."""
    sides = 2 if players == 1 else players
    ns = max_slots(players)
    n_res = len(RESOURCES)
    per_slot = 1 + len(CARD_KINDS) + 6 + 6 + sides + 1 + sides + TOWERS + 4
    out = [
        Block("decision", len(DECISION_NAMES),
              f"one-hot of the pending decision type ({', '.join(DECISION_NAMES)})",
              lambda v, s: one_hot([DECISION_NAMES.index(v["decision"])
                                    if v["decision"] else -1], len(DECISION_NAMES))),
        Block("to_move", sides,
              "one-hot of the side to move, relative to the observer (0 = you)",
              lambda v, s: one_hot([relative(v["to_move"] if v["to_move"] is not None
                                             else -1, s, sides)], sides)),
        Block("decision_args", 6,
              "the pending decision's numeric arguments after its seat, / 10, zero-padded",
              lambda v, s: scaled(flatten(_top(v)[2:])[:6], 10)),
        Block("flags", 16,
              "main action done, sell state / 2, reroll used, end bonus given, end "
              "triggered, market steps used (3 bits), Workshop positions used (6 bits), "
              "turns / 1000, decision stack depth / 10",
              _flags),
        Block("moved_die", DICE, f"one-hot of the die moved this turn ({', '.join(COLOURS)})",
              lambda v, s: one_hot([_st(v)["moved_die"]], DICE)),
        Block("destination", MARKET_SPACES, "one-hot of the market space the die reached",
              lambda v, s: one_hot([_st(v)["dest"]], MARKET_SPACES)),
        Block("market_tiles", MARKET_SPACES * (n_res + 1),
              f"per market space 0-7: resource one-hot ({', '.join(RESOURCES)}), amount / 3",
              lambda v, s: [x for t in _st(v)["tiles"] for x in
                            (*one_hot([C.resource_tiles[t].resource], n_res),
                             C.resource_tiles[t].amount / 3)]),
        Block("die_positions", DICE * MARKET_SPACES,
              "per die (yellow, red, blue, green, white): one-hot of its market space",
              lambda v, s: one_hot(_st(v)["die_pos"], MARKET_SPACES)),
        Block("die_values", DICE, "per die: pips / 6",
              lambda v, s: scaled(_st(v)["die_val"], 6)),
        Block("influence", QUADRANTS * len(C.influence),
              f"per quadrant: one-hot of its Influence card ({len(C.influence)} cards)",
              lambda v, s: one_hot(_st(v)["influence"], len(C.influence))),
        Block("supply", len(MATERIALS), f"general supply per Material ({', '.join(MATERIALS)})"
              " / 20", lambda v, s: scaled(_st(v)["supply"], 20)),
        Block("sides", sides * 15,
              "per side, you first: rubles / 20, inventory per Material / 10, Banners in "
              "inventory / 4, Banners outside / 4, Ornaments available (door, arch, cross) "
              "/ 2, Ornaments placed / 4, cards completed / 5, Recognition / 100",
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


def make_encoder(players: int) -> Encoder:
    """The encoder for a game of ``players`` seats (1 = solo against Ivan)."""
    return Encoder("red-cathedral", players, catalogue(players), blocks(players))
