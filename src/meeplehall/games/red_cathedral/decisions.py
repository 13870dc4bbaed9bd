"""The pending decisions of The Red Cathedral: one frozen dataclass per kind.

``RCState.stack`` holds them; the one on top is the question being asked. Each kind owns
everything about its question (STYLE.md section 3): who answers (``seat``), its named
fields, its legal actions (``legal``), what an action does (``apply``: pop, replace or
push decisions, with the effects on the table in ``market.py``, ``build.py``,
``effects.py`` and ``solo.py``), its prompt, its rule ID and rules text, how it shows in
a view (``fields``; every seat sees the same), the hidden components it holds (none: the
game has no private draws) and, for saved games, its JSON form.

Steps with no choice happen inside ``apply``: a decision with nothing left to decide
closes itself (``settle``), the turn passes (``end_turn``) and Ivan plays his turn
(``ivan_turn``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar

from meeplehall.core.messages import M, Message, term
from meeplehall.core.protocol import IllegalActionError
from meeplehall.games.red_cathedral import actions as A
from meeplehall.games.red_cathedral import build, market, solo
from meeplehall.games.red_cathedral.components import (
    COLOURS,
    ORNAMENTS,
    WS_POSITIONS,
    InfluenceAction,
)
from meeplehall.games.red_cathedral.effects import (
    C,
    between_steps,
    colour_name,
    free_actions,
    lose_pp_target,
    reroll,
    sell_prestige,
    tile_benefit,
)
from meeplehall.games.red_cathedral.final import final_scoring
from meeplehall.games.red_cathedral.state import BANNER, EMPTY, RCState
from meeplehall.games.red_cathedral.views import side_name, tile_message

_TILE_IDS = tuple(t.id for t in C.tiles)


@dataclass(frozen=True, slots=True)
class Decision:
    """A question on the stack, put to ``seat``. Subclasses add their fields."""

    seat: int

    kind: ClassVar[str]  # its name in views, logs and the RL encoding ("turn", ...)
    tag: ClassVar[int]  # its first item in the JSON form of a state (saved games)
    rule: ClassVar[str]  # the rule it asks under
    rules_text: ClassVar[str]  # that rule, for players

    def legal(self, s: RCState) -> list[A.RCAction]:
        """The legal actions, in generator order."""
        raise NotImplementedError

    def apply(self, s: RCState, a: A.RCAction) -> None:
        """Carry out ``a`` (legal here): the table changes, the stack pops, replaces or
        pushes decisions."""
        raise NotImplementedError

    def prompt(self, s: RCState) -> Message:
        """What the seat is asked, as a message."""
        raise NotImplementedError

    def fields(self) -> dict[str, Any]:
        """The named fields after ``seat``, JSON-ready, as every seat's view shows them."""
        return {}

    def masked(self, seat: int | None) -> Decision:
        """The decision as ``seat`` (None: a spectator) may know it. No Red Cathedral
        decision holds anything private, so every seat sees it whole (and the views of
        one state are shared between seats, ``views.player_views``)."""
        return self

    def hidden_components(self) -> tuple[int, ...]:
        """Components it holds that some seat may not see, for re-dealing before a search
        (``views.sample_hidden``): none, the game has no private draws."""
        return ()

    def settle(self, s: RCState) -> bool:
        """Close the decision if nothing is left to decide; True when it did."""
        return False

    def to_plain(self) -> list[Any]:
        """The JSON form: ``[tag, seat, *fields]`` (tuples as lists)."""
        return [self.tag, *(list(v) if type(v) is tuple else v
                            for v in map(self.__getattribute__, self.__match_args__))]

    def _who(self, s: RCState) -> Message:
        return term(side_name(s, self.seat))

    def _free(self, s: RCState, a: A.RCAction) -> None:
        """RC-FREE-1/2, on offer at the turn hub and (with the option) between steps."""
        if a == A.SELL_PRESTIGE:
            sell_prestige(s, self.seat)
        elif isinstance(a, A.Reroll):
            reroll(s, self.seat, a.space)
        else:
            raise IllegalActionError(f"{a} is not legal now: {self.kind} decision")

    def _free_on_offer(self, s: RCState, between: bool) -> bool:
        """Whether a free action (RC-FREE-1/2) is legal now (``between``: between the
        steps of a main action, where the option decides)."""
        return ((not between or s.opts.free_actions_between_steps)
                and (s.sell_state != 2 or not s.reroll_used)
                and lose_pp_target(s, self.seat) is not None)


