"""Praga Caput Regni encoder: action catalogue and observation layout (``docs/rl.md``).

The catalogue is every action value the engine can produce: each action class of
``actions.CLASSES`` times the range of each of its fields, taken from the component data
(wheel slots from the crane, wall positions and bridge planks from the action board, the
ids of sites, seals, technologies, bridge tiles, markets and production tokens).
Observations read the view's designed sections (``view["board"]``, ``view["pending"]``:
games/praga/view_sections.py), never the bot-only ``view["state"]``; the face-down stacks
appear there only as counts, and the technologies or bridge tiles another seat is
choosing among are null (P-TECH-2, P-BRIDGE-2). Grid positions are rows and columns,
tiles in the rows are described by their cost, not by a component index.

``state_blocks`` fill the same layout from the state's public fields (sizes of the
face-down stacks, never their order; never ``rng`` or ``unused``) and the decision from
``pending``: the top of the stack masked for the seat by the views' own masking
(views._stack_for) and decoded by view_sections.pending.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable
from itertools import product
from typing import Any

from meeplehall.games.praga import actions as A
from meeplehall.games.praga import view_sections, views
from meeplehall.games.praga.components import ACTIONS, load
from meeplehall.games.praga.decisions import NAMES as DECISION_NAMES
from meeplehall.games.praga.effects import ROW_BITS
from meeplehall.games.praga.state import ROW_NAMES
from meeplehall.games.praga.turn import REFRESH_PAIRS
from meeplehall.rl.encoders.base import (
    Block,
    Column,
    Encoder,
    StateBlock,
    View,
    keep,
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
N_PARLER_CARDS = 5  # Peter Parler's cards (games/praga/data: the Parler deck)
# turns, mines, quarries, 3 row pointers, pawn's market one-hot, latest card one-hot,
# cubes, cards left in the pile
BOT_FIELDS = 6 + len(C.markets) + N_PARLER_CARDS + 2

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


def _b(v: View) -> dict[str, Any]:
    board: dict[str, Any] = v["board"]
    return board


# Component ids -> their index in the component data (for one-hots).
_ACTION_TILE = {t.id: i for i, t in enumerate(C.action_tiles)}
_MARKET_TILE = {t.id: i for i, t in enumerate(C.market_tiles)}
_TECH = {t.id: i for i, t in enumerate(C.technologies)}
_TOKEN = {t.id: i for i, t in enumerate(C.production_tokens)}
_MARKET = {m.id: i for i, m in enumerate(C.markets)}
_ROW_COST = tuple({t.id: (t.gold, t.stone) for t in tiles}
                  for tiles in (C.buildings, C.walls))
_PARLER_CARD: dict[Any, int] = {}


def _parler_card(card: Any) -> int:
    if not _PARLER_CARD:
        from meeplehall.games.praga.parler import PARLER

        if len(PARLER.cards) != N_PARLER_CARDS:
            raise ValueError(f"the Parler deck has {len(PARLER.cards)} cards; the encoder "
                             f"expects {N_PARLER_CARDS} (N_PARLER_CARDS)")
        _PARLER_CARD.update({c.id: i for i, c in enumerate(PARLER.cards)})
    return -1 if card is None else _PARLER_CARD[card]


def _index(table: dict[str, int], key: str | None) -> int:
    return -1 if key is None else table[key]


# Per-seat counters: (field of view["board"]["players"][i], scale).
SEAT_FIELDS: tuple[tuple[str, float], ...] = (
    ("vp", 100), ("gold", 10), ("stone", 10), ("eggs", 5), ("silver_windows", 5),
    ("gold_windows", 5), ("red_tokens", 5), ("blue_tokens", 5), ("mines", 10),
    ("quarries", 10), ("technology", 10), ("university", 10), ("cubes", 10), ("road", 10),
    ("seal_rights", 5), ("turns_played", 16),
)
# Per-seat extras: Hunger Wall and Cathedral row / 6 and column / 7, wealth bonuses (3),
# GL-T2-2 token triggers used (2), Cathedral / V tile held, production tokens (2),
# technology levels ready and used, edge and corner bonuses paid, technologies held.
_SEAT_EXTRA = 4 + 3 + 2 + 9


def _seats(v: View, seat: int) -> list[float]:
    players = _b(v)["players"]
    if len(players) != v["players"]:
        raise ValueError(f"praga encoder: the view has {len(players)} seats for "
                         f"{v['players']} players; this layout has no automaton block")
    out: list[float] = []
    for pl in rotate(players, seat):
        hw = pl["hunger_wall"]
        cat = pl["cathedral"]
        wealth = pl["wealth_bonuses"]
        once = pl["token_triggers_used"]
        tokens = pl["production_tokens"]
        out += [pl[name] / scale for name, scale in SEAT_FIELDS]
        out += [hw["row"] / 6, hw["column"] / 7, cat["row"] / 6, cat["column"] / 7,
                float(wealth["six_gold"]), float(wealth["six_stone"]), float(wealth["nine"]),
                float(once["red"]), float(once["blue"]),
                float(pl["cathedral_tile"] is not None), float(pl["v_tile"] is not None),
                float(tokens["gold"] is not None), float(tokens["quarry"] is not None),
                len(pl["technology_levels_ready"]) / 4, len(pl["technology_levels_used"]) / 4,
                len(pl["edge_pairs_paid"]) / 10, len(pl["corner_pairs_paid"]) / 10,
                len(pl["technologies"]) / 5]
    return out


def _seat_techs(v: View, seat: int) -> list[float]:
    out: list[float] = []
    for pl in rotate(_b(v)["players"], seat):
        row = [0.0] * len(C.technologies)
        for t in pl["technologies"]:
            row[_TECH[t]] = 1.0
        out += row
    return out


def _seat_boards(v: View, seat: int) -> list[float]:
    """Per seat: upgrades per action (6, / 3) and walls built per position (12)."""
    out: list[float] = []
    for pl in rotate(_b(v)["players"], seat):
        board = pl["action_board"]
        out += [len(board["upgrades"][a]) / 3 for a in ACTIONS]
        out += [float(w is not None) for w in board["walls"]]
    return out


def _turn(v: View, seat: int) -> list[float]:
    turn = _b(v)["turn"]
    moves = turn["sideways_moves"]
    performed = turn["performed"]
    return [float(turn["action_done"]), float(turn["wheel_bonus"]),
            float(turn["special_bonus"]), _EXTRA.index(turn["extra_action"]) / 2,
            float(turn["row_refreshed"]), moves["hunger-wall"] / 5, moves["cathedral"] / 5,
            float(turn["t14_used"]), turn["road_free"] / 3, turn["road_egg"] / 3,
            *[float(performed[a]) for a in ACTIONS]]


_EXTRA = ("available", "bought", "done")


def _table(v: View, seat: int) -> list[float]:
    b = _b(v)
    fd = b["face_down"]
    stacks = [n for era in fd["stacks"] for row in ROW_NAMES
              for n in (era[row]["normal"], era[row]["special"])]
    return [b["era"] / 2, b["platform"] / C.crane.platform_spaces,
            float(b["star_armed"]), b["turns_done"] / 64,
            float(b["crane"]["five_vp_tile"] is not None),
            *scaled(stacks, 15), *[fd["technologies"][lv] / 6 for lv in ("1", "2", "3", "4")],
            fd["bridge_iv"] / 6, fd["bridge_v"] / 3, fd["cathedral_tiles"] / 3,
            fd["market_tiles_unused"] / 5]


def _row_tiles(v: View, seat: int) -> list[float]:
    """Per row and position: a tile is there, its gold and stone cost / 5 (upgrades cost
    nothing to take, P-UPG-1)."""
    out: list[float] = []
    for r, name in enumerate(ROW_NAMES):
        costs = _ROW_COST[r] if r < 2 else None
        for tile in _b(v)["rows"][name]:
            if tile is None:
                out += [0.0, 0.0, 0.0]
            elif costs is None:
                out += [1.0, 0.0, 0.0]
            else:
                gold, stone = costs[tile]
                out += [1.0, gold / 5, stone / 5]
    return out


def _owner(value: int | None, seat: int, players: int) -> int:
    """An owner as seen from ``seat``: seats relative to it (0 = you), the engine's sides
    (``players + b``, solo bots) after them, unchanged; -1: nobody."""
    if value is None:
        return -1
    return relative(value, seat, players) if value < players else value


def _bots(v: View, seat: int) -> list[float]:
    """Solo sides: per bot, turns / 16, gold mines and quarries / 10, row pointers / 4,
    the pawn's market one-hot, the latest card one-hot, cubes / 10, cards left in the
    pile / 16."""
    out: list[float] = []
    for bot in (_b(v).get("bots") or [])[:MAX_BOTS]:
        if bot["kind"] != "parler":
            out += [bot["turns"] / 16] + [0.0] * (BOT_FIELDS - 1)
            continue
        ptr = bot["row_pointers"]
        out += [bot["turns"] / 16, bot["mines"] / 10, bot["quarries"] / 10,
                *[ptr[r] / 4 for r in ROW_NAMES],
                *_one(_index(_MARKET, bot["pawn_market"]), len(_MARKET)),
                *_one(_parler_card(bot["last_card"]), N_PARLER_CARDS), bot["cubes"] / 10,
                bot["draw_pile"] / 16]
    return out


def _sites(v: View, seat: int, players: int) -> list[float]:
    out: list[float] = []
    for site in _b(v)["sites"]:
        orientation = site["orientation"]
        out += [float(site["building"] is not None), float(site["cube"]), site["spent"] / 5,
                *one_hot([_owner(site["owner"], seat, players)], MAX_SIDES),
                *one_hot([-1 if orientation is None else orientation], ORIENTATIONS)]
    return out


# The pending decision's fields: (field, its values) for the one-hot parts.
_FIELD_CLASSES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("row", ROW_NAMES), ("track", ("mines", "quarries")),
    ("grid", ("hunger-wall", "cathedral")), ("pile", ("IV", "V")),
)
_BRIDGE_TILE = {t.id: i for i, t in enumerate(C.bridge_tiles)}
DECISION_FIELDS = (sum(len(values) for _, values in _FIELD_CLASSES) + 3
                   + len(C.technologies) + len(C.bridge_tiles))


def _decision_fields(v: View, seat: int) -> list[float]:
    pending = v.get("pending")
    fields: dict[str, Any] = pending["fields"] if pending else {}
    out: list[float] = []
    for name, values in _FIELD_CLASSES:
        value = fields.get(name)
        out += one_hot([values.index(value) if value is not None else -1], len(values))
    offered = fields.get("options") or fields.get("drawn") or fields.get("tiles") or ()
    out += [fields.get("discount", 0) / 5, fields.get("level", -1) / 4 + 0.25,
            len(offered) / 3]
    techs = [0.0] * len(C.technologies)
    for t in fields.get("drawn") or ():
        if t is not None:
            techs[_TECH[t]] = 1.0
    tiles = [0.0] * len(C.bridge_tiles)
    for t in fields.get("tiles") or ():
        if t is not None:
            tiles[_BRIDGE_TILE[t]] = 1.0
    return out + techs + tiles


def _river(v: View) -> list[float]:
    out = [0.0] * len(C.production_tokens)
    for t in _b(v)["river"]:
        out[_TOKEN[t]] = 1.0
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
              lambda v, s: one_hot([relative(_b(v)["turn"]["seat"], s, players)], players)),
        Block("decision_fields", DECISION_FIELDS,
              "the pending decision's fields: row one-hot (building, wall, upgrade), track "
              "one-hot (mines, quarries), grid one-hot (Hunger Wall, Cathedral), bridge pile "
              "one-hot (IV, V), discount / 5, technology level (0-3) / 4 + 1/4 (0: none), "
              "choices offered / 3 (rewards, technologies or bridge tiles; those another "
              f"seat draws count, unseen), the technologies drawn (multi-hot of "
              f"{len(C.technologies)}) and the bridge tiles offered (multi-hot of "
              f"{len(C.bridge_tiles)}) as far as you may see them",
              _decision_fields),
        Block("taken_tile", n_tiles + wheel,
              f"one-hot of the action tile taken this turn ({n_tiles}), one-hot of its wheel slot "
              f"({wheel})",
              lambda v, s: [*one_hot([_index(_ACTION_TILE, _b(v)["turn"]["action_tile"])],
                                     n_tiles),
                            *one_hot([_b(v)["turn"]["wheel_slot"] or -1], wheel)]),
        Block("this_turn", 16,
              "action done, wheel bonus, special tile, extra actions / 2, row refreshed, "
              "Hunger Wall moves / 5, Cathedral moves / 5, technology T14 used, King's "
              "Road free / 3 and egg / 3 effects pending, actions performed (6 bits)",
              _turn),
        Block("board", 5 + 12 + 4 + 4,
              "era / 2, platform space, star armed, turns / 64, 5-VP bonus claimed, "
              "face-down stack sizes (12, / 15), technology stacks (4, / 6), IV stack / 6, "
              "V pile / 3, Cathedral pile / 3, unused market tiles / 5",
              _table),
        Block("wheel", wheel * n_tiles,
              f"per wheel position 0-{wheel - 1}: one-hot of the action tile on it",
              lambda v, s: one_hot([_index(_ACTION_TILE, t) for t in _b(v)["crane"]["wheel"]],
                                   n_tiles)),
        Block("rotation", wheel, "one-hot of the crane's rotation",
              lambda v, s: one_hot([_b(v)["crane"]["rotation"] % wheel], wheel)),
        Block("rows", len(ROW_NAMES) * ROW_POSITIONS * 3,
              f"per row ({', '.join(ROW_NAMES)}) and position 0-3: tile present, its gold "
              "and stone cost / 5 (0 for upgrade tiles)",
              _row_tiles),
        Block("markets", len(C.markets) * (len(C.market_tiles) + 1),
              f"per market (10): one-hot of its market tile ({len(C.market_tiles)}), scored",
              lambda v, s: [x for m in _b(v)["markets"]
                            for x in (*one_hot([_index(_MARKET_TILE, m["tile"])],
                                               len(C.market_tiles)),
                                      float(m["scored"]))]),
        Block("seals", len(C.seals) * MAX_SIDES, "per seal: one-hot of its owner (4: seats "
              "relative to you, then the solo sides the engine plays; all zero: free)",
              lambda v, s: one_hot([_owner(seal["owner"], s, players)
                                    for seal in _b(v)["seals"]], MAX_SIDES)),
        Block("bridge", len(C.bridge_pieces) * 2 + len(C.production_tokens),
              "per plank: a bridge tile is on it, King's Road effect set; production tokens "
              "still in the river (multi-hot)",
              lambda v, s: [*[float(p["tile"] is not None) for p in _b(v)["bridge"]],
                            *[float(e is not None) for e in _b(v)["road_tiles"]],
                            *_river(v)]),
        Block("sites", len(C.sites) * site_width,
              f"per building site ({len(C.sites)}): built, cube on it, spent / 5, owner "
              "one-hot (4, as for seals), orientation one-hot (6)",
              lambda v, s: _sites(v, s, players)),
        Block("seats", players * seat_width,
              "per seat, you first: " + ", ".join(f"{n} / {sc:g}" for n, sc in SEAT_FIELDS)
              + ", Hunger Wall row / 6 and column / 7, Cathedral row / 6 and column / 7, "
              "wealth bonuses taken (six gold, six stone, nine), GL-T2-2 red and blue token "
              "triggers used this turn, holds a Cathedral tile, holds a V tile, production "
              "tokens on the gold and quarry tracks, technology levels ready / 4 and used / 4, "
              "edge and corner bonuses paid / 10, technologies held / 5",
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
              "16, gold mines / 10, quarries / 10, row pointers (3) / 4, the pawn's market "
              f"one-hot ({len(_MARKET)}), the latest card one-hot ({N_PARLER_CARDS}), "
              "cubes / 10, cards left in the pile / 16",
              _bots),
    ]


# --- the same layout, read from the state ----------------------------------------------
_N_DEC = len(DECISION_NAMES)
_DEC_INDEX = {name: i for i, name in enumerate(DECISION_NAMES)}
_N_TILES = len(C.action_tiles)
_WHEEL = C.crane.positions
_N_TECH = len(C.technologies)
_N_MARKET_TILES = len(C.market_tiles)
# A wheel slot's tile one-hot (-1: empty) as a float32 array: joining arrays is a copy,
# converting floats is not.
_TILE_AT = {t: array("f", [float(t == u) for u in range(_N_TILES)])
            for t in range(-1, _N_TILES)}
_ROW_COST_BY_INDEX = tuple(tuple((t.gold / 5, t.stone / 5) for t in tiles)
                           for tiles in (C.buildings, C.walls))
_BITS4 = tuple(bin(m & 15).count("1") / 4 for m in range(16))


def pending(s: Any, seat: int) -> Any:
    """The decision on top of the stack as ``seat`` sees it (the views' own masking: the
    drawn technologies or bridge tiles of another seat's decision are hidden, P-TECH-2,
    P-BRIDGE-2), or None. A frozen value: it is its own block key."""
    if not s.stack:
        return None
    return views.masked_top(s, seat)


def _one(index: int, classes: int) -> list[float]:
    row = [0.0] * classes
    if 0 <= index < classes:
        row[index] = 1.0
    return row


def _s_decision(s: Any, seat: int, p: dict[str, Any] | None, players: int) -> list[float]:
    """decision, to_move, turn_of and decision_fields of the pending decision ``p`` (as
    view_sections.pending gives it; None: none)."""
    return [*_one(-1 if p is None else _DEC_INDEX[p["kind"]], _N_DEC),
            *_one(-1 if p is None else (p["seat"] - seat) % players, players),
            *_one((s.seat - seat) % players, players),
            *_decision_fields({"pending": p}, seat)]


def _held(value: int) -> float:
    return float(value >= 0)


def _lengths(scale: float, count: int | None = None) -> Callable[[Any], list[float]]:
    """``numbers`` of a column: the length of each pile in a list / ``scale``."""
    return lambda piles: [len(x) / scale for x in piles[:count]]


# this_turn and board, a column per state field; the fields that change on few moves
# are checked together first.
_TURN_COLUMNS = (
    Column("action_done", 0), Column("bonus", 1), Column("refreshed", 4),
    Column("performed", 10, numbers=lambda t: [float(x) for x in t], size=len(ACTIONS)),
    (Column("special", 2), Column("xact", 3, 2), Column("moves_hw", 5, 5),
     Column("moves_cat", 6, 5), Column("t14", 7), Column("road_free", 8, 3),
     Column("road_egg", 9, 3)),
)
_BOARD_COLUMNS = (
    Column("turns", 3, 64), Column("stacks", 5, numbers=_lengths(15, 12), size=12),
    (Column("era", 0, 2), Column("platform", 1, C.crane.platform_spaces),
     Column("star_armed", 2), Column("five_vp", 4, number=_held),
     Column("tech_stacks", 17, numbers=_lengths(6), size=4),
     Column("iv_stack", 21, 6, length=True), Column("v_pile", 22, 3, length=True),
     Column("cat_pile", 23, 3, length=True), Column("unused", 24, 5, length=True)),
)


def _wheel_block(s: Any, seat: int, p: Any) -> array[float]:
    """Per wheel position, the one-hot of its action tile."""
    out = array("f")
    for t in s.slots:
        out += _TILE_AT[t]
    return out


def _row_numbers(r: int) -> Callable[[tuple[int, ...]], list[float]]:
    """The numbers of row ``r`` in the ``rows`` block: per position, tile present, its
    gold and stone cost / 5 (0 for the upgrade row)."""
    def numbers(row: tuple[int, ...]) -> list[float]:
        out: list[float] = []
        for t in row:
            if t < 0:
                out += (0.0, 0.0, 0.0)
            elif r == 2:
                out += (1.0, 0.0, 0.0)
            else:
                out += (1.0, *_ROW_COST_BY_INDEX[r][t])
        return out
    return numbers


def _s_markets(s: Any, seat: int, p: Any) -> list[float]:
    out: list[float] = []
    for t, done in zip(s.market_tile, s.market_done, strict=True):
        out += _one(t, _N_MARKET_TILES)
        out.append(float(done))
    return out


def _side_at(value: int, seat: int, players: int) -> int:
    """``_owner`` for a state value (-1: nobody)."""
    if value < 0:
        return -1
    return (value - seat) % players if value < players else value


def _s_seals(s: Any, seat: int, p: Any) -> list[float]:
    out: list[float] = []
    for o in s.seal_owner:
        out += _one(_side_at(o, seat, s.players), MAX_SIDES)
    return out


def _s_bridge(s: Any, seat: int, p: Any) -> list[float]:
    river = [0.0] * len(C.production_tokens)
    for t in s.river:
        river[t] = 1.0
    return [*[float(t >= 0) for t in s.bridge], *[float(e >= 0) for e in s.road_effect],
            *river]


_SITE_NUMBERS: dict[tuple[bool, bool, int, int, int], array[float]] = {}


def _s_sites(s: Any, seat: int, p: Any) -> array[float]:
    out = array("f")
    players = s.players
    kept = _SITE_NUMBERS
    for t, owner, cube, spent, orient in zip(s.site_tile, s.site_owner, s.site_cube,
                                             s.site_spent, s.site_orient, strict=True):
        # a site's numbers, by what they show
        key = (t >= 0, cube, spent, _side_at(owner, seat, players), orient if t >= 0 else -1)
        numbers = kept.get(key)
        if numbers is None:
            numbers = keep(kept, key, array("f", [
                float(key[0]), float(cube), spent / 5, *_one(key[3], MAX_SIDES),
                *_one(key[4], ORIENTATIONS)]))
        out += numbers
    return out


def _techs_held(techs: tuple[int, ...]) -> list[float]:
    row = [0.0] * _N_TECH
    for t in techs:
        row[t] = 1.0
    return row


_BOARD_COLUMNS_OF_SEAT = (
    Column("upg", 0, numbers=lambda upg: [len(stack) / 3 for stack in upg], size=len(ACTIONS)),
    Column("walls", len(ACTIONS), numbers=lambda walls: [float(w >= 0) for w in walls],
           size=len(C.wall_positions)),
)


def _s_bots(s: Any, seat: int, p: Any) -> list[float]:
    if s.bots is None:
        return []
    return _bots({"board": {"bots": view_sections._bots(s)}}, seat)


def _cell(code: int) -> tuple[float, float]:
    """A Hunger Wall or Cathedral position as row / 6 and column / 7."""
    row, column = divmod(code, ROW_BITS)
    return row / 6, column / 7


def _count(bits: int) -> float:
    """Pairs paid (a bit each) / 10."""
    return bin(bits).count("1") / 10


def _bits(n: int) -> list[list[float]]:
    """Per value below ``2 ** n``: its ``n`` bits, the lowest first."""
    return [[float(m >> b & 1) for b in range(n)] for m in range(1 << n)]


# The numbers of one seat in the ``seats`` block, a column per state list.
_SEAT_COLUMNS = (
    Column("vp", 0, 100), Column("gold", 1, 10), Column("stone", 2, 10), Column("eggs", 3, 5),
    Column("silver", 4, 5), Column("goldw", 5, 5), Column("red", 6, 5), Column("blue", 7, 5),
    Column("mine", 8, 10, offset=1),
    Column("quarry", 9, 10, offset=1),
    Column("tech", 10, 10), Column("univ", 11, 10), Column("cubes", 12, 10),
    Column("road", 13, 10), Column("seal_rights", 14, 5), Column("played", 15, 16),
    Column("hw", 16, numbers=_cell, size=2), Column("cat", 18, numbers=_cell, size=2),
    Column("wealth", 20, table=_bits(3)), Column("once", 23, table=_bits(2)),
    Column("cat_tile", 25, number=_held), Column("v_tile", 26, number=_held),
    Column("ptoken", 27, numbers=lambda t: (float(t[0] >= 0), float(t[1] >= 0)), size=2),
    Column("tech_ready", 29, number=_BITS4.__getitem__),
    Column("tech_used", 30, number=_BITS4.__getitem__),
    Column("edge_paid", 31, number=_count), Column("corner_paid", 32, number=_count),
    Column("techs", 33, 5, length=True),
)


def state_blocks(players: int) -> list[StateBlock]:
    """The layout of :func:`blocks`, filled from the state."""
    return [
        # decision, to_move, turn_of and decision_fields: one write when they change
        StateBlock("decision", lambda s, seat, d: _s_decision(
            s, seat, None if d is None else view_sections.pending(d), players),
            reads=("seat", "p"), covers=4, memo=True),
        StateBlock("taken_tile", lambda s, seat, p: [
            *_one(s.taken, _N_TILES), *_one((s.taken_slot if s.taken >= 0 else 0) or -1,
                                            _WHEEL)],
            reads=("taken", "taken_slot"), memo=True),
        StateBlock("this_turn", columns=_TURN_COLUMNS),
        StateBlock("board", columns=_BOARD_COLUMNS),
        StateBlock("wheel", _wheel_block, reads=("slots",)),
        StateBlock("rotation", lambda s, seat, p: _one(s.rotation % _WHEEL, _WHEEL),
                   reads=("rotation",)),
        StateBlock("rows", columns=tuple(
            Column("rows", r * ROW_POSITIONS * 3, item=r, numbers=_row_numbers(r),
                   size=ROW_POSITIONS * 3) for r in range(len(ROW_NAMES)))),
        StateBlock("markets", _s_markets, reads=("market_tile", "market_done")),
        StateBlock("seals", _s_seals, reads=("seal_owner",)),
        StateBlock("bridge", _s_bridge, reads=("bridge", "road_effect", "river")),
        StateBlock("sites", _s_sites, reads=("site_tile", "site_owner", "site_cube",
                                             "site_spent", "site_orient")),
        StateBlock("seats", sides=players, columns=_SEAT_COLUMNS),
        StateBlock("seat_boards", sides=players, columns=_BOARD_COLUMNS_OF_SEAT),
        StateBlock("technologies", sides=players,
                   columns=(Column("techs", 0, numbers=_techs_held, size=_N_TECH),)),
        StateBlock("solo_bots", _s_bots, reads=("bots",)),
    ]


def make_encoder(players: int) -> Encoder:
    """The encoder for a game of ``players`` seats."""
    return Encoder("praga", players, catalogue(players), blocks(players),
                   state_blocks(players), pending)
