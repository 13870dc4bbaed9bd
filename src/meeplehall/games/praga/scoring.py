"""Scoring tables and final-scoring arithmetic that need no game state (§13, §17.3, §17.5).

Each function takes plain numbers so it can be called on its own (P-SCORE-5 asks for
``wall_points``) and reused by the final-scoring step of the forward model.

>>> wall_points(4)
10
>>> egg_points(7)
10
"""

from __future__ import annotations

from meeplehall.games.praga.components import (
    CATHEDRAL,
    HUNGER_WALL,
    SEAL_EFFECTS,
    V_EFFECTS,
    Grid,
    load,
)


def wall_points(walls: int) -> int:
    """P-SCORE-5: VP for the number of walls around your action board.

    0-2 walls: 0; exactly 3: 4; 4 or 5: 10; 6 or more: 18.

    >>> [wall_points(n) for n in (0, 2, 3, 5, 6, 12)]
    [0, 0, 4, 10, 18, 18]
    """
    if walls < 0:
        raise ValueError(f"a player cannot own {walls} walls")
    table = load().wall_points
    return table[min(walls, len(table) - 1)]


def egg_points(eggs: int) -> int:
    """P-SCORE-7: VP for leftover eggs (4+ = 10; 3 = 6; 2 = 3; 1 = 1, GAP-14)."""
    if eggs < 0:
        raise ValueError(f"a player cannot hold {eggs} eggs")
    table = load().egg_points
    return table[min(eggs, len(table) - 1)]


def academics_points(tech_steps: int, univ_steps: int) -> int:
    """P-SCORE-3: technology steps times the University zone multiplier (0..3).

    >>> academics_points(7, 8), academics_points(7, 0)
    (21, 0)
    """
    c = load()
    return tech_steps * c.univ_multiplier[min(univ_steps, c.univ_top)]


def row_value(grid: Grid, tier_set: str, row: int) -> int:
    """Value in the black box at the end of ``row`` (0 = bottom) of a grid (GL-G4)."""
    tiers = grid.tiers[tier_set]
    for tier in tiers:
        if row < len(tier.rows):
            return tier.row_values[row]
        row -= len(tier.rows)
    raise ValueError("row outside the grid")


def grid_points(grid_index: int, tier_set: str, row: int, column: int, tokens: int) -> int:
    """P-SCORE-4 for one grid: its row value plus column value x matching tokens
    (blue tokens on the Hunger Wall, red on the Cathedral; value-3 tokens count 3).

    >>> grid_points(CATHEDRAL, "standard", 5, 3, 3)
    22
    """
    grid = load().grids[grid_index]
    return row_value(grid, tier_set, row) + grid.column_values[column] * tokens


def seal_points(effect: str, vp: int, gold: int, stone: int,
                tokens: int = 0) -> tuple[int, int, int]:
    """P-SCORE-6 / GL-S1..S3: VP of one seal and the gold and stone spent on it.

    Returns ``(vp, gold_spent, stone_spent)``; spending seals spend everything they can
    use (no VP is ever lost by spending more).

    >>> seal_points("vp-per-pair", 3, 5, 8)
    (15, 5, 5)
    """
    if effect not in SEAL_EFFECTS:
        raise ValueError(f"unknown seal effect {effect!r}")
    if effect == "vp-per-gold":
        return (vp * gold, gold, 0)
    if effect == "vp-per-stone":
        return (vp * stone, 0, stone)
    if effect == "vp-per-pair":
        pairs = min(gold, stone)
        return (vp * pairs, pairs, pairs)
    if effect == "vp-per-token":
        return (vp * tokens, 0, 0)
    return (vp, 0, 0)


def v_tile_points(effect: str, *, univ: int = 0, upgrades: int = 0, walls: int = 0,
                  mines: int = 0, quarries: int = 0, hw_row: int = 0,
                  cathedral_row: int = 0) -> int:
    """P-SCORE-6 / GL-B4..B9: end-game VP of a V tile (rows are 0-based here; the
    printed row numbers start at 1).

    >>> v_tile_points("rows", hw_row=2, cathedral_row=1)
    10
    """
    if effect not in V_EFFECTS:
        raise ValueError(f"unknown V tile effect {effect!r}")
    if effect == "univ-position":
        return univ
    if effect == "per-upgrade":
        return 3 * upgrades
    if effect == "per-wall":
        return 2 * walls
    if effect == "mines":
        return mines
    if effect == "quarries":
        return quarries
    return 2 * ((hw_row + 1) + (cathedral_row + 1))


def tie_break_order(scores: list[int]) -> list[list[int]]:
    """P-SCORE-9: groups of seats, best first; ties go to the later seat, so no two
    seats ever share a place.

    >>> tie_break_order([50, 40, 50])
    [[2], [0], [1]]
    """
    order = sorted(range(len(scores)), key=lambda s: (scores[s], s), reverse=True)
    return [[s] for s in order]


__all__ = [
    "CATHEDRAL",
    "HUNGER_WALL",
    "academics_points",
    "egg_points",
    "grid_points",
    "row_value",
    "seal_points",
    "tie_break_order",
    "v_tile_points",
    "wall_points",
]
