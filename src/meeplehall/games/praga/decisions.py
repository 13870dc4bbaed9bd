"""The pending decisions of Praga Caput Regni, one frozen dataclass per kind.

Each kind owns what is asked: its named fields, its legal actions (``legal``), how it
applies one (``apply``: pop, replace or push decisions), its prompt, its rule text
(``rule``), how other seats see it (``masked``) and the row tiles it holds out of the
rows and stacks (``held_tiles``, for re-dealing). ``rules.legal_actions`` and
``rules.apply_unchecked`` ask the decision on top of ``state.stack``. The saved form of a
decision is ``[code, seat, *fields]`` (``state.Decision.to_plain``).

The turn is a hub (§3.1, P-TURN-2/3, P-TIMING-1): ``Turn`` offers at every moment exactly
what may be done now (turn.py); each choice inside an action is its own small decision
pushed on top of it. The human's choices for Parler bots (P.2 step 3, P.5 step 2) are
decisions of seat 0 too (``ParlerPawn``, ``ParlerSite``, ``ParlerOrient``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar

from meeplehall.core.messages import M, Message, term
from meeplehall.games.praga import actions as A
from meeplehall.games.praga import actions_family as AF
from meeplehall.games.praga import board, city, effects, links, parler, road, solo, turn
from meeplehall.games.praga.components import GOLD, STONE, Reward, load
from meeplehall.games.praga.parler_data import PARLER
from meeplehall.games.praga.state import (
    BUILDING_ROW,
    SRC_TECH,
    WALL_ROW,
    Decision,
    PragaState,
)
from meeplehall.games.praga.texts import ROW_TERMS

C = load()
NO_PRODUCE = -1  # Token.produce: no production follows the token
ORIENTATIONS = tuple(A.orient(o) for o in range(6))  # the 6 orientations of a hex tile


def side_label(s: PragaState, seat: int) -> str:
    """A side by its colour; a Parler bot (side ``players + b``) by his name."""
    if s.bots is not None and seat >= s.players and s.opts.solo_opponent == "parler":
        return PARLER.names[seat - s.players]
    return effects.side_name(s, seat)


_RULE_REF = re.compile(r"\s*\((?:P|GL|CL)-[A-Z0-9]+[-0-9A-Za-z/, ]*\)")


def _rule_prompt(d: Decision, s: PragaState) -> Message:
    """The prompt of a decision that is its rule text without the rule IDs (those that
    lead it and those in parentheses, "(P-ADJ-3/8/9)")."""
    return M("{seat}: " + _RULE_REF.sub("", d.rule.split(":", 1)[1].strip()),
             seat=term(side_label(s, d.seat)))


def _place_building(s: PragaState, seat: int, tile: int, site: int, orient: int,
                    discount: int) -> None:
    """A person's building; with Parler bots his cubes and pawn are part of it."""
    if s.bots is not None and s.opts.solo_opponent == "parler":
        parler.human_build(s, seat, tile, site, orient, discount)
    else:
        city.place_building(s, seat, tile, site, orient, discount)


@dataclass(frozen=True, slots=True)
class Turn(Decision):
    """The turn hub of ``seat`` (turn.py)."""

    code: ClassVar[int] = 0
    name: ClassVar[str] = "turn"
    rule: ClassVar[str] = (
        "P-TURN-2/3: take one action tile (pay the red cost / gain the blue VP), perform "
        "one of its two actions; at any moment of the turn: take the wheel bonus, buy "
        "and perform one extra action (P-XACT-1: 2 gold windows or gold + silver), "
        "refresh one row (P-ROW-5), move up on the Hunger Wall / Cathedral for 2 silver "
        "windows (P-GRID-5), make earned sideways moves (P-GRID-4), claim a seal "
        "(P-SEAL-2), use a level III/IV technology (P-TECH-6), resolve King's Road "
        "effects (P-ROAD-3). Nothing is used before it is paid for.")

    def legal(self, s: PragaState) -> list[A.PragaAction]:
        return turn.hub_actions(s, self.seat)

    def apply(self, s: PragaState, a: A.PragaAction) -> None:
        turn.HUB[a.verb](s, self.seat, a)

    def prompt(self, s: PragaState) -> Message:
        who = term(side_label(s, self.seat))
        if s.taken < 0:
            return M("{seat}: turn {n} of 16, take an action tile", seat=who,
                     n=s.played[self.seat] + 1)
        if s.action_done:
            return M("{seat}: free activities, extra action or end your turn", seat=who)
        return M("{seat}: perform one action of your action tile", seat=who)


