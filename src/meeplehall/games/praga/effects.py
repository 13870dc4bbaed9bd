"""Gains and the effects every action family shares (§4.1-4.3, §7, §8, §10, §12, §17).

``gain`` is the one door through which anything is received: resources with the 9 cap
and wealth bonuses (P-RES-1..5), windows, eggs, corner tokens, track steps with
technology draws (P-TECH-1/2/8, P-UNIV-2), mine/quarry steps with production tokens and
seal rights (P-MINE-3), sideways moves (P-GRID-4/10) and the passive level I/II
technologies that react to them (GL-T1-*, GL-T2-*). Choices met on the way are pushed
onto the decision stack.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, partial

from meeplehall.core.messages import M, Message, term
from meeplehall.games.praga import links as L
from meeplehall.games.praga.components import (
    BLUE_TOKEN,
    CAT_MOVE,
    CATHEDRAL,
    CELL_SIDE,
    CELL_UP,
    EGG,
    GOLD,
    GOLD_WINDOW,
    HUNGER_WALL,
    HW_MOVE,
    MINE,
    QUARRY,
    RED_TOKEN,
    SIDE_MOVE,
    SILVER,
    STONE,
    TECH,
    TECH_EFFECTS,
    UNIV,
    VP,
    Reward,
    load,
    reward_text,
)
from meeplehall.games.praga.state import PragaState
from meeplehall.games.praga.texts import reward_message

C = load()
GOLD_TRACK, QUARRY_TRACK = 0, 1
TRACKS = (C.gold_track, C.quarry_track)
TECH_EFFECT = tuple(TECH_EFFECTS[t.effect] for t in C.technologies)
ROW_BITS = 8  # grid cell = row * ROW_BITS + column


# --- grids -----------------------------------------------------------------------------
class GridData:
    """One grid with its chosen tier set, flattened (bottom row first)."""

    __slots__ = ("cells", "row_values", "tier", "entry_cost", "columns", "direction",
                 "start", "column_values", "rows")

    def __init__(self, grid: int, tier_set: str) -> None:
        g = C.grids[grid]
        cells: list[tuple[int, ...]] = []
        values: list[int] = []
        tier: list[int] = []
        costs: list[tuple[int, int]] = []
        for level, t in enumerate(g.tiers[tier_set]):
            costs.append((t.gold, t.stone))
            for r, row in enumerate(t.rows):
                cells.append(row)
                values.append(t.row_values[r])
                tier.append(level)
        self.cells = tuple(cells)
        self.row_values = tuple(values)
        self.tier = tuple(tier)
        self.entry_cost = tuple(costs)
        self.columns = g.columns
        self.direction = g.direction
        self.start = g.start_column
        self.column_values = g.column_values
        self.rows = len(self.cells)

    def up_cost(self, row: int) -> tuple[int, int]:
        """Gold and stone due for moving up from ``row`` (tier boundary, GL-G6)."""
        if self.tier[row + 1] != self.tier[row]:
            return self.entry_cost[self.tier[row + 1]]
        return (0, 0)


@cache
def grid_data(grid: int, tier_set: str) -> GridData:
    return GridData(grid, tier_set)


def grid_of(s: PragaState, grid: int) -> GridData:
    tiers = s.opts.hunger_wall_tiers if grid == HUNGER_WALL else s.opts.cathedral_tiers
    return grid_data(grid, tiers)


def in_final(s: PragaState) -> bool:
    return s.turns >= C.turns_per_player * s.players


def log(s: PragaState, message: Message) -> None:
    s.log.append(message)


def who(s: PragaState, seat: int) -> Message:
    """A seat in a message: its colour."""
    return term(C.colours[seat])




def side_name(s: PragaState, seat: int) -> str:
    """A seat as people see it: its colour (log lines, views, prompts)."""
    return C.colours[seat]


# --- technologies ----------------------------------------------------------------------
def active(s: PragaState, seat: int, effect: str) -> list[int]:
    """Technologies of ``seat`` with glossary id ``effect`` that are in force now
    (level I/II: from the end of the turn they were gained, P-TECH-4/5, P-EFR-5)."""
    techs = s.techs[seat]
    if not techs:
        return []
    ready = s.tech_ready[seat]
    return [t for t in techs
            if TECH_EFFECT[t] == effect and ready >> (C.technologies[t].level - 1) & 1]


# --- gains -----------------------------------------------------------------------------
def gain_reward(s: PragaState, seat: int, reward: Reward) -> None:
    for kind, amount in reward:
        gain(s, seat, kind, amount)


def gain(s: PragaState, seat: int, kind: int, amount: int) -> None:
    """Receive ``amount`` of reward ``kind`` (components.REWARD_KINDS)."""
    if amount <= 0:
        return
    if kind == VP:
        s.vp[seat] += amount
    elif kind in (GOLD, STONE):
        add_resource(s, seat, kind, amount)
    elif kind == SILVER:
        s.silver[seat] += amount
    elif kind == GOLD_WINDOW:
        s.goldw[seat] += amount
    elif kind == EGG:
        s.eggs[seat] += amount
        for _ in active(s, seat, "GL-T2-4"):  # P-EGG-3
            s.vp[seat] += amount
            add_resource(s, seat, STONE, amount)
    elif kind in (RED_TOKEN, BLUE_TOKEN):
        if kind == RED_TOKEN:
            s.red[seat] += amount
        else:
            s.blue[seat] += amount
        bit = 1 if kind == RED_TOKEN else 2
        for t in active(s, seat, "GL-T2-2"):  # once per turn
            tech = C.technologies[t]
            if tech.token == kind and not s.once[seat] & bit:
                s.once[seat] |= bit
                s.vp[seat] += 1
                add_resource(s, seat, tech.resource, 1)
    elif kind == TECH:
        for _ in range(amount):
            tech_step(s, seat)
    elif kind == UNIV:
        for _ in range(amount):
            univ_step(s, seat)
    elif kind in (MINE, QUARRY):
        for _ in range(amount):
            advance_track(s, seat, GOLD_TRACK if kind == MINE else QUARRY_TRACK)
    elif kind in (HW_MOVE, CAT_MOVE):
        grid = HUNGER_WALL if kind == HW_MOVE else CATHEDRAL
        for _ in range(amount):
            earn_sideways(s, seat, grid)
    elif kind == SIDE_MOVE:
        for _ in range(amount):
            if in_final(s):  # GL-M1: the receiver's best choice, on copies
                grids = (HUNGER_WALL, CATHEDRAL)
                sideways(s, seat, grids[best_final(s, seat, tuple(
                    partial(sideways, seat=seat, grid=g) for g in grids))])
            else:
                s.stack.append(L.choose(seat, (((HW_MOVE, 1),), ((CAT_MOVE, 1),)),
                                        "sideways move"))


def add_resource(s: PragaState, seat: int, kind: int, amount: int) -> None:
    """Gold or stone with the 9 cap (P-RES-2) and the wealth bonuses (P-RES-4)."""
    if kind == GOLD:
        s.gold[seat] = min(9, s.gold[seat] + amount)
    else:
        s.stone[seat] = min(9, s.stone[seat] + amount)
    w = s.wealth[seat]
    if w == 7:
        return
    gold, stone = s.gold[seat], s.stone[seat]
    for bit, reached, reward in ((1, gold >= 6, C.wealth[0]), (2, stone >= 6, C.wealth[1]),
                                 (4, gold >= 9 or stone >= 9, C.wealth[2])):
        if reached and not s.wealth[seat] & bit:
            s.wealth[seat] |= bit
            s.cubes[seat] += 1  # the cube joins the supply (P-COMP-3)
            log(s, M("{seat} gains a wealth bonus: {reward}", seat=who(s, seat),
                     reward=reward_message(reward)))
            gain_reward(s, seat, reward)


def pay(s: PragaState, seat: int, gold: int = 0, stone: int = 0, silver: int = 0,
        goldw: int = 0) -> None:
    """Spend what the caller has checked is there (P-RES-3)."""
    s.gold[seat] -= gold
    s.stone[seat] -= stone
    s.silver[seat] -= silver
    s.goldw[seat] -= goldw
    assert min(s.gold[seat], s.stone[seat], s.silver[seat], s.goldw[seat]) >= 0


def _reward_text(reward: Reward) -> str:
    return reward_text(reward)


# --- tracks ----------------------------------------------------------------------------
def tech_step(s: PragaState, seat: int) -> None:
    """One technology step (P-TECH-1/2/8; GL-T1-2 for the technology track)."""
    for t in active(s, seat, "GL-T1-2"):
        if C.technologies[t].track == 0:
            s.vp[seat] += 2
    if s.tech[seat] >= C.tech_top:
        s.vp[seat] += 2
        return
    s.tech[seat] += 1
    if s.tech[seat] in C.tech_levels and not in_final(s):
        draw_technology(s, seat, C.tech_levels.index(s.tech[seat]))


def univ_step(s: PragaState, seat: int) -> None:
    """One University step (P-UNIV-2; GL-T1-2 for the University track)."""
    for t in active(s, seat, "GL-T1-2"):
        if C.technologies[t].track == 1:
            s.vp[seat] += 2
    if s.univ[seat] >= C.univ_top:
        s.vp[seat] += 2
    else:
        s.univ[seat] += 1


def draw_technology(s: PragaState, seat: int, level: int) -> None:
    """Draw 3 (or all that remain) of a level and keep 1 (P-TECH-2, P-EDGE-8)."""
    stack = s.tech_stacks[level]
    if not stack:
        return
    s.tech_stacks[level] = stack[3:]
    s.stack.append(L.tech_draw(seat, stack[:3], level))


def keep_technology(s: PragaState, seat: int, drawn: tuple[int, ...], keep: int) -> None:
    s.techs[seat] = (*s.techs[seat], keep)
    rest = tuple(t for t in drawn if t != keep)
    s.tech_stacks[C.technologies[keep].level - 1] += rest
    level = C.technologies[keep].level
    if level >= 3 and seat == s.seat and not in_final(s):
        s.tech_ready[seat] |= 1 << (level - 1)  # P-EFR-6: usable this turn
    log(s, M("{seat} keeps technology {tech}", seat=who(s, seat),
             tech=C.technologies[keep].id))


def advance_track(s: PragaState, seat: int, track: int) -> bool:
    """Move the gold-mine or quarry cube 1 right (P-MINE-2 A, P-MINE-3/6)."""
    t = TRACKS[track]
    pos = s.mine if track == GOLD_TRACK else s.quarry
    if pos[seat] >= t.spaces:
        return False  # P-EDGE-2: the cube cannot move further
    pos[seat] += 1
    if pos[seat] == t.token_space and s.river and not in_final(s):
        s.stack.append(L.token(seat, track))  # P-PROD-1
    if pos[seat] == t.seal_space:
        s.seal_rights[seat] += 1  # P-SEAL-1
    return True


def produce(s: PragaState, seat: int, track: int) -> None:
    """Option B of Manage Mines / Quarries (P-MINE-2, P-MINE-7, P-PROD-2, GL-P2/P3)."""
    t = TRACKS[track]
    pos = (s.mine if track == GOLD_TRACK else s.quarry)[seat]
    add_resource(s, seat, GOLD if track == GOLD_TRACK else STONE, pos - 1)
    for space in range(1, pos):
        gain_reward(s, seat, t.produce_bonus[space - 1])
    token = s.ptoken[seat][track]
    if token >= 0:
        gain_reward(s, seat, C.production_tokens[token].gain)


# --- grids -----------------------------------------------------------------------------
def earn_sideways(s: PragaState, seat: int, grid: int) -> None:
    """A sideways move is kept for later in the active player's turn (P-GRID-4);
    received in another player's turn or at the end it is made at once (P-GRID-10)."""
    if seat == s.seat and not in_final(s):
        if grid == HUNGER_WALL:
            s.moves_hw += 1
        else:
            s.moves_cat += 1
    else:
        sideways(s, seat, grid)


