"""Actions of Praga Caput Regni: one small frozen value per verb, with a context-free
text form and a label for people.

Each class holds the verb's arguments as named fields (indices into the component data),
``str(action)`` writes the text form, naming components by their printed ids
(``site S07``, ``use-tech T3b``), and ``parse_action(text)`` reads it back. Wheel slots
are numbered 1..11 clockwise from the box (crane.toml), rows by name, action-board wall
positions 0..11, orientations 0..5 (hexgrid.py). ``label(state)`` is the English sentence
shown on buttons and in hints; it reads the state only to name what the action takes.

Every class has the class attributes ``verb`` (the first word of its text) and ``args``
(the kind of each field, in order: an id table of ``KINDS`` or ``"int"``), which
``parse_action`` and the RL action catalogue read.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import ClassVar

from meeplehall.core.protocol import IllegalActionError
from meeplehall.games.praga.components import (
    ACTIONS,
    GRIDS,
    IV_EFFECTS,
    SEAL_EFFECTS,
    TECH_EFFECTS,
    V_EFFECTS,
    load,
    reward_text,
    tile_text,
)
from meeplehall.games.praga.parler_data import PARLER
from meeplehall.games.praga.state import (
    CHOOSE,
    PARLER_ORIENT,
    PARLER_PAWN,
    PARLER_SITE,
    PICK,
    ROW_NAMES,
    PragaState,
)

C = load()
RESOURCES = ("gold", "stone")
TRACK_NAMES = ("mine", "quarry")
WINDOW_PAIRS = ("gold", "silver")  # second window paid with a gold window (P-XACT-1)

# Argument kind -> the printed ids its values index (an empty tuple: a plain number).
KINDS: dict[str, tuple[str, ...]] = {
    "int": (),
    "action": ACTIONS,
    "grid": GRIDS,
    "row": ROW_NAMES,
    "res": RESOURCES,
    "track": TRACK_NAMES,
    "win": WINDOW_PAIRS,
    "site": tuple(s.id for s in C.sites),
    "seal": tuple(s.id for s in C.seals),
    "tech": tuple(t.id for t in C.technologies),
    "bridge": tuple(t.id for t in C.bridge_tiles),
    "market": tuple(m.id for m in C.markets),
    "token": tuple(t.id for t in C.production_tokens),
}


def _bot(s: PragaState) -> str | None:
    """The name of the Parler bot that the decision on top of the stack is about (his
    pawn's plaza, P.2 step 3; his building's site and orientation, P.5 step 2), if any."""
    d = s.stack[-1] if s.stack else None
    if d is None or d[0] not in (PARLER_PAWN, PARLER_SITE, PARLER_ORIENT):
        return None
    bot: int = d[2]
    return PARLER.names[bot]


# --- the turn hub (P-TURN-2/3, P-TIMING-1) -----------------------------------------------
@dataclass(frozen=True, slots=True)
class TakeTile:
    """P-TURN-2 step 1: take the action tile on wheel slot ``slot`` (1..11)."""

    slot: int
    verb: ClassVar[str] = "take-tile"
    args: ClassVar[tuple[str, ...]] = ("int",)

    def __str__(self) -> str:
        return f"take-tile {self.slot}"

    def label(self, s: PragaState) -> str:
        tile = s.slots[self.slot]
        pair = " / ".join(ACTIONS[x] for x in s.pairs[tile]) if tile >= 0 else "?"
        return f"Take action tile {C.action_tiles[tile].id} ({pair}) from slot {self.slot}"


@dataclass(frozen=True, slots=True)
class Perform:
    """P-TURN-2 step 2: perform ``action`` (index into ``ACTIONS``) of the taken tile."""

    action: int
    verb: ClassVar[str] = "perform"
    args: ClassVar[tuple[str, ...]] = ("action",)

    def __str__(self) -> str:
        return f"perform {ACTIONS[self.action]}"

    def label(self, s: PragaState) -> str:
        return f"Perform {ACTIONS[self.action]}"


@dataclass(frozen=True, slots=True)
class WheelBonus:
    """P-CRANE-6: the wheel bonus of the slot the tile was taken from (or the special
    tile's VP instead of the special tile)."""

    verb: ClassVar[str] = "wheel-bonus"
    args: ClassVar[tuple[str, ...]] = ()

    def __str__(self) -> str:
        return "wheel-bonus"

    def label(self, s: PragaState) -> str:
        slot = C.crane.slots[s.taken_slot - 1] if s.taken_slot > 0 else None
        if slot is not None and slot.kind == 0:
            return f"Take {slot.vp} VP instead of the special tile"
        if slot is not None and slot.kind == 2:
            return "Buy an egg (wheel bonus)"
        return f"Take the wheel bonus ({reward_text(slot.gain) if slot else ''})"


@dataclass(frozen=True, slots=True)
class BuyExtra:
    """P-XACT-1: buy the extra action with 2 gold windows, or (``silver``) with 1 gold and
    1 silver window."""

    silver: bool
    verb: ClassVar[str] = "buy-extra"
    args: ClassVar[tuple[str, ...]] = ("win",)

    def __str__(self) -> str:
        return f"buy-extra {WINDOW_PAIRS[self.silver]}"

    def label(self, s: PragaState) -> str:
        return ("Buy the extra action with 1 gold + 1 silver window" if self.silver
                else "Buy the extra action with 2 gold windows")


@dataclass(frozen=True, slots=True)
class Extra:
    """P-XACT-2: perform ``action`` as the bought extra action."""

    action: int
    verb: ClassVar[str] = "extra"
    args: ClassVar[tuple[str, ...]] = ("action",)

    def __str__(self) -> str:
        return f"extra {ACTIONS[self.action]}"

    def label(self, s: PragaState) -> str:
        return f"Perform {ACTIONS[self.action]} as your extra action"


@dataclass(frozen=True, slots=True)
class Refresh:
    """P-ROW-5: pay 1 ``resource`` (0 gold, 1 stone) to refresh ``row``."""

    row: int
    resource: int
    verb: ClassVar[str] = "refresh"
    args: ClassVar[tuple[str, ...]] = ("row", "res")

    def __str__(self) -> str:
        return f"refresh {ROW_NAMES[self.row]} {RESOURCES[self.resource]}"

    def label(self, s: PragaState) -> str:
        return f"Pay 1 {RESOURCES[self.resource]} to refresh the {ROW_NAMES[self.row]} row"


@dataclass(frozen=True, slots=True)
class MoveUp:
    """P-GRID-5: pay 2 silver windows to move 1 row up on ``grid``."""

    grid: int
    verb: ClassVar[str] = "up"
    args: ClassVar[tuple[str, ...]] = ("grid",)

    def __str__(self) -> str:
        return f"up {GRIDS[self.grid]}"

    def label(self, s: PragaState) -> str:
        return f"Pay 2 silver windows to move up on the {GRIDS[self.grid]}"


@dataclass(frozen=True, slots=True)
class MoveSideways:
    """P-GRID-4: make one earned sideways move on ``grid``."""

    grid: int
    verb: ClassVar[str] = "side"
    args: ClassVar[tuple[str, ...]] = ("grid",)

    def __str__(self) -> str:
        return f"side {GRIDS[self.grid]}"

    def label(self, s: PragaState) -> str:
        return f"Move sideways on the {GRIDS[self.grid]}"


@dataclass(frozen=True, slots=True)
class ClaimSeal:
    """P-SEAL-2/3: pay the printed cost of ``seal`` and put a cube on it."""

    seal: int
    verb: ClassVar[str] = "claim-seal"
    args: ClassVar[tuple[str, ...]] = ("seal",)

    def __str__(self) -> str:
        return f"claim-seal {C.seals[self.seal].id}"

    def label(self, s: PragaState) -> str:
        seal = C.seals[self.seal]
        return f"Claim seal {seal.id} ({SEAL_EFFECTS[seal.effect]}, {seal.vp})"


@dataclass(frozen=True, slots=True)
class UseTech:
    """P-TECH-6: use the level III/IV technology ``tech``."""

    tech: int
    verb: ClassVar[str] = "use-tech"
    args: ClassVar[tuple[str, ...]] = ("tech",)

    def __str__(self) -> str:
        return f"use-tech {C.technologies[self.tech].id}"

    def label(self, s: PragaState) -> str:
        tech = C.technologies[self.tech]
        return f"Use technology {tech.id} ({TECH_EFFECTS[tech.effect]})"


@dataclass(frozen=True, slots=True)
class RoadFree:
    """P-ROAD-2/3: resolve the free effect of the King's Road space reached."""

    verb: ClassVar[str] = "road-free"
    args: ClassVar[tuple[str, ...]] = ()

    def __str__(self) -> str:
        return "road-free"

    def label(self, s: PragaState) -> str:
        return "Resolve the King's Road space's free effect"


@dataclass(frozen=True, slots=True)
class RoadEgg:
    """P-ROAD-3: pay 1 egg for the egg effect of the King's Road space reached."""

    verb: ClassVar[str] = "road-egg"
    args: ClassVar[tuple[str, ...]] = ()

    def __str__(self) -> str:
        return "road-egg"

    def label(self, s: PragaState) -> str:
        return "Pay 1 egg for the King's Road space's egg effect"


@dataclass(frozen=True, slots=True)
class EndTurn:
    """P-TURN-3, P-CRANE-9: end the turn."""

    verb: ClassVar[str] = "end-turn"
    args: ClassVar[tuple[str, ...]] = ()

    def __str__(self) -> str:
        return "end-turn"

    def label(self, s: PragaState) -> str:
        return "End your turn"


# --- inside an action ----------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Remove:
    """P-ROW-5: the two row positions (0..3, 3 = special) a refresh removes."""

    first: int
    second: int
    verb: ClassVar[str] = "remove"
    args: ClassVar[tuple[str, ...]] = ("int", "int")

    def __str__(self) -> str:
        return f"remove {self.first} {self.second}"

    def label(self, s: PragaState) -> str:
        return f"Remove the tiles at positions {self.first} and {self.second}"


@dataclass(frozen=True, slots=True)
class Expand:
    """P-MINE-2 (A), P-QUAR-1: +1 and the cube moves right."""

    verb: ClassVar[str] = "expand"
    args: ClassVar[tuple[str, ...]] = ()

    def __str__(self) -> str:
        return "expand"

    def label(self, s: PragaState) -> str:
        return "Expand: +1 and move the cube right"


@dataclass(frozen=True, slots=True)
class Produce:
    """P-MINE-2 (B), P-QUAR-1: produce."""

    verb: ClassVar[str] = "produce"
    args: ClassVar[tuple[str, ...]] = ()

    def __str__(self) -> str:
        return "produce"

    def label(self, s: PragaState) -> str:
        return "Produce"


@dataclass(frozen=True, slots=True)
class Pick:
    """P-ROW-1/3: the tile at row ``position`` (0..3, 3 = the special tile)."""

    position: int
    verb: ClassVar[str] = "pick"
    args: ClassVar[tuple[str, ...]] = ("int",)

    def __str__(self) -> str:
        return f"pick {self.position}"

    def label(self, s: PragaState) -> str:
        d = s.stack[-1] if s.stack else None
        if d is not None and d[0] == PICK:
            return f"Take {tile_text(d[2], s.rows[d[2]][self.position])}"
        return str(self)


@dataclass(frozen=True, slots=True)
class WallAt:
    """P-WALL-4: the wall position (0..11) around the action board."""

    position: int
    verb: ClassVar[str] = "wall-at"
    args: ClassVar[tuple[str, ...]] = ("int",)

    def __str__(self) -> str:
        return f"wall-at {self.position}"

    def label(self, s: PragaState) -> str:
        return f"Place the wall on position {self.position} around your action board"


@dataclass(frozen=True, slots=True)
class AtMarket:
    """P-BLD-5: the market whose site comes next; Parler P.2 step 3: the plaza where a
    bot's pawn starts."""

    market: int
    verb: ClassVar[str] = "at-market"
    args: ClassVar[tuple[str, ...]] = ("market",)

    def __str__(self) -> str:
        return f"at-market {C.markets[self.market].id}"

    def label(self, s: PragaState) -> str:
        m = C.markets[self.market]
        bot = _bot(s)
        if bot is not None:
            return f"Put {bot}'s pawn on market {m.id}"
        tile = s.market_tile[self.market]
        rewards = ("empty market" if tile < 0 else
                   f"{reward_text(C.market_tiles[tile].upper)} / "
                   f"{reward_text(C.market_tiles[tile].lower)}")
        return f"Build next to market {m.id} ({rewards})"


@dataclass(frozen=True, slots=True)
class Site:
    """P-BLD-4/5: the building site; Parler P.5 step 2: the site of a bot's building."""

    site: int
    verb: ClassVar[str] = "site"
    args: ClassVar[tuple[str, ...]] = ("site",)

    def __str__(self) -> str:
        return f"site {C.sites[self.site].id}"

    def label(self, s: PragaState) -> str:
        site = C.sites[self.site]
        bot = _bot(s)
        if bot is not None:
            return f"Place {bot}'s building on {site.id}"
        extra = f" (Old Town: +{site.surcharge} gold, {site.vp} VP)" if site.old_town else ""
        return f"Build on {site.id} at market {C.markets[site.market].id}{extra}"


@dataclass(frozen=True, slots=True)
class Orient:
    """P-UPG-2, P-WALL-4, Parler P.5 step 2: the orientation (0..5, 60 degrees each)."""

    orientation: int
    verb: ClassVar[str] = "orient"
    args: ClassVar[tuple[str, ...]] = ("int",)

    def __str__(self) -> str:
        return f"orient {self.orientation}"

    def label(self, s: PragaState) -> str:
        o = self.orientation
        bot = _bot(s)
        if bot is not None:
            return f"Turn {bot}'s building to orientation {o} ({o * 60} degrees)"
        return f"Turn the tile to orientation {o} ({o * 60} degrees)"


@dataclass(frozen=True, slots=True)
class Choose:
    """One of the rewards offered (``index`` into the decision's options)."""

    index: int
    verb: ClassVar[str] = "choose"
    args: ClassVar[tuple[str, ...]] = ("int",)

    def __str__(self) -> str:
        return f"choose {self.index}"

    def label(self, s: PragaState) -> str:
        d = s.stack[-1] if s.stack else None
        if d is not None and d[0] == CHOOSE:
            return f"Take {reward_text(d[2][self.index])}"
        return str(self)


@dataclass(frozen=True, slots=True)
class KeepTech:
    """P-TECH-2: the drawn technology kept."""

    tech: int
    verb: ClassVar[str] = "keep-tech"
    args: ClassVar[tuple[str, ...]] = ("tech",)

    def __str__(self) -> str:
        return f"keep-tech {C.technologies[self.tech].id}"

    def label(self, s: PragaState) -> str:
        tech = C.technologies[self.tech]
        return f"Keep technology {tech.id} ({TECH_EFFECTS[tech.effect]})"


@dataclass(frozen=True, slots=True)
class Token:
    """P-PROD-1/2: the production token taken from the river."""

    token: int
    verb: ClassVar[str] = "token"
    args: ClassVar[tuple[str, ...]] = ("token",)

    def __str__(self) -> str:
        return f"token {C.production_tokens[self.token].id}"

    def label(self, s: PragaState) -> str:
        token = C.production_tokens[self.token]
        return f"Take production token {token.id} ({reward_text(token.gain)})"


def _bridge_label(tile: int) -> str:
    t = C.bridge_tiles[tile]
    effects = V_EFFECTS if t.is_v else IV_EFFECTS
    return f"Take bridge tile {t.id} ({effects[t.effect]})"


@dataclass(frozen=True, slots=True)
class BridgeTile:
    """P-BRIDGE-2/3: the IV or V tile kept."""

    tile: int
    verb: ClassVar[str] = "bridge-tile"
    args: ClassVar[tuple[str, ...]] = ("bridge",)

    def __str__(self) -> str:
        return f"bridge-tile {C.bridge_tiles[self.tile].id}"

    def label(self, s: PragaState) -> str:
        return _bridge_label(self.tile)


@dataclass(frozen=True, slots=True)
class Plank:
    """P-BRIDGE-1: the free plank position the bridge piece is laid on."""

    plank: int
    verb: ClassVar[str] = "plank"
    args: ClassVar[tuple[str, ...]] = ("int",)

    def __str__(self) -> str:
        return f"plank {self.plank}"

    def label(self, s: PragaState) -> str:
        return (f"Lay it on plank {self.plank} ("
                + " + ".join(reward_text(r) for r in s.planks[self.plank]) + ")")


@dataclass(frozen=True, slots=True)
class ArrowUp:
    """P-GRID-6: follow the upward arrow (the tier cost is still due)."""

    verb: ClassVar[str] = "arrow-up"
    args: ClassVar[tuple[str, ...]] = ()

    def __str__(self) -> str:
        return "arrow-up"

    def label(self, s: PragaState) -> str:
        return "Follow the up arrow (pay the tier cost if any)"


@dataclass(frozen=True, slots=True)
class ArrowStay:
    """P-GRID-6: do not follow the arrow."""

    verb: ClassVar[str] = "arrow-stay"
    args: ClassVar[tuple[str, ...]] = ()

    def __str__(self) -> str:
        return "arrow-stay"

    def label(self, s: PragaState) -> str:
        return "Stay (the arrow no longer applies)"


@dataclass(frozen=True, slots=True)
class CathedralTile:
    """P-GRID-7: the Cathedral final-scoring tile taken."""

    tile: int
    verb: ClassVar[str] = "cathedral-tile"
    args: ClassVar[tuple[str, ...]] = ("bridge",)

    def __str__(self) -> str:
        return f"cathedral-tile {C.bridge_tiles[self.tile].id}"

    def label(self, s: PragaState) -> str:
        return _bridge_label(self.tile)


@dataclass(frozen=True, slots=True)
class KeepSilver:
    """P-WIN-2: keep 2 windows, ``silver`` of them silver (0..2)."""

    silver: int
    verb: ClassVar[str] = "keep-silver"
    args: ClassVar[tuple[str, ...]] = ("int",)

    def __str__(self) -> str:
        return f"keep-silver {self.silver}"

    def label(self, s: PragaState) -> str:
        return f"Keep {self.silver} silver and {2 - self.silver} gold windows"


@dataclass(frozen=True, slots=True)
class AnyAction:
    """GL-T4-3: the action performed."""

    action: int
    verb: ClassVar[str] = "any-action"
    args: ClassVar[tuple[str, ...]] = ("action",)

    def __str__(self) -> str:
        return f"any-action {ACTIONS[self.action]}"

    def label(self, s: PragaState) -> str:
        return f"Perform {ACTIONS[self.action]}"


@dataclass(frozen=True, slots=True)
class TechGrid:
    """GL-T3-2: the grid to move 1 row up on for free."""

    grid: int
    verb: ClassVar[str] = "tech-grid"
    args: ClassVar[tuple[str, ...]] = ("grid",)

    def __str__(self) -> str:
        return f"tech-grid {GRIDS[self.grid]}"

    def label(self, s: PragaState) -> str:
        return f"Move up 1 row on the {GRIDS[self.grid]} for free"


@dataclass(frozen=True, slots=True)
class MarketTile:
    """GL-T4-5: the market whose tile's two rewards are gained."""

    market: int
    verb: ClassVar[str] = "market-tile"
    args: ClassVar[tuple[str, ...]] = ("market",)

    def __str__(self) -> str:
        return f"market-tile {C.markets[self.market].id}"

    def label(self, s: PragaState) -> str:
        tile = C.market_tiles[s.market_tile[self.market]]
        return (f"Take both rewards of market {C.markets[self.market].id}: "
                f"{reward_text(tile.upper)} and {reward_text(tile.lower)}")


@dataclass(frozen=True, slots=True)
class Grow:
    """GL-T4-6: +1 on ``track`` (0 gold mine, 1 quarry), then produce ``resource``."""

    track: int
    resource: int
    verb: ClassVar[str] = "grow"
    args: ClassVar[tuple[str, ...]] = ("track", "res")

    def __str__(self) -> str:
        return f"grow {TRACK_NAMES[self.track]} {RESOURCES[self.resource]}"

    def label(self, s: PragaState) -> str:
        return (f"+1 {('gold mine', 'quarry')[self.track]}, then produce "
                f"{RESOURCES[self.resource]}")


PragaAction = (TakeTile | Perform | WheelBonus | BuyExtra | Extra | Refresh | Remove | MoveUp
               | MoveSideways | ClaimSeal | UseTech | RoadFree | RoadEgg | EndTurn | Expand
               | Produce | Pick | WallAt | AtMarket | Site | Orient | Choose | KeepTech | Token
               | BridgeTile | Plank | ArrowUp | ArrowStay | CathedralTile | KeepSilver
               | AnyAction | TechGrid | MarketTile | Grow)

# Every action class, in the order of the help text.
CLASSES: tuple[type[PragaAction], ...] = (
    TakeTile, Perform, WheelBonus, BuyExtra, Extra, Refresh, Remove, MoveUp, MoveSideways,
    ClaimSeal, UseTech, RoadFree, RoadEgg, EndTurn, Expand, Produce, Pick, WallAt, AtMarket,
    Site, Orient, Choose, KeepTech, Token, BridgeTile, Plank, ArrowUp, ArrowStay,
    CathedralTile, KeepSilver, AnyAction, TechGrid, MarketTile, Grow,
)
BY_VERB: dict[str, type[PragaAction]] = {cls.verb: cls for cls in CLASSES}

# The actions without arguments (one value each) and interned constructors of the others,
# for the hot paths (legal-action generation).
WHEEL_BONUS = WheelBonus()
ROAD_FREE = RoadFree()
ROAD_EGG = RoadEgg()
END_TURN = EndTurn()
EXPAND = Expand()
PRODUCE = Produce()
ARROW_UP = ArrowUp()
ARROW_STAY = ArrowStay()
take_tile = cache(TakeTile)
perform = cache(Perform)
buy_extra = cache(BuyExtra)
extra = cache(Extra)
refresh = cache(Refresh)
remove = cache(Remove)
move_up = cache(MoveUp)
move_sideways = cache(MoveSideways)
claim_seal = cache(ClaimSeal)
use_tech = cache(UseTech)
pick = cache(Pick)
wall_at = cache(WallAt)
at_market = cache(AtMarket)
site = cache(Site)
orient = cache(Orient)
choose = cache(Choose)
keep_tech = cache(KeepTech)
token = cache(Token)
bridge_tile = cache(BridgeTile)
plank = cache(Plank)
cathedral_tile = cache(CathedralTile)
keep_silver = cache(KeepSilver)
any_action = cache(AnyAction)
tech_grid = cache(TechGrid)
market_tile = cache(MarketTile)
grow = cache(Grow)
_INTERNED: dict[type[PragaAction], Callable[..., PragaAction]] = {
    TakeTile: take_tile, Perform: perform, BuyExtra: buy_extra, Extra: extra,
    Refresh: refresh, Remove: remove, MoveUp: move_up, MoveSideways: move_sideways,
    ClaimSeal: claim_seal, UseTech: use_tech, Pick: pick, WallAt: wall_at,
    AtMarket: at_market, Site: site, Orient: orient, Choose: choose, KeepTech: keep_tech,
    Token: token, BridgeTile: bridge_tile, Plank: plank, CathedralTile: cathedral_tile,
    KeepSilver: keep_silver, AnyAction: any_action, TechGrid: tech_grid,
    MarketTile: market_tile, Grow: grow,
}
_NULLARY: dict[str, PragaAction] = {a.verb: a for a in (
    WHEEL_BONUS, ROAD_FREE, ROAD_EGG, END_TURN, EXPAND, PRODUCE, ARROW_UP, ARROW_STAY)}


def build(cls: type[PragaAction], *values: int) -> PragaAction:
    """The (interned) action of ``cls`` whose fields are ``values``, one per ``cls.args``
    (a ``win`` field given as 0 or 1)."""
    if not cls.args:
        return _NULLARY[cls.verb]
    if cls is BuyExtra:
        return buy_extra(bool(values[0]))
    return _INTERNED[cls](*values)


def _value(kind: str, word: str, text: str) -> int:
    names = KINDS[kind]
    if names:
        if word not in names:
            raise IllegalActionError(f"{text!r}: unknown {kind} {word!r}; expected one "
                                     f"of {', '.join(names)}")
        return names.index(word)
    try:
        number = int(word)
    except ValueError:
        raise IllegalActionError(f"{text!r}: {word!r} is not a number") from None
    if not 0 <= number <= 99:
        raise IllegalActionError(f"{text!r}: {number} is out of range 0..99")
    return number


def parse_action(text: str) -> PragaAction:
    """Parse the text form of an action.

    Raises:
        IllegalActionError: the text is not an action of this game; says what is wrong.

    >>> str(parse_action("site S07"))
    'site S07'
    >>> parse_action("perform mines") == Perform(0)
    True
    """
    if not isinstance(text, str):
        raise IllegalActionError(f"an action must be text, got {type(text).__name__}")
    words = text.split()
    if not words:
        raise IllegalActionError("empty action")
    verb, words = words[0], words[1:]
    cls = BY_VERB.get(verb)
    if cls is None:
        raise IllegalActionError(f"{text!r}: unknown action {verb!r}; actions are: "
                                 f"{', '.join(BY_VERB)}")
    if len(words) != len(cls.args):
        raise IllegalActionError(f"{text!r}: {verb!r} takes {len(cls.args)} argument(s)")
    return build(cls, *(_value(kind, word, text)
                        for kind, word in zip(cls.args, words, strict=True)))