@dataclass(frozen=True, slots=True)
class Mine(Decision):
    """Expand or produce on ``track`` (effects.GOLD_TRACK / QUARRY_TRACK)."""

    track: int
    code: ClassVar[int] = 1
    name: ClassVar[str] = "mine-or-quarry"
    rule: ClassVar[str] = (
        "P-MINE-2 / P-QUAR-1: expand (+1 and the cube moves right) or produce (the "
        "number left of the cube plus every production bonus left of it).")

    def legal(self, s: PragaState) -> list[A.PragaAction]:
        gold = self.track == effects.GOLD_TRACK
        t = C.gold_track if gold else C.quarry_track
        pos = (s.mine if gold else s.quarry)[self.seat]
        return [A.EXPAND, A.PRODUCE] if pos < t.spaces else [A.PRODUCE]  # P-MINE-6

    def apply(self, s: PragaState, a: A.PragaAction) -> None:
        s.stack.pop()
        if isinstance(a, A.Expand):
            gold = self.track == effects.GOLD_TRACK
            effects.add_resource(s, self.seat, GOLD if gold else STONE, 1)
            effects.advance_track(s, self.seat, self.track)
        else:
            effects.produce(s, self.seat, self.track)

    prompt = _rule_prompt


@dataclass(frozen=True, slots=True)
class Pick(Decision):
    """Choose a tile of ``row`` for an action from ``source`` (state.SRC_*)."""

    row: int
    source: int
    discount: int
    code: ClassVar[int] = 2
    name: ClassVar[str] = "pick-tile"
    rule: ClassVar[str] = (
        "P-ROW-1/3: take one tile of the row; the special (rightmost) tile only with the "
        "special-tile wheel bonus and the action of your action tile.")

    def legal(self, s: PragaState) -> list[A.PragaAction]:
        return [A.pick(p) for p in
                AF.pick_options(s, self.seat, self.row, self.source, self.discount)]

    def apply(self, s: PragaState, a: A.PragaAction) -> None:
        assert isinstance(a, A.Pick)
        s.stack.pop()
        AF.pick_tile(s, self.seat, self.row, self.source, self.discount, a.position)

    def tile_row(self) -> int:
        return self.row

    def prompt(self, s: PragaState) -> Message:
        return M("{seat}: choose a tile of the {row} row",
                 seat=term(side_label(s, self.seat)), row=ROW_TERMS[self.row])


@dataclass(frozen=True, slots=True)
class WallAt(Decision):
    """Choose a position around the action board for the taken ``wall``."""

    wall: int
    code: ClassVar[int] = 3
    name: ClassVar[str] = "wall-position"
    rule: ClassVar[str] = "P-WALL-4: a free position around your action board."

    def legal(self, s: PragaState) -> list[A.PragaAction]:
        return [A.wall_at(k) for k in board.free_wall_positions(s, self.seat)]

    def apply(self, s: PragaState, a: A.PragaAction) -> None:
        assert isinstance(a, A.WallAt)
        s.stack.pop()
        AF.wall_at(s, self.seat, self.wall, a.position)

    def held_tiles(self) -> tuple[tuple[int, int], ...]:
        return ((WALL_ROW, self.wall),)

    prompt = _rule_prompt