def best_final(s: PragaState, seat: int,
               options: tuple[Callable[[PragaState], object], ...]) -> int:
    """During final scoring no decision is asked: a choice the rules leave to a player
    (GL-M1 grid, LANG-11 upward arrow, P-GRID-7 Cathedral tile) takes the option whose
    copy scores most for that player in the remaining final steps (first on ties)."""
    best, best_points = 0, -1
    for k, option in enumerate(options):
        c = s.clone()
        option(c)
        points = c.vp[seat] + L.remaining_points(c, seat)
        if points > best_points:
            best, best_points = k, points
    return best


def sideways(s: PragaState, seat: int, grid: int) -> None:
    """Move 1 cell sideways (left on the Hunger Wall, right on the Cathedral); a move
    off the grid is lost (P-GRID-4, P-EDGE-3). Landing effects follow (P-GRID-6)."""
    g = grid_of(s, grid)
    cells = s.hw if grid == HUNGER_WALL else s.cat
    row, col = divmod(cells[seat], ROW_BITS)
    new = col + g.direction
    if not 0 <= new < g.columns:
        return
    cells[seat] = row * ROW_BITS + new
    land(s, seat, grid)


def can_move_up(s: PragaState, seat: int, grid: int, windows: bool) -> bool:
    if windows and s.silver[seat] < 2:
        return False
    g = grid_of(s, grid)
    row = (s.hw if grid == HUNGER_WALL else s.cat)[seat] // ROW_BITS
    if row + 1 >= g.rows:
        return False  # P-EDGE-3
    gold, stone = g.up_cost(row)
    return s.gold[seat] >= gold and s.stone[seat] >= stone


