"""Praga Caput Regni encoder: action catalogue and observation layout (``docs/rl.md``).

The catalogue is every action value the engine can produce: each action class of
``actions.CLASSES`` times the range of each of its fields, taken from the component data
(wheel slots from the crane, wall positions and bridge planks from the action board, the
ids of sites, seals, technologies, bridge tiles, markets and production tokens). Observations
read ``view["state"]``, the public part that ``player_view`` whitelists; the face-down
stacks appear there only as counts, and the technologies or bridge tiles another seat is
choosing among are masked (P-TECH-2, P-BRIDGE-2).
"""

from __future__ import annotations

from itertools import product
from typing import Any

from meeplehall.games.praga import actions as A
from meeplehall.games.praga.components import ACTIONS, load
from meeplehall.games.praga.state import DECISION_NAMES, ROW_NAMES
from meeplehall.games.praga.turn import REFRESH_PAIRS
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
ROW_POSITIONS = 4  # three ordinary positions and the special one (P-ROW-1/3)
ORIENTATIONS = 6  # hexgrid.py
MAX_REWARD_CHOICES = 3  # the largest CHOOSE: the King's Road egg effect (P-ROAD-3)
SILVER_KEPT = 3  # keep 0, 1 or 2 silver windows (P-WIN-2)
MAX_SIDES = 4  # seats plus the sides the engine plays (solo: the dummy or Parler bots)
MAX_BOTS = 3  # Peter Parler and family (solo.py)
BOT_FIELDS = 10  # solo.B_TURNS .. solo.B_DECK

# Numeric ranges of the plain "int" argument of each verb that has one.
_INT_RANGES: dict[str, tuple[range, ...]] = {
    "take-tile": (range(1, C.crane.positions),),  # P-CRANE-4: wheel slots 1..11
    "pick": (range(ROW_POSITIONS),),
    "wall-at": (range(len(C.wall_positions)),),  # P-WALL-4
    "orient": (range(ORIENTATIONS),),
    "choose": (range(MAX_REWARD_CHOICES),),
    "plank": (range(len(C.bridge_pieces)),),  # P-BRIDGE-1
    "keep-silver": (range(SILVER_KEPT),),
}


def catalogue(players: int) -> list[A.PragaAction]:
    """Every action value the engine can produce (the same for every player count)."""
    out: list[A.PragaAction] = []
    for cls in A.CLASSES:
        if cls is A.Remove:  # P-ROW-5: two of the four row positions
            out += [A.remove(i, j) for i, j in REFRESH_PAIRS]
            continue
        if cls.verb in _INT_RANGES:
            ranges = _INT_RANGES[cls.verb]
        else:
            if "int" in cls.args:
                raise ValueError(f"praga catalogue: no range for the int argument of "
                                 f"{cls.verb!r}")
            ranges = tuple(range(len(A.KINDS[kind])) for kind in cls.args)
        out += [A.build(cls, *values) for values in product(*ranges)]
    return out


def _st(v: View) -> dict[str, Any]:
    state: dict[str, Any] = v["state"]
    return state


def _top(v: View) -> list[Any]:
    stack = _st(v)["stack"]
    return list(stack[-1]) if stack else []


# Per-seat counters: (state field, scale).
SEAT_FIELDS: tuple[tuple[str, float], ...] = (
    ("vp", 100), ("gold", 10), ("stone", 10), ("eggs", 5), ("silver", 5), ("goldw", 5),
    ("red", 5), ("blue", 5), ("mine", 10), ("quarry", 10), ("tech", 10), ("univ", 10),
    ("wealth", 10), ("cubes", 10), ("hw", 25), ("cat", 25), ("road", 10),
    ("seal_rights", 5), ("once", 5), ("played", 16),
)
# Per-seat extras: Cathedral / V tile held, production tokens (2), technology levels ready
# and used, edge and corner bonuses paid, technologies held.
_SEAT_EXTRA = 9


def _seats(v: View, seat: int) -> list[float]:
    st = _st(v)
    if len(st["vp"]) != st["players"]:
        # A solo automaton kept as an extra seat would need a block of its own.
        raise ValueError(f"praga encoder: the view has {len(st['vp'])} seats for "
                         f"{st['players']} players; this layout has no automaton block")
    out: list[float] = []
    for p in rotate(list(range(st["players"])), seat):
        out += [st[name][p] / scale for name, scale in SEAT_FIELDS]
        out += [float(st["cat_tile"][p] >= 0), float(st["v_tile"][p] >= 0),
                *[float(t >= 0) for t in st["ptoken"][p]],
                bin(st["tech_ready"][p]).count("1") / 4, bin(st["tech_used"][p]).count("1") / 4,
                bin(st["edge_paid"][p]).count("1") / 10,
                bin(st["corner_paid"][p]).count("1") / 10, len(st["techs"][p]) / 5]
    return out