@dataclass(frozen=True, slots=True)
class Site(Decision):
    """P-BLD-4/5 in two steps: a market (``market`` -1), then a free site there."""

    building: int
    discount: int
    market: int
    code: ClassVar[int] = 4
    name: ClassVar[str] = "site"
    rule: ClassVar[str] = (
        "P-BLD-2/4/5: a market, then an empty building site next to it; Old Town sites "
        "cost their printed extra gold and give their printed VP.")

    def legal(self, s: PragaState) -> list[A.PragaAction]:
        sites = city.affordable_sites(s, self.seat, self.building, self.discount)
        if self.market < 0:
            return [A.at_market(m) for m in sorted({C.sites[x].market for x in sites})]
        return [A.site(x) for x in sites if C.sites[x].market == self.market]

    def apply(self, s: PragaState, a: A.PragaAction) -> None:
        if isinstance(a, A.AtMarket):
            s.stack[-1] = Site(self.seat, self.building, self.discount, a.market)
            return
        assert isinstance(a, A.Site)
        s.stack.pop()
        if city.blue_mask(self.building, 0):
            s.stack.append(Orient(self.seat, BUILDING_ROW, self.building, a.site,
                                  self.discount))
        else:
            _place_building(s, self.seat, self.building, a.site, 0, self.discount)

    def held_tiles(self) -> tuple[tuple[int, int], ...]:
        return ((BUILDING_ROW, self.building),)

    prompt = _rule_prompt


@dataclass(frozen=True, slots=True)
class Orient(Decision):
    """The orientation of ``tile`` of ``row`` placed at ``where`` (a building site, a
    wall position or, for an upgrade, its action)."""

    row: int
    tile: int
    where: int
    discount: int
    code: ClassVar[int] = 5
    name: ClassVar[str] = "orientation"
    rule: ClassVar[str] = (
        "P-UPG-2, P-WALL-4: any of the 6 orientations; it decides which symbols and "
        "corners meet (P-ADJ-3/8/9).")

    def legal(self, s: PragaState) -> list[A.PragaAction]:
        return list(ORIENTATIONS)

    def apply(self, s: PragaState, a: A.PragaAction) -> None:
        assert isinstance(a, A.Orient)
        s.stack.pop()
        if self.row == BUILDING_ROW:
            _place_building(s, self.seat, self.tile, self.where, a.orientation,
                            self.discount)
        elif self.row == WALL_ROW:
            board.place_wall(s, self.seat, self.tile, self.where, a.orientation)
        else:
            board.place_upgrade(s, self.seat, self.tile, a.orientation)

    def held_tiles(self) -> tuple[tuple[int, int], ...]:
        return ((self.row, self.tile),)

    prompt = _rule_prompt


@dataclass(frozen=True, slots=True)
class Refresh(Decision):
    """Choose the 2 tiles of ``row`` to remove (P-ROW-5)."""

    row: int
    code: ClassVar[int] = 6
    name: ClassVar[str] = "refresh"
    rule: ClassVar[str] = "P-ROW-5: remove 2 normal tiles or the special and 1 normal tile."

    def legal(self, s: PragaState) -> list[A.PragaAction]:
        return [A.remove(i, j) for i, j in turn.refresh_pairs(s, self.row)]

    def apply(self, s: PragaState, a: A.PragaAction) -> None:
        """P-ROW-5: the two tiles go under their stacks; the gaps are refilled."""
        assert isinstance(a, A.Remove)
        s.stack.pop()
        row = self.row
        tiles = s.rows[row]
        removed = ((a.first, tiles[a.first]), (a.second, tiles[a.second]))
        for pos, _ in removed:
            AF.refill(s, row, pos)
        for pos, tile in removed:
            k = AF.stack_index(s, row, pos == 3)
            s.stacks[k] = (*s.stacks[k], tile)

    prompt = _rule_prompt


@dataclass(frozen=True, slots=True)
class Choose(Decision):
    """One of several rewards; ``why`` says what gives them."""

    options: tuple[Reward, ...]
    why: str
    code: ClassVar[int] = 7
    name: ClassVar[str] = "choose-reward"
    rule: ClassVar[str] = "Choose one of the rewards."

    def legal(self, s: PragaState) -> list[A.PragaAction]:
        return [A.choose(i) for i in range(len(self.options))]

    def apply(self, s: PragaState, a: A.PragaAction) -> None:
        assert isinstance(a, A.Choose)
        s.stack.pop()
        effects.gain_reward(s, self.seat, self.options[a.index])

    def reward_options(self) -> tuple[Reward, ...]:
        return self.options

    def prompt(self, s: PragaState) -> Message:
        why = self.why
        reason = (M("market {market}", market=why[len("market "):])
                  if why.startswith("market ") else term(why))
        return M("{seat}: choose a reward ({why})", seat=term(side_label(s, self.seat)),
                 why=reason)


