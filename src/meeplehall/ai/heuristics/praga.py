"""Evaluation of a Praga Caput Regni position for one seat, in victory points.

- The final score the seat would have if the game ended now (``final.projected_scores``:
  markets, academics, grids, walls, seals, eggs, all in the rulebook's order);
- plus a small value for what still converts to points later: 0.3 per gold and 0.3 per
  stone (both pay for tiles and grid moves), 0.5 per window (silver and gold: the extra
  action and moves up);
- minus 0.5 times the best other seat's projected score, so denying the leader counts
  a little.
After the game ends the evaluation is 1000 plus the margin over the best other seat.
"""

from __future__ import annotations

from meeplehall.games.praga.final import projected_scores
from meeplehall.games.praga.state import PragaState

# For MCTS (ai/mcts.py): a margin of SCALE points is worth a logistic step; a finished
# game evaluates to FINAL_BONUS plus the final margin.
SCALE = 12.0
FINAL_BONUS = 1000.0


def evaluate(s: PragaState, seat: int) -> float:
    scores = projected_scores(s)
    others = [scores[i] for i in range(len(scores)) if i != seat]
    best_other = max(others) if others else 0
    if s.final is not None:
        return 1000.0 + scores[seat] - best_other
    value = float(scores[seat])
    value += 0.3 * s.gold[seat] + 0.3 * s.stone[seat]
    value += 0.5 * (s.silver[seat] + s.goldw[seat])
    return value - 0.5 * best_other
