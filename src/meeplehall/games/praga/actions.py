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

from meeplehall.core.messages import M, Message, term
from meeplehall.core.protocol import IllegalActionError
from meeplehall.games.praga.components import (
    ACTIONS,
    GRIDS,
    IV_EFFECTS,
    SEAL_EFFECTS,
    TECH_EFFECTS,
    V_EFFECTS,
    load,
)
from meeplehall.games.praga.parler_data import PARLER
from meeplehall.games.praga.state import ROW_NAMES, PragaState
from meeplehall.games.praga.texts import (
    ACTION_OBJECTS,
    ACTION_TERMS,
    GRID_TERMS,
    ROW_TERMS,
    joined,
    reward_message,
    tile_message,
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
    bot = s.stack[-1].parler_bot() if s.stack else None
    return None if bot is None else PARLER.names[bot]


class _Labelled:
    """What every action class has: ``message(state)``, its label as a message
    (``meeplehall.core.messages``), and ``label(state)``, that message in English."""

    __slots__ = ()

    def message(self, s: PragaState) -> Message:  # pragma: no cover - every class has one
        raise NotImplementedError

    def label(self, s: PragaState) -> str:
        return str(self.message(s))


# --- the turn hub (P-TURN-2/3, P-TIMING-1) -----------------------------------------------
@dataclass(frozen=True, slots=True)
class TakeTile(_Labelled):
    """P-TURN-2 step 1: take the action tile on wheel slot ``slot`` (1..11)."""

    slot: int
    verb: ClassVar[str] = "take-tile"
    args: ClassVar[tuple[str, ...]] = ("int",)

    def __str__(self) -> str:
        return f"take-tile {self.slot}"

    def message(self, s: PragaState) -> Message:
        tile = s.slots[self.slot]
        pair: Message | str = (M("{a} / {b}", a=ACTION_TERMS[s.pairs[tile][0]],
                                 b=ACTION_TERMS[s.pairs[tile][1]]) if tile >= 0 else "?")
        return M("Take action tile {tile} ({actions}) from slot {slot}",
                 tile=C.action_tiles[tile].id, actions=pair, slot=self.slot)


@dataclass(frozen=True, slots=True)
class Perform(_Labelled):
    """P-TURN-2 step 2: perform ``action`` (index into ``ACTIONS``) of the taken tile."""

    action: int
    verb: ClassVar[str] = "perform"
    args: ClassVar[tuple[str, ...]] = ("action",)

    def __str__(self) -> str:
        return f"perform {ACTIONS[self.action]}"

    def message(self, s: PragaState) -> Message:
        return M("Perform {action}", action=ACTION_OBJECTS[self.action])


@dataclass(frozen=True, slots=True)
class WheelBonus(_Labelled):
    """P-CRANE-6: the wheel bonus of the slot the tile was taken from (or the special
    tile's VP instead of the special tile)."""

    verb: ClassVar[str] = "wheel-bonus"
    args: ClassVar[tuple[str, ...]] = ()

    def __str__(self) -> str:
        return "wheel-bonus"

    def message(self, s: PragaState) -> Message:
        slot = C.crane.slots[s.taken_slot - 1] if s.taken_slot > 0 else None
        if slot is not None and slot.kind == 0:
            return M("Take {n} VP instead of the special tile", n=slot.vp)
        if slot is not None and slot.kind == 2:
            return term("Buy an egg (wheel bonus)")
        return M("Take the wheel bonus ({reward})",
                 reward=reward_message(slot.gain) if slot else "")


@dataclass(frozen=True, slots=True)
class BuyExtra(_Labelled):
    """P-XACT-1: buy the extra action with 2 gold windows, or (``silver``) with 1 gold and
    1 silver window."""

    silver: bool
    verb: ClassVar[str] = "buy-extra"
    args: ClassVar[tuple[str, ...]] = ("win",)

    def __str__(self) -> str:
        return f"buy-extra {WINDOW_PAIRS[self.silver]}"

    def message(self, s: PragaState) -> Message:
        return term("Buy the extra action with 1 gold + 1 silver window" if self.silver
                    else "Buy the extra action with 2 gold windows")


@dataclass(frozen=True, slots=True)
class Extra(_Labelled):
    """P-XACT-2: perform ``action`` as the bought extra action."""

    action: int
    verb: ClassVar[str] = "extra"
    args: ClassVar[tuple[str, ...]] = ("action",)

    def __str__(self) -> str:
        return f"extra {ACTIONS[self.action]}"

    def message(self, s: PragaState) -> Message:
        return M("Perform {action} as your extra action", action=ACTION_OBJECTS[self.action])


@dataclass(frozen=True, slots=True)
class Refresh(_Labelled):
    """P-ROW-5: pay 1 ``resource`` (0 gold, 1 stone) to refresh ``row``."""

    row: int
    resource: int
    verb: ClassVar[str] = "refresh"
    args: ClassVar[tuple[str, ...]] = ("row", "res")

    def __str__(self) -> str:
        return f"refresh {ROW_NAMES[self.row]} {RESOURCES[self.resource]}"

    def message(self, s: PragaState) -> Message:
        return M("Pay 1 {resource} to refresh the {row} row",
                 resource=term(RESOURCES[self.resource]), row=ROW_TERMS[self.row])


@dataclass(frozen=True, slots=True)
class MoveUp(_Labelled):
    """P-GRID-5: pay 2 silver windows to move 1 row up on ``grid``."""

    grid: int
    verb: ClassVar[str] = "up"
    args: ClassVar[tuple[str, ...]] = ("grid",)

    def __str__(self) -> str:
        return f"up {GRIDS[self.grid]}"

    def message(self, s: PragaState) -> Message:
        return M("Pay 2 silver windows to move up on the {grid}", grid=GRID_TERMS[self.grid])


@dataclass(frozen=True, slots=True)
class MoveSideways(_Labelled):
    """P-GRID-4: make one earned sideways move on ``grid``."""

    grid: int
    verb: ClassVar[str] = "side"
    args: ClassVar[tuple[str, ...]] = ("grid",)

    def __str__(self) -> str:
        return f"side {GRIDS[self.grid]}"

    def message(self, s: PragaState) -> Message:
        return M("Move sideways on the {grid}", grid=GRID_TERMS[self.grid])


@dataclass(frozen=True, slots=True)
class ClaimSeal(_Labelled):
    """P-SEAL-2/3: pay the printed cost of ``seal`` and put a cube on it."""

    seal: int
    verb: ClassVar[str] = "claim-seal"
    args: ClassVar[tuple[str, ...]] = ("seal",)

    def __str__(self) -> str:
        return f"claim-seal {C.seals[self.seal].id}"

    def message(self, s: PragaState) -> Message:
        seal = C.seals[self.seal]
        return M("Claim seal {seal} ({effect}, {vp})", seal=seal.id,
                 effect=term(f"{SEAL_EFFECTS[seal.effect]} (seal)"), vp=seal.vp)


@dataclass(frozen=True, slots=True)
class UseTech(_Labelled):
    """P-TECH-6: use the level III/IV technology ``tech``."""

    tech: int
    verb: ClassVar[str] = "use-tech"
    args: ClassVar[tuple[str, ...]] = ("tech",)

    def __str__(self) -> str:
        return f"use-tech {C.technologies[self.tech].id}"

    def message(self, s: PragaState) -> Message:
        tech = C.technologies[self.tech]
        return M("Use technology {tech} ({effect})", tech=tech.id,
                 effect=term(f"{TECH_EFFECTS[tech.effect]} (technology)"))


@dataclass(frozen=True, slots=True)
class RoadFree(_Labelled):
    """P-ROAD-2/3: resolve the free effect of the King's Road space reached."""

    verb: ClassVar[str] = "road-free"
    args: ClassVar[tuple[str, ...]] = ()

    def __str__(self) -> str:
        return "road-free"

    def message(self, s: PragaState) -> Message:
        return term("Resolve the King's Road space's free effect")


@dataclass(frozen=True, slots=True)
class RoadEgg(_Labelled):
    """P-ROAD-3: pay 1 egg for the egg effect of the King's Road space reached."""

    verb: ClassVar[str] = "road-egg"
    args: ClassVar[tuple[str, ...]] = ()

    def __str__(self) -> str:
        return "road-egg"

    def message(self, s: PragaState) -> Message:
        return term("Pay 1 egg for the King's Road space's egg effect")


@dataclass(frozen=True, slots=True)
class EndTurn(_Labelled):
    """P-TURN-3, P-CRANE-9: end the turn."""

    verb: ClassVar[str] = "end-turn"
    args: ClassVar[tuple[str, ...]] = ()

    def __str__(self) -> str:
        return "end-turn"

    def message(self, s: PragaState) -> Message:
        return term("End your turn")


# --- inside an action ----------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Remove(_Labelled):
    """P-ROW-5: the two row positions (0..3, 3 = special) a refresh removes; people read
    them counted from 1, as the row's tiles are counted on the board."""

    first: int
    second: int
    verb: ClassVar[str] = "remove"
    args: ClassVar[tuple[str, ...]] = ("int", "int")

    def __str__(self) -> str:
        return f"remove {self.first} {self.second}"

    def message(self, s: PragaState) -> Message:
        return M("Remove the tiles at positions {a} and {b}", a=self.first + 1, b=self.second + 1)


@dataclass(frozen=True, slots=True)
class Expand(_Labelled):
    """P-MINE-2 (A), P-QUAR-1: +1 and the cube moves right."""

    verb: ClassVar[str] = "expand"
    args: ClassVar[tuple[str, ...]] = ()

    def __str__(self) -> str:
        return "expand"

    def message(self, s: PragaState) -> Message:
        return term("Expand: +1 and move the cube right")


@dataclass(frozen=True, slots=True)
class Produce(_Labelled):
    """P-MINE-2 (B), P-QUAR-1: produce."""

    verb: ClassVar[str] = "produce"
    args: ClassVar[tuple[str, ...]] = ()

    def __str__(self) -> str:
        return "produce"

    def message(self, s: PragaState) -> Message:
        return term("Produce")


@dataclass(frozen=True, slots=True)
class Pick(_Labelled):
    """P-ROW-1/3: the tile at row ``position`` (0..3, 3 = the special tile)."""

    position: int
    verb: ClassVar[str] = "pick"
    args: ClassVar[tuple[str, ...]] = ("int",)

    def __str__(self) -> str:
        return f"pick {self.position}"

    def message(self, s: PragaState) -> Message:
        row = s.stack[-1].tile_row() if s.stack else None
        if row is not None:
            return M("Take {what}", what=tile_message(row, s.rows[row][self.position]))
        return term(str(self))


@dataclass(frozen=True, slots=True)
class WallAt(_Labelled):
    """P-WALL-4: the wall position (0..11) around the action board (1..12 for people)."""

    position: int
    verb: ClassVar[str] = "wall-at"
    args: ClassVar[tuple[str, ...]] = ("int",)

    def __str__(self) -> str:
        return f"wall-at {self.position}"

    def message(self, s: PragaState) -> Message:
        return M("Place the wall on position {n} around your action board", n=self.position + 1)


@dataclass(frozen=True, slots=True)
class AtMarket(_Labelled):
    """P-BLD-5: the market whose site comes next; Parler P.2 step 3: the plaza where a
    bot's pawn starts."""

    market: int
    verb: ClassVar[str] = "at-market"
    args: ClassVar[tuple[str, ...]] = ("market",)

    def __str__(self) -> str:
        return f"at-market {C.markets[self.market].id}"

    def message(self, s: PragaState) -> Message:
        m = C.markets[self.market]
        bot = _bot(s)
        if bot is not None:
            return M("Put {bot}'s pawn on market {market}", bot=bot, market=m.id)
        tile = s.market_tile[self.market]
        rewards = (term("empty market") if tile < 0 else
                   M("{a} / {b}", a=reward_message(C.market_tiles[tile].upper),
                     b=reward_message(C.market_tiles[tile].lower)))
        return M("Build next to market {market} ({rewards})", market=m.id, rewards=rewards)


@dataclass(frozen=True, slots=True)
class Site(_Labelled):
    """P-BLD-4/5: the building site; Parler P.5 step 2: the site of a bot's building."""

    site: int
    verb: ClassVar[str] = "site"
    args: ClassVar[tuple[str, ...]] = ("site",)

    def __str__(self) -> str:
        return f"site {C.sites[self.site].id}"

    def message(self, s: PragaState) -> Message:
        site = C.sites[self.site]
        bot = _bot(s)
        if bot is not None:
            return M("Place {bot}'s building on {site}", bot=bot, site=site.id)
        market = C.markets[site.market].id
        if site.old_town:
            return M("Build on {site} at market {market} (Old Town: +{gold} gold, {vp} VP)",
                     site=site.id, market=market, gold=site.surcharge, vp=site.vp)
        return M("Build on {site} at market {market}", site=site.id, market=market)


@dataclass(frozen=True, slots=True)
class Orient(_Labelled):
    """P-UPG-2, P-WALL-4, Parler P.5 step 2: the orientation (0..5, 60 degrees each)."""

    orientation: int
    verb: ClassVar[str] = "orient"
    args: ClassVar[tuple[str, ...]] = ("int",)

    def __str__(self) -> str:
        return f"orient {self.orientation}"

    def message(self, s: PragaState) -> Message:
        o = self.orientation
        bot = _bot(s)
        if bot is not None:
            return M("Turn {bot}'s building to orientation {n} ({deg} degrees)", bot=bot, n=o,
                     deg=o * 60)
        return M("Turn the tile to orientation {n} ({deg} degrees)", n=o, deg=o * 60)


@dataclass(frozen=True, slots=True)
class Choose(_Labelled):
    """One of the rewards offered (``index`` into the decision's options)."""

    index: int
    verb: ClassVar[str] = "choose"
    args: ClassVar[tuple[str, ...]] = ("int",)

    def __str__(self) -> str:
        return f"choose {self.index}"

    def message(self, s: PragaState) -> Message:
        options = s.stack[-1].reward_options() if s.stack else None
        if options is not None:
            return M("Take {what}", what=reward_message(options[self.index]))
        return term(str(self))


@dataclass(frozen=True, slots=True)
class KeepTech(_Labelled):
    """P-TECH-2: the drawn technology kept."""

    tech: int
    verb: ClassVar[str] = "keep-tech"
    args: ClassVar[tuple[str, ...]] = ("tech",)

    def __str__(self) -> str:
        return f"keep-tech {C.technologies[self.tech].id}"

    def message(self, s: PragaState) -> Message:
        tech = C.technologies[self.tech]
        return M("Keep technology {tech} ({effect})", tech=tech.id,
                 effect=term(f"{TECH_EFFECTS[tech.effect]} (technology)"))


@dataclass(frozen=True, slots=True)
class Token(_Labelled):
    """P-PROD-1/2: the production token taken from the river."""

    token: int
    verb: ClassVar[str] = "token"
    args: ClassVar[tuple[str, ...]] = ("token",)

    def __str__(self) -> str:
        return f"token {C.production_tokens[self.token].id}"

    def message(self, s: PragaState) -> Message:
        token = C.production_tokens[self.token]
        return M("Take production token {token} ({reward})", token=token.id,
                 reward=reward_message(token.gain))


def _bridge_message(tile: int) -> Message:
    t = C.bridge_tiles[tile]
    effects = V_EFFECTS if t.is_v else IV_EFFECTS
    return M("Take bridge tile {tile} ({effect})", tile=t.id,
             effect=term(f"{effects[t.effect]} (bridge tile)"))


@dataclass(frozen=True, slots=True)
class BridgeTile(_Labelled):
    """P-BRIDGE-2/3: the IV or V tile kept."""

    tile: int
    verb: ClassVar[str] = "bridge-tile"
    args: ClassVar[tuple[str, ...]] = ("bridge",)

    def __str__(self) -> str:
        return f"bridge-tile {C.bridge_tiles[self.tile].id}"

    def message(self, s: PragaState) -> Message:
        return _bridge_message(self.tile)


@dataclass(frozen=True, slots=True)
class Plank(_Labelled):
    """P-BRIDGE-1: the free plank position the bridge piece is laid on."""

    plank: int
    verb: ClassVar[str] = "plank"
    args: ClassVar[tuple[str, ...]] = ("int",)

    def __str__(self) -> str:
        return f"plank {self.plank}"

    def message(self, s: PragaState) -> Message:
        return M("Lay it on plank {n} ({rewards})", n=self.plank + 1, rewards=joined(
            [reward_message(r) for r in s.planks[self.plank]], "{a} + {b}"))


@dataclass(frozen=True, slots=True)
class ArrowUp(_Labelled):
    """P-GRID-6: follow the upward arrow (the tier cost is still due)."""

    verb: ClassVar[str] = "arrow-up"
    args: ClassVar[tuple[str, ...]] = ()

    def __str__(self) -> str:
        return "arrow-up"

    def message(self, s: PragaState) -> Message:
        return term("Follow the up arrow (pay the tier cost if any)")


@dataclass(frozen=True, slots=True)
class ArrowStay(_Labelled):
    """P-GRID-6: do not follow the arrow."""

    verb: ClassVar[str] = "arrow-stay"
    args: ClassVar[tuple[str, ...]] = ()

    def __str__(self) -> str:
        return "arrow-stay"

    def message(self, s: PragaState) -> Message:
        return term("Stay (the arrow no longer applies)")


@dataclass(frozen=True, slots=True)
class CathedralTile(_Labelled):
    """P-GRID-7: the Cathedral final-scoring tile taken."""

    tile: int
    verb: ClassVar[str] = "cathedral-tile"
    args: ClassVar[tuple[str, ...]] = ("bridge",)

    def __str__(self) -> str:
        return f"cathedral-tile {C.bridge_tiles[self.tile].id}"

    def message(self, s: PragaState) -> Message:
        return _bridge_message(self.tile)


@dataclass(frozen=True, slots=True)
class KeepSilver(_Labelled):
    """P-WIN-2: keep 2 windows, ``silver`` of them silver (0..2)."""

    silver: int
    verb: ClassVar[str] = "keep-silver"
    args: ClassVar[tuple[str, ...]] = ("int",)

    def __str__(self) -> str:
        return f"keep-silver {self.silver}"

    def message(self, s: PragaState) -> Message:
        return M("Keep {n} silver and {m} gold windows", n=self.silver, m=2 - self.silver)


@dataclass(frozen=True, slots=True)
class AnyAction(_Labelled):
    """GL-T4-3: the action performed."""

    action: int
    verb: ClassVar[str] = "any-action"
    args: ClassVar[tuple[str, ...]] = ("action",)

    def __str__(self) -> str:
        return f"any-action {ACTIONS[self.action]}"

    def message(self, s: PragaState) -> Message:
        return M("Perform {action}", action=ACTION_OBJECTS[self.action])


@dataclass(frozen=True, slots=True)
class TechGrid(_Labelled):
    """GL-T3-2: the grid to move 1 row up on for free."""

    grid: int
    verb: ClassVar[str] = "tech-grid"
    args: ClassVar[tuple[str, ...]] = ("grid",)

    def __str__(self) -> str:
        return f"tech-grid {GRIDS[self.grid]}"

    def message(self, s: PragaState) -> Message:
        return M("Move up 1 row on the {grid} for free", grid=GRID_TERMS[self.grid])


@dataclass(frozen=True, slots=True)
class MarketTile(_Labelled):
    """GL-T4-5: the market whose tile's two rewards are gained."""

    market: int
    verb: ClassVar[str] = "market-tile"
    args: ClassVar[tuple[str, ...]] = ("market",)

    def __str__(self) -> str:
        return f"market-tile {C.markets[self.market].id}"

    def message(self, s: PragaState) -> Message:
        tile = C.market_tiles[s.market_tile[self.market]]
        return M("Take both rewards of market {market}: {a} and {b}",
                 market=C.markets[self.market].id, a=reward_message(tile.upper),
                 b=reward_message(tile.lower))


@dataclass(frozen=True, slots=True)
class Grow(_Labelled):
    """GL-T4-6: +1 on ``track`` (0 gold mine, 1 quarry), then produce ``resource``."""

    track: int
    resource: int
    verb: ClassVar[str] = "grow"
    args: ClassVar[tuple[str, ...]] = ("track", "res")

    def __str__(self) -> str:
        return f"grow {TRACK_NAMES[self.track]} {RESOURCES[self.resource]}"

    def message(self, s: PragaState) -> Message:
        return M("+1 {track}, then produce {resource}",
                 track=term(("gold mine", "quarry")[self.track]),
                 resource=term(RESOURCES[self.resource]))


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