def _masked(tiles: tuple[int, ...]) -> tuple[int, ...]:
    return (-1,) * len(tiles)


@dataclass(frozen=True, slots=True)
class TechDraw(Decision):
    """Keep 1 of the ``drawn`` technologies of ``level`` - 1 (P-TECH-2); only its seat
    sees them."""

    drawn: tuple[int, ...]
    level: int
    code: ClassVar[int] = 8
    name: ClassVar[str] = "keep-technology"
    rule: ClassVar[str] = "P-TECH-2: keep one of the drawn technologies."
    hides: ClassVar[bool] = True

    def legal(self, s: PragaState) -> list[A.PragaAction]:
        return [A.keep_tech(t) for t in sorted(self.drawn)]

    def apply(self, s: PragaState, a: A.PragaAction) -> None:
        assert isinstance(a, A.KeepTech)
        s.stack.pop()
        effects.keep_technology(s, self.seat, self.drawn, a.tech)

    def masked(self, viewer: int | None) -> Decision:
        if viewer == self.seat:
            return self
        return TechDraw(self.seat, _masked(self.drawn), self.level)

    prompt = _rule_prompt


@dataclass(frozen=True, slots=True)
class Token(Decision):
    """A production token for ``track`` (P-PROD-1); GL-T4-6's production of
    ``produce`` follows it (NO_PRODUCE: none)."""

    track: int
    produce: int = NO_PRODUCE
    code: ClassVar[int] = 9
    name: ClassVar[str] = "production-token"
    rule: ClassVar[str] = (
        "P-PROD-1/2: take a production token for the leftmost space of the track.")

    def legal(self, s: PragaState) -> list[A.PragaAction]:
        return [A.token(t) for t in sorted(set(s.river))]

    def apply(self, s: PragaState, a: A.PragaAction) -> None:
        """P-PROD-1/2: the token goes on the leftmost space of the track that earned
        it; a production owed by GL-T4-6 follows."""
        assert isinstance(a, A.Token)
        s.stack.pop()
        seat = self.seat
        river = list(s.river)
        river.remove(a.token)
        s.river = tuple(river)
        tokens = list(s.ptoken[seat])
        tokens[self.track] = a.token
        s.ptoken[seat] = (tokens[0], tokens[1])
        if self.produce != NO_PRODUCE:
            effects.produce(s, seat, self.produce)

    def to_plain(self) -> list[Any]:
        out = [self.code, self.seat, self.track]
        return out if self.produce == NO_PRODUCE else [*out, self.produce]

    prompt = _rule_prompt


@dataclass(frozen=True, slots=True)
class BridgeTile(Decision):
    """Keep one of ``tiles`` of pile ``pile`` (0: IV, drawn in private; 1: V)."""

    tiles: tuple[int, ...]
    pile: int
    code: ClassVar[int] = 10
    name: ClassVar[str] = "bridge-tile"
    rule: ClassVar[str] = "P-BRIDGE-2/3: keep one bridge tile."
    hides: ClassVar[bool] = True

    def legal(self, s: PragaState) -> list[A.PragaAction]:
        return [A.bridge_tile(t) for t in sorted(self.tiles)]

    def apply(self, s: PragaState, a: A.PragaAction) -> None:
        assert isinstance(a, A.BridgeTile)
        s.stack.pop()
        road.keep_bridge_tile(s, self.seat, self.tiles, self.pile, a.tile)

    def masked(self, viewer: int | None) -> Decision:
        if viewer == self.seat:
            return self
        return BridgeTile(self.seat, _masked(self.tiles), self.pile)

    prompt = _rule_prompt