def move_up(s: PragaState, seat: int, grid: int, windows: bool, tier_cost: bool) -> None:
    """1 row up (P-GRID-5); GL-T1-3 pays 2 VP per row; reaching the Cathedral's top tier
    offers a final-scoring tile (P-GRID-7)."""
    g = grid_of(s, grid)
    cells = s.hw if grid == HUNGER_WALL else s.cat
    row, col = divmod(cells[seat], ROW_BITS)
    if tier_cost:
        gold, stone = g.up_cost(row)
        pay(s, seat, gold=gold, stone=stone)
    if windows:
        pay(s, seat, silver=2)
    cells[seat] = (row + 1) * ROW_BITS + col
    s.vp[seat] += 2 * len(active(s, seat, "GL-T1-3"))
    if (grid == CATHEDRAL and g.tier[row + 1] == 2 and g.tier[row] < 2
            and s.cat_tile[seat] < 0 and s.cat_pile):
        if in_final(s):  # P-GRID-7 reached in final step 1: no decision, best tile
            pile = s.cat_pile
            take_cathedral_tile(s, seat, pile[best_final(s, seat, tuple(
                partial(take_cathedral_tile, seat=seat, tile=t) for t in pile))])
        else:
            s.stack.append(L.cathedral_tile(seat))
    land(s, seat, grid)


