"""The planner bot: plans the rest of its own turn before each decision.

Both games split a turn into many small decisions (take a tile, perform an action, pick a
hex, choose a site, orient it ...). A one-ply bot judges each of them by the position it
leads to at once, so it never takes a step whose value appears only a few decisions later
(paying for a building before placing it). The planner uses the pilot method: for every
legal action it applies the action to a state rebuilt from its view (``sample_hidden``,
drawn from the bot's own generator), completes the rest of its own turn greedily (one
ply at a time, at most ``horizon`` decisions), and rates the action by the evaluation of
the position where its turn ends. Chance inside the turn (a drawn tile) is taken from
the bot's own sample, never from the game.

The evaluation is the game's ``Evaluator`` (``evaluate_play``; ``ai/evaluator.py``), by
default the game's own; balance studies give each planner a strategy profile's
(``python -m tools.study``).

``CheckedPlannerBot`` plays the planner's choices and checks the first one of each turn by
playing the planner's best few actions on for a few turns (``RolloutCheck``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from meeplehall.ai.bot import bot_rng
from meeplehall.ai.evaluator import Evaluator, resolve
from meeplehall.ai.greedy import GreedyBot, Rating, step_value
from meeplehall.core.protocol import Game
from meeplehall.core.rng import Rng


class PlannerBot(GreedyBot):
    """Pilot-method planner over the bot's own turn (see the module docstring); picks
    among equally rated actions like the greedy bot, with its own generator."""

    kind = "planner"

    def __init__(self, seed: int = 0, evaluator: Evaluator | None = None,
                 horizon: int = 24, samples: int = 1) -> None:
        super().__init__(seed, evaluator)
        self.horizon = horizon
        self.samples = samples

    def _complete(self, game: Game, state: Any, seat: int, start: Any,
                  evaluate: Rating) -> float:
        """Finish ``seat``'s turn (the one that began with ``start`` completed turns)
        greedily from ``state`` (changed) and rate the end."""
        for _ in range(self.horizon):
            if game.outcome(state) is not None or game.current_player(state) != seat:
                break
            if getattr(state, "turns", None) != start:
                break
            legal = game.legal_actions(state)
            if len(legal) == 1:
                game.apply_unchecked(state, legal[0])
                continue
            best_value, best_state = float("-inf"), state
            for action in legal:
                child = state.clone()
                game.apply_unchecked(child, action)
                value = step_value(game, state, child, seat, evaluate, action)
                if value > best_value:
                    best_value, best_state = value, child
            state = best_state
        return evaluate(state, seat)

    def rank(self, game: Game, view: dict[str, Any],
             legal: tuple[Any, ...]) -> list[tuple[float, Any]]:
        """Every legal action with the value of the turn it starts, best first."""
        seat = view["seat"]
        evaluate = resolve(self.evaluator, game).evaluate_play
        states = [game.sample_hidden(view, self.rng) for _ in range(self.samples)]
        if self.samples > 1:
            # several determinizations, each with its own future chance (the automaton's
            # turn, dice, draws), the same for every action (common random numbers)
            for state in states:
                if isinstance(getattr(state, "rng", None), Rng):
                    state.rng = Rng(self.rng.next_u64())
        start = getattr(states[0], "turns", None)
        scored = []
        for action in legal:
            total = 0.0
            for state in states:
                child = state.clone()
                game.apply_unchecked(child, action)
                total += self._complete(game, child, seat, start, evaluate)
            scored.append((total / len(states), action))
        scored.sort(key=lambda pair: -pair[0])
        return scored


@dataclass(frozen=True)
class RolloutCheck:
    """At the first decision of each of the seat's turns, the planner's ``candidates``
    best actions are each played on by the planner until the state's ``turns`` counter
    (the automaton's turns included) has advanced by ``turns``, on ``samples`` sampled
    futures they share; the one the evaluator's ``check_rating`` then rates best in sum
    is played."""

    candidates: int
    turns: int
    samples: int = 1


class CheckedPlannerBot:
    """The planner's choices (on the bot's own generator), each turn's first one checked
    by playing on (``RolloutCheck``): the planner rates an action where the seat's turn
    ends and cannot see what it brings a few turns later; its own later turns can."""

    kind = "planner-check"

    def __init__(self, seed: int, check: RolloutCheck,
                 evaluator: Evaluator | None = None) -> None:
        self.rng = bot_rng(seed)
        self.check = check
        self.evaluator = evaluator
        self.planner = PlannerBot(evaluator=evaluator)
        self.planner.rng = self.rng  # the bot's own generator, shared
        self._checked: Any = None  # the turn whose first decision was checked

    def choose(self, game: Game, view: dict[str, Any], legal: tuple[Any, ...]) -> Any:
        if len(legal) == 1:
            return legal[0]
        ranked = self.planner.rank(game, view, legal)
        if self._check_point(view):
            return self._check(game, view, [a for _, a in ranked[:self.check.candidates]])
        return self.planner.pick(ranked)

    def rank(self, game: Game, view: dict[str, Any],
             legal: tuple[Any, ...]) -> list[tuple[float, Any]]:
        """The planner's ranking (used for hints)."""
        return self.planner.rank(game, view, legal)

    def _check_point(self, view: dict[str, Any]) -> bool:
        """Whether this is the seat's first decision with a real choice in a turn (a new
        value of the ``turns`` counter in the view's state); remembers it."""
        state = view.get("state")
        if not isinstance(state, dict) or state.get("turns") is None:
            return False
        if state["turns"] == self._checked:
            return False
        self._checked = state["turns"]
        return True

    def _check(self, game: Game, view: dict[str, Any], candidates: list[Any]) -> Any:
        """The candidate whose position is rated best after ``check.turns`` turns of the
        planner (a finished game by its result, ``evaluate_play``; the first candidate
        wins ties). Every candidate is played on the same ``check.samples`` futures, drawn
        from the bot's generator, and the planner on the same generator for each (common
        random numbers)."""
        evaluator = resolve(self.evaluator, game)
        seat = view["seat"]
        base = game.sample_hidden(view, self.rng)
        stop = base.turns + self.check.turns
        futures = [self.rng.next_u64() for _ in range(self.check.samples)]
        policy = PlannerBot(evaluator=self.evaluator)
        best_value, best = float("-inf"), candidates[0]
        for candidate in candidates:
            value = 0.0
            for future in futures:
                state = base.clone()
                state.rng = Rng(future)
                policy.rng = Rng(future ^ 0x55)  # not the future's own stream
                game.apply_unchecked(state, candidate)
                while (player := game.current_player(state)) is not None and \
                        state.turns < stop:
                    moves = game.legal_actions(state)
                    game.apply_unchecked(state, moves[0] if len(moves) == 1 else
                                         policy.choose(game, game.player_view(state, player),
                                                       moves))
                if game.current_player(state) is None:
                    value += evaluator.evaluate_play(state, seat)
                else:
                    value += evaluator.check_rating(state, seat)
            if value > best_value:
                best_value, best = value, candidate
        return best