@dataclass(frozen=True, slots=True)
class Plank(Decision):
    """The plank position of bridge tile ``tile`` (P-BRIDGE-1)."""

    tile: int
    code: ClassVar[int] = 11
    name: ClassVar[str] = "plank"
    rule: ClassVar[str] = (
        "P-BRIDGE-1: place it on a free plank position and gain the two fields.")

    def legal(self, s: PragaState) -> list[A.PragaAction]:
        return [A.plank(k) for k, t in enumerate(s.bridge) if t < 0]

    def apply(self, s: PragaState, a: A.PragaAction) -> None:
        assert isinstance(a, A.Plank)
        s.stack.pop()
        road.lay_plank(s, self.seat, self.tile, a.plank)

    prompt = _rule_prompt


@dataclass(frozen=True, slots=True)
class Arrow(Decision):
    """Follow an upward arrow on ``grid`` or not (P-GRID-6)."""

    grid: int
    code: ClassVar[int] = 12
    name: ClassVar[str] = "up-arrow"
    rule: ClassVar[str] = (
        "P-GRID-6: you may move 1 up without windows (the tier cost is still due).")

    def legal(self, s: PragaState) -> list[A.PragaAction]:
        if effects.can_move_up(s, self.seat, self.grid, windows=False):
            return [A.ARROW_UP, A.ARROW_STAY]
        return [A.ARROW_STAY]  # the tier cost can no longer be paid

    def apply(self, s: PragaState, a: A.PragaAction) -> None:
        s.stack.pop()
        if isinstance(a, A.ArrowUp):
            effects.move_up(s, self.seat, self.grid, windows=False, tier_cost=True)

    prompt = _rule_prompt


@dataclass(frozen=True, slots=True)
class CatTile(Decision):
    """Take a Cathedral final-scoring tile (P-GRID-7); the pile is shown to its seat."""

    code: ClassVar[int] = 13
    name: ClassVar[str] = "cathedral-tile"
    rule: ClassVar[str] = "P-GRID-7: take one of the Cathedral's final-scoring tiles."

    def legal(self, s: PragaState) -> list[A.PragaAction]:
        return [A.cathedral_tile(t) for t in sorted(s.cat_pile)]

    def apply(self, s: PragaState, a: A.PragaAction) -> None:
        """P-GRID-7: one of the Cathedral's final-scoring tiles (any '3 VP now')."""
        assert isinstance(a, A.CathedralTile)
        s.stack.pop()
        effects.take_cathedral_tile(s, self.seat, a.tile)

    prompt = _rule_prompt


@dataclass(frozen=True, slots=True)
class Discard(Decision):
    """Keep at most 2 windows at the end of the turn (P-WIN-2)."""

    code: ClassVar[int] = 14
    name: ClassVar[str] = "discard-windows"
    rule: ClassVar[str] = "P-WIN-2: keep at most 2 windows at the end of your turn."

    def legal(self, s: PragaState) -> list[A.PragaAction]:
        seat = self.seat
        return [A.keep_silver(n) for n in range(3)
                if n <= s.silver[seat] and 2 - n <= s.goldw[seat]]

    def apply(self, s: PragaState, a: A.PragaAction) -> None:
        """P-WIN-2: keep 2 windows, ``a.silver`` of them silver."""
        assert isinstance(a, A.KeepSilver)
        s.stack.pop()
        s.silver[self.seat] = a.silver
        s.goldw[self.seat] = 2 - a.silver
        turn.finish_turn(s)

    prompt = _rule_prompt


@dataclass(frozen=True, slots=True)
class AnyAction(Decision):
    """GL-T4-3: perform any one action."""

    code: ClassVar[int] = 15
    name: ClassVar[str] = "any-action"
    rule: ClassVar[str] = "GL-T4-3: perform any one action."

    def legal(self, s: PragaState) -> list[A.PragaAction]:
        return [A.any_action(a) for a in range(6)
                if AF.performable(s, self.seat, a, SRC_TECH)]

    def apply(self, s: PragaState, a: A.PragaAction) -> None:
        assert isinstance(a, A.AnyAction)
        s.stack.pop()
        AF.start_action(s, self.seat, a.action, SRC_TECH, 0)

    prompt = _rule_prompt