# -- the turn -------------------------------------------------------------------------------


def available_slots(s: RCState) -> list[int]:
    """RC-CLAIM-2: no Banner, and a Base or every card below carries a Banner: in each
    tower (its slots numbered upwards, in slot order) the lowest card without one."""
    owner = s.owner
    out = []
    for tower in s.towers:
        for slot in tower:
            if owner[slot] < 0:
                out.append(slot)
                break
    return out


def _claims(s: RCState, side: int, out: list[A.RCAction]) -> None:
    ws = s.ws[side]
    has_empty = EMPTY in ws
    from_inv = s.inv_banners[side] > 0 and has_empty
    if s.opts.advanced_workshops:
        from_out = BANNER in ws  # RC-ADV-4: taking it frees its position
    else:
        from_out = s.out_banners[side] > 0 and has_empty
    if not (from_inv or from_out):
        return
    for slot in available_slots(s):
        if from_inv:
            out.append(A.claim(slot, True))
        if from_out:
            out.append(A.claim(slot, False))


def _claim(s: RCState, side: int, a: A.Claim) -> int:
    """RC-CLAIM-1: a Banner on the card; returns the Workshop tile taken from it."""
    s.main_done = True
    if a.from_inventory:
        s.inv_banners[side] -= 1  # RC-INV-2: the space is free for good
    elif s.opts.advanced_workshops:
        ws = list(s.ws[side])
        pos = 4 if ws[4] == BANNER else 5
        ws[pos] = EMPTY
        s.ws[side] = tuple(ws)
        s.out_banners[side] -= 1
    else:
        s.out_banners[side] -= 1
    s.owner[a.slot] = side
    tile = s.ws_tile[a.slot]
    s.ws_tile[a.slot] = -1
    card = C.cards[s.card_of[a.slot]]
    s.log.append(M("{who} claims {card} (slot {slot}) and takes Workshop tile {tile}",
                   who=colour_name(s, side), card=card.id, slot=a.slot + 1, tile=C.tiles[tile].id))
    return tile


@dataclass(frozen=True, slots=True)
class Turn(Decision):
    """RC-TURN-2: the turn hub; one main action, free actions, then the end of the turn."""

    kind: ClassVar[str] = "turn"
    tag: ClassVar[int] = 0
    rule: ClassVar[str] = "RC-TURN-2"
    rules_text: ClassVar[str] = (
        "RC-TURN-2: take exactly one main action: claim a Cathedral card (RC-CLAIM-1), "
        "build (RC-BUILD-1: up to 3 deliveries, decorating included), or move a die and "
        "use the Market (RC-MARKET-1..7). RC-FREE-1: lose 1 Prestige for 2 Rubles, "
        "repeatable. RC-FREE-2: once per turn, lose 1 Prestige to reroll a Market space. "
        "End your turn when your main action is done.")

    def legal(self, s: RCState) -> list[A.RCAction]:
        side = self.seat
        out: list[A.RCAction] = []
        if s.main_done:
            out.append(A.END_TURN)
        else:
            _claims(s, side, out)
            probe: list[A.RCAction] = []
            build.deliveries(s, side, 3, probe, probe=True)
            if probe:
                out.append(A.BUILD)
            market.moves(s, side, out)
            if not out or s.opts.allow_pass:
                out.append(A.PASS)  # RC-TURN-2: only when no main action exists, by default
        free_actions(s, side, out)
        return out

    def apply(self, s: RCState, a: A.RCAction) -> None:
        name = a.name if isinstance(a, A.Simple) else ""
        if isinstance(a, A.MoveDie):
            market.move_die(s, self.seat, a)
            s.stack.append(market_step(self.seat))
        elif name == "end-turn":
            end_turn(s)
        elif isinstance(a, A.Claim):
            tile = _claim(s, self.seat, a)
            s.stack[-1] = PlaceTile(self.seat, tile)
        elif name == "build":
            s.main_done = True
            s.stack.append(deliveries(self.seat, 3, 0, False))
        elif name == "pass":
            s.main_done = True
            s.log.append(M("{who} passes", who=colour_name(s, self.seat)))
        else:
            self._free(s, a)

    def prompt(self, s: RCState) -> Message:
        if s.main_done:
            return M("{who}: finish your turn (free actions or end turn)", who=self._who(s))
        return M("{who}: choose your main action", who=self._who(s))

    def settle(self, s: RCState) -> bool:
        if not s.main_done:
            return False
        if self._free_on_offer(s, False):
            return False  # a real decision beside ending the turn
        self.apply(s, A.END_TURN)  # the only legal action once the main action is done
        return True


