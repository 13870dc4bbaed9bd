"""The greedy bot: one-step lookahead with a per-game evaluation.

For each legal action it applies the action to a state rebuilt from its view
(``sample_hidden``; chance is drawn from the bot's own generator, never the game's)
and keeps the action whose resulting position the game's heuristic rates best for its
seat (the game's ``Evaluator``, ``evaluate_play``). Ties go to a random one of the best,
drawn from the bot's generator.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from meeplehall.ai.bot import bot_rng
from meeplehall.ai.evaluator import Evaluator, resolve
from meeplehall.core.protocol import Game

Rating = Callable[[Any, int], float]


END_TURN_TEXT = "end-turn"  # the text form of both games' "end your turn" action


def step_value(game: Game, state: Any, child: Any, seat: int, evaluate: Rating,
               action: Any = None) -> float:
    """The value of ``child``, reached from ``state`` by ``action``, for a one-ply choice.

    The explicit "end your turn" action is rated by the position the seat ends its turn
    in (``state``). In a solo game the automaton's whole turn is played inside ``apply``
    (Ivan in The Red Cathedral), so its ``child`` already shows his gains while the
    children of the free actions still on offer do not, and the one-ply choice kept
    taking free actions (selling Prestige, RC-FREE-1) to put off ending the turn. Other
    actions are rated by their own position, even where the engine ends the turn with
    them (a last step with nothing left to decide): rating those by ``state`` too made
    every such step look worthless.
    """
    if (action is not None and str(action) == END_TURN_TEXT
            and getattr(child, "turns", None) != getattr(state, "turns", None)):
        return evaluate(state, seat)
    return evaluate(child, seat)


class GreedyBot:
    kind = "greedy"

    def __init__(self, seed: int = 0, evaluator: Evaluator | None = None) -> None:
        self.rng = bot_rng(seed)
        self.evaluator = evaluator  # the game's own (the ladder's registry) where None

    def rank(self, game: Game, view: dict[str, Any],
             legal: tuple[Any, ...]) -> list[tuple[float, Any]]:
        """Every legal action with its evaluation, best first (used for hints)."""
        seat = view["seat"]
        evaluate = resolve(self.evaluator, game).evaluate_play
        state = game.sample_hidden(view, self.rng)
        scored = []
        for action in legal:
            child = state.clone()
            game.apply_unchecked(child, action)
            scored.append((step_value(game, state, child, seat, evaluate, action), action))
        scored.sort(key=lambda pair: -pair[0])
        return scored

    def choose(self, game: Game, view: dict[str, Any], legal: tuple[Any, ...]) -> Any:
        if len(legal) == 1:
            return legal[0]
        return self.pick(self.rank(game, view, legal))

    def pick(self, scored: list[tuple[float, Any]]) -> Any:
        """The best of ``rank``'s actions; ties go to a random one, drawn from the bot's
        generator."""
        best = scored[0][0]
        top = [a for v, a in scored if v >= best - 1e-9]
        return top[self.rng.randbelow(len(top))] if len(top) > 1 else top[0]