@dataclass(frozen=True, slots=True)
class TechGrid(Decision):
    """GL-T3-2: which grid to move up on."""

    code: ClassVar[int] = 16
    name: ClassVar[str] = "technology-grid"
    rule: ClassVar[str] = (
        "GL-T3-2: move 1 row up for free on the Hunger Wall or the Cathedral.")

    def legal(self, s: PragaState) -> list[A.PragaAction]:
        return [A.tech_grid(g) for g in turn.GRIDS
                if turn.grid_row(s, self.seat, g) + 1 < effects.grid_of(s, g).rows]

    def apply(self, s: PragaState, a: A.PragaAction) -> None:
        assert isinstance(a, A.TechGrid)
        s.stack.pop()
        effects.move_up(s, self.seat, a.grid, windows=False, tier_cost=False)

    prompt = _rule_prompt


@dataclass(frozen=True, slots=True)
class MarketPick(Decision):
    """GL-T4-5: which market tile gives both its rewards."""

    code: ClassVar[int] = 17
    name: ClassVar[str] = "market-tile"
    rule: ClassVar[str] = "GL-T4-5: gain both rewards of one market tile on the board."

    def legal(self, s: PragaState) -> list[A.PragaAction]:
        return [A.market_tile(m) for m, t in enumerate(s.market_tile) if t >= 0]

    def apply(self, s: PragaState, a: A.PragaAction) -> None:
        assert isinstance(a, A.MarketTile)
        s.stack.pop()
        tile = C.market_tiles[s.market_tile[a.market]]
        effects.gain_reward(s, self.seat, tile.upper)
        effects.gain_reward(s, self.seat, tile.lower)

    prompt = _rule_prompt


@dataclass(frozen=True, slots=True)
class Grow(Decision):
    """GL-T4-6: +1 mine or quarry, then produce gold or stone."""

    code: ClassVar[int] = 18
    name: ClassVar[str] = "grow-and-produce"
    rule: ClassVar[str] = "GL-T4-6: +1 gold mine or quarry, then produce gold or stone."

    def legal(self, s: PragaState) -> list[A.PragaAction]:
        return [A.grow(track, res) for track in (0, 1) for res in (0, 1)]

    def apply(self, s: PragaState, a: A.PragaAction) -> None:
        """A production token the cube reaches is taken at once (P-PROD-1) and then the
        production pays with it ([DE] "Danach produzierst du"): the production waits in
        the token decision."""
        assert isinstance(a, A.Grow)
        s.stack.pop()
        n = len(s.stack)
        effects.advance_track(s, self.seat, a.track)
        top = s.stack[-1] if len(s.stack) > n else None
        if isinstance(top, Token):
            s.stack[-1] = Token(top.seat, top.track, a.resource)
        else:
            effects.produce(s, self.seat, a.resource)

    prompt = _rule_prompt


# --- the human's choices for the Parler bots (parler.py) ---------------------------------
def _bot_prompt(key: str, d: ParlerPawn | ParlerSite | ParlerOrient, s: PragaState) -> Message:
    return M(key, seat=term(side_label(s, d.seat)), bot=side_label(s, s.players + d.bot))


@dataclass(frozen=True, slots=True)
class ParlerPawn(Decision):
    """The plaza where bot ``bot``'s pawn starts (P.2 step 3)."""

    bot: int
    code: ClassVar[int] = 19
    name: ClassVar[str] = "parler-pawn"
    rule: ClassVar[str] = (
        "Parler P.2 step 3: put Parler's pawn on a plaza of your choice; he builds there "
        "next (each bot on a different plaza).")

    def legal(self, s: PragaState) -> list[A.PragaAction]:
        assert s.bots is not None
        taken = {bot[solo.B_PAWN] for bot in s.bots}
        return [A.at_market(m) for m in PARLER.loop
                if parler.buildable(s, m) and m not in taken]

    def apply(self, s: PragaState, a: A.PragaAction) -> None:
        assert isinstance(a, A.AtMarket)
        s.stack.pop()
        parler.start_pawn(s, self.bot, a.market)

    def prompt(self, s: PragaState) -> Message:
        return _bot_prompt("{seat}: choose the plaza where {bot} starts", self, s)

    def parler_bot(self) -> int:
        return self.bot