turn = cache(Turn)


@dataclass(frozen=True, slots=True)
class PlaceTile(Decision):
    """RC-CLAIM-1 step 3: where the claimed card's Workshop tile goes, face up or down."""

    tile: int  # index into components.tiles

    kind: ClassVar[str] = "place-tile"
    tag: ClassVar[int] = 1
    rule: ClassVar[str] = "RC-CLAIM-1"
    rules_text: ClassVar[str] = (
        "RC-CLAIM-1 step 3: put the card's Workshop tile on an empty Workshop "
        "space. Face down is free and the tile can never be used; face up costs "
        "the space's Rubles (advanced side: always 3, RC-ADV-2) and gives its "
        "benefit at once (RC-WSACT-3). Advanced side: paying on a space with an "
        "Ornamentation unlocks it (RC-ADV-3).")

    def legal(self, s: RCState) -> list[A.RCAction]:
        side = self.seat
        ws = s.ws[side]
        costs = C.advanced_costs if s.opts.advanced_workshops else C.basic_costs
        out: list[A.RCAction] = []
        for space in range(5):
            pos = space if space < 4 else (4 if ws[4] == EMPTY else 5)
            if ws[pos] != EMPTY:
                continue
            if s.rubles[side] >= costs[pos]:
                out.append(A.place_tile(space, True))
            out.append(A.place_tile(space, False))
        between_steps(s, side, out)
        return out

    def apply(self, s: RCState, a: A.RCAction) -> None:
        if not isinstance(a, A.PlaceTile):
            self._free(s, a)
            return
        side, tile = self.seat, self.tile
        ws = list(s.ws[side])
        pos = a.space if a.space < 4 else (4 if ws[4] == EMPTY else 5)
        ws[pos] = 2 * tile + (1 if a.face_up else 0)
        s.ws[side] = tuple(ws)
        s.stack[-1] = turn(side)
        if not a.face_up:
            s.log.append(M("{who} puts the tile face down on {position}",
                           who=colour_name(s, side), position=term(WS_POSITIONS[pos])))
            return
        advanced = s.opts.advanced_workshops
        cost = (C.advanced_costs if advanced else C.basic_costs)[pos]
        s.rubles[side] -= cost
        if advanced and C.advanced_ornaments[pos] >= 0:  # RC-ADV-3
            kind = C.advanced_ornaments[pos]
            avail = list(s.orn_avail[side])
            avail[kind] += 1
            s.orn_avail[side] = (avail[0], avail[1], avail[2])
            s.log.append(M("{who} unlocks an Ornamentation ({ornament})",
                           who=colour_name(s, side), ornament=term(ORNAMENTS[kind])))
        got = tile_benefit(s, side, tile)
        s.log.append(M("{who} pays {cost} to put the tile face up on {position} and gains "
                       "{got}", who=colour_name(s, side), cost=cost,
                       position=term(WS_POSITIONS[pos]), got=got))

    def prompt(self, s: RCState) -> Message:
        return M("{who}: place Workshop tile {tile} ({benefit})", who=self._who(s),
                 tile=C.tiles[self.tile].id, benefit=tile_message(self.tile))

    def fields(self) -> dict[str, Any]:
        return {"tile": _TILE_IDS[self.tile]}