def _seat_techs(v: View, seat: int) -> list[float]:
    st = _st(v)
    out: list[float] = []
    for p in rotate(list(range(st["players"])), seat):
        row = [0.0] * len(C.technologies)
        for t in st["techs"][p]:
            row[t] = 1.0
        out += row
    return out


def _seat_boards(v: View, seat: int) -> list[float]:
    """Per seat: upgrades per action (6, / 3) and walls built per position (12)."""
    st = _st(v)
    out: list[float] = []
    for p in rotate(list(range(st["players"])), seat):
        out += [len(stack) / 3 for stack in st["upg"][p]]
        out += [float(w >= 0) for w in st["walls"][p]]
    return out


def _turn(v: View, seat: int) -> list[float]:
    st = _st(v)
    return [float(st["action_done"]), float(st["bonus"]), float(st["special"]),
            st["xact"] / 2, float(st["refreshed"]), st["moves_hw"] / 5, st["moves_cat"] / 5,
            float(st["t14"]), st["road_free"] / 3, st["road_egg"] / 3,
            *[float(x) for x in st["performed"]]]


def _board(v: View, seat: int) -> list[float]:
    st = _st(v)
    counts = st["hidden_counts"]
    return [st["era"] / 2, st["platform"] / C.crane.platform_spaces,
            float(st["star_armed"]), st["turns"] / 64, float(st["five_vp"] >= 0),
            *scaled(counts["stacks"], 15), *scaled(counts["tech_stacks"], 6),
            counts["iv_stack"] / 6, counts["v_pile"] / 3, counts["cat_pile"] / 3,
            counts["unused"] / 5]


def _owner(value: int, seat: int, players: int) -> int:
    """An owner as seen from ``seat``: seats relative to it (0 = you), the engine's sides
    (``players + b``, solo bots) after them, unchanged; -1: nobody."""
    return relative(value, seat, players) if value < players else value


def _bots(v: View, seat: int) -> list[float]:
    """Solo sides: per bot, turns / 16, gold mines and quarries / 10, row pointers / 4,
    pawn's market / 10, latest card / 20, cubes / 10, cards left in the pile / 16."""
    out: list[float] = []
    for bot in (_st(v).get("bots") or [])[:MAX_BOTS]:
        turns, mines, quarries, p0, p1, p2, pawn, card, cubes, deck = bot[:BOT_FIELDS]
        out += [turns / 16, mines / 10, quarries / 10, p0 / 4, p1 / 4, p2 / 4,
                (pawn + 1) / 10, (card + 1) / 20, cubes / 10, bin(deck).count("1") / 16]
    return out


def _sites(v: View, seat: int, players: int) -> list[float]:
    st = _st(v)
    out: list[float] = []
    for x in range(len(C.sites)):
        out += [float(st["site_tile"][x] >= 0), float(st["site_cube"][x]),
                st["site_spent"][x] / 5,
                *one_hot([_owner(st["site_owner"][x], seat, players)], MAX_SIDES),
                *one_hot([st["site_orient"][x] if st["site_tile"][x] >= 0 else -1],
                         ORIENTATIONS)]
    return out


