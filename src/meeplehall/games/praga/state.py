"""What is on the table in Praga Caput Regni, as plain data; query helpers only.

*Static* fields are fixed at setup (options, market tiles, bridge planks, action pairs)
and are shared between clones. *Dynamic* fields are lists of ints/bools or immutable
tuples, so ``clone`` copies each list once and shares the tuples (STYLE.md section 2).

Conventions (see docs/praga-status.md):

* Seats are ``0..players-1``; seat 0 is the start player (P-SETUP-26). Sides the engine
  plays (the solo dummy, Parler bots; solo.py) are in ``bots``; bot ``b`` is side
  ``players + b`` where the board records an owner (sites, seals). ``opts.table`` is the
  player count the board is set up for (P-SOLO-1).
* Gold-mine and quarry positions are 1-based track spaces; mines = space - 1 (GL-P1).
* Action-board positions: 0..5 are the action hexes (index = action, components.ACTIONS),
  6..17 the wall positions (components.wall_positions). An upgrade or wall placed there
  is coded ``tile * 6 + orientation``; ``upg[seat][action]`` is the stack of codes,
  bottom first (P-UPG-5); ``walls[seat][k]`` is a code or -1.
* Grid cells: ``hw``/``cat`` hold ``row * 8 + column`` per seat (row 0 = bottom).
* Hex-tile stacks: ``stacks[(era - 1) * 6 + row * 2 + special]``, row 0 buildings,
  1 walls, 2 upgrades (the order of ``ROW_NAMES``); ``rows[row]`` holds 4 tiles, the
  special one last (P-SETUP-11); -1 is an empty position (P-EDGE-7).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, ClassVar

from meeplehall.core.messages import Message
from meeplehall.core.plain import state_from_plain, state_to_plain, tuplify
from meeplehall.core.rng import Rng
from meeplehall.games.praga.components import Reward

if TYPE_CHECKING:
    from meeplehall.games.praga.actions import PragaAction


@dataclass(frozen=True, slots=True)
class Options:
    """Validated options of one game (see ``setup.OPTIONS`` for their meaning)."""

    players: int
    action_side: str
    tile_arrangement: str
    road_tiles: bool
    hunger_wall_tiers: str
    cathedral_tiers: str
    bridge_layout: str
    production_tokens: str
    corner_repay: bool
    spent: str
    empty_v_pile: str
    up_arrow: str
    road_mine_and_quarry: str
    # P-VAR-2 subset, solo (§14) and the Parler bots: left out of ``to_params`` at their
    # default, so the states and records of 2-4 player games read as they always did.
    road_tile_spaces: str = "I+II+III"
    solo_opponent: str = "none"  # "none", "dummy" (P-SOLO-2) or "parler" (never "auto")
    parler_bots: int = 0
    # Readings of P-CRANE-6 and P-GRID-4 where the seeds say "you receive" (also quiet
    # at their defaults).
    unused_wheel_gain: str = "lost"
    unused_sideways: str = "lost"
    egg_price: str = "rulebook"  # P-CRANE-7 (quiet at its default too)

    def to_params(self) -> dict[str, Any]:
        out = {name: getattr(self, name) for name in self.__slots__}
        for name, default in _QUIET_DEFAULTS:
            if out[name] == default:
                del out[name]
        return out

    @property
    def table(self) -> int:
        """Sides at the table: seats plus the sides the engine plays. The rulebook solo
        sets up as for 2 players (P-SOLO-1); Parler bots count as seats (P.2)."""
        if self.solo_opponent == "dummy":
            return 2
        return self.players + self.parler_bots


_QUIET_DEFAULTS = (("road_tile_spaces", "I+II+III"), ("solo_opponent", "none"),
                   ("parler_bots", 0), ("unused_wheel_gain", "lost"), ("egg_price", "rulebook"),
                   ("unused_sideways", "lost"))


ROW_NAMES = ("building", "wall", "upgrade")
BUILDING_ROW, WALL_ROW, UPGRADE_ROW = 0, 1, 2

# Action sources (P-ACT-2): the action tile, the bought extra action, a technology.
SRC_TILE, SRC_EXTRA, SRC_TECH = 0, 1, 2


@dataclass(frozen=True, slots=True)
class Decision:
    """A pending decision on ``state.stack``: what is asked, and of whom (``seat``).

    Each kind is a frozen dataclass in ``decisions.py`` that owns its legal actions,
    how it applies one, its prompt, its rule text, how other seats see it and the
    hidden components it holds. Its saved form is ``[code, seat, *fields]``
    (``to_plain``; ``decision_from_plain`` reads it back)."""

    seat: int

    code: ClassVar[int]  # the first item of the saved form
    name: ClassVar[str]  # the kind's name in views and encoders
    rule: ClassVar[str]  # the rule text shown with the decision
    hides: ClassVar[bool] = False  # other seats see it masked (``masked``)

    def legal(self, s: PragaState) -> list[PragaAction]:
        """The legal actions, in canonical order."""
        raise NotImplementedError

    def apply(self, s: PragaState, a: PragaAction) -> None:
        """Apply one of ``legal(s)``: pop, replace or push decisions, change ``s``."""
        raise NotImplementedError

    def prompt(self, s: PragaState) -> Message:
        """What is asked, as a message for people."""
        raise NotImplementedError

    def masked(self, viewer: int | None) -> Decision:
        """The decision as seat ``viewer`` (None: a spectator) may see it."""
        return self

    def held_tiles(self) -> tuple[tuple[int, int], ...]:
        """Row tiles (row, tile) the decision holds out of the rows and stacks."""
        return ()

    # What action labels (actions.py) read of the decision they answer.
    def tile_row(self) -> int | None:
        """The row whose tiles ``pick`` takes (decisions.Pick)."""
        return None

    def reward_options(self) -> tuple[Reward, ...] | None:
        """The rewards ``choose`` chooses from (decisions.Choose)."""
        return None

    def parler_bot(self) -> int | None:
        """The Parler bot whose pawn or building is placed (decisions.Parler*)."""
        return None

    @classmethod
    def from_fields(cls, values: Sequence[Any]) -> Decision:
        """The decision from its saved fields (after the code)."""
        return cls(*values)

    def to_plain(self) -> list[Any]:
        out: list[Any] = [self.code]
        for f in fields(self):
            value = getattr(self, f.name)
            out.append(_plain(value))
        return out


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def decision_from_plain(item: Any) -> Decision:
    """Inverse of ``Decision.to_plain`` (lists may be tuples)."""
    kinds = _kinds()
    code = int(item[0])
    if not 0 <= code < len(kinds):
        raise ValueError(f"unknown decision code {code!r}")
    return kinds[code].from_fields([_tuplify(v) for v in item[1:]])


def _tuplify(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return tuple(_tuplify(v) for v in value)
    return value


_KINDS: list[type[Decision]] = []


def _kinds() -> list[type[Decision]]:
    """Every decision kind by its code (the subclasses defined in ``decisions.py``)."""
    if not _KINDS:
        # A slotted dataclass replaces the class its body made: keep the slotted ones.
        found = sorted((k for k in Decision.__subclasses__() if "__slots__" in vars(k)),
                       key=lambda k: k.code)
        if [k.code for k in found] != list(range(len(found))):
            raise ValueError("decision codes must be 0, 1, 2, ... (decisions.py)")
        _KINDS.extend(found)
    return _KINDS


class PragaState:
    """The whole game state. ``==`` compares every field."""

    __slots__ = (
        # static
        "opts", "players", "market_tile", "planks", "road_effect", "pairs", "unused",
        # dynamic: table
        "rng", "rotation", "slots", "five_vp", "platform", "era", "star_armed", "turns",
        "stacks", "rows", "iv_stack", "v_pile", "cat_pile", "tech_stacks", "river",
        "seal_owner", "bridge", "site_tile", "site_owner", "site_cube", "site_spent",
        "site_orient", "market_done",
        # dynamic: per seat
        "vp", "gold", "stone", "eggs", "silver", "goldw", "red", "blue", "mine", "quarry",
        "tech", "univ", "wealth", "cubes", "hw", "cat", "cat_tile", "v_tile", "road",
        "ptoken", "seal_rights", "techs", "tech_ready", "tech_used", "upg", "walls",
        "edge_paid", "corner_paid", "once", "played",
        # dynamic: the turn
        "seat", "taken", "taken_slot", "action_done", "bonus", "special", "xact",
        "refreshed", "moves_hw", "moves_cat", "performed", "covered", "t14", "road_free",
        "road_egg", "stack", "final", "log",
        # the sides the engine plays (solo.py, parler.py); None in 2-4 player games
        "bots",
    )

    opts: Options
    players: int
    market_tile: tuple[int, ...]  # per market: index into market_tiles, -1 empty
    planks: tuple[tuple[Reward, Reward], ...]  # per plank position: the two bonus Rewards
    road_effect: tuple[int, ...]  # per road space 0..4: variant tile effect or -1
    pairs: tuple[tuple[int, int], ...]  # the two actions of each action tile
    unused: tuple[int, ...]  # market tiles in the box (hidden)

    rng: Rng
    rotation: int
    slots: tuple[int, ...]
    five_vp: int  # action tile carrying the 5-VP token, -1: beside the crane
    platform: int
    era: int
    star_armed: bool
    turns: int  # completed turns
    stacks: list[tuple[int, ...]]
    rows: list[tuple[int, ...]]
    iv_stack: tuple[int, ...]
    v_pile: tuple[int, ...]
    cat_pile: tuple[int, ...]
    tech_stacks: list[tuple[int, ...]]
    river: tuple[int, ...]
    seal_owner: list[int]
    bridge: list[int]
    site_tile: list[int]
    site_owner: list[int]
    site_cube: list[bool]
    site_spent: list[int]
    site_orient: list[int]
    market_done: list[bool]

    vp: list[int]
    gold: list[int]
    stone: list[int]
    eggs: list[int]
    silver: list[int]
    goldw: list[int]
    red: list[int]
    blue: list[int]
    mine: list[int]
    quarry: list[int]
    tech: list[int]
    univ: list[int]
    wealth: list[int]  # bits: 1 six gold, 2 six stone, 4 nine
    cubes: list[int]
    hw: list[int]
    cat: list[int]
    cat_tile: list[int]
    v_tile: list[int]
    road: list[int]
    ptoken: list[tuple[int, int]]  # production token on the gold / quarry track, -1
    seal_rights: list[int]
    techs: list[tuple[int, ...]]
    tech_ready: list[int]  # bit per level - 1
    tech_used: list[int]
    upg: list[tuple[tuple[int, ...], ...]]
    walls: list[tuple[int, ...]]
    edge_paid: list[int]
    corner_paid: list[int]
    once: list[int]  # GL-T2-2 once-per-turn triggers used (bit per token colour)
    played: list[int]

    seat: int
    taken: int
    taken_slot: int
    action_done: bool
    bonus: bool  # wheel bonus (gain or egg) still to be taken
    special: bool  # special-tile bonus still unused
    xact: int  # 0 not bought, 1 bought, 2 performed
    refreshed: bool
    moves_hw: int
    moves_cat: int
    performed: tuple[int, ...]
    covered: int  # bit per action: its hex's upgrade was covered this turn (P-UPG-5/7)
    t14: bool
    road_free: int  # road space whose free effect is pending, 0: none
    road_egg: int
    stack: list[Decision]
    final: tuple[tuple[int, ...], tuple[tuple[int, ...], ...]] | None  # VP, breakdowns
    log: list[Message]
    bots: tuple[tuple[int, ...], ...] | None  # per bot, see solo.py (B_* indices)

    _LISTS = ("stacks", "rows", "tech_stacks", "seal_owner", "bridge", "site_tile",
              "site_owner", "site_cube", "site_spent", "site_orient", "market_done",
              "vp", "gold", "stone", "eggs", "silver", "goldw", "red", "blue", "mine",
              "quarry", "tech", "univ", "wealth", "cubes", "hw", "cat", "cat_tile",
              "v_tile", "road", "ptoken", "seal_rights", "techs", "tech_ready",
              "tech_used", "upg", "walls", "edge_paid", "corner_paid", "once", "played",
              "stack", "log")

    def clone(self) -> PragaState:
        """Copy every list once; share static fields and immutable tuples."""
        new = PragaState.__new__(PragaState)
        new.opts = self.opts
        new.players = self.players
        new.market_tile = self.market_tile
        new.planks = self.planks
        new.road_effect = self.road_effect
        new.pairs = self.pairs
        new.unused = self.unused
        new.rng = Rng(self.rng.state)
        new.rotation = self.rotation
        new.slots = self.slots
        new.five_vp = self.five_vp
        new.platform = self.platform
        new.era = self.era
        new.star_armed = self.star_armed
        new.turns = self.turns
        new.stacks = self.stacks[:]
        new.rows = self.rows[:]
        new.iv_stack = self.iv_stack
        new.v_pile = self.v_pile
        new.cat_pile = self.cat_pile
        new.tech_stacks = self.tech_stacks[:]
        new.river = self.river
        new.seal_owner = self.seal_owner[:]
        new.bridge = self.bridge[:]
        new.site_tile = self.site_tile[:]
        new.site_owner = self.site_owner[:]
        new.site_cube = self.site_cube[:]
        new.site_spent = self.site_spent[:]
        new.site_orient = self.site_orient[:]
        new.market_done = self.market_done[:]
        new.vp = self.vp[:]
        new.gold = self.gold[:]
        new.stone = self.stone[:]
        new.eggs = self.eggs[:]
        new.silver = self.silver[:]
        new.goldw = self.goldw[:]
        new.red = self.red[:]
        new.blue = self.blue[:]
        new.mine = self.mine[:]
        new.quarry = self.quarry[:]
        new.tech = self.tech[:]
        new.univ = self.univ[:]
        new.wealth = self.wealth[:]
        new.cubes = self.cubes[:]
        new.hw = self.hw[:]
        new.cat = self.cat[:]
        new.cat_tile = self.cat_tile[:]
        new.v_tile = self.v_tile[:]
        new.road = self.road[:]
        new.ptoken = self.ptoken[:]
        new.seal_rights = self.seal_rights[:]
        new.techs = self.techs[:]
        new.tech_ready = self.tech_ready[:]
        new.tech_used = self.tech_used[:]
        new.upg = self.upg[:]
        new.walls = self.walls[:]
        new.edge_paid = self.edge_paid[:]
        new.corner_paid = self.corner_paid[:]
        new.once = self.once[:]
        new.played = self.played[:]
        new.seat = self.seat
        new.taken = self.taken
        new.taken_slot = self.taken_slot
        new.action_done = self.action_done
        new.bonus = self.bonus
        new.special = self.special
        new.xact = self.xact
        new.refreshed = self.refreshed
        new.moves_hw = self.moves_hw
        new.moves_cat = self.moves_cat
        new.performed = self.performed
        new.covered = self.covered
        new.t14 = self.t14
        new.road_free = self.road_free
        new.road_egg = self.road_egg
        new.stack = self.stack[:]
        new.final = self.final
        new.log = self.log[:]
        new.bots = self.bots
        return new

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PragaState):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in self.__slots__)

    __hash__ = None  # type: ignore[assignment]

    # --- queries ------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.final is not None

    def windows(self, seat: int) -> int:
        return self.silver[seat] + self.goldw[seat]

    def to_dict(self) -> dict[str, Any]:
        """Every field as JSON-compatible data (tuples become lists); ``bots`` only when
        the engine plays sides (so 2-4 player states keep their old form)."""
        out = state_to_plain(self, self.__slots__ if self.bots is not None else _NO_BOTS)
        out["stack"] = [d.to_plain() for d in self.stack]
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PragaState:
        """Inverse of ``to_dict``."""
        data = {"covered": 0, **data}  # states saved before the field existed
        state = state_from_plain(cls, data, _NO_BOTS, cls._LISTS, Options)
        bots = data.get("bots")
        state.bots = None if bots is None else tuplify(bots)
        state.stack = [decision_from_plain(d) for d in data["stack"]]
        return state


_NO_BOTS = tuple(name for name in PragaState.__slots__ if name != "bots")