# -- the Market and Influence ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Market(Decision):
    """RC-MARKET-6: the steps after moving a die (destination in ``RCState.dest``)."""

    kind: ClassVar[str] = "market"
    tag: ClassVar[int] = 2
    rule: ClassVar[str] = "RC-MARKET-6"
    rules_text: ClassVar[str] = (
        "RC-MARKET-6: after moving the die, each at most once and in any order: obtain "
        "the destination's resources times the dice there (RC-GAIN-1, any smaller "
        "amount allowed), use one action of the Influence card in its quadrant "
        "(RC-INF-1/2), activate the face-up Workshop tile on the space of the moved "
        "die's colour (RC-WSACT-1/2). Then all dice on the destination are rerolled "
        "(RC-MARKET-7).")

    def legal(self, s: RCState) -> list[A.RCAction]:
        out = market.market_actions(s, self.seat)
        out.append(A.FINISH_MARKET)
        between_steps(s, self.seat, out)
        return out

    def apply(self, s: RCState, a: A.RCAction) -> None:
        if isinstance(a, A.Obtain):
            market.obtain(s, self.seat, a.amount)
        elif isinstance(a, A.Simple) and a.name == "finish-market":
            s.stack.pop()
            market.finish_market(s)
        elif isinstance(a, A.UseInfluence):
            s.stack.append(influence(self.seat, a.index, 0))
            market.log_influence(s, self.seat, a.index)
        elif isinstance(a, A.Activate):
            s.mk_used |= 4
            market.activate(s, self.seat, a.position)
        else:
            self._free(s, a)

    def prompt(self, s: RCState) -> Message:
        return M("{who}: market actions at space {n} (moved the {colour} die)",
                 who=self._who(s), n=s.dest + 1, colour=term(COLOURS[s.moved_die]))

    def settle(self, s: RCState) -> bool:
        # With no market action left (RC-MARKET-6) and no free action on offer between
        # steps, ``legal`` is 'finish-market' alone: the reroll follows (RC-MARKET-7).
        if market.has_market_action(s, self.seat) or self._free_on_offer(s, True):
            return False
        self.apply(s, A.FINISH_MARKET)
        return True


market_step = cache(Market)