def blocks(players: int) -> list[Block]:
    """The observation layout for ``players`` seats."""
    n_dec = len(DECISION_NAMES)
    seat_width = len(SEAT_FIELDS) + _SEAT_EXTRA
    site_width = 3 + MAX_SIDES + ORIENTATIONS
    wheel = C.crane.positions
    n_tiles = len(C.action_tiles)
    return [
        Block("decision", n_dec, f"one-hot of the pending decision ({', '.join(DECISION_NAMES)})",
              lambda v, s: one_hot([DECISION_NAMES.index(v["decision"])
                                    if v["decision"] else -1], n_dec)),
        Block("to_move", players, "one-hot of the seat to move, relative to you (0 = you)",
              lambda v, s: one_hot([relative(v["to_move"] if v["to_move"] is not None
                                             else -1, s, players)], players)),
        Block("turn_of", players, "one-hot of the seat whose turn it is, relative to you",
              lambda v, s: one_hot([relative(_st(v)["seat"], s, players)], players)),
        Block("decision_args", 6,
              "the pending decision's numeric arguments after its seat (values another "
              "seat may not see are -1), / 10, zero-padded",
              lambda v, s: scaled(flatten(_top(v)[2:])[:6], 10)),
        Block("taken_tile", n_tiles + wheel,
              f"one-hot of the action tile taken this turn ({n_tiles}), one-hot of its wheel slot "
              f"({wheel})",
              lambda v, s: [*one_hot([_st(v)["taken"]], n_tiles),
                            *one_hot([_st(v)["taken_slot"]], wheel)]),
        Block("this_turn", 16,
              "action done, wheel bonus, special tile, extra actions / 2, row refreshed, "
              "Hunger Wall moves / 5, Cathedral moves / 5, technology T14 used, King's "
              "Road free / 3 and egg / 3 effects pending, actions performed (6 bits)",
              _turn),
        Block("board", 5 + 12 + 4 + 4,
              "era / 2, platform space, star armed, turns / 64, 5-VP bonus claimed, "
              "face-down stack sizes (12, / 15), technology stacks (4, / 6), IV stack / 6, "
              "V pile / 3, Cathedral pile / 3, unused market tiles / 5",
              _board),
        Block("wheel", wheel * n_tiles,
              f"per wheel position 0-{wheel - 1}: one-hot of the action tile on it",
              lambda v, s: one_hot(_st(v)["slots"], n_tiles)),
        Block("rotation", wheel, "one-hot of the crane's rotation",
              lambda v, s: one_hot([_st(v)["rotation"] % wheel], wheel)),
        Block("rows", len(ROW_NAMES) * ROW_POSITIONS * 2,
              f"per row ({', '.join(ROW_NAMES)}) and position 0-3: tile present, tile "
              "index / 150",
              lambda v, s: [x for row in _st(v)["rows"] for t in row
                            for x in (float(t >= 0), max(t, 0) / 150)]),
        Block("markets", len(C.markets) * (len(C.market_tiles) + 1),
              f"per market (10): one-hot of its market tile ({len(C.market_tiles)}), scored",
              lambda v, s: [x for m, t in enumerate(_st(v)["market_tile"])
                            for x in (*one_hot([t], len(C.market_tiles)),
                                      float(_st(v)["market_done"][m]))]),
        Block("seals", len(C.seals) * MAX_SIDES, "per seal: one-hot of its owner (4: seats "
              "relative to you, then the solo sides the engine plays; all zero: free)",
              lambda v, s: one_hot([_owner(o, s, players) for o in _st(v)["seal_owner"]],
                                   MAX_SIDES)),
        Block("bridge", len(C.bridge_pieces) * 2 + len(C.production_tokens),
              "per plank: a bridge tile is on it, King's Road effect set; production tokens "
              "still in the river (multi-hot)",
              lambda v, s: [*[float(t >= 0) for t in _st(v)["bridge"]],
                            *[float(e >= 0) for e in _st(v)["road_effect"]],
                            *[float(t in _st(v)["river"])
                              for t in range(len(C.production_tokens))]]),
        Block("sites", len(C.sites) * site_width,
              f"per building site ({len(C.sites)}): built, cube on it, spent / 5, owner "
              "one-hot (4, as for seals), orientation one-hot (6)",
              lambda v, s: _sites(v, s, players)),
        Block("seats", players * seat_width,
              "per seat, you first: " + ", ".join(f"{n} / {sc:g}" for n, sc in SEAT_FIELDS)
              + ", holds a Cathedral tile, holds a V tile, production tokens on the gold and "
              "quarry tracks, technology levels ready / 4 and used / 4, edge and corner "
              "bonuses paid / 10, technologies held / 5",
              _seats),
        Block("seat_boards", players * (len(ACTIONS) + len(C.wall_positions)),
              "per seat, you first: upgrades stacked on each action / 3 (mines, quarries, "
              "upgrade, wall, building, road), wall built at each of 12 positions",
              _seat_boards),
        Block("technologies", players * len(C.technologies),
              f"per seat, you first: technologies held (multi-hot of {len(C.technologies)})",
              _seat_techs),
        Block("solo_bots", MAX_BOTS * BOT_FIELDS,
              "solo sides the engine plays (Parler bots; zero without): per bot, turns / "
              "16, gold mines / 10, quarries / 10, row pointers (3) / 4, pawn's market + 1 "
              "/ 10, latest card + 1 / 20, cubes / 10, cards left in the pile / 16",
              _bots),
    ]


def make_encoder(players: int) -> Encoder:
    """The encoder for a game of ``players`` seats."""
    return Encoder("praga", players, catalogue(players), blocks(players))
