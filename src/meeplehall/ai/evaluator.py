"""The seam between the generic bots and a game's heuristic: the ``Evaluator`` protocol.

The greedy bot, the planner and the tree search (``ai/greedy.py``, ``ai/planner.py``,
``ai/mcts.py``) know no game; each is given an ``Evaluator`` (one implementation per game
in ``ai/heuristics/<game>.py``), or, when none is given, takes the game's own from the
registry in ``ai/ladder.py``. States are the engine's full states, rebuilt by the bots
from their view with ``sample_hidden``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from meeplehall.core.protocol import Game


class Evaluator(Protocol):
    """What the bots ask a game's heuristic."""

    scale: float
    """For the search: a change of this much in a seat's margin is one logistic step."""
    final_bonus: float
    """What ``evaluate`` adds to the final margin of a finished game."""

    def evaluate(self, state: Any, seat: int) -> float:
        """The seat's evaluation (the search rates its leaves and orders moves by it)."""
        ...

    def evaluate_all(self, state: Any) -> list[float]:
        """``evaluate`` for every side (``sides``) at once."""
        ...

    def evaluate_play(self, state: Any, seat: int) -> float:
        """The evaluation the one-ply and planner bots compare positions by."""
        ...

    def sides(self, state: Any) -> int:
        """The sides rated: the seats, plus an automaton that plays inside ``apply``."""
        ...

    def final_margins(self, state: Any) -> list[float] | None:
        """Each side's final margin if the game were scored now (None where the game
        has no such scoring): a finished game's margin is measured from the root's."""
        ...

    def check_rating(self, state: Any, seat: int) -> float:
        """How the rollout check rates an unfinished position it has played on to."""
        ...

    def is_solo(self, view: dict[str, Any]) -> bool:
        """Whether the view is of a solo game (the ladder's mode)."""
        ...


class BaseEvaluator:
    """Defaults of the protocol: every side rated one at a time, the bots' scale the
    heuristic's own, no final margins, the check rating ``evaluate_play``. A game's
    strategy profiles (``profiles``: name to weights) are chosen by name."""

    scale = 10.0
    final_bonus = 0.0
    profiles: Mapping[str, Mapping[str, float]] = {}

    def __init__(self, profile: str | None = None) -> None:
        if profile is not None and profile not in self.profiles:
            raise ValueError(f"unknown profile {profile!r}; profiles are: "
                             f"{', '.join(self.profiles)}")
        self.profile = profile

    def evaluate(self, state: Any, seat: int) -> float:
        raise NotImplementedError

    def evaluate_all(self, state: Any) -> list[float]:
        return [self.evaluate(state, s) for s in range(self.sides(state))]

    def evaluate_play(self, state: Any, seat: int) -> float:
        return self.evaluate(state, seat)

    def sides(self, state: Any) -> int:
        players: int = state.players
        return players

    def final_margins(self, state: Any) -> list[float] | None:
        return None

    def check_rating(self, state: Any, seat: int) -> float:
        return self.evaluate_play(state, seat)

    def is_solo(self, view: dict[str, Any]) -> bool:
        return view.get("players") == 1


def resolve(evaluator: Evaluator | None, game: Game) -> Evaluator:
    """``evaluator``, or the game's own from the ladder's registry where none is given."""
    if evaluator is not None:
        return evaluator
    from meeplehall.ai.ladder import evaluator_for

    return evaluator_for(game)