@dataclass(frozen=True, slots=True)
class Influence(Decision):
    """RC-INF-2: uses of one action of the Influence card at the destination."""

    action: int  # 0 or 1: which of the card's two actions
    uses: int  # uses so far (an infinity action stays until 'done')

    kind: ClassVar[str] = "influence"
    tag: ClassVar[int] = 3
    rule: ClassVar[str] = "RC-INF-2"
    rules_text: ClassVar[str] = (
        "RC-INF-2: a lightning action may be used once, an infinity action any "
        "number of times, paying its cost each time. Choose 'done' to stop.")

    def action_of(self, s: RCState) -> InfluenceAction:
        """The Influence action being used (RC-INFL-*)."""
        return market.influence_card(s).actions[self.action]

    def legal(self, s: RCState) -> list[A.RCAction]:
        out = market.influence_instances(s, self.seat, self.action_of(s))
        out.append(A.DONE)
        between_steps(s, self.seat, out)
        return out

    def _used(self, s: RCState) -> None:
        """Count one use; a lightning action ends now."""
        if self.action_of(s).repeat:
            s.stack[-1] = influence(self.seat, self.action, self.uses + 1)
        else:
            s.stack.pop()

    def apply(self, s: RCState, a: A.RCAction) -> None:
        side = self.seat
        name = a.name if isinstance(a, A.Simple) else ""
        if name == "done":
            s.stack.pop()
            return
        if name == "sell-prestige" or isinstance(a, A.Reroll):
            self._free(s, a)
            return
        act = self.action_of(s)
        if isinstance(a, A.Sell):
            market.sell(s, side, act, a.material)
        elif isinstance(a, A.Buy):
            market.buy(s, side, act, a.material)
        elif isinstance(a, A.Exchange):
            market.exchange(s, side, a)
        elif isinstance(a, A.Upgrade):
            market.upgrade(s, side, act, a)
        elif isinstance(a, A.SwapTiles):
            market.swap_tiles(s, side, act, a)
        elif isinstance(a, A.Discard):
            market.discard(s, side, act, a.materials)
        elif name == "perform":
            market.perform(s, side, act)
        elif isinstance(a, A.Activate):
            market.activate(s, side, a.position)
        elif name == "hire-teamsters":
            market.hire_teamsters(s, side, act)
            self._used(s)
            s.stack.append(deliveries(side, act.count, 0, True))  # RC-AMB-15: on top
            return
        else:
            raise IllegalActionError(f"{a} is not legal now: {self.kind} decision")
        self._used(s)

    def prompt(self, s: RCState) -> Message:
        act = self.action_of(s)
        return M("{who}: use Influence: {text} ({mark})", who=self._who(s), text=term(act.text),
                 mark=term("repeatable" if act.repeat else "once"))

    def fields(self) -> dict[str, Any]:
        return {"action": self.action, "uses": self.uses}

    def settle(self, s: RCState) -> bool:
        # With no use of the action left (RC-INF-2) and no free action on offer between
        # steps, ``legal`` is 'done' alone.
        if (self._free_on_offer(s, True)
                or market.influence_instances(s, self.seat, self.action_of(s), probe=True)):
            return False
        self.apply(s, A.DONE)
        return True


influence = cache(Influence)


# -- deliveries and Ornamentations ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Deliver(Decision):
    """RC-BUILD-1..4: deliveries one at a time, for a Build or the Teamsters (TM-1/3)."""

    left: int  # deliveries still allowed
    made: int  # deliveries made so far
    teamsters: bool  # False: a Build (main action); True: an Influence delivery

    kind: ClassVar[str] = "deliver"
    tag: ClassVar[int] = 4
    rule: ClassVar[str] = "RC-BUILD-1"
    rules_text: ClassVar[str] = (
        "RC-BUILD-1..4: deliver Materials one at a time to your claimed, unfinished "
        "cards (only types the cost still needs), or decorate a completed card "
        "(RC-ORN-1..5: Door=wood, Arch=stone, Cross=gold, plus 0-2 jewels, all in "
        "one go). A card whose cost is complete is finished at once (RC-COMPLETE-1) "
        "and the Tsar's penalty applies (RC-TSAR-1).")

    def legal(self, s: RCState) -> list[A.RCAction]:
        out: list[A.RCAction] = []
        if self.left > 0:
            build.deliveries(s, self.seat, self.left, out)
        if self.made > 0:
            out.append(A.FINISH_DELIVERY)
        between_steps(s, self.seat, out)
        return out

    def apply(self, s: RCState, a: A.RCAction) -> None:
        if isinstance(a, A.Deliver):
            s.stack[-1] = deliveries(self.seat, self.left - 1, self.made + 1, self.teamsters)
            build.deliver(s, self.seat, a)
        elif isinstance(a, A.Decorate):
            s.stack[-1] = Jewels(self.seat, a.slot, self.left, self.made, self.teamsters)
        elif isinstance(a, A.Simple) and a.name == "finish-delivery":
            s.stack.pop()
        else:
            self._free(s, a)

    def prompt(self, s: RCState) -> Message:
        source = term("Teamsters' delivery" if self.teamsters else "Build")
        return M("{who}: {source}, {n} delivery left", who=self._who(s), source=source,
                 n=self.left)

    def fields(self) -> dict[str, Any]:
        return {"left": self.left, "made": self.made, "teamsters": self.teamsters}

    def settle(self, s: RCState) -> bool:
        if self.left == 0:
            s.stack.pop()
            return True
        # With deliveries made, none possible (RC-BUILD-1..4, RC-ORN-1..5) and no free
        # action on offer between steps, ``legal`` is 'finish-delivery' alone. Before the
        # first delivery 'finish-delivery' is not offered: nothing closes by itself.
        if self.made == 0 or self._free_on_offer(s, True):
            return False
        probe: list[A.RCAction] = []
        build.deliveries(s, self.seat, self.left, probe, probe=True)
        if probe:
            return False
        self.apply(s, A.FINISH_DELIVERY)
        return True


