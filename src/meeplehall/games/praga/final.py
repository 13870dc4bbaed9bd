"""Final scoring in the rulebook's order (§13, P-SCORE-1..9) and the outcome.

Steps: 1 unscored markets pay their lower reward to every claimant (P-SCORE-2); 2
academics (P-SCORE-3); 3 Hunger Wall and Cathedral rows and columns (P-SCORE-4); 4 walls
(P-SCORE-5); 5 final-scoring abilities: V tile, Cathedral tile, seals, with the seal
order that scores most (P-SCORE-6); 6 eggs (P-SCORE-7). Ties go to the later seat
(P-SCORE-9). The outcome carries the points of every category per seat.
"""

from __future__ import annotations

from itertools import permutations
from typing import Any

from meeplehall.core.messages import M, term
from meeplehall.core.protocol import Outcome
from meeplehall.games.praga import links, scoring
from meeplehall.games.praga.board import owned_upgrades, wall_count
from meeplehall.games.praga.city import claims
from meeplehall.games.praga.components import (
    CATHEDRAL,
    HUNGER_WALL,
    SEAL_EFFECTS,
    V_EFFECTS,
    load,
)
from meeplehall.games.praga.effects import ROW_BITS, gain_reward, grid_of, side_name
from meeplehall.games.praga.parler_data import PARLER, rank_title
from meeplehall.games.praga.state import PragaState

C = load()
CATEGORIES = ("play", "markets", "academics", "hunger_wall", "cathedral", "walls",
              "abilities", "eggs")


def _grid_points(s: PragaState, seat: int, grid: int) -> int:
    g = grid_of(s, grid)
    row, col = divmod((s.hw if grid == HUNGER_WALL else s.cat)[seat], ROW_BITS)
    tokens = s.blue[seat] if grid == HUNGER_WALL else s.red[seat]
    return g.row_values[row] + g.column_values[col] * tokens


def _v_points(s: PragaState, seat: int, tile: int) -> int:
    hw_row = s.hw[seat] // ROW_BITS
    cat_row = s.cat[seat] // ROW_BITS
    return scoring.v_tile_points(
        V_EFFECTS[C.bridge_tiles[tile].effect], univ=s.univ[seat],
        upgrades=owned_upgrades(s, seat), walls=wall_count(s, seat),
        mines=s.mine[seat] - 1, quarries=s.quarry[seat] - 1, hw_row=hw_row,
        cathedral_row=cat_row)


def seal_score(s: PragaState, seat: int) -> int:
    """P-SCORE-6: the seals in the order that scores most (each gold/stone once)."""
    owned = [k for k, owner in enumerate(s.seal_owner) if owner == seat]
    best = 0
    for order in permutations(owned):
        gold, stone, total = s.gold[seat], s.stone[seat], 0
        for k in order:
            seal = C.seals[k]
            vp, g, st = scoring.seal_points(SEAL_EFFECTS[seal.effect], seal.vp, gold, stone,
                                            s.red[seat] + s.blue[seat])
            total += vp
            gold -= g
            stone -= st
        best = max(best, total)
    return best


def _steps(s: PragaState, seat: int) -> list[int]:
    """Final steps 2-6 of one seat."""
    return [
        scoring.academics_points(s.tech[seat], s.univ[seat]),  # step 2
        _grid_points(s, seat, HUNGER_WALL),  # step 3
        _grid_points(s, seat, CATHEDRAL),
        scoring.wall_points(wall_count(s, seat)),  # step 4
        sum(_v_points(s, seat, t) for t in (s.v_tile[seat], s.cat_tile[seat])
            if t >= 0) + seal_score(s, seat),  # step 5
        scoring.egg_points(s.eggs[seat]),  # step 6
    ]


def remaining_points(s: PragaState, seat: int) -> int:
    """What final steps 2-6 would add for ``seat`` now (choices in step 1)."""
    return sum(_steps(s, seat))


links.remaining_points = remaining_points  # for effects.best_final


def final_scoring(s: PragaState) -> None:
    n = s.players
    parts = [[0] * len(CATEGORIES) for _ in range(n)]
    for seat in range(n):
        parts[seat][0] = s.vp[seat]
    before = s.vp[:]
    for m, done in enumerate(s.market_done):  # step 1
        if not done and s.market_tile[m] >= 0:
            lower = C.market_tiles[s.market_tile[m]].lower
            for seat in sorted(claims(s, m)):
                if seat < n:  # a Parler bot takes nothing (parler.py)
                    gain_reward(s, seat, lower)
    for seat in range(n):
        parts[seat][1] = s.vp[seat] - before[seat]
        for k, pts in enumerate(_steps(s, seat)):
            parts[seat][2 + k] = pts
            s.vp[seat] += pts
    s.final = (tuple(s.vp), tuple(tuple(p) for p in parts))
    s.stack.clear()
    s.log.append(M("final scoring: {scores}", scores=tuple(
        M("{seat} {n} VP", seat=term(side_name(s, i)), n=s.vp[i]) for i in range(n))))


def projected_scores(s: PragaState) -> tuple[int, ...]:
    """The scores if the game ended now (for bot heuristics and hints); ``s`` is not
    changed."""
    if s.final is not None:
        return tuple(s.final[0])
    c = s.clone()
    c.turns = C.turns_per_player * c.players
    final_scoring(c)
    assert c.final is not None
    return tuple(c.final[0])


def outcome(state: PragaState) -> Outcome | None:
    """Scores, ranking (ties to the later seat, P-SCORE-9) and the breakdown."""
    if state.final is None:
        return None
    scores, parts = state.final
    ranking = tuple(tuple(g) for g in scoring.tie_break_order(list(scores)))
    breakdown = tuple(dict(zip(CATEGORIES, p, strict=True)) for p in parts)
    details: dict[str, Any] = {"tie_break": "later seat wins ties (P-SCORE-9)"}
    if state.opts.solo_opponent == "none":
        return Outcome(tuple(scores), ranking, ranking[0], breakdown, details)
    return _solo_outcome(state, tuple(scores), ranking, breakdown, details)


def _solo_outcome(s: PragaState, scores: tuple[int, ...], ranking: tuple[tuple[int, ...], ...],
                  breakdown: tuple[dict[str, int], ...], details: dict[str, Any]) -> Outcome:
    """Against the dummy (P-SOLO-4) or Parler (P.1) nobody else scores: the result is
    the score, judged against the 140-VP benchmark ("more than 140 VP is good"); the
    Parler mode adds the app's score ladder. Alone, the seat wins when it beats the
    benchmark; several people beside Parler bots are ranked as usual (P-SCORE-9)."""
    benchmark = PARLER.benchmark
    details["solo_opponent"] = s.opts.solo_opponent
    details["benchmark"] = benchmark
    details["results"] = [
        "above the benchmark" if v > benchmark else "at or below the benchmark"
        for v in scores]
    if s.opts.solo_opponent == "parler":
        details["bots"] = s.opts.parler_bots
        details["titles"] = [rank_title(v) for v in scores]
    if s.players == 1:
        details["result"] = details["results"][0]
        winners: tuple[int, ...] = (0,) if scores[0] > benchmark else ()
        return Outcome(scores, ranking, winners, breakdown, details)
    return Outcome(scores, ranking, ranking[0], breakdown, details)

