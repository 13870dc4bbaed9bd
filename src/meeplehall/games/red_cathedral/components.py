"""Component data of The Red Cathedral, loaded once from ``data/*.toml`` and checked.

Every entry in the data files records its provenance (``rulebook``, ``public-page`` with a
URL, or ``reconstructed``). Owners of the game can correct values by editing the TOML
files only; the loader re-checks counts and references and fails with a clear message.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from meeplehall.core.data import DataError, check_provenance, read_toml

DATA_DIR = Path(__file__).parent / "data"

MATERIALS: tuple[str, ...] = ("wood", "brick", "stone", "gold", "green", "purple")
RESOURCES: tuple[str, ...] = (*MATERIALS, "rubles", "rp")
RUBLES = 6
RP = 7
GREEN = 4
PURPLE = 5
JEWELS = (GREEN, PURPLE)
BUILDING_KIND_BASE = 0
COLOURS: tuple[str, ...] = ("yellow", "red", "blue", "green", "white")
WHITE = 4
CARD_KINDS: tuple[str, ...] = ("base", "middle", "dome")
ORNAMENTS: tuple[str, ...] = ("door", "arch", "cross")  # index = card kind it decorates
# Workshop positions: one per die colour, the white space has two positions.
WS_POSITIONS: tuple[str, ...] = ("yellow", "red", "blue", "green", "white-1", "white-2")
WS_SPACES: tuple[str, ...] = ("yellow", "red", "blue", "green", "white")
DECKS: tuple[str, ...] = ("craftsmen", "teamsters", "merchants", "clergy")
IVAN_CARDS: tuple[str, ...] = ("recognition", "inventory", "transport", "claim", "build")

EFFECTS = {
    "sell": ("materials", "price"),
    "buy": ("materials", "price"),
    "deliver": ("count", "price"),
    "gain": ("resource", "amount"),
    "swap_tiles": ("price",),
    "exchange_identical": ("give", "take"),
    "exchange_upgrade": ("price",),
    "activate_tile": (),
    "pay_for": ("price", "resource", "amount"),
    "discard_different": ("count", "resource", "amount"),
    "complete_set": ("resource", "amount"),
}


Counts = tuple[int, int, int, int, int, int]


@dataclass(frozen=True, slots=True)
class ResourceTile:
    id: str
    resource: int
    amount: int


@dataclass(frozen=True, slots=True)
class CathedralCard:
    id: str
    kind: int
    cost: Counts
    rp: int
    rubles: int

    @property
    def size(self) -> int:
        return sum(self.cost)


@dataclass(frozen=True, slots=True)
class BuildingPlan:
    id: str
    players: int
    middles: tuple[int, ...]

    @property
    def cards(self) -> int:
        return 2 * len(self.middles) + sum(self.middles)


@dataclass(frozen=True, slots=True)
class WorkshopTile:
    id: str
    die: int  # die colour index, or -1 for a resource tile
    resource: int  # resource index, or -1 for a die tile
    amount: int
    players_3plus: bool


@dataclass(frozen=True, slots=True)
class InfluenceAction:
    rule: str
    repeat: bool
    effect: str
    materials: tuple[int, ...] = ()  # () means "any material"
    price: int = 0
    count: int = 0
    resource: int = -1
    amount: int = 0
    give: int = 0
    take: int = 0
    text: str = ""  # the action in words (a catalogue msgid), shown instead of its rule id


@dataclass(frozen=True, slots=True)
class InfluenceCard:
    id: str
    deck: int
    actions: tuple[InfluenceAction, InfluenceAction]


@dataclass(frozen=True, slots=True)
class Components:
    supply: Counts
    resource_tiles: tuple[ResourceTile, ...]
    cards: tuple[CathedralCard, ...]
    plans: tuple[BuildingPlan, ...]
    tiles: tuple[WorkshopTile, ...]
    influence: tuple[InfluenceCard, ...]
    first_game: tuple[int, ...]
    lap_length: int
    start: int
    prestige_positions: tuple[int, ...]
    free_spaces: int
    banners_in_inventory: int
    banners_outside: int
    basic_costs: tuple[int, ...]  # per workshop position (6)
    advanced_costs: tuple[int, ...]
    advanced_ornaments: tuple[int, ...]  # per workshop position: ornament kind or -1
    ivan_amounts: dict[str, int]
    colours: tuple[str, ...]
    starting_rubles: tuple[int, ...]
    end_bonus: int
    ornament_material: tuple[int, int, int]
    ornaments_per_player: tuple[int, int, int]
    banners_per_player: int
    completions_to_end: int

    def card_index(self, card_id: str) -> int:
        for i, card in enumerate(self.cards):
            if card.id == card_id:
                return i
        raise KeyError(card_id)

    def tile_index(self, tile_id: str) -> int:
        for i, tile in enumerate(self.tiles):
            if tile.id == tile_id:
                return i
        raise KeyError(tile_id)


def _read(name: str) -> dict[str, Any]:
    return read_toml(DATA_DIR, name)


def _entries(data: dict[str, Any], key: str, file: str, count: int | None) -> list[dict[str, Any]]:
    items = data.get(key)
    if not isinstance(items, list):
        raise DataError(f"{file}: expected a list of [[{key}]] entries")
    if count is not None and len(items) != count:
        raise DataError(f"{file}: expected {count} [[{key}]] entries, found {len(items)}")
    ids: set[str] = set()
    for entry in items:
        _provenance(entry, file)
        ident = entry.get("id")
        if ident is not None:
            if ident in ids:
                raise DataError(f"{file}: duplicate id {ident!r}")
            ids.add(ident)
    return items


def _provenance(entry: dict[str, Any], file: str) -> None:
    check_provenance(entry, file, str(entry.get("id", "entry")))


def _index(name: Any, names: tuple[str, ...], file: str, what: str) -> int:
    if name not in names:
        raise DataError(f"{file}: unknown {what} {name!r}; expected one of {', '.join(names)}")
    return names.index(name)


def _int(entry: dict[str, Any], key: str, file: str, minimum: int = 0) -> int:
    value = entry.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        raise DataError(f"{file}: {entry.get('id', 'entry')}.{key} must be an integer >= {minimum}")
    return value


def _counts(table: Any, file: str, label: str) -> Counts:
    if not isinstance(table, dict):
        raise DataError(f"{file}: {label} must be a table of material counts")
    counts = [0] * 6
    for name, amount in table.items():
        i = _index(name, MATERIALS, file, "material")
        if not isinstance(amount, int) or amount < 0:
            raise DataError(f"{file}: {label}.{name} must be a non-negative integer")
        counts[i] = amount
    return (counts[0], counts[1], counts[2], counts[3], counts[4], counts[5])


def _influence_action(raw: dict[str, Any], file: str, card: str) -> InfluenceAction:
    effect = raw.get("effect")
    if effect not in EFFECTS:
        raise DataError(f"{file}: {card} has unknown effect {effect!r}")
    mark = raw.get("mark")
    if mark not in ("once", "repeat"):
        raise DataError(f"{file}: {card} action mark must be 'once' or 'repeat'")
    kwargs: dict[str, Any] = {}
    for key in EFFECTS[effect]:
        if key not in raw:
            raise DataError(f"{file}: {card} effect {effect} needs {key!r}")
        value = raw[key]
        if key == "materials":
            kwargs[key] = () if value == ["any"] else tuple(
                _index(m, MATERIALS, file, "material") for m in value)
        elif key == "resource":
            kwargs[key] = (_index(value, (*RESOURCES, "pp"), file, "resource"))
        else:
            kwargs[key] = _int(raw, key, file)
    text = raw.get("text")
    if not isinstance(text, str) or not text.strip():
        raise DataError(f"{file}: {card} action {raw.get('rule')!r} needs its text in words")
    check_provenance({"source": raw.get("text_source"), "url": raw.get("text_url")}, file,
                     f"{card} action {raw.get('rule')} text")
    return InfluenceAction(rule=str(raw.get("rule", "")), repeat=mark == "repeat",
                           effect=effect, text=text, **kwargs)


PP = len(RESOURCES)  # resource index used for Prestige in influence effects


@cache
def load() -> Components:
    """Load and check every data file (cached: the data is read once per process).

    Raises:
        DataError: a file is missing or malformed, or counts/references do not match.
    """
    f = "supply.toml"
    supply_raw = _entries(_read(f), "material", f, 6)
    supply = [0] * 6
    for entry in supply_raw:
        supply[_index(entry.get("id"), MATERIALS, f, "material")] = _int(entry, "count", f, 1)

    f = "resource_tiles.toml"
    rtiles = tuple(ResourceTile(e["id"], _index(e.get("resource"), RESOURCES, f, "resource"),
                                _int(e, "amount", f, 1))
                   for e in _entries(_read(f), "tile", f, 8))
    if sorted(t.resource for t in rtiles) != list(range(8)):
        raise DataError(f"{f}: each of the 8 resources must appear on exactly one tile")

    f = "cathedral_cards.toml"
    cards: list[CathedralCard] = []
    for e in _entries(_read(f), "card", f, 40):
        kind = _index(e.get("kind"), CARD_KINDS, f, "card kind")
        cost = _counts(e.get("cost"), f, f"{e.get('id')}.cost")
        if not 3 <= sum(cost) <= 4:
            raise DataError(f"{f}: {e['id']} costs {sum(cost)} materials; cards cost 3 or 4")
        cards.append(CathedralCard(e["id"], kind, cost, _int(e, "rp", f), _int(e, "rubles", f)))
    per_kind = [sum(1 for c in cards if c.kind == k) for k in range(3)]
    if per_kind != [10, 20, 10]:
        raise DataError(f"{f}: expected 10 bases, 20 middles, 10 domes; found {per_kind}")

    f = "workshop_tiles.toml"
    tiles: list[WorkshopTile] = []
    for e in _entries(_read(f), "tile", f, 28):
        plus = e.get("players_3plus")
        if not isinstance(plus, bool):
            raise DataError(f"{f}: {e.get('id')}.players_3plus must be true or false")
        if e.get("kind") == "die":
            tiles.append(WorkshopTile(e["id"], _index(e.get("die"), COLOURS, f, "die"), -1, 0,
                                      plus))
        elif e.get("kind") == "resource":
            tiles.append(WorkshopTile(e["id"], -1,
                                      _index(e.get("resource"), RESOURCES, f, "resource"),
                                      _int(e, "amount", f, 1), plus))
        else:
            raise DataError(f"{f}: {e.get('id')}.kind must be 'die' or 'resource'")
    solo_dice = sorted(t.die for t in tiles if t.die >= 0 and t.players_3plus)
    if solo_dice != [0, 1, 2, 3, 4]:
        raise DataError(f"{f}: the solo game needs exactly one '3+' die tile per die colour")
    two_player_tiles = sum(1 for t in tiles if not t.players_3plus)

    f = "building_plans.toml"
    plans: list[BuildingPlan] = []
    for e in _entries(_read(f), "plan", f, 9):
        players = _int(e, "players", f, 2)
        middles = e.get("middles")
        if (not isinstance(middles, list) or not middles
                or not all(isinstance(m, int) and m >= 0 for m in middles)):
            raise DataError(f"{f}: {e.get('id')}.middles must be a list of counts")
        plan = BuildingPlan(e["id"], players, tuple(middles))
        if len(middles) > 10 or sum(middles) > 20:
            raise DataError(f"{f}: {plan.id} needs more cards than the game has")
        available = two_player_tiles if players < 3 else len(tiles)
        if plan.cards > available:
            raise DataError(f"{f}: {plan.id} has {plan.cards} cards but only {available} "
                            "Workshop tiles are used at that player count")
        plans.append(plan)
    for n in (2, 3, 4):
        if not any(p.players == n for p in plans):
            raise DataError(f"{f}: no Building Plan for {n} players")

    f = "influence_cards.toml"
    raw_inf = _read(f)
    influence: list[InfluenceCard] = []
    for e in _entries(raw_inf, "card", f, 12):
        deck = _index(e.get("deck"), DECKS, f, "deck")
        acts = e.get("action")
        if not isinstance(acts, list) or len(acts) != 2:
            raise DataError(f"{f}: {e.get('id')} must have exactly 2 [[card.action]] entries")
        a1, a2 = (_influence_action(a, f, e["id"]) for a in acts)
        influence.append(InfluenceCard(e["id"], deck, (a1, a2)))
    words: dict[str, str] = {}
    for act in (a for c in influence for a in c.actions):
        if words.setdefault(act.rule, act.text) != act.text:
            raise DataError(f"{f}: the actions {act.rule} have different texts")
    if sorted(c.deck for c in influence) != [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3]:
        raise DataError(f"{f}: each of the 4 decks must have 3 cards")
    ids = [c.id for c in influence]
    first = raw_inf.get("first_game", [])
    if not isinstance(first, list) or len(first) != 4 or any(x not in ids for x in first):
        raise DataError(f"{f}: first_game must list 4 card ids")
    if sorted(influence[ids.index(x)].deck for x in first) != [0, 1, 2, 3]:
        raise DataError(f"{f}: first_game must take one card from each deck")

    f = "track.toml"
    track = _read(f)
    _provenance(track, f)
    lap = _int(track, "lap_length", f, 2)
    positions = track.get("prestige_positions")
    if (not isinstance(positions, list) or len(positions) != 40
            or positions != sorted(set(positions)) or positions[0] < 1 or positions[-1] >= lap):
        raise DataError(f"{f}: prestige_positions must be 40 increasing spaces in 1..{lap - 1}")

    f = "workshop_boards.toml"
    boards = _read(f)
    inv = boards.get("inventory", {})
    basic = boards.get("basic", {})
    advanced = boards.get("advanced", {})
    for section in (inv, basic, advanced):
        _provenance(section, f)

    def position_costs(costs: Any) -> tuple[int, ...]:
        if not isinstance(costs, dict) or sorted(costs) != sorted(WS_SPACES):
            raise DataError(f"{f}: costs must name {', '.join(WS_SPACES)}")
        return tuple(int(costs[p.split("-")[0]]) for p in WS_POSITIONS)

    orn_map = [-1] * 6
    for space, orn in dict(advanced.get("ornaments", {})).items():
        orn_map[_index(space, WS_SPACES[:4], f, "space")] = _index(orn, ORNAMENTS, f, "ornament")

    f = "ivan_cards.toml"
    ivan = _entries(_read(f), "card", f, 5)
    if sorted(e["id"] for e in ivan) != sorted(IVAN_CARDS):
        raise DataError(f"{f}: Ivan's cards must be {', '.join(IVAN_CARDS)}")

    f = "game.toml"
    game = _read(f)
    orn_mat = game.get("ornament_materials", {})
    orn_count = game.get("ornaments_per_player", {})
    per_player = tuple(int(orn_count.get(o, -1)) for o in ORNAMENTS)
    if sorted(orn_map) != sorted([-1, -1] + [k for k in range(3) for _ in range(per_player[k])]):
        raise DataError("workshop_boards.toml: advanced ornaments must hold exactly the "
                        "ornaments of game.toml ornaments_per_player")

    return Components(
        supply=_counts(dict(zip(MATERIALS, supply, strict=True)), "supply.toml", "supply"),
        resource_tiles=rtiles,
        cards=tuple(cards),
        plans=tuple(plans),
        tiles=tuple(tiles),
        influence=tuple(influence),
        first_game=tuple(ids.index(x) for x in first),
        lap_length=lap,
        start=_int(track, "start", "track.toml"),
        prestige_positions=tuple(positions),
        free_spaces=_int(inv, "free_spaces", "workshop_boards.toml", 1),
        banners_in_inventory=_int(inv, "banners_in_inventory", "workshop_boards.toml"),
        banners_outside=_int(inv, "banners_outside", "workshop_boards.toml"),
        basic_costs=position_costs(basic.get("costs")),
        advanced_costs=position_costs(advanced.get("costs")),
        advanced_ornaments=tuple(orn_map),
        ivan_amounts={e["id"]: int(e.get("amount", 0)) for e in ivan},
        colours=tuple(game.get("colours", ())),
        starting_rubles=tuple(game.get("starting_rubles", ())),
        end_bonus=int(game.get("end_bonus", 3)),
        ornament_material=(
            _index(orn_mat.get("door"), MATERIALS, "game.toml", "material"),
            _index(orn_mat.get("arch"), MATERIALS, "game.toml", "material"),
            _index(orn_mat.get("cross"), MATERIALS, "game.toml", "material")),
        ornaments_per_player=(per_player[0], per_player[1], per_player[2]),
        banners_per_player=int(game.get("banners_per_player", 6)),
        completions_to_end=int(game.get("completions_to_end", 6)),
    )