deliveries = cache(Deliver)


@dataclass(frozen=True, slots=True)
class Jewels(Decision):
    """RC-ORN-4/6: the jewels set into an Ornamentation, within a delivery step."""

    slot: int  # the card being decorated
    left: int  # of the delivery step (as in ``Deliver``)
    made: int
    teamsters: bool

    kind: ClassVar[str] = "jewels"
    tag: ClassVar[int] = 5
    rule: ClassVar[str] = "RC-ORN-4"
    rules_text: ClassVar[str] = (
        "RC-ORN-4/6: set 0, 1 or 2 jewels into the Ornamentation, each using a "
        "delivery: 1 jewel = 1 Prestige, 2 of a colour = 2, green + purple = 3.")

    def legal(self, s: RCState) -> list[A.RCAction]:
        return build.jewel_choices(s, self.seat, self.left)

    def apply(self, s: RCState, a: A.RCAction) -> None:
        if not isinstance(a, A.SetJewels):
            raise IllegalActionError(f"{a} is not legal now: {self.kind} decision")
        used = build.decorate(s, self.seat, self.slot, a.jewels)
        s.stack[-1] = deliveries(self.seat, self.left - used, self.made + used,
                                 self.teamsters)

    def prompt(self, s: RCState) -> Message:
        return M("{who}: jewels for the Ornamentation on slot {slot}", who=self._who(s),
                 slot=self.slot + 1)

    def fields(self) -> dict[str, Any]:
        return {"slot": self.slot, "left": self.left, "made": self.made,
                "teamsters": self.teamsters}


# -- Ivan's choices (solo) ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class IvanOrnament(Decision):
    """RC-IVAN-ORN: the human picks which completed card takes Ivan's Ornamentation."""

    candidates: tuple[int, ...]  # slots, in board order

    kind: ClassVar[str] = "ivan-ornament"
    tag: ClassVar[int] = 6
    rule: ClassVar[str] = "RC-IVAN-ORN"
    rules_text: ClassVar[str] = (
        "RC-IVAN-ORN: Ivan places his next Ornamentation on one of your "
        "completed cards of the right type, else on his own; you choose which.")

    def legal(self, s: RCState) -> list[A.RCAction]:
        return [A.ivan_ornament(slot) for slot in self.candidates]

    def apply(self, s: RCState, a: A.RCAction) -> None:
        if not isinstance(a, A.IvanOrnament):
            raise IllegalActionError(f"{a} is not legal now: {self.kind} decision")
        s.stack.pop()
        solo.ivan_place_ornament(s, a.slot)
        solo.reshuffle(s)
        _ivan_card(s)

    def prompt(self, s: RCState) -> Message:
        return M("{who}: choose where Ivan places his Ornamentation", who=self._who(s))

    def fields(self) -> dict[str, Any]:
        return {"candidates": list(self.candidates)}


