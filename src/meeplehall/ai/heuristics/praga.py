"""Evaluation of a Praga Caput Regni position for one seat, in victory points.

- The final score the seat would have if the game ended now (``final.projected_scores``:
  markets, academics, grids, walls, seals, eggs, all in the rulebook's order), except
  that the eggs' step of final scoring (P-SCORE-7: 1/3/6/10 VP for 1/2/3/4+ eggs) is
  phased in with the game's progress: early on an egg is worth what it buys (road
  entry, P-EGG-*; ``EGG_EARLY`` VP each), and only towards the end the step table. The
  projection counts the table in full at once, which made the one-ply bot hoard eggs.
- Plus what still converts to points later, also fading as the game runs out: gold and
  stone (tiles, grid moves, wealth bonuses), windows (the extra action, moves up), and
  the mine and quarry tracks (gold and stone produced every later turn).
- Minus 0.5 times the best other seat's projected score, so denying the leader counts
  a little. In a game with one seat (the solo rules) there is no other seat.
After the game ends the evaluation is 1000 plus the margin over the best other seat
(the score itself with one seat).
"""

from __future__ import annotations

from meeplehall.games.praga.components import load
from meeplehall.games.praga.final import projected_scores
from meeplehall.games.praga.scoring import egg_points
from meeplehall.games.praga.state import PragaState

# For MCTS (ai/mcts.py): a change of SCALE points in the margin is worth a logistic step;
# a finished game evaluates to FINAL_BONUS plus the final margin.
SCALE = 4.0
FINAL_BONUS = 1000.0
# Share of a level's iterations spent per decision: the projection of final scoring in
# ``evaluate`` makes a Praga iteration about four times dearer than a Red Cathedral one.
BUDGET = 0.25

# The search in the solo game (ai/mcts.py, ``search_settings``), as in The Red
# Cathedral's: each action followed by the rest of the turn played greedily and rated
# where the turn ends, the same sampled futures for every action, a tree of depth 1.
SOLO_SEARCH: dict[str, object] = {
    "turn_rollout": 40, "fixed_chance": True, "max_depth": 1, "budget": 0.25,
}


def search_settings(view: dict[str, object]) -> dict[str, object]:
    """Overrides of the MCTS level's settings for a position (see ``SOLO_SEARCH``)."""
    return SOLO_SEARCH if view.get("players") == 1 else {}


EGG_EARLY = 1.2  # VP per egg at the start of the game
RESOURCE = 0.45  # VP per gold or stone at the start, fading to 0.1
WINDOW = 0.8  # VP per silver or gold window at the start, fading to 0.3
TRACK = 1.5  # VP per mine or quarry step at the start, fading to 0


def progress(s: PragaState, seat: int) -> float:
    """Share of the seat's own turns already played, 0..1 (``played`` counts the seat's
    turns, also in the solo game, where the dummy's turns are not the seat's)."""
    total = load().turns_per_player
    return min(1.0, s.played[seat] / total) if total else 1.0


def evaluate(s: PragaState, seat: int) -> float:
    return _evaluate(s, seat, projected_scores(s))


def evaluate_all(s: PragaState) -> list[float]:
    """``evaluate`` for every seat, projecting final scoring once."""
    scores = projected_scores(s)
    return [_evaluate(s, seat, scores) for seat in range(len(scores))]


def _evaluate(s: PragaState, seat: int, scores: tuple[int, ...]) -> float:
    others = [scores[i] for i in range(len(scores)) if i != seat]
    best_other = max(others) if others else 0
    if s.final is not None:
        return 1000.0 + scores[seat] - best_other
    p = progress(s, seat)
    late = 1.0 - p
    eggs = s.eggs[seat]
    value = float(scores[seat] - egg_points(eggs))
    value += p * egg_points(eggs) + late * EGG_EARLY * eggs
    value += (0.1 + late * (RESOURCE - 0.1)) * (s.gold[seat] + s.stone[seat])
    value += (0.3 + late * (WINDOW - 0.3)) * (s.silver[seat] + s.goldw[seat])
    value += late * TRACK * (s.mine[seat] + s.quarry[seat])
    return value - 0.5 * best_other
