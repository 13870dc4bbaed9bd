"""Terminal rewards from an :class:`~meeplehall.core.protocol.Outcome`.

Two schemes, both paid once, when the game ends (every other step pays 0):

* ``"rank"`` (default): place ``k`` of ``P`` seats is worth ``1 - 2 (k - 1) / (P - 1)``,
  so the winner gets +1 and the last seat -1, linearly in between; seats tied after the
  tie-breaks share the mean value of the places they cover (a two-player draw pays 0 to
  both). With one seat (a solo game against an automaton) the seat gets +1 if it is among
  ``outcome.winners`` and -1 otherwise.
* ``"margin"``: ``(score - best other score) / margin_scale``, where the other scores
  include an automaton's (The Red Cathedral's Ivan: ``details["ivan"]["score"]``); a
  solo game with no opponent score uses its ``details["benchmark"]`` (Praga's solo games:
  140, P-SOLO-4), else 0.
"""

from __future__ import annotations

from typing import Any

from meeplehall.core.protocol import Outcome

REWARDS = ("rank", "margin")
DEFAULT_MARGIN_SCALE = 50.0


def _automaton_score(outcome: Outcome) -> int | None:
    for key in ("ivan", "automaton"):
        entry: Any = outcome.details.get(key)
        if isinstance(entry, dict) and isinstance(entry.get("score"), int):
            return int(entry["score"])
    return None


def rank_rewards(outcome: Outcome, players: int) -> list[float]:
    """Rank rewards in [-1, 1], one per seat.

    >>> rank_rewards(Outcome((10, 7, 10), ((0, 2), (1,)), (0, 2)), 3)
    [0.5, -1.0, 0.5]
    """
    if players == 1:
        return [1.0 if 0 in outcome.winners else -1.0]
    out = [0.0] * players
    place = 0
    for group in outcome.ranking:
        values = [1.0 - 2.0 * (place + i) / (players - 1) for i in range(len(group))]
        for seat in group:
            out[seat] = sum(values) / len(values)
        place += len(group)
    return out


def margin_rewards(outcome: Outcome, players: int,
                   scale: float = DEFAULT_MARGIN_SCALE) -> list[float]:
    """Score minus the best other score, divided by ``scale``, one per seat.

    >>> margin_rewards(Outcome((60, 35), ((0,), (1,)), (0,)), 2)
    [0.5, -0.5]
    """
    scores = list(outcome.scores)
    auto = _automaton_score(outcome)
    out = []
    for seat in range(players):
        others = [x for i, x in enumerate(scores) if i != seat]
        if auto is not None:
            others.append(auto)
        if not others and isinstance(outcome.details.get("benchmark"), int):
            others.append(int(outcome.details["benchmark"]))
        best = max(others) if others else 0
        out.append((scores[seat] - best) / scale)
    return out


def terminal_rewards(outcome: Outcome, players: int, scheme: str,
                     margin_scale: float = DEFAULT_MARGIN_SCALE) -> list[float]:
    """Rewards of every seat under ``scheme`` (``"rank"`` or ``"margin"``).

    Raises:
        ValueError: unknown scheme.
    """
    if scheme == "rank":
        return rank_rewards(outcome, players)
    if scheme == "margin":
        return margin_rewards(outcome, players, margin_scale)
    raise ValueError(f"unknown reward {scheme!r}; rewards are: {', '.join(REWARDS)}")
