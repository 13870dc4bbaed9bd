"""What is on the table in The Red Cathedral, as plain data; query helpers only.

Fields fall into two groups. *Static* fields are fixed at setup (the layout of the
Construction Site, the Influence cards, the options) and are shared between clones.
*Dynamic* fields are lists of ints, bools or immutable tuples, so ``clone`` copies each
list once and shares the tuples (STYLE.md section 2).

Sides: ``0..players-1`` are the seats. In solo ``players == 1`` and side 1 is Ivan,
the automaton; he owns Banners and a score marker like a seat but never decides.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from meeplehall.core.messages import Message
from meeplehall.core.plain import state_from_plain, state_to_plain
from meeplehall.core.rng import Rng

if TYPE_CHECKING:
    from meeplehall.games.red_cathedral.decisions import Decision

# The result of final scoring (``final.final_scoring``): Prestige per side; per side the
# rounded track, leftovers and towers; per tower its value, presence and payout.
TowerResult = tuple[int, tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]
FinalResult = tuple[tuple[int, ...], tuple[tuple[int, int, int], ...], tuple[TowerResult, ...]]


@dataclass(frozen=True, slots=True)
class Options:
    """Validated options of one game (see ``setup.OPTIONS`` for their meaning)."""

    players: int
    advanced_workshops: bool
    free_actions_between_steps: bool
    sell_prestige_window: str
    prestige_loss: str
    negative_recognition: bool
    end_bonus_unit: str
    later_sixth_bonus: bool
    ruble_limit: int
    allow_pass: bool
    dice_start: str
    allow_full_circle: bool
    exchange_needs_room: bool
    swap_moves_dice: bool
    merchants_activate: str
    round_limit: int
    first_game_cards: bool
    ivan_build_scan: str
    ivan_inventory_take: str
    ivan_rerolls: bool
    ivan_flip_when_skipped: bool
    ivan_rp_multiplied: bool
    ivan_ornament_pp: int
    ivan_scores_leftovers: bool
    ivan_fallback_claim: str
    ivan_opening_claim_rp: bool
    ivan_choice: str

    def to_params(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__slots__}


# Workshop position contents: EMPTY, BANNER, or 2 * tile + face_up (>= 0).
EMPTY = -1
BANNER = -2


class RCState:
    """The whole game state. ``==`` compares every field except the log's formatting."""

    __slots__ = (
        # static
        "opts", "players", "sides", "solo", "plan", "card_of", "slot_tower", "slot_level",
        "towers", "influence", "unused", "ivan_order",
        # dynamic
        "rng", "tiles", "die_pos", "die_val", "supply",
        "owner", "delivered", "done", "orn", "ws_tile",
        "rubles", "inv", "inv_banners", "out_banners", "ws", "orn_avail", "orn_placed",
        "completed", "score",
        "stack", "side", "main_done", "sell_state", "reroll_used", "moved_die", "dest",
        "mk_used", "act_used", "end_trigger", "bonus_given", "turns", "final",
        "iv_tiles", "iv_up", "iv_banners", "iv_orn", "iv_inv", "iv_build", "iv_next",
        "log",
    )

    opts: Options
    players: int
    sides: int
    solo: bool
    plan: str
    card_of: tuple[int, ...]  # per slot: index into components.cards
    slot_tower: tuple[int, ...]
    slot_level: tuple[int, ...]
    towers: tuple[tuple[int, ...], ...]  # slots of each tower, bottom to top
    influence: tuple[int, ...]  # influence card per quadrant
    unused: tuple[tuple[int, ...], ...]  # hidden: components out of the game
    ivan_order: tuple[int, ...]  # Ivan's cards in row order (indices into IVAN_CARDS)

    rng: Rng
    tiles: list[int]  # resource tile per market space
    die_pos: list[int]  # per die colour
    die_val: list[int]
    supply: list[int]  # materials left in the general supply
    owner: list[int]  # per slot: side with a Banner there, or -1
    delivered: list[tuple[int, ...]]
    done: list[bool]
    orn: list[int]  # per slot: side whose Ornamentation is there, or -1
    ws_tile: list[int]  # per slot: Workshop tile still on the card, or -1
    rubles: list[int]
    inv: list[tuple[int, ...]]
    inv_banners: list[int]
    out_banners: list[int]
    ws: list[tuple[int, ...]]  # per side: 6 workshop positions
    orn_avail: list[tuple[int, int, int]]
    orn_placed: list[int]
    completed: list[int]
    score: list[int]  # absolute track space: lap * lap_length + position
    stack: list[Decision]  # pending decisions, the one asked now on top (decisions.py)
    side: int
    main_done: bool
    sell_state: int  # 0 unused this turn, 1 selling now, 2 the moment has passed
    reroll_used: bool
    moved_die: int
    dest: int
    mk_used: int  # bit 1 obtain, 2 influence, 4 workshop
    act_used: int  # bit per workshop position activated this turn
    end_trigger: int
    bonus_given: bool
    turns: int
    final: FinalResult | None
    iv_tiles: list[int]
    iv_up: list[bool]
    iv_banners: int
    iv_orn: int
    iv_inv: tuple[int, ...]
    iv_build: tuple[int, ...]
    iv_next: int  # index in ivan_order of the card Ivan is carrying out, or -1
    log: list[Message]

    _STATIC = ("opts", "players", "sides", "solo", "plan", "card_of", "slot_tower",
               "slot_level", "towers", "influence", "unused", "ivan_order")
    _LISTS = ("tiles", "die_pos", "die_val", "supply", "owner", "delivered", "done", "orn",
              "ws_tile", "rubles", "inv", "inv_banners", "out_banners", "ws", "orn_avail",
              "orn_placed", "completed", "score", "stack", "iv_tiles", "iv_up", "log")
    _SCALARS = ("side", "main_done", "sell_state", "reroll_used", "moved_die", "dest",
                "mk_used", "act_used", "end_trigger", "bonus_given", "turns", "final",
                "iv_banners", "iv_orn", "iv_inv", "iv_build", "iv_next")

    _NOT_STACK = tuple(name for name in __slots__ if name != "stack")

    def clone(self) -> RCState:
        """Copy every list once; share static fields and immutable tuples."""
        new = RCState.__new__(RCState)
        new.opts = self.opts
        new.players = self.players
        new.sides = self.sides
        new.solo = self.solo
        new.plan = self.plan
        new.card_of = self.card_of
        new.slot_tower = self.slot_tower
        new.slot_level = self.slot_level
        new.towers = self.towers
        new.influence = self.influence
        new.unused = self.unused
        new.ivan_order = self.ivan_order
        new.rng = Rng(self.rng.state)
        new.tiles = self.tiles[:]
        new.die_pos = self.die_pos[:]
        new.die_val = self.die_val[:]
        new.supply = self.supply[:]
        new.owner = self.owner[:]
        new.delivered = self.delivered[:]
        new.done = self.done[:]
        new.orn = self.orn[:]
        new.ws_tile = self.ws_tile[:]
        new.rubles = self.rubles[:]
        new.inv = self.inv[:]
        new.inv_banners = self.inv_banners[:]
        new.out_banners = self.out_banners[:]
        new.ws = self.ws[:]
        new.orn_avail = self.orn_avail[:]
        new.orn_placed = self.orn_placed[:]
        new.completed = self.completed[:]
        new.score = self.score[:]
        new.stack = self.stack[:]
        new.side = self.side
        new.main_done = self.main_done
        new.sell_state = self.sell_state
        new.reroll_used = self.reroll_used
        new.moved_die = self.moved_die
        new.dest = self.dest
        new.mk_used = self.mk_used
        new.act_used = self.act_used
        new.end_trigger = self.end_trigger
        new.bonus_given = self.bonus_given
        new.turns = self.turns
        new.final = self.final
        new.iv_tiles = self.iv_tiles[:]
        new.iv_up = self.iv_up[:]
        new.iv_banners = self.iv_banners
        new.iv_orn = self.iv_orn
        new.iv_inv = self.iv_inv
        new.iv_build = self.iv_build
        new.iv_next = self.iv_next
        new.log = self.log[:]
        return new

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RCState):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in self.__slots__)

    __hash__ = None  # type: ignore[assignment]

    # --- queries ------------------------------------------------------------------
    def capacity(self, side: int, free_spaces: int, banners: int) -> int:
        """Inventory size: the free spaces plus one per Banner taken out (RC-INV-2)."""
        return free_spaces + banners - self.inv_banners[side]

    def dice_on(self, space: int) -> int:
        return self.die_pos.count(space)

    @property
    def is_over(self) -> bool:
        return self.final is not None

    def to_dict(self) -> dict[str, Any]:
        """Every field as JSON-compatible data (tuples become lists; each decision on the
        stack as ``[kind number, seat, *fields]``, ``Decision.to_plain``)."""
        data = state_to_plain(self, self._NOT_STACK)
        data["stack"] = [d.to_plain() for d in self.stack]
        return {name: data[name] for name in self.__slots__}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RCState:
        """Inverse of ``to_dict``."""
        from meeplehall.games.red_cathedral.decisions import from_plain  # decisions -> state

        if "stack" not in data:
            raise ValueError("state field 'stack' is missing")
        stack = data["stack"]
        state = state_from_plain(cls, {**data, "stack": []}, cls.__slots__, cls._LISTS,
                                 Options)
        state.stack = [from_plain(d) for d in stack]
        return state