def take_cathedral_tile(s: PragaState, seat: int, tile: int) -> None:
    """P-GRID-7: one of the Cathedral's final-scoring tiles (any '3 VP now' included)."""
    s.cat_pile = tuple(t for t in s.cat_pile if t != tile)
    s.cat_tile[seat] = tile
    s.vp[seat] += C.bridge_tiles[tile].now_vp


def land(s: PragaState, seat: int, grid: int) -> None:
    """Landing effects: VP, a sideways arrow (mandatory), an upward arrow (optional,
    LANG-11) that chain (P-GRID-6, GL-G1..G3)."""
    g = grid_of(s, grid)
    row, col = divmod((s.hw if grid == HUNGER_WALL else s.cat)[seat], ROW_BITS)
    cell = g.cells[row][col]
    if cell > 0:
        s.vp[seat] += cell
    elif cell == CELL_SIDE:
        sideways(s, seat, grid)
    elif cell == CELL_UP and can_move_up(s, seat, grid, windows=False):
        if s.opts.up_arrow == "automatic" or (in_final(s) and best_final(s, seat, (
                lambda c: move_up(c, seat, grid, windows=False, tier_cost=True),
                lambda c: None)) == 0):
            move_up(s, seat, grid, windows=False, tier_cost=True)
        elif not in_final(s):
            s.stack.append(L.arrow(seat, grid))