@dataclass(frozen=True, slots=True)
class IvanClaim(Decision):
    """RC-IVACT-CLAIM: the human picks among the equal cards for Ivan's Banner."""

    candidates: tuple[int, ...]  # slots, in board order

    kind: ClassVar[str] = "ivan-claim"
    tag: ClassVar[int] = 7
    rule: ClassVar[str] = "RC-IVACT-CLAIM"
    rules_text: ClassVar[str] = (
        "RC-IVACT-CLAIM: Ivan places a Banner directly above a card of yours, else "
        "on a Base without a Banner, else on any card; you choose among equals.")

    def legal(self, s: RCState) -> list[A.RCAction]:
        return [A.ivan_claim(slot) for slot in self.candidates]

    def apply(self, s: RCState, a: A.RCAction) -> None:
        if not isinstance(a, A.IvanClaim):
            raise IllegalActionError(f"{a} is not legal now: {self.kind} decision")
        s.stack.pop()
        solo.ivan_claim(s, a.slot)
        _ivan_done(s)

    def prompt(self, s: RCState) -> Message:
        return M("{who}: choose where Ivan places his Banner", who=self._who(s))

    def fields(self) -> dict[str, Any]:
        return {"candidates": list(self.candidates)}


# Every kind, in the order of their tags (the JSON form and the RL encoding use it).
KINDS: tuple[type[Decision], ...] = (Turn, PlaceTile, Market, Influence, Deliver, Jewels,
                                     IvanOrnament, IvanClaim)
DECISION_NAMES = tuple(k.kind for k in KINDS)
assert all(k.tag == i for i, k in enumerate(KINDS))


def from_plain(entry: Sequence[Any]) -> Decision:
    """Inverse of ``Decision.to_plain`` (lists or tuples): ``[tag, seat, *fields]``."""
    if not entry or type(entry[0]) is not int or not 0 <= entry[0] < len(KINDS):
        raise ValueError(f"not a Red Cathedral decision: {entry!r} (its first item must "
                         f"be a kind number 0-{len(KINDS) - 1})")
    cls = KINDS[entry[0]]
    args: list[Any] = [tuple(v) if isinstance(v, list | tuple) else v for v in entry[1:]]
    try:
        return cls(*args)
    except TypeError:
        raise ValueError(f"not a Red Cathedral {cls.kind} decision: {entry!r}") from None


# -- steps with no choice ---------------------------------------------------------------------


def end_turn(s: RCState) -> None:
    """RC-TURN-1, RC-END-2: pass the turn clockwise, or score when the game is over."""
    s.turns += 1
    s.main_done = False
    s.sell_state = 0
    s.reroll_used = False
    s.moved_die = -1
    s.dest = -1
    s.mk_used = 0
    s.act_used = 0
    nxt = (s.side + 1) % s.sides
    s.stack.clear()
    if s.end_trigger >= 0 and nxt == s.end_trigger:
        final_scoring(s)
        return
    if s.opts.round_limit and s.turns >= s.opts.round_limit * s.sides:
        s.log.append(M("the round limit ({n}) is reached: final scoring",
                       n=s.opts.round_limit))
        final_scoring(s)
        return
    s.side = nxt
    if s.solo and nxt == solo.IVAN:
        ivan_turn(s)
    else:
        s.stack.append(turn(nxt))


def ivan_turn(s: RCState) -> None:
    """RC-IVAN-0: when all his tiles are face down, the Ornament step and a reshuffle;
    then his card. The human chooses where the rulebook lets them (option ivan_choice)."""
    s.side = solo.IVAN
    if not any(s.iv_up):
        candidates = solo.ornament_candidates(s)
        if len(candidates) > 1 and s.opts.ivan_choice == "human":
            s.stack.append(IvanOrnament(0, tuple(candidates)))
            return
        if candidates:
            solo.ivan_place_ornament(s, candidates[0])
        solo.reshuffle(s)
    _ivan_card(s)


def _ivan_card(s: RCState) -> None:
    candidates = solo.ivan_card(s)
    if candidates:
        s.stack.append(IvanClaim(0, tuple(candidates)))
        return
    _ivan_done(s)


def _ivan_done(s: RCState) -> None:
    s.iv_next = -1
    end_turn(s)