@dataclass(frozen=True, slots=True)
class ParlerSite(Decision):
    """The site of bot ``bot``'s ``building`` at his pawn's plaza (P.5 step 2)."""

    bot: int
    building: int
    code: ClassVar[int] = 20
    name: ClassVar[str] = "parler-site"
    rule: ClassVar[str] = (
        "Parler P.5 step 2: place his building on a free site at his pawn's plaza; a "
        "blue corner must touch another blue corner if it can.")

    def legal(self, s: PragaState) -> list[A.PragaAction]:
        assert s.bots is not None
        options = parler.placements(s, self.building, s.bots[self.bot][solo.B_PAWN])
        return [A.site(x) for x in sorted({x for x, _ in options})]

    def apply(self, s: PragaState, a: A.PragaAction) -> None:
        assert s.bots is not None and isinstance(a, A.Site)
        s.stack.pop()
        orients = [o for x, o in parler.placements(s, self.building,
                                                    s.bots[self.bot][solo.B_PAWN])
                   if x == a.site]
        if len(orients) > 1:
            s.stack.append(ParlerOrient(self.seat, self.bot, self.building, a.site))
            return
        parler.finish_building(s, self.bot, self.building, a.site, orients[0])
        turn.bot_round(s)

    def held_tiles(self) -> tuple[tuple[int, int], ...]:
        return ((BUILDING_ROW, self.building),)

    def prompt(self, s: PragaState) -> Message:
        return _bot_prompt("{seat}: choose the site of {bot}'s building", self, s)

    def parler_bot(self) -> int:
        return self.bot


@dataclass(frozen=True, slots=True)
class ParlerOrient(Decision):
    """The orientation of bot ``bot``'s ``building`` on ``site`` (P.5 step 2)."""

    bot: int
    building: int
    site: int
    code: ClassVar[int] = 21
    name: ClassVar[str] = "parler-orientation"
    rule: ClassVar[str] = (
        "Parler P.5 step 2: turn his building; a blue corner must touch another blue "
        "corner if it can.")

    def legal(self, s: PragaState) -> list[A.PragaAction]:
        assert s.bots is not None
        options = parler.placements(s, self.building, s.bots[self.bot][solo.B_PAWN])
        return [A.orient(o) for x, o in options if x == self.site]

    def apply(self, s: PragaState, a: A.PragaAction) -> None:
        assert isinstance(a, A.Orient)
        s.stack.pop()
        parler.finish_building(s, self.bot, self.building, self.site, a.orientation)
        turn.bot_round(s)

    def held_tiles(self) -> tuple[tuple[int, int], ...]:
        return ((BUILDING_ROW, self.building),)

    def prompt(self, s: PragaState) -> Message:
        return _bot_prompt("{seat}: turn {bot}'s building", self, s)

    def parler_bot(self) -> int:
        return self.bot


KINDS: tuple[type[Decision], ...] = (
    Turn, Mine, Pick, WallAt, Site, Orient, Refresh, Choose, TechDraw, Token, BridgeTile,
    Plank, Arrow, CatTile, Discard, AnyAction, TechGrid, MarketPick, Grow, ParlerPawn,
    ParlerSite, ParlerOrient)
NAMES: tuple[str, ...] = tuple(k.name for k in KINDS)  # by code
TURNS = tuple(Turn(seat) for seat in range(8))  # the hubs, shared (no allocation per turn)


def hub(seat: int) -> Turn:
    """The turn hub of ``seat``."""
    return TURNS[seat]



# The step modules push decisions through these (links.py). The kinds pushed in most
# turns, whose fields take few values, are interned (decisions are frozen values).
links.hub = hub
links.mine = cache(Mine)
links.pick = cache(Pick)
links.wall_at = cache(WallAt)
links.site = cache(Site)
links.orient = cache(Orient)
links.refresh = cache(Refresh)
links.choose = Choose
links.tech_draw = TechDraw
links.token = Token
links.bridge_tile = BridgeTile
links.plank = Plank
links.arrow = Arrow
links.cathedral_tile = CatTile
links.discard = Discard
links.any_action = AnyAction
links.tech_grid = TechGrid
links.market_pick = MarketPick
links.grow = Grow
links.parler_pawn = ParlerPawn
links.parler_site = ParlerSite
links.parler_orient = ParlerOrient
