"""Component data of Praga Caput Regni, loaded once from ``data/*.toml`` and checked.

Every entry in the data files records its provenance (``rulebook`` with the rule id,
``public-page`` with a URL, or ``reconstructed``); docs/praga-data.md explains the
reconstructions. Owners of the game can correct any value by editing the TOML files
only: the loader re-checks counts (P-COMP-1) and references and fails with a message
naming the file, the entry and the problem.

Rewards everywhere are small tables of ``kind = amount`` (``{ vp = 2, silver = 1 }``);
they load as tuples of ``(kind index, amount)`` pairs in ``REWARD_KINDS`` order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Protocol

from meeplehall.core.data import SOURCES as SOURCES
from meeplehall.core.data import DataError as DataError
from meeplehall.core.data import check_provenance, read_toml
from meeplehall.games.praga import hexgrid
from meeplehall.games.praga.hexgrid import Hex, Vertex

DATA_DIR = Path(__file__).parent / "data"

ACTIONS: tuple[str, ...] = ("mines", "quarries", "upgrade", "wall", "building", "road")
MINES, QUARRIES, UPGRADE, WALL, BUILDING, ROAD = range(6)

REWARD_KINDS: tuple[str, ...] = (
    "vp", "gold", "stone", "silver", "gold_window", "egg", "red_token", "blue_token",
    "tech", "univ", "mine", "quarry", "hw_move", "cat_move", "side_move",
)
(VP, GOLD, STONE, SILVER, GOLD_WINDOW, EGG, RED_TOKEN, BLUE_TOKEN, TECH, UNIV, MINE,
 QUARRY, HW_MOVE, CAT_MOVE, SIDE_MOVE) = range(len(REWARD_KINDS))
EDGE_SYMBOLS: tuple[str, ...] = ("silver", "tech", "univ")
EDGE_REWARD: tuple[int, ...] = (SILVER, TECH, UNIV)  # reward kind of each edge symbol
COST_KINDS: tuple[str, ...] = ("gold", "stone", "silver", "gold_window")
MARKET_COLOURS: tuple[str, ...] = ("yellow", "red", "blue", "green")
HEX_KINDS: tuple[str, ...] = ("river-house", "landmark", "rural", "city-wall", "road")
SLOT_KINDS: tuple[str, ...] = ("special", "gain", "egg", "track")
GRIDS: tuple[str, ...] = ("hunger-wall", "cathedral")
HUNGER_WALL, CATHEDRAL = 0, 1
TIER_SETS: tuple[str, ...] = ("standard", "A", "B")
CELL_NONE, CELL_UP, CELL_SIDE = 0, -1, -2  # cell codes; a positive code is VP
ROAD_FREE: tuple[str, ...] = ("gold-for-vp", "vp-per-silver", "vp-per-era1-upgrade")
ROAD_EGG: tuple[str, ...] = ("window-or-tech", "silver-or-mine-and-quarry", "token-choice")
ROAD_TILE_EFFECTS: tuple[str, ...] = ("upgrade-vp-and-resource",
                                      "building-without-cathedral-vp", "wall-vp")
IV_EFFECTS: tuple[str, ...] = ("hw-left-window-vp", "cathedral-right-window-vp", "advance-3")
V_EFFECTS: tuple[str, ...] = ("univ-position", "per-upgrade", "per-wall", "mines",
                              "quarries", "rows")
TRACKS: tuple[str, ...] = ("tech", "univ")
TECH_EFFECTS: tuple[str, ...] = (
    "GL-T1-1", "GL-T1-2", "GL-T1-3", "GL-T1-4",
    "GL-T2-1", "GL-T2-2", "GL-T2-3", "GL-T2-4", "GL-T2-5",
    "GL-T3-1", "GL-T3-2", "GL-T3-3", "GL-T3-4", "GL-T3-5", "GL-T3-6",
    "GL-T4-1", "GL-T4-2", "GL-T4-3", "GL-T4-4", "GL-T4-5", "GL-T4-6",
)
SEAL_EFFECTS: tuple[str, ...] = ("vp-per-gold", "vp-per-stone", "vp-per-pair", "flat",
                                 "vp-per-token")
SYMBOLS: tuple[str, ...] = ("cathedral", "hunger-wall")

Reward = tuple[tuple[int, int], ...]
Cost = tuple[int, int, int, int]  # gold, stone, silver windows, gold windows


# --- component types -----------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Building:
    id: str
    era: int
    special: bool
    gold: int
    stone: int
    reward: Reward
    cube: bool
    cathedral: bool
    blue_corners: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Wall:
    id: str
    era: int
    special: bool
    gold: int
    stone: int
    reward: Reward
    hunger_wall: bool
    edges: tuple[tuple[int, int], ...]  # (tile edge, edge symbol index)
    red_corners: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Upgrade:
    id: str
    era: int
    special: bool
    action: int
    bonus: Reward
    edges: tuple[tuple[int, int], ...]
    red_corners: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Market:
    id: str
    hex: Hex
    colour: int
    min_players: int


@dataclass(frozen=True, slots=True)
class Site:
    id: str
    hex: Hex
    market: int  # index into Components.markets
    old_town: bool
    surcharge: int
    vp: int
    prebuilt: int  # player count whose setup puts a building here, 0: never


@dataclass(frozen=True, slots=True)
class MarketTile:
    id: str
    colour: int
    upper: Reward
    lower: Reward


@dataclass(frozen=True, slots=True)
class Slot:
    """A wheel slot and its bonus (GL-W1..W6)."""

    wheel: int
    kind: int  # index into SLOT_KINDS
    gain: Reward  # "gain": what it gives
    vp: int  # "special": VP instead of the special tile
    price: Cost  # "egg": the price of the egg (P-CRANE-7: gold)
    track: int  # "track": index into TRACKS, else -1
    art_price: Cost = (0, 0, 0, 0)  # "egg": the price the crane art seems to show, if other


@dataclass(frozen=True, slots=True)
class Crane:
    positions: int
    slots: tuple[Slot, ...]  # index = wheel position - 1
    red_costs: tuple[int, ...]
    green: int
    blue_vp: tuple[int, ...]
    double_rotation_mark: int
    star: int
    hole: int
    arrow_start: dict[int, int]  # players -> board position of the box
    platform_spaces: int
    platform_start: dict[int, int]
    era_line: dict[int, int]

    @property
    def green_start(self) -> int:
        return len(self.red_costs)

    @property
    def blue_start(self) -> int:
        return len(self.red_costs) + self.green

    @property
    def beyond(self) -> int:
        """First board position after the blue zone (``positions`` when blue ends at the
        last position: a tile carried past it overflows, P-CRANE-12)."""
        return self.blue_start + len(self.blue_vp)


@dataclass(frozen=True, slots=True)
class Track:
    """Gold-mine or quarry track (GL-P1..P5)."""

    spaces: int
    start: int
    token_space: int
    seal_space: int
    produce_bonus: tuple[Reward, ...]  # index = space - 1


@dataclass(frozen=True, slots=True)
class ActionTile:
    id: str
    side_a: tuple[int, int]
    side_b: tuple[int, int]


@dataclass(frozen=True, slots=True)
class Tier:
    level: int
    rows: tuple[tuple[int, ...], ...]  # bottom row first; cell codes
    row_values: tuple[int, ...]
    gold: int
    stone: int


@dataclass(frozen=True, slots=True)
class Grid:
    id: str
    columns: int
    start_column: int
    direction: int
    column_values: tuple[int, ...]
    tiers: dict[str, tuple[Tier, Tier, Tier]]


@dataclass(frozen=True, slots=True)
class RoadSpace:
    numeral: int
    hex: Hex
    free: int  # index into ROAD_FREE or -1
    egg: int  # index into ROAD_EGG or -1
    entry_eggs: int
    bridge: str  # "", "iv" or "v"


@dataclass(frozen=True, slots=True)
class RoadTile:
    id: str
    covers: int
    effect: int


@dataclass(frozen=True, slots=True)
class BridgePiece:
    id: str
    hex: Hex
    side_a: tuple[Reward, Reward]
    side_b: tuple[Reward, Reward]


@dataclass(frozen=True, slots=True)
class BridgeTile:
    id: str
    is_v: bool
    effect: int  # index into IV_EFFECTS or V_EFFECTS
    track: int  # IV advance-3: index into TRACKS, else -1
    now_vp: int


@dataclass(frozen=True, slots=True)
class Technology:
    id: str
    level: int
    effect: int  # index into TECH_EFFECTS
    resource: int  # GOLD / STONE or -1
    track: int  # index into TRACKS or -1
    token: int  # RED_TOKEN / BLUE_TOKEN or -1
    symbol: int  # index into SYMBOLS or -1


@dataclass(frozen=True, slots=True)
class ProductionToken:
    id: str
    gain: Reward
    min_players: int


@dataclass(frozen=True, slots=True)
class Seal:
    id: str
    effect: int
    vp: int
    cost: Cost


@dataclass(frozen=True, slots=True)
class Components:
    buildings: tuple[Building, ...]
    walls: tuple[Wall, ...]
    upgrades: tuple[Upgrade, ...]
    markets: tuple[Market, ...]
    sites: tuple[Site, ...]
    other_hexes: tuple[tuple[Hex, int], ...]  # (hex, index into HEX_KINDS)
    printed_blue: frozenset[Vertex]
    market_tiles: tuple[MarketTile, ...]
    crane: Crane
    gold_track: Track
    quarry_track: Track
    tech_top: int
    tech_levels: tuple[int, int, int, int]
    univ_top: int
    univ_multiplier: tuple[int, ...]
    wealth: tuple[Reward, Reward, Reward]  # 6 gold, 6 stone, 9 gold or stone
    start_gold: int
    start_stone: int
    cubes: int
    supply_cubes: int
    board_actions: tuple[Hex, ...]  # action-board hex of each action
    wall_positions: tuple[Hex, ...]
    action_tiles: tuple[ActionTile, ...]
    grids: tuple[Grid, Grid]
    road: tuple[RoadSpace, ...]
    road_tiles: tuple[RoadTile, ...]
    bridge_pieces: tuple[BridgePiece, ...]
    bridge_tiles: tuple[BridgeTile, ...]
    technologies: tuple[Technology, ...]
    production_tokens: tuple[ProductionToken, ...]
    seals: tuple[Seal, ...]
    colours: tuple[str, ...]
    turns_per_player: int
    wall_points: tuple[int, ...]
    egg_points: tuple[int, ...]
    site_at: dict[Hex, int]  # site index by hex
    market_sites: tuple[tuple[int, ...], ...]  # site indices around each market

    def building_index(self, tile_id: str) -> int:
        return _find(self.buildings, tile_id)

    def wall_index(self, tile_id: str) -> int:
        return _find(self.walls, tile_id)

    def upgrade_index(self, tile_id: str) -> int:
        return _find(self.upgrades, tile_id)

    def site_index(self, site_id: str) -> int:
        return _find(self.sites, site_id)

    def market_index(self, market_id: str) -> int:
        return _find(self.markets, market_id)

    def market_tile_index(self, tile_id: str) -> int:
        return _find(self.market_tiles, tile_id)

    def tech_index(self, tech_id: str) -> int:
        return _find(self.technologies, tech_id)

    def bridge_tile_index(self, tile_id: str) -> int:
        return _find(self.bridge_tiles, tile_id)

    def seal_index(self, seal_id: str) -> int:
        return _find(self.seals, seal_id)


class _HasId(Protocol):
    @property
    def id(self) -> str: ...


def _find(items: Sequence[_HasId], ident: str) -> int:
    for i, item in enumerate(items):
        if item.id == ident:
            return i
    raise KeyError(ident)


# --- reading helpers -----------------------------------------------------------------------
def _read(name: str) -> dict[str, Any]:
    """``core.data.read_toml`` from ``DATA_DIR`` (looked up at call time, so a test may
    point it at a copy)."""
    return read_toml(DATA_DIR, name)


def _provenance(entry: dict[str, Any], file: str, label: str) -> None:
    """``core.data.check_provenance`` plus Praga's stricter rules: a public page by an
    https URL, a rulebook source with its rule id."""
    check_provenance(entry, file, label)
    source = entry.get("source")
    if source == "public-page" and not str(entry.get("url", "")).startswith("https://"):
        raise DataError(f"{file}: {label} has source 'public-page' but no https url")
    if source == "rulebook" and not entry.get("rule"):
        raise DataError(f"{file}: {label} has source 'rulebook' but names no rule id")


def _entries(data: dict[str, Any], key: str, file: str,
             count: int | None = None) -> list[dict[str, Any]]:
    items = data.get(key)
    if not isinstance(items, list):
        raise DataError(f"{file}: expected a list of [[{key}]] entries")
    if count is not None and len(items) != count:
        raise DataError(f"{file}: expected {count} [[{key}]] entries, found {len(items)}")
    ids: set[str] = set()
    for n, entry in enumerate(items):
        if not isinstance(entry, dict):
            raise DataError(f"{file}: [[{key}]] entry {n + 1} is not a table")
        ident = entry.get("id")
        label = str(ident) if ident is not None else f"[[{key}]] entry {n + 1}"
        _provenance(entry, file, label)
        if ident is not None:
            if ident in ids:
                raise DataError(f"{file}: duplicate id {ident!r}")
            ids.add(ident)
    return items


def _section(data: dict[str, Any], key: str, file: str) -> dict[str, Any]:
    section = data.get(key)
    if not isinstance(section, dict):
        raise DataError(f"{file}: missing [{key}] table")
    _provenance(section, file, f"[{key}]")
    return section


def _index(name: Any, names: tuple[str, ...], file: str, what: str) -> int:
    if name not in names:
        raise DataError(f"{file}: unknown {what} {name!r}; expected one of {', '.join(names)}")
    return names.index(name)


def _int(entry: dict[str, Any], key: str, file: str, label: str, minimum: int = 0,
         maximum: int | None = None) -> int:
    value = entry.get(key)
    if (not isinstance(value, int) or isinstance(value, bool) or value < minimum
            or (maximum is not None and value > maximum)):
        bound = f" and <= {maximum}" if maximum is not None else ""
        raise DataError(f"{file}: {label}.{key} must be an integer >= {minimum}{bound}, "
                        f"got {value!r}")
    return value


def _bool(entry: dict[str, Any], key: str, file: str, label: str) -> bool:
    value = entry.get(key)
    if not isinstance(value, bool):
        raise DataError(f"{file}: {label}.{key} must be true or false")
    return value


def _hex(value: Any, file: str, label: str) -> Hex:
    if (not isinstance(value, list) or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise DataError(f"{file}: {label}.hex must be [q, r] (two integers)")
    return (value[0], value[1])


def _reward(table: Any, file: str, label: str) -> Reward:
    if not isinstance(table, dict):
        raise DataError(f"{file}: {label} must be a table of reward = amount")
    pairs = []
    for name, amount in table.items():
        kind = _index(name, REWARD_KINDS, file, f"reward in {label}")
        if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
            raise DataError(f"{file}: {label}.{name} must be a positive integer")
        pairs.append((kind, amount))
    return tuple(sorted(pairs))


def _cost(table: Any, file: str, label: str) -> Cost:
    if not isinstance(table, dict):
        raise DataError(f"{file}: {label} must be a table of cost = amount")
    values = [0, 0, 0, 0]
    for name, amount in table.items():
        kind = _index(name, COST_KINDS, file, f"cost in {label}")
        if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
            raise DataError(f"{file}: {label}.{name} must be a positive integer")
        values[kind] = amount
    return (values[0], values[1], values[2], values[3])


def _indices(value: Any, file: str, label: str) -> tuple[int, ...]:
    if (not isinstance(value, list)
            or not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 6
                       for v in value) or len(set(value)) != len(value)):
        raise DataError(f"{file}: {label} must be a list of distinct corner/edge indices 0-5")
    return tuple(value)


def _edges(value: Any, file: str, label: str) -> tuple[tuple[int, int], ...]:
    if not isinstance(value, list):
        raise DataError(f"{file}: {label}.edges must be a list of [edge, symbol]")
    out = []
    for item in value:
        if (not isinstance(item, list) or len(item) != 2 or not isinstance(item[0], int)
                or not 0 <= item[0] < 6):
            raise DataError(f"{file}: {label}.edges entries must be [edge 0-5, symbol]")
        out.append((item[0], _index(item[1], EDGE_SYMBOLS, file, f"edge symbol of {label}")))
    if len({e for e, _ in out}) != len(out):
        raise DataError(f"{file}: {label} has two symbols on one edge")
    return tuple(sorted(out))


def _per_era(items: list[Any], file: str, normal: int, special: int) -> None:
    for era in (1, 2):
        n = sum(1 for t in items if t.era == era and not t.special)
        s = sum(1 for t in items if t.era == era and t.special)
        if (n, s) != (normal, special):
            raise DataError(f"{file}: era {era} needs {normal} normal + {special} special "
                            f"tiles (P-COMP-1), found {n} + {s}")


def _tile_common(e: dict[str, Any], file: str) -> tuple[str, int, bool]:
    label = str(e.get("id"))
    return label, _int(e, "era", file, label, 1, 2), _bool(e, "special", file, label)


# --- families ------------------------------------------------------------------------------
def _load_buildings() -> tuple[Building, ...]:
    f = "buildings.toml"
    out = []
    for e in _entries(_read(f), "building", f, 36):
        label, era, special = _tile_common(e, f)
        cost = _cost(e.get("cost"), f, f"{label}.cost")
        if cost[2] or cost[3] or cost[0] + cost[1] == 0:
            raise DataError(f"{f}: {label}.cost must be gold and/or stone (GL-H1)")
        corners = _indices(e.get("blue_corners"), f, f"{label}.blue_corners")
        out.append(Building(label, era, special, cost[0], cost[1],
                            _reward(e.get("reward"), f, f"{label}.reward"),
                            _bool(e, "cube", f, label), _bool(e, "cathedral", f, label),
                            corners))
    _per_era(out, f, 14, 4)
    return tuple(out)


def _load_walls() -> tuple[Wall, ...]:
    f = "walls.toml"
    out = []
    for e in _entries(_read(f), "wall", f, 36):
        label, era, special = _tile_common(e, f)
        cost = _cost(e.get("cost"), f, f"{label}.cost")
        if cost[2] or cost[3]:
            raise DataError(f"{f}: {label}.cost must be gold and/or stone (GL-H1)")
        out.append(Wall(label, era, special, cost[0], cost[1],
                        _reward(e.get("reward"), f, f"{label}.reward"),
                        _bool(e, "hunger_wall", f, label), _edges(e.get("edges"), f, label),
                        _indices(e.get("red_corners"), f, f"{label}.red_corners")))
    _per_era(out, f, 14, 4)
    return tuple(out)


def _load_upgrades() -> tuple[Upgrade, ...]:
    f = "upgrades.toml"
    out = []
    for e in _entries(_read(f), "upgrade", f, 30):
        label, era, special = _tile_common(e, f)
        bonus = _reward(e.get("bonus"), f, f"{label}.bonus")
        if not bonus:
            raise DataError(f"{f}: {label} needs a central bonus (GL-H11)")
        out.append(Upgrade(label, era, special, _index(e.get("action"), ACTIONS, f, "action"),
                           bonus, _edges(e.get("edges"), f, label),
                           _indices(e.get("red_corners"), f, f"{label}.red_corners")))
    _per_era(out, f, 11, 4)
    return tuple(out)


def _load_city(comp: dict[str, Any]) -> None:
    f = "city.toml"
    data = _read(f)
    markets = []
    for e in _entries(data, "market", f, 10):
        label = str(e.get("id"))
        markets.append(Market(label, _hex(e.get("hex"), f, label),
                              _index(e.get("colour"), MARKET_COLOURS, f, "market colour"),
                              _int(e, "min_players", f, label, 2, 4)))
    by_count = sorted(m.min_players for m in markets)
    if by_count != [2] * 8 + [3, 4]:
        raise DataError(f"{f}: need 8 markets used always, 1 for 3-4 players and 1 for 4 "
                        f"players only (P-SETUP-7); min_players are {by_count}")
    market_ids = [m.id for m in markets]
    market_hex = {m.hex: i for i, m in enumerate(markets)}
    sites = []
    for e in _entries(data, "site", f):
        label = str(e.get("id"))
        town = e.get("town")
        if town not in ("old", "new"):
            raise DataError(f"{f}: {label}.town must be 'old' or 'new'")
        market = _index(e.get("market"), tuple(market_ids), f, f"market of site {label}")
        site = Site(label, _hex(e.get("hex"), f, label), market, town == "old",
                    _int(e, "surcharge", f, label), _int(e, "vp", f, label),
                    _int(e, "prebuilt", f, label, 0, 3))
        if not site.old_town and (site.surcharge or site.vp):
            raise DataError(f"{f}: {label} is in the New Town, which has no surcharge or "
                            "printed VP (P-BLD-3)")
        if site.prebuilt == 1:
            raise DataError(f"{f}: {label}.prebuilt must be 0, 2 or 3")
        sites.append(site)
    used: dict[Hex, str] = {m.hex: m.id for m in markets}
    for site in sites:
        if site.hex in used:
            raise DataError(f"{f}: site {site.id} is on the hex of {used[site.hex]}")
        used[site.hex] = site.id
        near = [market_hex[n] for n in hexgrid.neighbours(site.hex) if n in market_hex]
        if near != [site.market]:
            names = [markets[i].id for i in near]
            raise DataError(f"{f}: site {site.id} must border exactly its market "
                            f"{markets[site.market].id} (P-BLD-5); it borders {names}")
    others = []
    for n, e in enumerate(_entries(data, "hex", f)):
        label = f"[[hex]] entry {n + 1}"
        h = _hex(e.get("hex"), f, label)
        if h in used:
            raise DataError(f"{f}: {label} {h} is already used by {used[h]}")
        used[h] = e.get("kind", "?")
        others.append((h, _index(e.get("kind"), HEX_KINDS, f, "hex kind")))
    site_at = {s.hex: i for i, s in enumerate(sites)}
    blue = set()
    for n, e in enumerate(_entries(data, "blue_corner", f)):
        label = f"[[blue_corner]] entry {n + 1}"
        h = _hex(e.get("hex"), f, label)
        v = hexgrid.vertex(h, _int(e, "corner", f, label, 0, 5))
        if h in site_at or not any(x in site_at for x in v):
            raise DataError(f"{f}: {label} must be on a non-site hex, at a corner touching "
                            "a building site")
        blue.add(v)
    market_sites = tuple(tuple(i for i, s in enumerate(sites) if s.market == m)
                         for m in range(len(markets)))
    for m, ss in enumerate(market_sites):
        if len(ss) < 3:
            raise DataError(f"{f}: market {markets[m].id} has {len(ss)} sites; at least 3")
    comp.update(markets=tuple(markets), sites=tuple(sites), other_hexes=tuple(others),
                printed_blue=frozenset(blue), site_at=site_at, market_sites=market_sites)


def _load_market_tiles(markets: tuple[Market, ...]) -> tuple[MarketTile, ...]:
    f = "market_tiles.toml"
    out = []
    for e in _entries(_read(f), "tile", f, 11):
        label = str(e.get("id"))
        out.append(MarketTile(label, _index(e.get("colour"), MARKET_COLOURS, f, "colour"),
                              _reward(e.get("upper"), f, f"{label}.upper"),
                              _reward(e.get("lower"), f, f"{label}.lower")))
    for c, colour in enumerate(MARKET_COLOURS):
        hexes = sum(1 for m in markets if m.colour == c)
        tiles = sum(1 for t in out if t.colour == c)
        if tiles < hexes:
            raise DataError(f"{f}: {colour} has {tiles} tiles for {hexes} market hexes "
                            "(P-SETUP-7)")
    return tuple(out)


def _by_count(table: Any, file: str, label: str, low: int, high: int) -> dict[int, int]:
    if not isinstance(table, dict) or sorted(table) != ["2", "3", "4"]:
        raise DataError(f"{file}: {label} must give a value for 2, 3 and 4 players")
    out = {}
    for key, value in table.items():
        if not isinstance(value, int) or not low <= value <= high:
            raise DataError(f"{file}: {label}.{key} must be an integer in {low}..{high}")
        out[int(key)] = value
    return out


def _load_crane() -> Crane:
    f = "crane.toml"
    data = _read(f)
    wheel = _section(data, "wheel", f)
    positions = _int(wheel, "positions", f, "wheel", 3)
    if _int(wheel, "box", f, "wheel", 0, 0) != 0:
        raise DataError(f"{f}: the box is wheel position 0")
    slots: list[Slot] = []
    for e in _entries(data, "slot", f, positions - 1):
        label = f"slot {e.get('wheel')}"
        w = _int(e, "wheel", f, label, 1, positions - 1)
        kind = _index(e.get("kind"), SLOT_KINDS, f, "slot kind")
        gain = _reward(e.get("gain", {}), f, f"{label}.gain")
        price = _cost(e.get("price", {}), f, f"{label}.price")
        art_price = _cost(e.get("art_price", {}), f, f"{label}.art_price")
        vp = int(e.get("vp", 0))
        track = _index(e["track"], TRACKS, f, "track") if "track" in e else -1
        if kind == 1 and not gain:
            raise DataError(f"{f}: {label} of kind 'gain' needs a gain")
        if kind == 2 and sum(price) == 0:
            raise DataError(f"{f}: {label} of kind 'egg' needs a price")
        if kind == 3 and track < 0:
            raise DataError(f"{f}: {label} of kind 'track' needs a track")
        if any(art_price) and kind != 2:
            raise DataError(f"{f}: {label}: only an 'egg' slot has an art_price")
        slots.append(Slot(w, kind, gain, vp, price, track, art_price))
    slots.sort(key=lambda s: s.wheel)
    if [s.wheel for s in slots] != list(range(1, positions)):
        raise DataError(f"{f}: slots must be wheel positions 1..{positions - 1}, each once")
    zones = _section(data, "zones", f)
    red = zones.get("red_costs")
    blue = zones.get("blue_vp")
    if not isinstance(red, list) or len(red) != 4 or not all(isinstance(x, int) for x in red):
        raise DataError(f"{f}: red_costs must list the gold cost of the 4 red positions")
    if not isinstance(blue, list) or not blue or not all(isinstance(x, int) for x in blue):
        raise DataError(f"{f}: blue_vp must list the VP of each blue position")
    green = _int(zones, "green", f, "zones", 1)
    if len(red) + green + len(blue) not in (positions, positions - 1):
        raise DataError(f"{f}: red + green + blue positions (+ 1 beyond blue) must be "
                        f"{positions}")
    if blue[-1] != 5:
        raise DataError(f"{f}: the last blue position is worth 5 VP (P-CRANE-12)")
    setup = _section(data, "setup", f)
    platform = _section(data, "platform", f)
    spaces = _int(platform, "spaces", f, "platform", 2)
    crane = Crane(
        positions=positions, slots=tuple(slots), red_costs=tuple(red), green=green,
        blue_vp=tuple(blue),
        double_rotation_mark=_int(zones, "double_rotation_mark", f, "zones", 0, positions - 1),
        star=_int(zones, "star", f, "zones", 0, positions - 1),
        hole=_int(zones, "hole", f, "zones", 0, positions - 1),
        arrow_start=_by_count(setup.get("arrow"), f, "setup.arrow", 0, positions - 1),
        platform_spaces=spaces,
        platform_start=_by_count(platform.get("start"), f, "platform.start", 0, spaces - 1),
        era_line=_by_count(platform.get("era_line"), f, "platform.era_line", 1, spaces - 1),
    )
    if crane.star != len(red) - 1:
        raise DataError(f"{f}: the star is on the last red position (P-CLOCK-5)")
    return crane


def _track(section: dict[str, Any], file: str, name: str) -> Track:
    spaces = _int(section, "spaces", file, name, 2)
    bonus: list[Reward] = [()] * spaces
    for item in section.get("produce_bonus", []):
        space = _int(item, "space", file, f"{name}.produce_bonus", 1, spaces)
        bonus[space - 1] = _reward(item.get("gain"), file, f"{name}.produce_bonus")
    track = Track(spaces, _int(section, "start", file, name, 1, spaces),
                  _int(section, "token_space", file, name, 2, spaces),
                  _int(section, "seal_space", file, name, 2, spaces), tuple(bonus))
    if track.seal_space != spaces:
        raise DataError(f"{file}: {name} seal space must be the last space (P-SEAL-1)")
    if not track.start < track.token_space < track.seal_space:
        raise DataError(f"{file}: {name}: start < token space < seal space")
    return track


def _load_boards(comp: dict[str, Any]) -> None:
    f = "player_board.toml"
    data = _read(f)
    gold = _track(_section(data, "gold_track", f), f, "gold_track")
    quarry = _track(_section(data, "quarry_track", f), f, "quarry_track")
    if gold.spaces - 1 != 8 or quarry.spaces - 1 != 7:
        raise DataError(f"{f}: the rightmost space means 8 gold mines and 7 quarries "
                        "(GL-B7, GL-B8)")
    tech = _section(data, "tech_track", f)
    levels = tech.get("levels")
    top = _int(tech, "top", f, "tech_track", 7)
    if (not isinstance(levels, list) or len(levels) != 4 or levels != sorted(set(levels))
            or levels[0] < 1 or levels[3] != 6):
        raise DataError(f"{f}: tech_track.levels must be 4 increasing spaces with level IV "
                        "at 6 (P-TECH-1)")
    univ = _section(data, "univ_track", f)
    utop = _int(univ, "top", f, "univ_track", 8, 8)
    mult = univ.get("multiplier")
    if (not isinstance(mult, list) or len(mult) != utop + 1 or mult != sorted(mult)
            or mult[0] != 0 or mult[-1] != 3 or not set(mult) <= {0, 1, 2, 3}):
        raise DataError(f"{f}: univ_track.multiplier must give 0..3 for each of the "
                        f"{utop + 1} spaces, bottom 0 and top 3 (P-UNIV-3)")
    wealth = _section(data, "wealth", f)
    start = _section(data, "start", f)
    comp.update(
        gold_track=gold, quarry_track=quarry, tech_top=top,
        tech_levels=(levels[0], levels[1], levels[2], levels[3]), univ_top=utop,
        univ_multiplier=tuple(mult),
        wealth=(_reward(wealth.get("gold6"), f, "wealth.gold6"),
                _reward(wealth.get("stone6"), f, "wealth.stone6"),
                _reward(wealth.get("nine"), f, "wealth.nine")),
        start_gold=_int(start, "gold", f, "start", 0, 9),
        start_stone=_int(start, "stone", f, "start", 0, 9),
        cubes=_int(start, "cubes", f, "start", 11, 11),
        supply_cubes=_int(start, "supply_cubes", f, "start", 0, 11))
    if comp["cubes"] - 4 - 3 - 2 != comp["supply_cubes"]:
        raise DataError(f"{f}: 11 cubes = 4 track + 3 wealth + 2 grid + supply (P-COMP-3)")

    f = "action_board.toml"
    board = _section(_read(f), "board", f)
    centre = _hex(board.get("centre"), f, "board")
    names = board.get("actions")
    if not isinstance(names, list) or sorted(names) != sorted(ACTIONS):
        raise DataError(f"{f}: board.actions must name each of the 6 actions once")
    hexes = [hexgrid.neighbour(centre, names.index(a)) for a in ACTIONS]
    comp.update(board_actions=tuple(hexes), wall_positions=tuple(hexgrid.ring(centre, 2)))

    f = "action_tiles.toml"
    tiles = []
    for e in _entries(_read(f), "tile", f, 6):
        sides = []
        for key in ("side_a", "side_b"):
            pair = e.get(key)
            if not isinstance(pair, list) or len(pair) != 2 or pair[0] == pair[1]:
                raise DataError(f"{f}: {e.get('id')}.{key} must name two different actions")
            sides.append((_index(pair[0], ACTIONS, f, "action"),
                          _index(pair[1], ACTIONS, f, "action")))
        tiles.append(ActionTile(str(e["id"]), sides[0], sides[1]))
    for side in (0, 1):
        shown = [a for t in tiles for a in (t.side_a if side == 0 else t.side_b)]
        if set(shown) != set(range(6)):
            raise DataError(f"{f}: side {'AB'[side]} must show every action")
    pairs_a = sorted(tuple(sorted(t.side_a)) for t in tiles)
    if (sorted(a for t in tiles for a in t.side_a) != sorted(list(range(6)) * 2)
            or pairs_a[0::2] != pairs_a[1::2]):
        raise DataError(f"{f}: side A is three pairs of actions, each tile printed twice "
                        "(together every action, each twice)")
    comp["action_tiles"] = tuple(tiles)


def _cell(code: Any, file: str, label: str) -> int:
    if code == "":
        return CELL_NONE
    if code == "up":
        return CELL_UP
    if code == "side":
        return CELL_SIDE
    if isinstance(code, str) and code.startswith("vp") and code[2:].isdigit() and int(code[2:]):
        return int(code[2:])
    raise DataError(f"{file}: {label}: unknown cell {code!r} (use '', 'up', 'side', 'vpN')")


def _load_grids() -> tuple[Grid, Grid]:
    f = "grids.toml"
    data = _read(f)
    heads = _entries(data, "grid", f, 2)
    tiers: dict[tuple[int, str], list[Tier]] = {}
    columns = {}
    for e in heads:
        g = _index(e.get("id"), GRIDS, f, "grid")
        columns[g] = _int(e, "columns", f, str(e.get("id")), 2)
    for e in _entries(data, "tier", f):
        label = f"[[tier]] {e.get('grid')}/{e.get('set')}/{e.get('level')}"
        g = _index(e.get("grid"), GRIDS, f, "grid")
        set_name = TIER_SETS[_index(e.get("set"), TIER_SETS, f, "tier set")]
        level = _int(e, "level", f, label, 1, 3)
        raw_rows = e.get("rows")
        values = e.get("row_values")
        if (not isinstance(raw_rows, list) or not raw_rows
                or not all(isinstance(r, list) and len(r) == columns[g] for r in raw_rows)):
            raise DataError(f"{f}: {label}: rows must be lists of {columns[g]} cells")
        if not isinstance(values, list) or len(values) != len(raw_rows):
            raise DataError(f"{f}: {label}: one row value per row")
        cost = _cost(e.get("cost"), f, f"{label}.cost")
        if (level == 1) != (cost == (0, 0, 0, 0)) or cost[2] or cost[3]:
            raise DataError(f"{f}: {label}: tiers II and III (only) cost gold/stone to enter")
        rows = tuple(tuple(_cell(c, f, label) for c in r) for r in raw_rows)
        tiers.setdefault((g, set_name), []).append(
            Tier(level, rows, tuple(values), cost[0], cost[1]))
    grids = []
    for e in sorted(heads, key=lambda x: GRIDS.index(x["id"])):
        g = GRIDS.index(e["id"])
        label = str(e["id"])
        cv = e.get("column_values")
        if not isinstance(cv, list) or len(cv) != columns[g]:
            raise DataError(f"{f}: {label}.column_values needs {columns[g]} values")
        direction = _int(e, "direction", f, label, -1, 1)
        start = _int(e, "start_column", f, label, 0, columns[g] - 1)
        if (g, direction, start) not in ((0, -1, columns[g] - 1), (1, 1, 0)):
            raise DataError(f"{f}: the Hunger Wall starts bottom-right and moves left, the "
                            "Cathedral starts bottom-left and moves right (P-GRID-2/4)")
        sets = {}
        for tier_set in TIER_SETS:
            found = sorted(tiers.get((g, tier_set), []), key=lambda t: t.level)
            if [t.level for t in found] != [1, 2, 3]:
                raise DataError(f"{f}: {label} set {tier_set} needs tiers 1, 2, 3 once each")
            sets[tier_set] = (found[0], found[1], found[2])
            for t in found:
                for r, row in enumerate(t.rows):
                    if row[start] == CELL_SIDE and t.level == 1 and r == 0:
                        raise DataError(f"{f}: {label}: the start cell cannot be an arrow")
        grids.append(Grid(label, columns[g], start, direction, tuple(cv), sets))
    return (grids[0], grids[1])


def _load_road() -> tuple[tuple[RoadSpace, ...], tuple[RoadTile, ...]]:
    f = "road.toml"
    data = _read(f)
    spaces = []
    for e in _entries(data, "space", f, 5):
        label = f"space {e.get('numeral')}"
        numeral = _int(e, "numeral", f, label, 1, 5)
        free = _index(e["free"], ROAD_FREE, f, "road effect") if "free" in e else -1
        egg = _index(e["egg"], ROAD_EGG, f, "road egg effect") if "egg" in e else -1
        bridge = e.get("bridge", "")
        if bridge not in ("", "iv", "v"):
            raise DataError(f"{f}: {label}.bridge must be 'iv' or 'v'")
        space = RoadSpace(numeral, _hex(e.get("hex"), f, label), free, egg,
                          int(e.get("entry_eggs", 0)), bridge)
        if (numeral <= 3) != (free >= 0 and egg >= 0 and not bridge and not space.entry_eggs):
            raise DataError(f"{f}: spaces I-III have a free and an egg effect; IV and V "
                            "cost an egg and run a bridge procedure (P-ROAD-2/4/5)")
        spaces.append(space)
    spaces.sort(key=lambda s: s.numeral)
    if [s.numeral for s in spaces] != [1, 2, 3, 4, 5] or [s.bridge for s in spaces[3:]] != [
            "iv", "v"]:
        raise DataError(f"{f}: need spaces 1..5, space 4 'iv' and space 5 'v'")
    tiles = []
    for e in _entries(data, "road_tile", f, 3):
        label = str(e.get("id"))
        tiles.append(RoadTile(label, _int(e, "covers", f, label, 1, 3),
                              _index(e.get("effect"), ROAD_TILE_EFFECTS, f, "road tile effect")))
    return tuple(spaces), tuple(tiles)


def _load_bridge() -> tuple[tuple[BridgePiece, ...], tuple[BridgeTile, ...]]:
    f = "bridge.toml"
    data = _read(f)
    pieces = []
    for e in _entries(data, "piece", f, 5):
        label = str(e.get("id"))
        sides = []
        for key in ("side_a", "side_b"):
            pair = e.get(key)
            if not isinstance(pair, list) or len(pair) != 2:
                raise DataError(f"{f}: {label}.{key} must hold two bonus fields (P-BRIDGE-1)")
            sides.append((_reward(pair[0], f, f"{label}.{key}"),
                          _reward(pair[1], f, f"{label}.{key}")))
        pieces.append(BridgePiece(label, _hex(e.get("hex"), f, label), sides[0], sides[1]))
    tiles = []
    for e in _entries(data, "tile", f, 12):
        label = str(e.get("id"))
        is_v = e.get("set") == "v"
        if e.get("set") not in ("iv", "v"):
            raise DataError(f"{f}: {label}.set must be 'iv' or 'v'")
        effect = _index(e.get("effect"), V_EFFECTS if is_v else IV_EFFECTS, f,
                        "bridge tile effect")
        track = _index(e["track"], TRACKS, f, "track") if "track" in e else -1
        if not is_v and IV_EFFECTS[effect] == "advance-3" and track < 0:
            raise DataError(f"{f}: {label} (advance-3) needs a track")
        tiles.append(BridgeTile(label, is_v, effect, track, int(e.get("now_vp", 0))))
    if sum(t.is_v for t in tiles) != 6:
        raise DataError(f"{f}: need 6 IV and 6 V tiles (P-COMP-1)")
    if sorted(t.effect for t in tiles if t.is_v) != list(range(6)):
        raise DataError(f"{f}: the six V tiles are the six final-scoring effects GL-B4..B9")
    return tuple(pieces), tuple(tiles)


def _load_techs() -> tuple[Technology, ...]:
    f = "technologies.toml"
    out = []
    for e in _entries(_read(f), "tech", f, 24):
        label = str(e.get("id"))
        level = _int(e, "level", f, label, 1, 4)
        effect = _index(e.get("effect"), TECH_EFFECTS, f, "technology effect")
        if int(TECH_EFFECTS[effect][4]) != level:
            raise DataError(f"{f}: {label} is level {level} but {TECH_EFFECTS[effect]} is not")
        resource = (_index(e["resource"], ("gold", "stone"), f, "resource") + GOLD
                    if "resource" in e else -1)
        track = _index(e["track"], TRACKS, f, "track") if "track" in e else -1
        token = (RED_TOKEN if e["token"] == "red" else BLUE_TOKEN if e["token"] == "blue"
                 else _index(e["token"], ("red", "blue"), f, "token")) if "token" in e else -1
        symbol = _index(e["symbol"], SYMBOLS, f, "symbol") if "symbol" in e else -1
        needs = {"GL-T1-1": resource >= 0, "GL-T1-2": track >= 0,
                 "GL-T2-1": symbol >= 0 and resource >= 0,
                 "GL-T2-2": token >= 0 and resource >= 0,
                 "GL-T2-3": symbol >= 0 and resource >= 0,
                 "GL-T2-5": symbol >= 0 and resource >= 0}
        if not needs.get(TECH_EFFECTS[effect], True):
            raise DataError(f"{f}: {label} ({TECH_EFFECTS[effect]}) lacks its parameters")
        out.append(Technology(label, level, effect, resource, track, token, symbol))
    for level in range(1, 5):
        if sum(1 for t in out if t.level == level) < 3:
            raise DataError(f"{f}: level {level} needs at least 3 tiles (draw 3, P-TECH-2)")
    return tuple(out)


def _load_small(comp: dict[str, Any]) -> None:
    f = "production_tokens.toml"
    tokens = []
    for e in _entries(_read(f), "token", f, 8):
        label = str(e.get("id"))
        tokens.append(ProductionToken(label, _reward(e.get("gain"), f, f"{label}.gain"),
                                      _int(e, "min_players", f, label, 2, 4)))
    for n in (2, 3, 4):
        if sum(1 for t in tokens if t.min_players <= n) < 2 * n:
            raise DataError(f"{f}: {n} players need 2 tokens each (P-PROD-2)")
    f = "seals.toml"
    seals = []
    for e in _entries(_read(f), "seal", f, 5):
        label = str(e.get("id"))
        seals.append(Seal(label, _index(e.get("effect"), SEAL_EFFECTS, f, "seal effect"),
                          _int(e, "vp", f, label, 1), _cost(e.get("cost"), f, f"{label}.cost")))
    f = "game.toml"
    data = _read(f)
    counts = _section(data, "counts", f)
    colours = _section(data, "colours", f).get("names")
    if not isinstance(colours, list) or len(colours) != 4:
        raise DataError(f"{f}: colours.names must list the 4 player colours")
    walls = _section(data, "walls", f).get("points")
    eggs = _section(data, "eggs", f).get("points")
    if not isinstance(walls, list) or not walls or walls != sorted(walls):
        raise DataError(f"{f}: walls.points must be a non-decreasing list")
    if not isinstance(eggs, list) or not eggs or eggs != sorted(eggs):
        raise DataError(f"{f}: eggs.points must be a non-decreasing list")
    comp.update(production_tokens=tuple(tokens), seals=tuple(seals), colours=tuple(colours),
                turns_per_player=_int(counts, "turns_per_player", f, "counts", 1),
                wall_points=tuple(walls), egg_points=tuple(eggs))


@cache
def load() -> Components:
    """Load and check every data file (cached: read once per process).

    Raises:
        DataError: a file is missing or malformed, or counts/references do not match.
    """
    comp: dict[str, Any] = {}
    comp["buildings"] = _load_buildings()
    comp["walls"] = _load_walls()
    comp["upgrades"] = _load_upgrades()
    _load_city(comp)
    comp["market_tiles"] = _load_market_tiles(comp["markets"])
    comp["crane"] = _load_crane()
    _load_boards(comp)
    comp["grids"] = _load_grids()
    comp["road"], comp["road_tiles"] = _load_road()
    comp["bridge_pieces"], comp["bridge_tiles"] = _load_bridge()
    comp["technologies"] = _load_techs()
    _load_small(comp)
    return Components(**comp)


def reward_text(reward: Reward) -> str:
    """``{ vp = 2, silver = 1 }`` as ``2 vp + 1 silver`` (``nothing`` when empty).

    >>> reward_text(((VP, 2), (SILVER, 1)))
    '2 vp + 1 silver'
    """
    if not reward:
        return "nothing"
    return " + ".join(f"{amount} {REWARD_KINDS[kind]}" for kind, amount in reward)


def tile_text(row: int, tile: int) -> str:
    """A tile of a row (0 building, 1 wall, 2 upgrade) as people read it: its id, cost,
    reward and marks; ``-`` for an empty position."""
    if tile < 0:
        return "-"
    c = load()
    if row == 0:
        b = c.buildings[tile]
        cost = " ".join(f"{n} {k}" for n, k in ((b.gold, "gold"), (b.stone, "stone")) if n)
        marks = [x for x, on in (("cube", b.cube), ("cathedral", b.cathedral),
                                 ("blue corner", bool(b.blue_corners))) if on]
        return f"{b.id} ({cost} -> {reward_text(b.reward)}{'; ' if marks else ''}" \
               f"{', '.join(marks)})"
    if row == 1:
        w = c.walls[tile]
        cost = " ".join(f"{n} {k}" for n, k in ((w.gold, "gold"), (w.stone, "stone")) if n)
        marks = [x for x, on in (("hunger wall", w.hunger_wall),
                                 ("red corner", bool(w.red_corners))) if on]
        return f"{w.id} ({cost or 'free'} -> {reward_text(w.reward)}" \
               f"{'; ' if marks else ''}{', '.join(marks)})"
    u = c.upgrades[tile]
    return f"{u.id} ({ACTIONS[u.action]}: {reward_text(u.bonus)} per performance)"
